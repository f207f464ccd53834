// tests/lsp/client.js - `nvtxtc lsp` driven by the libraries VS Code uses
// (vscode-languageserver-protocol over vscode-jsonrpc), printing TAP.
//
// Usage: node tests/lsp/client.js NVTXTC SAMPLE.nvtxt
//
// Every request the server advertises is exercised and every answer is
// checked; after every edit (incremental didChange, UTF-16 and UTF-8
// positions) the published diagnostics are compared with `nvtxtc lint` of
// the text the client holds, so the server's copy of the document must
// stay identical to the client's.
'use strict';
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const rpc = require('vscode-languageserver-protocol/node');

const [nvtxtc, samplePath] = process.argv.slice(2);
let n = 0, failed = 0;
function ok(cond, name, extra) {
  n++;
  console.log(`${cond ? 'ok' : 'not ok'} ${n} - ${name}`);
  if (!cond) {
    failed++;
    if (extra !== undefined) console.log(('' + (typeof extra === 'string' ? extra : JSON.stringify(extra, null, 1))).split('\n').slice(0, 30).map(l => '# ' + l).join('\n'));
  }
}
function same(got, want, name) {
  const g = JSON.stringify(got), w = JSON.stringify(want);
  ok(g === w, name, `got:  ${g}\nwant: ${w}`);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nvtxtc-lsp-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

// --- positions ---------------------------------------------------------------
function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\r' && text[i + 1] === '\n') i++;
    if (text[i] === '\n' || text[i] === '\r') starts.push(i + 1);
  }
  return starts;
}
// A JS string index <-> position, in UTF-16 (JS strings are UTF-16) or UTF-8.
function offsetAt(text, pos, enc) {
  const starts = lineStarts(text);
  let i = starts[pos.line];
  if (enc === 'utf-16') return i + pos.character;
  let bytes = 0;
  while (bytes < pos.character) { bytes += Buffer.byteLength(String.fromCodePoint(text.codePointAt(i))); i += text.codePointAt(i) > 0xffff ? 2 : 1; }
  return i;
}
function positionAt(text, off, enc) {
  const starts = lineStarts(text);
  let line = 0;
  while (line + 1 < starts.length && starts[line + 1] <= off) line++;
  const seg = text.slice(starts[line], off);
  return { line, character: enc === 'utf-16' ? seg.length : Buffer.byteLength(seg) };
}
function applyEdits(text, edits, enc) {
  const sorted = edits.map(e => [offsetAt(text, e.range.start, enc), offsetAt(text, e.range.end, enc), e.newText])
    .sort((a, b) => b[0] - a[0]);
  for (const [a, b, t] of sorted) text = text.slice(0, a) + t + text.slice(b);
  return text;
}

// --- nvtxtc lint as the reference ---------------------------------------------
// [{line, character, severity, code, message}] from lint's text output.
function lint(text, enc, extra = []) {
  const file = path.join(tmp, 'doc.nvtxt');
  fs.writeFileSync(file, text);
  const r = cp.spawnSync(nvtxtc, ['lint', '--color=never', ...extra, file], { encoding: 'utf8' });
  const out = [];
  const lines = text.split('\n');
  for (const l of r.stderr.split('\n')) {
    const m = /^[^:]*doc\.nvtxt:(\d+):(\d+): (error|warning): (.*) \[(-W|-Werror=)?([a-z-]+)\]$/.exec(l);
    if (!m) continue;
    const line = +m[1] - 1, byteCol = +m[2] - 1;
    const lineBytes = Buffer.from(lines[line] || '');
    const character = enc === 'utf-8' ? byteCol : lineBytes.subarray(0, byteCol).toString('utf8').length;
    out.push({ line, character, severity: m[3] === 'error' ? 1 : 2, code: m[6], message: m[4] });
  }
  return out;
}
function shape(diags) {
  return diags.map(d => ({ line: d.range.start.line, character: d.range.start.character,
    severity: d.severity, code: d.code, message: d.message.split('\n')[0] }));
}

