// speedscope.mjs - the real-viewer test of --emit=chrome (tests/viewer.t).
//
//   node speedscope.mjs TRACE.json SCREENSHOT.png [profile=PROFILE] NAME=TOTAL...
//
// Serves speedscope's static web app (npm package `speedscope`, pinned in
// the root package-lock.json) and TRACE.json from 127.0.0.1, opens
// speedscope on the trace in Debian's headless Chromium (driven by
// playwright-core), in its "sandwich" view: a table of every frame with
// its total time, as text in the page.  For each NAME=TOTAL, a frame whose
// name is NAME (speedscope appends the event's args to it) must show
// exactly TOTAL ("1.00ms", "250.00ns": speedscope's own formatting).
// profile=PROFILE (a merged export of several files: one profile per
// thread) says that the profile shown is PROFILE, as the toolbar names
// it ("rank 0 (pid 10), main 0 (tid 1) (1/3)"), and the NAME=TOTAL after
// it are that profile's; each later profile=... is reached with the key
// "n" (speedscope's next profile).
// Then the "time order" view is screenshotted to SCREENSHOT.png.
//
// Prints TAP lines ("ok N - ..."/"not ok N - ...") without a plan.  Exit
// status: 0 all passed, 1 a check failed, 77 Chromium could not start (the
// caller fails, with the line this prints; tests/tools/chromium.mjs starts
// it).  CHROMIUM overrides /usr/bin/chromium.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { tap, launch } from '../tools/chromium.mjs';

const require = createRequire(import.meta.url);
const [tracePath, shotPath, ...expected] = process.argv.slice(2);
if (!tracePath || !shotPath) {
  console.error('usage: node speedscope.mjs TRACE.json SCREENSHOT.png NAME=TOTAL...');
  process.exit(2);
}

const appDir = path.join(path.dirname(require.resolve('speedscope/package.json')), 'dist', 'release');
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.png': 'image/png', '.wasm': 'application/wasm', '.woff2': 'font/woff2', '.ico': 'image/x-icon', '.txt': 'text/plain' };

// A static server: /trace.json is the trace, everything else comes from speedscope's directory.
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  const file = url.pathname === '/trace.json' ? tracePath
    : path.join(appDir, path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ''));
  fs.readFile(file === appDir + '/' ? path.join(appDir, 'index.html') : file, (err, data) => {
    if (err) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
    res.end(data);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = server.address().port;

const { ok, failed } = tap();
// The sandwich table: each row is "TOTAL (PERCENT)  SELF (PERCENT)  NAME {args}", one cell a line.
const checkFrames = (text, frames, where) => {
  const cells = text.split(/[\n\t]+/).map((s) => s.trim()).filter((s) => s.length);
  for (const want of frames) {
    const [name, total] = want.split('=');
    let found = null;
    for (let i = 2; i < cells.length; i++) {
      if (cells[i] === name || cells[i].startsWith(`${name} {`)) {
        found = { total: cells[i - 2], self: cells[i - 1] };
        break;
      }
    }
    ok(found && (found.total === total || found.total.startsWith(`${total} (`)), `frame '${name}' lasts ${total}${where}`,
      found ? `total '${found.total}', self '${found.self}'` : `no frame '${name}' in the page:\n${text.slice(0, 1500)}`);
  }
};
const { page, close } = await launch({ viewport: { width: 1000, height: 420 }, unavailable: 77, cleanup: () => server.close() });

try {
  const messages = [];
  page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => messages.push(`pageerror: ${e.message}`));
  const base = `http://127.0.0.1:${port}/index.html#profileURL=${encodeURIComponent(`http://127.0.0.1:${port}/trace.json`)}`;
  await page.goto(`${base}&view=sandwich`);
  // the expectations in groups: [profile or null, NAME=TOTAL...]
  const groups = [];
  for (const e of expected) {
    if (e.startsWith('profile=') || !groups.length) groups.push({ profile: null, frames: [] });
    if (e.startsWith('profile=')) groups[groups.length - 1].profile = e.slice(8);
    else groups[groups.length - 1].frames.push(e);
  }
  for (let g = 0; g < groups.length; g++) {
    const { profile: want, frames } = groups[g];
    if (g > 0)
      await page.keyboard.press('n');
    try {
      await page.waitForFunction((names) => names.every((x) => document.body.innerText.includes(x)),
        [...(want ? [want] : []), ...frames.map((e) => e.split('=')[0])], { timeout: 30000 });
    } catch (e) {
      // fall through: the checks below say what is missing
    }
    const text = await page.evaluate(() => document.body.innerText);
    if (g === 0)
      ok(messages.some((m) => m.includes('Importing as Trace Event Format')),
        'speedscope imported the trace as Trace Event Format', messages.join('\n'));
    if (want)
      ok(text.split('\n').some((l) => l.trim() === want), `the profile shown is '${want}'`, text.slice(0, 600));
    checkFrames(text, frames, want ? ` in '${want}'` : '');
  }
  await page.goto('about:blank');
  await page.goto(`${base}&view=time-ordered`);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: shotPath });
  ok(fs.statSync(shotPath).size > 1000, `screenshot written to ${shotPath}`);
} finally {
  await close();
  server.close();
}
process.exit(failed() ? 1 : 0);
