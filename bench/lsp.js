// bench/lsp.js - the `nvtxtc lsp` row of make bench (issue 13): the time
// from a didChange of one line in a document of about 1 MB (20,000 lines)
// to the publishDiagnostics of that version, median of 20 edits, and the
// server's memory for the document.  No npm packages: raw LSP framing.
//
// Then (issue 22 item 4) the server's CPU per one-line edit: EDITS edits
// that change a quoted message on lines spread over the document (a
// character typed into it, then taken out), each waited for until its
// publishDiagnostics; the server's CPU time (user + system, from
// /proc/PID/schedstat in nanoseconds, else /proc/PID/stat's clock ticks)
// over them, divided by their number.  Target: <= CPU_MS (default 1).
//
// Usage: node bench/lsp.js NVTXTC FILE [CPU_MS [--cpu-only]]
// Prints one line per measure; exits 1 when the server misbehaves.
'use strict';
const cp = require('child_process');
const fs = require('fs');

const [nvtxtc, file, cpuTarget = '1', only] = process.argv.slice(2);
const cpuOnly = only === '--cpu-only';
const text = fs.readFileSync(file, 'utf8');
const uri = 'file:///bench/doc.nvtxt';
const proc = cp.spawn(nvtxtc, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
let buf = Buffer.alloc(0);
const waiters = [];
proc.stdout.on('data', d => {
  buf = Buffer.concat([buf, d]);
  for (;;) {
    const h = buf.indexOf('\r\n\r\n');
    if (h < 0) return;
    const len = +/Content-Length: (\d+)/.exec(buf.slice(0, h).toString())[1];
    if (buf.length < h + 4 + len) return;
    const msg = JSON.parse(buf.slice(h + 4, h + 4 + len).toString());
    buf = buf.slice(h + 4 + len);
    for (let i = 0; i < waiters.length; i++) if (waiters[i].test(msg)) { waiters.splice(i, 1)[0].resolve(msg); break; }
  }
});
function send(o) {
  const b = Buffer.from(JSON.stringify(o));
  proc.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`), b]));
}
const wait = test => new Promise(resolve => waiters.push({ test, resolve }));
// CPU seconds (user + system) of the server so far, from /proc/PID/stat
const cpu = () => {
  const f = fs.readFileSync(`/proc/${proc.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (+f[11] + +f[12]) / 100;
};
// the same in nanoseconds where the kernel keeps it (schedstat: time on a processor)
const cpuNs = () => {
  try {
    return fs.readdirSync(`/proc/${proc.pid}/task`).reduce((t, id) =>
      t + +fs.readFileSync(`/proc/${proc.pid}/task/${id}/schedstat`, 'utf8').split(' ')[0], 0);
  } catch (e) {
    return cpu() * 1e9;
  }
};
const status = () => {
  const s = fs.readFileSync(`/proc/${proc.pid}/status`, 'utf8');
  const kb = k => +new RegExp(`${k}:\\s+(\\d+)`).exec(s)[1];
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
};

async function shutdown() {
  send({ jsonrpc: '2.0', id: 2, method: 'shutdown' });
  await wait(m => m.id === 2);
  send({ jsonrpc: '2.0', method: 'exit' });
}

// EDITS one-line edits (a character typed into a quoted message, then taken
// out again) on lines spread over the document: the server's CPU per edit.
async function cpuPerEdit(lines, nextVersion) {
  const edits = +(process.env.LSP_CPU_EDITS || 200);
  const quoted = [];
  for (let i = Math.floor(lines.length / 50); i < lines.length && quoted.length < 64; i += Math.floor(lines.length / 70)) {
    let k = i;
    while (k < lines.length && lines[k].indexOf('"') < 0) k++;
    if (k < lines.length) quoted.push(k);
  }
  const t0 = cpuNs();
  for (let k = 0; k < edits; k++) {
    const ln = quoted[Math.floor(k / 2) % quoted.length];
    const ch = lines[ln].indexOf('"') + 1;
    const version = nextVersion();
    const p = wait(m => m.method === 'textDocument/publishDiagnostics' && m.params.version === version);
    const range = k % 2 ? { start: { line: ln, character: ch }, end: { line: ln, character: ch + 1 } }
      : { start: { line: ln, character: ch }, end: { line: ln, character: ch } };
    send({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version },
      contentChanges: [{ range, text: k % 2 ? '' : 'x' }] } });
    const m = await p;
    if (m.params.diagnostics.length) { console.error('bench/lsp: an edit made the document unclean'); process.exit(1); }
  }
  const ms = (cpuNs() - t0) / edits / 1e6;
  const mb = (Buffer.byteLength(text) / 1e6).toFixed(0);
  const rows = [`lsp: ${mb} MB: server CPU per one-line edit (a character typed into a message and taken out, ${edits} edits, each to its publishDiagnostics): ${ms.toFixed(3)} ms`,
    `  ${ms <= +cpuTarget ? 'met    ' : 'NOT MET'} lsp server CPU per one-line edit in a ${mb} MB document <= ${cpuTarget} ms: ${ms.toFixed(3)} ms`];
  if (cpuOnly) {
    await shutdown();
    rows.forEach(r => console.log(r));
  }
  return rows;
}

