// tests/lsp/types.js - the shape of every reply of `nvtxtc lsp`, table
// driven, checked with the type guards of vscode-languageserver-types
// (InlayHint.is, FoldingRange.is, ...); where the package has no guard
// (SignatureHelp, DocumentHighlight, the semantic tokens legend) the
// fields LSP 3.17 names are checked one by one.  Every capability the
// server advertises has a row, and every row's capability is advertised.
//
// Usage: node tests/lsp/types.js NVTXTC FEATURES.nvtxt SAMPLE.nvtxt   (TAP)
'use strict';
const cp = require('child_process');
const fs = require('fs');
const rpc = require('vscode-languageserver-protocol/node');
const T = require('vscode-languageserver-types');

const [nvtxtc, featuresFile, sampleFile] = process.argv.slice(2);
let n = 0, failed = 0;
function ok(cond, name, extra) {
  n++;
  console.log(`${cond ? 'ok' : 'not ok'} ${n} - ${name}`);
  if (!cond) {
    failed++;
    if (extra !== undefined) console.log('# ' + JSON.stringify(extra).slice(0, 600));
  }
}
const isArrayOf = (v, guard) => Array.isArray(v) && v.length > 0 && v.every(x => guard(x));
const uinteger = T.uinteger.is;
const markup = m => m === undefined || typeof m === 'string' || T.MarkupContent.is(m);
// SignatureHelp (LSP 3.17): signatures[], activeSignature?, activeParameter?
function signatureHelp(r) {
  return r && Array.isArray(r.signatures) && r.signatures.length > 0 &&
    (r.activeSignature === undefined || uinteger(r.activeSignature)) &&
    (r.activeParameter === undefined || uinteger(r.activeParameter)) &&
    r.signatures.every(s => typeof s.label === 'string' && markup(s.documentation) &&
      (s.activeParameter === undefined || uinteger(s.activeParameter)) &&
      Array.isArray(s.parameters) && s.parameters.every(p => markup(p.documentation) &&
        (typeof p.label === 'string' || (Array.isArray(p.label) && p.label.length === 2 && p.label.every(uinteger) &&
          p.label[0] < p.label[1] && p.label[1] <= s.label.length))));
}
// ColorPresentation.is of 3.17.5 applies TextEdit.is to the presentation
// itself, not to its textEdit (main.js: `TextEdit.is(candidate)`), so it
// rejects every presentation that has one: the textEdit is checked apart.
const colorPresentation = p => T.ColorPresentation.is({ ...p, textEdit: undefined }) && T.TextEdit.is(p.textEdit);
// DocumentHighlight: range, kind? in 1..3
const highlight = h => T.Range.is(h.range) && (h.kind === undefined || [1, 2, 3].includes(h.kind));
// SemanticTokensDelta: resultId?, edits[] of SemanticTokensEdit {start, deleteCount, data?}
const tokensEdit = e => e && uinteger(e.start) && uinteger(e.deleteCount) && (e.data === undefined || (Array.isArray(e.data) && e.data.every(uinteger)));
const tokensDelta = r => r && (r.resultId === undefined || typeof r.resultId === 'string') && isArrayOf(r.edits, tokensEdit);
// SemanticTokensLegend: tokenTypes and tokenModifiers, lists of strings
const legend = l => l && Array.isArray(l.tokenTypes) && l.tokenTypes.every(x => typeof x === 'string') &&
  Array.isArray(l.tokenModifiers) && l.tokenModifiers.every(x => typeof x === 'string');

