// bench/lsp.js - the `nvtxtc lsp` row of make bench (issue 13): the time
// from a didChange of one line in a document of about 1 MB (20,000 lines)
// to the publishDiagnostics of that version, median of 20 edits, and the
// server's memory for the document.  No npm packages: raw LSP framing.
//
// Usage: node bench/lsp.js NVTXTC FILE
// Prints one line per measure; exits 1 when the server misbehaves.
'use strict';
const cp = require('child_process');
const fs = require('fs');

const [nvtxtc, file] = process.argv.slice(2);
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
const status = () => {
  const s = fs.readFileSync(`/proc/${proc.pid}/status`, 'utf8');
  const kb = k => +new RegExp(`${k}:\\s+(\\d+)`).exec(s)[1];
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
};

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
  const times = [];
  const cpu0 = cpu();
  for (let k = 0; k < 20; k++) {
    // replace one line in the middle part of the document with an edited copy of itself
    const ln = Math.floor(lines.length * (k + 1) / 22);
    const version = k + 2;
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
  const cpuPerEdit = (cpu() - cpu0) / 20 * 1000;
  send({ jsonrpc: '2.0', id: 2, method: 'shutdown' });
  await wait(m => m.id === 2);
  send({ jsonrpc: '2.0', method: 'exit' });
  times.sort((a, b) => a - b);
  const median = (times[9] + times[10]) / 2;
  const mib = kb => (kb / 1024).toFixed(1);
  const docKiB = Buffer.byteLength(text) / 1024;
  const growth = (after.rss - before.rss) / docKiB;
  const peak = (after.hwm - before.rss) / docKiB;
  console.log(`lsp: ${(Buffer.byteLength(text) / 1e6).toFixed(2)} MB, ${lines.length} lines; didChange of one line -> publishDiagnostics: median ${median.toFixed(1)} ms, min ${times[0].toFixed(1)}, max ${times[19].toFixed(1)} (20 edits, debounce ${process.env.LSP_DEBOUNCE_MS || 5} ms included)`);
  console.log(`lsp: server CPU per edit (parse the change, check 1 MB, publish): ${cpuPerEdit.toFixed(1)} ms (10 ms clock ticks, averaged over 20)`);
  console.log(`lsp: RSS ${mib(before.rss)} MiB before didOpen, ${mib(after.rss)} MiB after the edits (+${growth.toFixed(2)}x the document), peak ${mib(after.hwm)} MiB (+${peak.toFixed(2)}x)`);
  console.log(`  ${median < 20 ? 'met    ' : 'NOT MET'} lsp didChange -> publishDiagnostics < 20 ms: ${median.toFixed(1)} ms`);
  console.log(`  ${growth < 4 ? 'met    ' : 'NOT MET'} lsp memory for the document < 4x its size: ${growth.toFixed(2)}x (steady), ${peak.toFixed(2)}x (peak, during didOpen)`);
  process.exit(0);
})();