(async () => {
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { capabilities: {}, initializationOptions: process.env.LSP_DEBOUNCE_MS ? { debounceMs: +process.env.LSP_DEBOUNCE_MS } : undefined } });
  await wait(m => m.id === 1);
  send({ jsonrpc: '2.0', method: 'initialized', params: {} });
  const before = status();
  let p = wait(m => m.method === 'textDocument/publishDiagnostics' && m.params.version === 1);
  send({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'nvtxt', version: 1, text } } });
  const first = await p;
  if (first.params.diagnostics.length) { console.error('bench/lsp: the document is not clean'); process.exit(1); }
  const lines = text.split('\n');
  let version = 1;
  if (cpuOnly) {
    await cpuPerEdit(lines, () => ++version);
    process.exit(0);
  }
  const times = [];
  const cpu0 = cpu();
  for (let k = 0; k < 20; k++) {
    // replace one line in the middle part of the document with an edited copy of itself
    const ln = Math.floor(lines.length * (k + 1) / 22);
    version = k + 2;
    const newLine = lines[ln].replace(/^[A-Za-z]+/, m => m) + '';
    p = wait(m => m.method === 'textDocument/publishDiagnostics' && m.params.version === version);
    const t0 = process.hrtime.bigint();
    send({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version },
      contentChanges: [{ range: { start: { line: ln, character: 0 }, end: { line: ln, character: lines[ln].length } }, text: newLine }] } });
    const m = await p;
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (m.params.diagnostics.length) { console.error('bench/lsp: an edit made the document unclean'); process.exit(1); }
  }
  const after = status();
  const cpuPerEdit20 = (cpu() - cpu0) / 20 * 1000;
  const cpuRows = await cpuPerEdit(lines, () => ++version);
  await shutdown();
  times.sort((a, b) => a - b);
  const median = (times[9] + times[10]) / 2;
  const mib = kb => (kb / 1024).toFixed(1);
  const docKiB = Buffer.byteLength(text) / 1024;
  const growth = (after.rss - before.rss) / docKiB;
  const peak = (after.hwm - before.rss) / docKiB;
  console.log(`lsp: ${(Buffer.byteLength(text) / 1e6).toFixed(2)} MB, ${lines.length} lines; didChange of one line -> publishDiagnostics: median ${median.toFixed(1)} ms, min ${times[0].toFixed(1)}, max ${times[19].toFixed(1)} (20 edits, debounce ${process.env.LSP_DEBOUNCE_MS || 5} ms included)`);
  console.log(`lsp: server CPU per edit (parse the change, check 1 MB, publish): ${cpuPerEdit20.toFixed(1)} ms (10 ms clock ticks, averaged over 20)`);
  console.log(`lsp: RSS ${mib(before.rss)} MiB before didOpen, ${mib(after.rss)} MiB after the edits (+${growth.toFixed(2)}x the document), peak ${mib(after.hwm)} MiB (+${peak.toFixed(2)}x)`);
  console.log(`  ${median < 20 ? 'met    ' : 'NOT MET'} lsp didChange -> publishDiagnostics < 20 ms: ${median.toFixed(1)} ms`);
  cpuRows.forEach(r => console.log(r));
  console.log(`  ${growth < 4 ? 'met    ' : 'NOT MET'} lsp memory for the document < 4x its size: ${growth.toFixed(2)}x (steady), ${peak.toFixed(2)}x (peak, during didOpen)`);
  process.exit(0);
})();