// --- a session -----------------------------------------------------------------
function start(capabilities, initializationOptions) {
  const proc = cp.spawn(nvtxtc, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(proc.stdout), new rpc.StreamMessageWriter(proc.stdin));
  const waiting = [];
  const published = [];
  conn.onNotification(rpc.PublishDiagnosticsNotification.type, p => {
    published.push(p);
    for (let i = waiting.length - 1; i >= 0; i--) if (waiting[i].test(p)) { waiting[i].resolve(p); waiting.splice(i, 1); }
  });
  const logs = [];
  conn.onNotification(rpc.LogMessageNotification.type, p => logs.push(p.message));
  conn.listen();
  const exited = new Promise(res => proc.on('exit', code => res(code)));
  return {
    proc, conn, logs, exited, published,
    diagnostics(uri, version) {
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no diagnostics for version ${version}`)), 10000);
        waiting.push({ test: p => p.uri === uri && (version === undefined || p.version === version), resolve: p => { clearTimeout(t); resolve(p); } });
      });
    },
    async init() {
      return conn.sendRequest(rpc.InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities, initializationOptions });
    },
  };
}

async function main() {
  const sample = fs.readFileSync(samplePath, 'utf8');
  const uri = 'file://' + path.resolve(samplePath);

  // ---- session 1: UTF-16 (the default) ----
  let s = start({ textDocument: { synchronization: { dynamicRegistration: false } } });
  const init = await s.init();
  same(init.capabilities, {
    positionEncoding: 'utf-16',
    textDocumentSync: { openClose: true, change: 2, save: { includeText: false } },
    codeActionProvider: { codeActionKinds: ['quickfix', 'source.fixAll'] },
    documentFormattingProvider: true,
    documentRangeFormattingProvider: true,
    hoverProvider: true,
    completionProvider: { triggerCharacters: ['$', ',', '@'] },
    definitionProvider: true,
    documentSymbolProvider: true,
    inlayHintProvider: { resolveProvider: false },
    signatureHelpProvider: { triggerCharacters: [','], retriggerCharacters: [','] },
    foldingRangeProvider: true,
    documentHighlightProvider: true,
    colorProvider: true,
    referencesProvider: true,
    renameProvider: { prepareProvider: true },
    diagnosticProvider: { identifier: 'nvtxtc', interFileDependencies: false, workspaceDiagnostics: true },
    semanticTokensProvider: {
      legend: { tokenTypes: ['function', 'parameter', 'variable', 'string', 'number', 'enumMember', 'comment'],
        tokenModifiers: ['declaration', 'deprecated', 'defaultLibrary', 'readonly'] },
      range: true, full: { delta: true },
    },
  }, 'initialize advertises exactly the implemented features, UTF-16 when UTF-8 is not offered');
  same(init.serverInfo && init.serverInfo.name, 'nvtxtc', 'serverInfo names nvtxtc');
  s.conn.sendNotification(rpc.InitializedNotification.type, {});

  let text = sample, version = 1;
  let p = s.diagnostics(uri, 1);
  s.conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'nvtxt', version, text } });
  let pub = await p;
  same(shape(pub.diagnostics), lint(text, 'utf-16'), 'didOpen: the diagnostics are those of nvtxtc lint, columns in UTF-16');
  const payload = pub.diagnostics.find(d => d.code === 'type-mismatch');
  same(payload && payload.range, { start: { line: 8, character: 53 }, end: { line: 8, character: 57 } },
    'a range after é and an emoji counts UTF-16 code units');
  ok(pub.diagnostics.every(d => d.source === 'nvtxtc' && d.codeDescription && /nvtxtc/.test(d.codeDescription.href)),
    'every diagnostic has source nvtxtc and a codeDescription');
  const rename = pub.diagnostics.find(d => d.code === 'rename');
  same(rename && rename.relatedInformation && rename.relatedInformation.map(r => [r.location.uri, r.location.range.start.line, r.message]),
    [[uri, 2, 'first set here']], 'a note is relatedInformation at its place');

  // quick fix
  const unknown = pub.diagnostics.find(d => d.code === 'unknown-command');
  let actions = await s.conn.sendRequest(rpc.CodeActionRequest.type, { textDocument: { uri }, range: unknown.range, context: { diagnostics: [unknown] } });
  const qf = actions.find(a => a.kind === 'quickfix');
  same(qf && qf.edit.changes[uri], [{ range: unknown.range, newText: 'Marker' }], 'codeAction: the fix-it of unknown-command is a quick fix');
  ok(actions.some(a => a.kind === 'source.fixAll'), 'codeAction: a fix-all action is offered');
  const only = await s.conn.sendRequest(rpc.CodeActionRequest.type, { textDocument: { uri }, range: unknown.range, context: { diagnostics: [], only: ['source.fixAll'] } });
  ok(only.length === 1 && only[0].kind === 'source.fixAll', 'codeAction: context.only filters the kinds');
  // fix all: every fixable fix at once; the diagnostics they answer go away, the others stay
  const fixAll = only[0].edit.changes[uri];
  ok(fixAll.length === 4, `fix-all has one edit per fixable fix-it (${fixAll.length}: unknown-command, invalid-timebase, undefined-variable, invalid-color)`, fixAll);
  const allFixed = applyEdits(text, fixAll, 'utf-16');
  const codesAfter = lint(allFixed, 'utf-16').map(d => d.code);
  ok(!codesAfter.includes('unknown-command') && !codesAfter.includes('invalid-timebase') && !codesAfter.includes('undefined-variable') && !codesAfter.includes('invalid-color') && codesAfter.includes('type-mismatch'),
    'fix-all: lint of the fixed text has none of the fixed diagnostics, and the others', codesAfter);
  // apply it as an editor does: an incremental change
  text = applyEdits(text, qf.edit.changes[uri], 'utf-16');
  p = s.diagnostics(uri, ++version);
  s.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: qf.edit.changes[uri].map(e => ({ range: e.range, text: e.newText })) });
  pub = await p;
  same(shape(pub.diagnostics), lint(text, 'utf-16'), 'after the quick fix: the diagnostics are lint\'s of the edited text');
  ok(!pub.diagnostics.some(d => d.code === 'unknown-command'), 'the quick fix removed its diagnostic');

  // incremental edits around é and the emoji: type " y" after the emoji of line 9, delete it, split a line
  const line9 = text.split('\n')[8];
  const emojiEnd = line9.indexOf('😀') + 2;
  const edits = [
    [{ range: { start: { line: 8, character: emojiEnd }, end: { line: 8, character: emojiEnd } }, text: ' y' }],
    [{ range: { start: { line: 8, character: emojiEnd }, end: { line: 8, character: emojiEnd + 2 } }, text: '' }],
    [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: 'A = 1\nB = $A\n' },
      { range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: 'Marker, 1, Qpc, 1, 1,,,, $B\n' }],
    [{ range: { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } }, text: '' }],
  ];
  for (const [i, changes] of edits.entries()) {
    for (const c of changes) text = applyEdits(text, [{ range: c.range, newText: c.text }], 'utf-16');
    p = s.diagnostics(uri, ++version);
    s.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: changes });
    pub = await p;
    same(shape(pub.diagnostics), lint(text, 'utf-16'), `incremental edit ${i + 1}: diagnostics match lint of the client's text`);
  }
  // a burst of changes is debounced into one publication of the last version
  const before = s.published.length;
  for (let k = 0; k < 5; k++) {
    text = applyEdits(text, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '# c\n' }], 'utf-16');
    s.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { uri, version: ++version }, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# c\n' }] });
  }
  pub = await s.diagnostics(uri, version);
  ok(s.published.length - before < 5, `a burst of 5 changes gives fewer than 5 publications (${s.published.length - before})`);
  same(shape(pub.diagnostics), lint(text, 'utf-16'), 'after the burst: diagnostics match lint');

  // hover
  const lines = () => text.split('\n');
  const find = (needle) => { const ls = lines(); for (let l = 0; l < ls.length; l++) { const c = ls[l].indexOf(needle); if (c >= 0) return { line: l, character: c }; } throw new Error('no ' + needle); };
  const hov = async (pos) => s.conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri }, position: pos });
  let h = await hov(find('DodgerBlue'));
  ok(h && /Color/.test(h.contents.value) && /0xFF1E90FF/.test(h.contents.value), 'hover on a color name: the argument and its ARGB value', h);
  const pidUse = find('$Pid, 7,');
  h = await hov({ line: pidUse.line, character: pidUse.character + 1 });
  ok(h && /ProcessId/.test(h.contents.value) && /Integer 41237/.test(h.contents.value) && new RegExp(`line ${find('Pid = ').line + 1}`).test(h.contents.value),
    'hover on $Pid: the argument it fills, its value and the line it came from', h);
  h = await hov(find('Qpc, $Pid'));
  ok(h && /Time base `Qpc`/.test(h.contents.value) && /QueryPerformanceCounter/.test(h.contents.value), 'hover on a time base: what it means', h);
  h = await hov(find('RangePush, 200'));
  ok(h && /Definition in force \(line \d+\): `@RangePush, Time, ProcessId, ThreadId, Message`/.test(h.contents.value) &&
    /Default definition: `@RangePush, Time, TimeBase, ProcessId, ThreadId, CategoryId, Color, Message, Payload`/.test(h.contents.value) &&
    /TimeBase = String "Qpc" \(line \d+\)/.test(h.contents.value),
    'hover on a command name: the definition in force, the default one, static arguments with values and lines', h);
  h = await hov({ line: 0, character: 1 });
  same(h, null, 'hover on a comment: null');

  // definition
  let def = await s.conn.sendRequest(rpc.DefinitionRequest.type, { textDocument: { uri }, position: { line: pidUse.line, character: pidUse.character + 2 } });
  same(def, [{ uri, range: { start: find('Pid = '), end: { line: find('Pid = ').line, character: 3 } } }], 'definition of $Pid: its assignment');
  def = await s.conn.sendRequest(rpc.DefinitionRequest.type, { textDocument: { uri }, position: find('RangePush, 200') });
  const defLine = find('@RangePush').line;
  ok(Array.isArray(def) && def[0].range.start.line === defLine && def.some(l => l.range.start.line === find('TimeBase = ').line),
    'definition of a call: the definition in force, then its static arguments\' assignments', def);

  // completion
  const comp = async (pos) => (await s.conn.sendRequest(rpc.CompletionRequest.type, { textDocument: { uri }, position: pos })).map(i => i.label);
  let labels = await comp({ line: lines().length - 1, character: 0 });
  ok(labels.includes('Marker') && labels.includes('SetFileDisplayName') && labels.length === 9, 'completion at the start of a line: the nine commands', labels);
  const m = find('Marker, 400, Qpc');
  labels = await comp({ line: m.line, character: 13 });
  ok(labels.includes('Qpc') && labels.includes('ClockMonotonicRaw') && labels.length === 7, 'completion in a TimeBase position: the seven time bases', labels);
  labels = await comp({ line: m.line, character: lines()[m.line].indexOf('Bleu') });
  ok(labels.includes('DodgerBlue') && labels.length === 141, 'completion in a Color position: the 141 color names', labels.length);
  // variables after $: insert "$" at the end and ask there
  text += 'NameProcess, $';
  p = s.diagnostics(uri, ++version);
  s.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ range: { start: positionAt(text, text.length - 14, 'utf-16'), end: positionAt(text, text.length - 14, 'utf-16') }, text: 'NameProcess, $' }] });
  await p;
  labels = await comp(positionAt(text, text.length, 'utf-16'));
  ok(labels.includes('Pid') && labels.includes('Label') && labels.includes('TimeBase'), 'completion after $: the variables assigned before', labels);
  text += '\n@Marker, Time, ';
  p = s.diagnostics(uri, ++version);
  s.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
  await p;
  labels = await comp(positionAt(text, text.length, 'utf-16'));
  ok(labels.includes('Message') && labels.includes('ThreadId') && !labels.includes('Time') && !labels.includes('Start'), 'completion after @Marker,: its argument names not yet listed', labels);

  // document symbols
  const syms = await s.conn.sendRequest(rpc.DocumentSymbolRequest.type, { textDocument: { uri } });
  const names = syms.map(x => `${x.kind}:${x.name}`);
  ok(names.includes('13:Pid') && names.includes('12:@RangePush, Time, ProcessId, ThreadId, Message') && names.includes('3:game.exe') && names.includes('3:Frame timing é😀'),
    'documentSymbol: assignments, definitions and naming calls', names);

  // formatting: a file without syntax errors, compared with nvtxtc fmt
  text = sample.replace('marker', 'Marker');
  p = s.diagnostics(uri, ++version);
  s.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
  await p;
  const fedits = await s.conn.sendRequest(rpc.DocumentFormattingRequest.type, { textDocument: { uri }, options: { tabSize: 8, insertSpaces: false } });
  fs.writeFileSync(path.join(tmp, 'f.nvtxt'), text);
  const want = cp.spawnSync(nvtxtc, ['fmt', path.join(tmp, 'f.nvtxt')], { encoding: 'utf8' }).stdout;
  same(applyEdits(text, fedits, 'utf-16'), want, 'formatting: the edits give the text of nvtxtc fmt');

  // range formatting: only the lines the range touches get fmt's layout
  text = 'TimeBase=Manual\n\n\n\nMarker ,1,Qpc,1,2 ,,,"x",\n  ProcessId=3  \r\nThreadId=4\n';
  p = s.diagnostics(uri, ++version);
  s.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
  await p;
  const rangeFmt = (start, end) => s.conn.sendRequest(rpc.DocumentRangeFormattingRequest.type,
    { textDocument: { uri }, range: { start, end }, options: { tabSize: 8, insertSpaces: false } });
  let redits = await rangeFmt({ line: 0, character: 0 }, { line: 4, character: 3 });
  same(applyEdits(text, redits, 'utf-16'), 'TimeBase = Manual\n\nMarker, 1, Qpc, 1, 2,,, "x",\n  ProcessId=3  \r\nThreadId=4\n',
    'rangeFormatting of lines 1-5: those lines laid out as fmt does, blank lines collapsed, the rest untouched');
  redits = await rangeFmt({ line: 5, character: 4 }, { line: 6, character: 0 });
  same(applyEdits(text, redits, 'utf-16'), 'TimeBase=Manual\n\n\n\nMarker ,1,Qpc,1,2 ,,,"x",\nProcessId = 3\nThreadId=4\n',
    'rangeFormatting of a range ending at the start of a line: only the line it covers');
  redits = await rangeFmt({ line: 1, character: 0 }, { line: 2, character: 0 });
  same(redits, [], 'rangeFormatting of blank lines only: no edit');
  text = 'Marker ,1\nMarker, "open\n';
  p = s.diagnostics(uri, ++version);
  s.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
  await p;
  redits = await rangeFmt({ line: 0, character: 0 }, { line: 0, character: 1 });
  same(redits, [], 'rangeFormatting of a document with syntax errors: no edit (as fmt)');
  text = sample.replace('marker', 'Marker');
  p = s.diagnostics(uri, ++version);
  s.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
  await p;

  // configuration: -W settings and maxErrors
  p = s.diagnostics(uri);
  s.conn.sendNotification(rpc.DidChangeConfigurationNotification.type, { settings: { nvtxtc: { warnings: ['error=rename', 'no-unclosed-range'], maxErrors: 2 } } });
  pub = await p;
  same(shape(pub.diagnostics), lint(text, 'utf-16', ['-Werror=rename', '-Wno-unclosed-range', '--max-errors=2']), 'didChangeConfiguration: -W settings and maxErrors as lint applies them');

  // errors of requests
  await s.conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 9999, character: 0 } })
    .then(() => ok(false, 'a position past the end is an error'), e => same(e.code, -32602, 'a position past the end: InvalidParams'));
  await s.conn.sendRequest('nvtxtc/unknown', {})
    .then(() => ok(false, 'an unknown method is an error'), e => same(e.code, -32601, 'an unknown method: MethodNotFound'));

  // didSave republishes, didClose clears
  p = s.diagnostics(uri, version);
  s.conn.sendNotification(rpc.DidSaveTextDocumentNotification.type, { textDocument: { uri } });
  pub = await p;
  ok(pub.diagnostics.length > 0, 'didSave: diagnostics published again');
  p = s.diagnostics(uri);
  s.conn.sendNotification(rpc.DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  pub = await p;
  same(pub.diagnostics, [], 'didClose: the diagnostics are cleared');

  // a document over 1 MiB (the input buffer grows, then gives the memory back)
  const bigUri = 'file:///big.nvtxt';
  let big = 'Marker, 1, Qpc, 1, 1,,,,\n'.repeat(50000);
  p = s.diagnostics(bigUri, 1);
  s.conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { uri: bigUri, languageId: 'nvtxt', version: 1, text: big } });
  pub = await p;
  same(pub.diagnostics, [], `a document of ${big.length} bytes: no diagnostics`);
  p = s.diagnostics(bigUri, 2);
  s.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { uri: bigUri, version: 2 }, contentChanges: [{ range: { start: { line: 40000, character: 0 }, end: { line: 40000, character: 6 } }, text: 'marker' }] });
  pub = await p;
  same(shape(pub.diagnostics).map(d => [d.line, d.character, d.code]), [[40000, 0, 'unknown-command']], 'an edit on line 40001 of the large document is diagnosed there');
  s.conn.sendNotification(rpc.DidCloseTextDocumentNotification.type, { textDocument: { uri: bigUri } });

  await s.conn.sendRequest(rpc.ShutdownRequest.type);
  s.conn.sendNotification(rpc.ExitNotification.type);
  same(await s.exited, 0, 'shutdown then exit: exit status 0');

  // ---- session 2: UTF-8 offered ----
  s = start({ general: { positionEncodings: ['utf-8', 'utf-16'] } }, { warnings: ['no-rename'] });
  const init2 = await s.init();
  same(init2.capabilities.positionEncoding, 'utf-8', 'UTF-8 is chosen when the client offers it');
  s.conn.sendNotification(rpc.InitializedNotification.type, {});
  text = sample;
  p = s.diagnostics(uri, 1);
  s.conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'nvtxt', version: 1, text } });
  pub = await p;
  same(shape(pub.diagnostics), lint(text, 'utf-8', ['-Wno-rename']), 'UTF-8: diagnostics match lint, columns in bytes; initializationOptions apply');
  const payload8 = pub.diagnostics.find(d => d.code === 'type-mismatch');
  same(payload8 && payload8.range.start, { line: 8, character: 56 }, 'UTF-8: the column after é and an emoji counts bytes');
  // an edit in UTF-8 positions right after the emoji
  const b9 = Buffer.from(text.split('\n')[8]);
  const after = b9.indexOf(Buffer.from('😀')) + 4;
  text = applyEdits(text, [{ range: { start: { line: 8, character: after }, end: { line: 8, character: after } }, newText: 'Z' }], 'utf-8');
  p = s.diagnostics(uri, 2);
  s.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: { line: 8, character: after }, end: { line: 8, character: after } }, text: 'Z' }] });
  pub = await p;
  same(shape(pub.diagnostics), lint(text, 'utf-8', ['-Wno-rename']), 'UTF-8: an edit after the emoji lands where the client put it');
  s.conn.sendNotification(rpc.ExitNotification.type);
  same(await s.exited, 1, 'exit without shutdown: exit status 1');

  console.log(`1..${n}`);
  process.exit(failed ? 1 : 0);
}

main().catch(e => { console.log(`not ok ${++n} - ${e.stack.split('\n').join('\n# ')}`); console.log(`1..${n}`); process.exit(1); });
