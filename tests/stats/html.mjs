// html.mjs - tests/stats.t: an `nvtxtc stats --format=html` page in Debian's
// headless Chromium (driven by playwright-core, pinned in the root
// package-lock.json).
//
//   node html.mjs PAGE.html EXPECT.json SCREENSHOT.png
//
// EXPECT.json is {"kind": "bars"|"flame", "rows": [[cell, ...], ...]}: the
// rows of the report's first table as `--format=column` prints them (the
// same text, thousands separators included).  Checks that the page loads
// without any request but its own file (self-contained: no network), that
// its table has exactly those rows, and that its chart has one bar per row
// (at most 50) in the same order with widths proportional to the totals,
// or one flame-graph frame per range (at most 10000) with x proportional
// to the start and y to the nesting level; then screenshots the page.
//
// Prints TAP lines without a plan.  Exit status: 0 all passed, 1 a check
// failed, 2 Chromium or playwright-core could not be started (the caller
// fails, naming them; tests/tools/chromium.mjs starts it).  CHROMIUM overrides /usr/bin/chromium; STATS_SHOT_HEIGHT the
// height of the screenshot's viewport (900 pixels; 1000 wide).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tap, launch } from '../tools/chromium.mjs';

const [pagePath, expectPath, shotPath] = process.argv.slice(2);
const expect = JSON.parse(fs.readFileSync(expectPath, 'utf8'));
const { ok, failed } = tap();
const { page, close } = await launch({
  viewport: { width: 1000, height: process.env.STATS_SHOT_HEIGHT ? Number(process.env.STATS_SHOT_HEIGHT) : 900 },
  unavailable: 2,
});

const near = (a, b) => Math.abs(a - b) <= 0.01 + 1e-6 * Math.abs(b);
try {
  const url = pathToFileURL(path.resolve(pagePath)).href;
  const requests = [];
  const errors = [];
  page.on('request', (r) => { if (r.url() !== url) requests.push(r.url()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  ok(requests.length === 0, 'the page is self-contained (no request but its own file)', requests.join('\n'));
  ok(errors.length === 0, 'no error in the page', errors.join('\n'));

  const rows = await page.$$eval('section.report:first-of-type table.stats tbody tr',
    (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  ok(rows.length === expect.rows.length, `the table has ${expect.rows.length} rows`, `found ${rows.length}`);
  const firstBad = expect.rows.findIndex((r, i) => JSON.stringify(r) !== JSON.stringify(rows[i]));
  ok(firstBad < 0, 'every cell of the table is the column format\'s',
    firstBad < 0 ? '' : `row ${firstBad}: ${JSON.stringify(rows[firstBad])}\n  want ${JSON.stringify(expect.rows[firstBad])}`);

  if (expect.kind === 'bars') {
    const bars = await page.$$eval('section.report:first-of-type svg.bars g.bar', (gs) => gs.map((g) => {
      const r = g.querySelector('rect.bar');
      const box = r.getBoundingClientRect();
      return { range: g.dataset.range, total: Number(g.dataset.total), width: Number(r.getAttribute('width')),
        shown: box.width };
    }));
    const want = Math.min(expect.rows.length, 50);
    ok(bars.length === want, `the chart has ${want} bars`, `found ${bars.length}`);
    const rangeCol = expect.rows.length ? expect.rows[0].length - 1 : 0;
    const order = bars.every((b, i) => b.range === expect.rows[i][rangeCol]);
    ok(order, 'the bars are the rows, in order', JSON.stringify(bars.map((b) => b.range)));
    const max = Math.max(...bars.map((b) => b.total), 0);
    const prop = bars.every((b) => near(b.width, max ? (560 * b.total) / max : 0));
    ok(prop, 'each bar is as long as its total time (the largest 560 units)',
      JSON.stringify(bars.map((b) => [b.total, b.width])));
    ok(bars.length === 0 || bars[0].shown > 100, 'the largest bar is drawn on the screen', JSON.stringify(bars[0]));
  } else {
    // frames lane by lane (one lane per file, process and thread, each on its own time scale)
    const frames = await page.$$eval('section.report:first-of-type svg.flame rect.frame', (rs) => rs.map((r) => {
      const lane = r.closest('g.lane');
      return {
        name: r.dataset.name, start: Number(r.dataset.start), end: Number(r.dataset.end),
        level: Number(r.dataset.level), x: Number(r.getAttribute('x')), y: Number(r.getAttribute('y')),
        width: Number(r.getAttribute('width')), t0: Number(lane.dataset.t0), t1: Number(lane.dataset.t1),
      };
    }));
    const want = Math.min(expect.rows.length, 10000);
    ok(frames.length === want, `the flame graph has ${want} frames`, `found ${frames.length}`);
    // the rows sorted by start and duration; the frames the same ranges, lane by lane
    const key = (name, s, e) => `${name}\u0000${s}\u0000${e}`;
    const num = (c) => Number(String(c).replace(/,/g, ''));
    const rowKeys = expect.rows.slice(0, want).map((r) => key(r[5], num(r[0]), num(r[1]))).sort();
    const frameKeys = frames.map((f) => key(f.name, f.start, f.end)).sort();
    ok(JSON.stringify(rowKeys) === JSON.stringify(frameKeys), 'the frames are the ranges (name, start, end)');
    const span = (f) => (f.t1 > f.t0 ? f.t1 - f.t0 : 1);
    ok(frames.every((f) => near(f.x, ((f.start - f.t0) * 960) / span(f))),
      'x is the start time in its lane (960 units across)', JSON.stringify(frames.slice(0, 3)));
    ok(frames.every((f) => near(f.width, Math.max(((f.end - f.start) * 960) / span(f), 0.5))),
      'width is the duration', JSON.stringify(frames.slice(0, 3)));
    // in each lane, a level deeper is 18 units lower: the frames of one level share a y, per lane
    const lv = new Map(expect.rows.map((r) => [key(r[5], num(r[0]), num(r[1])), Number(r[8])]));
    ok(frames.every((f) => lv.get(key(f.name, f.start, f.end)) === f.level), 'each frame has its range\'s level (Lvl)');
    const nested = frames.filter((f) => f.level > 0);
    ok(nested.every((f) => frames.some((p) => p.level === f.level - 1 && p.start <= f.start && p.end >= f.end &&
      near(f.y - p.y, 18))), 'a nested frame sits one row (18 units) under a frame that contains it');
  }
  await page.screenshot({ path: shotPath });
  ok(fs.statSync(shotPath).size > 1000, `screenshot written to ${shotPath}`);
} finally {
  await close();
}
process.exit(failed() ? 1 : 0);
