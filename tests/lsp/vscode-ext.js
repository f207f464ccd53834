// tests/lsp/vscode-ext.js - the VS Code extension (editors/vscode, packaged
// by make vsix) checked without VS Code, whose extension host cannot run
// here: its manifest (language, grammar, configuration, activation, main),
// and `nvtxtc lsp` driven through vscode-languageserver-protocol's Node
// connection with exactly what the extension sends: the settings of its
// settings.js from the configuration's defaults as initializationOptions,
// then a change of them as workspace/didChangeConfiguration under "nvtxtc".
//
// Usage: node tests/lsp/vscode-ext.js NVTXTC EXTENSION_DIR FEATURES.nvtxt   (TAP)
'use strict';
const cp = require('child_process');
const fs = require('fs');
const path = require('path');
const rpc = require('vscode-languageserver-protocol/node');

const [nvtxtc, dir, featuresFile] = process.argv.slice(2);
let n = 0, failed = 0;
function ok(cond, name, extra) {
  n++;
  console.log(`${cond ? 'ok' : 'not ok'} ${n} - ${name}`);
  if (!cond) { failed++; if (extra !== undefined) console.log('# ' + JSON.stringify(extra).slice(0, 600)); }
}

const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
const c = pkg.contributes || {};
const lang = (c.languages || []).find(l => l.id === 'nvtxt');
ok(lang && lang.extensions.includes('.nvtxt'), 'contributes the language nvtxt for *.nvtxt');
ok(lang && fs.existsSync(path.join(dir, lang.configuration)), 'its language configuration is in the package', lang);
const lc = lang && JSON.parse(fs.readFileSync(path.join(dir, lang.configuration), 'utf8'));
ok(lc && lc.comments && lc.comments.lineComment === '#', 'the language configuration: # starts a comment');
const g = (c.grammars || []).find(x => x.language === 'nvtxt');
ok(g && g.scopeName === 'source.nvtxt' && fs.existsSync(path.join(dir, g.path)), 'contributes the TextMate grammar source.nvtxt, in the package', g);
ok(g && JSON.parse(fs.readFileSync(path.join(dir, g.path), 'utf8')).scopeName === 'source.nvtxt', 'the grammar file is the one of scope source.nvtxt');
ok(JSON.stringify(pkg.activationEvents) === JSON.stringify(['onLanguage:nvtxt']), 'activates on the language nvtxt', pkg.activationEvents);
ok(fs.existsSync(path.join(dir, pkg.main)), 'its main script is in the package');
ok(pkg.dependencies && pkg.dependencies['vscode-languageclient'] && fs.existsSync(path.join(dir, 'node_modules/vscode-languageclient/node.js')),
  'vscode-languageclient is a dependency, in the package');
const main = fs.readFileSync(path.join(dir, pkg.main), 'utf8');
ok(/LanguageClient\(/.test(main) && /args: \['lsp'\]/.test(main) && /initializationOptions: current\(\)/.test(main),
  'the client starts `nvtxtc lsp` with the settings as initializationOptions');
const props = (c.configuration && c.configuration.properties) || {};
const keys = ['path', 'warnings', 'maxErrors', 'inlayHints.parameterNames', 'inlayHints.times', 'inlayHints.rangePop', 'timeConversions'];
ok(keys.every(k => props['nvtxtc.' + k] && 'default' in props['nvtxtc.' + k]) && Object.keys(props).length === keys.length,
  'configuration: exactly nvtxtc.{' + keys.join(',') + '}, each with a default', Object.keys(props));

// what the extension sends: settings.js over a configuration (VS Code's get(key, default))
const { settings } = require(path.resolve(dir, 'settings.js'));
const config = over => settings((key, dflt) => (key in over ? over[key] : ('nvtxtc.' + key) in props ? props['nvtxtc.' + key].default : dflt));
const defaults = config({});
ok(JSON.stringify(settings((k, d) => d)) === JSON.stringify(defaults), 'settings.js falls back to the defaults the manifest declares', defaults);

(async () => {
  const proc = cp.spawn(nvtxtc, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(proc.stdout), new rpc.StreamMessageWriter(proc.stdin));
  const logs = [];
  conn.onNotification(rpc.LogMessageNotification.type, p => logs.push(p.message));
  conn.listen();
  const init = await conn.sendRequest(rpc.InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: defaults });
  ok(init.capabilities.inlayHintProvider, 'the server advertises inlay hints');
  conn.sendNotification(rpc.InitializedNotification.type, {});
  const uri = 'file:///vscode/features.nvtxt';
  const text = fs.readFileSync(featuresFile, 'utf8');
  conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'nvtxt', version: 1, text } });
  const range = { start: { line: 4, character: 0 }, end: { line: 8, character: 0 } };
  const hints = async () => (await conn.sendRequest(rpc.InlayHintRequest.type, { textDocument: { uri }, range })).map(h => h.label);
  let h = await hints();
  ok(h.includes('Time:') && !h.some(l => /^\+/.test(l)) && h.some(l => /^closes /.test(l)), 'with the defaults: argument names and closing hints, no times', h);
  // the user turns the times on: the extension sends didChangeConfiguration under "nvtxtc"
  conn.sendNotification(rpc.DidChangeConfigurationNotification.type, { settings: { nvtxtc: config({ 'inlayHints.times': true, 'inlayHints.parameterNames': false, warnings: ['error'] }) } });
  h = await hints();
  ok(h.includes('+1.249 ms') && !h.includes('Time:'), 'after the change: times, no argument names', h);
  // semantic tokens as vscode-languageclient asks for them when full.delta is offered:
  // full, then after each change full/delta from the last resultId, the edits applied
  ok(init.capabilities.semanticTokensProvider.full.delta === true, 'the server offers semanticTokens/full/delta');
  const first = await conn.sendRequest(rpc.SemanticTokensRequest.type, { textDocument: { uri } });
  conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 },
    contentChanges: [{ range: { start: { line: 5, character: 8 }, end: { line: 5, character: 8 } }, text: '1' }] });
  const delta = await conn.sendRequest(rpc.SemanticTokensDeltaRequest.type, { textDocument: { uri }, previousResultId: first.resultId });
  const data = first.data.slice();
  for (const e of delta.edits.slice().sort((a, b) => b.start - a.start)) data.splice(e.start, e.deleteCount, ...(e.data || []));
  const full = await conn.sendRequest(rpc.SemanticTokensRequest.type, { textDocument: { uri } });
  ok(delta.edits.length === 1 && JSON.stringify(data) === JSON.stringify(full.data), 'full/delta after a change: its edits applied give the full answer', delta);
  ok(logs.length === 0, 'the server took every setting the extension sends (no logMessage)', logs);
  await conn.sendRequest(rpc.ShutdownRequest.type);
  conn.sendNotification(rpc.ExitNotification.type);
  console.log(`1..${n}`);
  proc.on('exit', () => process.exit(failed ? 1 : 0));
})().catch(e => { console.error(e); process.exit(1); });
