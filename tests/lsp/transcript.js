// tests/lsp/transcript.js - replays a conversation with `nvtxtc lsp` and
// compares every message the server writes with the transcript (TAP).
//
// Usage: node tests/lsp/transcript.js NVTXTC FILE.transcript
//
// Transcript lines:
//   # ...           a comment
//   -> JSON          a message body, sent with a correct Content-Length
//   => "STRING"      raw bytes (a JSON string: \r, \n and \u escapes)
//   (blank line)     sends what the lines above gathered in one write, then
//                    waits 150 ms (messages of one write are one batch)
//   <- JSON          the next message the server writes (responses and
//                    notifications each in their own order); the string "*"
//                    as a value matches any value
//   exit N           the server's exit status once its input is closed
//   stderr TEXT      a line the server writes to standard error; without
//                    any, it must write nothing there
//   args A B ...     arguments after `nvtxtc lsp` (before any message)
// No dependencies beyond node.
'use strict';
const cp = require('child_process');
const fs = require('fs');

const [nvtxtc, file] = process.argv.slice(2);
const lines = fs.readFileSync(file, 'utf8').split('\n');
const groups = [[]];
const expected = [];
let wantExit = null;
let args = [];
const wantStderr = [];
for (const l of lines) {
  if (l.startsWith('#')) continue;
  if (l.trim() === '') { if (groups[groups.length - 1].length) groups.push([]); continue; }
  if (l.startsWith('-> ')) {
    const body = Buffer.from(JSON.stringify(JSON.parse(l.slice(3))));
    groups[groups.length - 1].push(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
  } else if (l.startsWith('=> ')) {
    groups[groups.length - 1].push(Buffer.from(JSON.parse(l.slice(3)), 'latin1'));
  } else if (l.startsWith('<- ')) {
    expected.push(JSON.parse(l.slice(3)));
  } else if (l.startsWith('args ')) {
    args = l.slice(5).split(' ');
  } else if (l.startsWith('stderr ')) {
    wantStderr.push(l.slice(7));
  } else if (l.startsWith('exit ')) {
    wantExit = +l.slice(5);
  } else {
    throw new Error('bad transcript line: ' + l);
  }
}

function matches(got, want) {
  if (want === '*') return true;
  if (typeof want !== 'object' || want === null) return got === want;
  if (typeof got !== 'object' || got === null || Array.isArray(got) !== Array.isArray(want)) return false;
  const gk = Object.keys(got).sort(), wk = Object.keys(want).sort();
  if (JSON.stringify(gk) !== JSON.stringify(wk)) return false;
  return wk.every(k => matches(got[k], want[k]));
}

const proc = cp.spawn(nvtxtc, ['lsp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
const exited = new Promise(r => proc.on('exit', c => r(c)));
let out = Buffer.alloc(0);
proc.stdout.on('data', d => { out = Buffer.concat([out, d]); });
let err = '';
proc.stderr.on('data', d => { err += d; });
proc.stdin.on('error', () => {});
(async () => {
  for (const g of groups) {
    if (!g.length) continue;
    proc.stdin.write(Buffer.concat(g));
    await new Promise(r => setTimeout(r, 150));
  }
  proc.stdin.end();
  const code = await exited;
  const got = [];
  let i = 0, framing = true;
  while (i < out.length) {
    const h = out.indexOf('\r\n\r\n', i);
    const m = /^Content-Length: (\d+)$/.exec(out.slice(i, h).toString());
    if (h < 0 || !m) { framing = false; break; }
    got.push(JSON.parse(out.slice(h + 4, h + 4 + +m[1]).toString()));
    i = h + 4 + +m[1];
  }
  // LSP 3.17 orders responses among themselves and notifications among
  // themselves, not one kind against the other (a debounced
  // publishDiagnostics may come before or after a response of the same
  // batch): each kind is compared in its own order.
  const isResponse = x => x && typeof x === 'object' && !('method' in x);
  const byKind = xs => xs.filter(isResponse).concat(xs.filter(x => !isResponse(x)));
  expected.splice(0, expected.length, ...byKind(expected));
  got.splice(0, got.length, ...byKind(got));
  let n = 0, failed = 0;
  const ok = (c, name, extra) => { n++; console.log(`${c ? 'ok' : 'not ok'} ${n} - ${name}`); if (!c) { failed++; if (extra) console.log(extra.split('\n').map(x => '# ' + x).join('\n')); } };
  ok(framing, 'every message the server wrote is framed with Content-Length');
  for (let k = 0; k < Math.max(expected.length, got.length); k++) {
    const w = expected[k], g = got[k];
    ok(g !== undefined && w !== undefined && matches(g, w), `message ${k + 1}: ${w ? JSON.stringify(w).slice(0, 90) : '(none expected)'}`,
      `got:  ${JSON.stringify(g)}\nwant: ${JSON.stringify(w)}`);
  }
  if (wantExit !== null) ok(code === wantExit, `exit status ${wantExit}`, `got: ${code}`);
  const gotStderr = err === '' ? [] : err.replace(/\n$/, '').split('\n');
  ok(JSON.stringify(gotStderr) === JSON.stringify(wantStderr),
    wantStderr.length ? `standard error: ${wantStderr.join(' / ').slice(0, 100)}` : 'nothing on standard error',
    `got:  ${JSON.stringify(gotStderr)}\nwant: ${JSON.stringify(wantStderr)}`);
  console.log(`1..${n}`);
  process.exit(failed ? 1 : 0);
})();
