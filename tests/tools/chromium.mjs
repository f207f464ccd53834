// chromium.mjs - what the tests that drive Debian's headless Chromium share
// (tests/stats/html.mjs, tests/viewer/speedscope.mjs): TAP lines without a
// plan, and Chromium started through playwright-core (pinned in the root
// package-lock.json) in a profile of its own, removed at the end.
// CHROMIUM overrides /usr/bin/chromium.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// ok(cond, name, detail): "ok N - name", or "not ok N - name" and the
// detail as comment lines; failed() says whether any check failed.
export function tap() {
  let n = 0, nfailed = 0;
  const ok = (cond, name, detail) => {
    n++;
    console.log(`${cond ? 'ok' : 'not ok'} ${n} - ${name}`);
    if (!cond) {
      nfailed++;
      if (detail) console.log(String(detail).split('\n').map((l) => `# ${l}`).join('\n'));
    }
    return cond;
  };
  return { ok, failed: () => nfailed > 0 };
}

// Chromium with a page of viewport {width, height}: {context, page, close}.
// When playwright-core or Chromium cannot start, prints one comment line
// naming it, calls cleanup() and exits with status `unavailable`.
export async function launch({ viewport, unavailable, cleanup = () => {} }) {
  const exe = process.env.CHROMIUM || '/usr/bin/chromium';
  let chromium;
  try {
    ({ chromium } = require('playwright-core'));
  } catch (e) {
    console.log(`# playwright-core is not installed (run 'npm ci'): ${e.message}`);
    cleanup();
    process.exit(unavailable);
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'nvtxtc-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: exe,
      headless: true,
      timeout: 60000,
      viewport,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  } catch (e) {
    console.log(`# Chromium (${exe}) could not start: ${String(e.message).split('\n')[0]}`);
    cleanup();
    fs.rmSync(profile, { recursive: true, force: true });
    process.exit(unavailable);
  }
  const page = context.pages()[0] || await context.newPage();
  const close = async () => {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { context, page, close };
}