async function main() {
  const proc = cp.spawn(nvtxtc, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(proc.stdout), new rpc.StreamMessageWriter(proc.stdin));
  const published = {};
  conn.onNotification(rpc.PublishDiagnosticsNotification.type, p => { published[p.uri] = p.diagnostics; });
  conn.listen();
  const init = await conn.sendRequest(rpc.InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
  const caps = init.capabilities;
  conn.sendNotification(rpc.InitializedNotification.type, {});
  const f = { uri: 'file:///types/features.nvtxt' }, s = { uri: 'file:///types/sample.nvtxt' };
  const ftext = fs.readFileSync(featuresFile, 'utf8'), stext = fs.readFileSync(sampleFile, 'utf8');
  conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { ...f, languageId: 'nvtxt', version: 1, text: ftext } });
  conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { ...s, languageId: 'nvtxt', version: 1, text: stext } });
  const pos = (line, character) => ({ line, character });
  const whole = (text) => ({ start: pos(0, 0), end: pos(text.split('\n').length - 1, 0) });
  const fr = whole(ftext);
  const red = { red: 0, green: 0, blue: 1, alpha: 1 };
  // [capability, method, params, guard of the result, what it is]
  const rows = [
    ['inlayHintProvider', 'textDocument/inlayHint', { textDocument: f, range: fr }, r => isArrayOf(r, T.InlayHint.is), 'InlayHint[] (InlayHint.is)'],
    ['signatureHelpProvider', 'textDocument/signatureHelp', { textDocument: f, position: pos(4, 17) }, signatureHelp, 'SignatureHelp (fields of LSP 3.17)'],
    ['foldingRangeProvider', 'textDocument/foldingRange', { textDocument: f }, r => isArrayOf(r, T.FoldingRange.is), 'FoldingRange[] (FoldingRange.is)'],
    ['documentHighlightProvider', 'textDocument/documentHighlight', { textDocument: f, position: pos(4, 0) }, r => isArrayOf(r, highlight), 'DocumentHighlight[] (range, kind)'],
    ['semanticTokensProvider', 'textDocument/semanticTokens/full', { textDocument: f }, r => T.SemanticTokens.is(r) && r.data.length % 5 === 0 && r.data.length > 0, 'SemanticTokens, full (SemanticTokens.is)'],
    ['semanticTokensProvider', 'textDocument/semanticTokens/range', { textDocument: f, range: { start: pos(4, 0), end: pos(6, 0) } }, r => T.SemanticTokens.is(r) && r.data.length % 5 === 0 && r.data.length > 0, 'SemanticTokens, range (SemanticTokens.is)'],
    ['colorProvider', 'textDocument/documentColor', { textDocument: f }, r => isArrayOf(r, T.ColorInformation.is), 'ColorInformation[] (ColorInformation.is)'],
    ['colorProvider', 'textDocument/colorPresentation', { textDocument: f, color: red, range: { start: pos(4, 40), end: pos(4, 43) } }, r => isArrayOf(r, colorPresentation), 'ColorPresentation[] with a TextEdit (ColorPresentation.is, TextEdit.is)'],
    ['referencesProvider', 'textDocument/references', { textDocument: f, position: pos(3, 0), context: { includeDeclaration: true } }, r => isArrayOf(r, T.Location.is), 'Location[] (Location.is)'],
    ['renameProvider', 'textDocument/prepareRename', { textDocument: f, position: pos(3, 0) }, r => T.Range.is(r.range) && typeof r.placeholder === 'string', 'PrepareRenameResult {range, placeholder} (Range.is)'],
    ['renameProvider', 'textDocument/rename', { textDocument: f, position: pos(3, 0), newName: 'P' }, r => T.WorkspaceEdit.is(r) && isArrayOf(r.changes[f.uri], T.TextEdit.is), 'WorkspaceEdit of TextEdits (WorkspaceEdit.is, TextEdit.is)'],
    ['diagnosticProvider', 'textDocument/diagnostic', { textDocument: s }, r => r.kind === 'full' && typeof r.resultId === 'string' && isArrayOf(r.items, T.Diagnostic.is), 'FullDocumentDiagnosticReport (kind, resultId, Diagnostic.is)'],
    ['diagnosticProvider', 'workspace/diagnostic', { previousResultIds: [] }, r => isArrayOf(r.items, i => i.kind === 'full' && typeof i.uri === 'string' && uinteger(i.version) && Array.isArray(i.items) && i.items.every(T.Diagnostic.is)), 'WorkspaceDiagnosticReport (uri, version, Diagnostic.is)'],
    ['hoverProvider', 'textDocument/hover', { textDocument: s, position: pos(11, 16) }, T.Hover.is, 'Hover (Hover.is)'],
    ['definitionProvider', 'textDocument/definition', { textDocument: s, position: pos(11, 16) }, r => isArrayOf(r, T.Location.is), 'Location[] (Location.is)'],
    ['documentSymbolProvider', 'textDocument/documentSymbol', { textDocument: s }, r => isArrayOf(r, T.DocumentSymbol.is), 'DocumentSymbol[] (DocumentSymbol.is)'],
    ['documentFormattingProvider', 'textDocument/formatting', { textDocument: s, options: { tabSize: 8, insertSpaces: false } }, r => isArrayOf(r, T.TextEdit.is), 'TextEdit[] (TextEdit.is)'],
    ['documentRangeFormattingProvider', 'textDocument/rangeFormatting', { textDocument: s, range: whole(stext), options: { tabSize: 8, insertSpaces: false } }, r => isArrayOf(r, T.TextEdit.is), 'TextEdit[] (TextEdit.is)'],
    ['codeActionProvider', 'textDocument/codeAction', { textDocument: s, range: { start: pos(7, 0), end: pos(7, 6) }, context: { diagnostics: [] } }, r => isArrayOf(r, T.CodeAction.is) && r.every(a => T.WorkspaceEdit.is(a.edit)), 'CodeAction[] with WorkspaceEdits (CodeAction.is, WorkspaceEdit.is)'],
    ['completionProvider', 'textDocument/completion', { textDocument: s, position: pos(7, 0) }, r => Array.isArray(r) && r.length > 0 && r.every(i => typeof i.label === 'string' && T.TextEdit.is(i.textEdit)), 'CompletionItem[] (label, TextEdit.is)'],
  ];
  const tested = new Set();
  for (const [cap, method, params, guard, what] of rows) {
    tested.add(cap);
    ok(caps[cap] !== undefined && caps[cap] !== false, `${cap} is advertised`);
    let r;
    try { r = await conn.sendRequest(method, params); } catch (e) { r = e; }
    ok(guard(r), `${method}: ${what}`, r);
  }
  // full/delta: after a change to the document, a delta from the full answer before
  ok(caps.semanticTokensProvider.full && caps.semanticTokensProvider.full.delta === true, 'semanticTokensProvider.full.delta is advertised');
  const first = await conn.sendRequest('textDocument/semanticTokens/full', { textDocument: f });
  ok(T.SemanticTokens.is(first) && typeof first.resultId === 'string', 'SemanticTokens, full, with a resultId (SemanticTokens.is)', first);
  conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { ...f, version: 2 },
    contentChanges: [{ range: { start: pos(5, 8), end: pos(5, 8) }, text: '1' }] });
  const delta = await conn.sendRequest('textDocument/semanticTokens/full/delta', { textDocument: f, previousResultId: first.resultId });
  ok(tokensDelta(delta) && typeof delta.resultId === 'string' && delta.resultId !== first.resultId,
    'textDocument/semanticTokens/full/delta: SemanticTokensDelta, a new resultId, edits (fields of LSP 3.17)', delta);
  const stale = await conn.sendRequest('textDocument/semanticTokens/full/delta', { textDocument: f, previousResultId: first.resultId });
  ok(T.SemanticTokens.is(stale) && typeof stale.resultId === 'string', 'full/delta from an id that is not the last: SemanticTokens, full (SemanticTokens.is)', stale);
  ok(legend(caps.semanticTokensProvider && caps.semanticTokensProvider.legend), 'semanticTokensProvider.legend: tokenTypes and tokenModifiers');
  const standard = ['namespace', 'type', 'class', 'enum', 'interface', 'struct', 'typeParameter', 'parameter', 'variable', 'property',
    'enumMember', 'event', 'function', 'method', 'macro', 'keyword', 'modifier', 'comment', 'string', 'number', 'regexp', 'operator', 'decorator'];
  const stdMods = ['declaration', 'definition', 'readonly', 'static', 'deprecated', 'abstract', 'async', 'modification', 'documentation', 'defaultLibrary'];
  ok(caps.semanticTokensProvider.legend.tokenTypes.every(t => standard.includes(t)) &&
    caps.semanticTokensProvider.legend.tokenModifiers.every(t => stdMods.includes(t)), 'the legend uses only LSP 3.17\'s standard token types and modifiers');
  for (const cap of Object.keys(caps).filter(k => k.endsWith('Provider')))
    ok(tested.has(cap), `advertised ${cap} has a row in this table`);
  // diagnostics, pushed
  await new Promise(res => { const t = setInterval(() => { if (published[s.uri]) { clearInterval(t); res(); } }, 20); });
  ok(isArrayOf(published[s.uri], T.Diagnostic.is), 'publishDiagnostics: Diagnostic[] (Diagnostic.is)', published[s.uri]);
  await conn.sendRequest(rpc.ShutdownRequest.type);
  conn.sendNotification(rpc.ExitNotification.type);
  console.log(`1..${n}`);
  proc.on('exit', () => process.exit(failed ? 1 : 0));
}
main().catch(e => { console.error(e); process.exit(1); });
