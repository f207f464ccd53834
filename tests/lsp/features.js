// tests/lsp/features.js - the editor features of `nvtxtc lsp` (issue 23)
// through the VS Code client library (vscode-languageserver-protocol):
// asks what tests/lsp/features.queries lists about a document and prints
// what a client shows, in the form of tests/lsp/features.expected (which
// tests/lsp/nvim-features.lua and tests/lsp/eglot-features.el print too).
//
// Usage: node tests/lsp/features.js NVTXTC FILE QUERIES [ENCODING [OPTIONS_JSON]]
// ENCODING: utf-16 (the default) or utf-8, the position encoding offered.
// OPTIONS_JSON: the initializationOptions (default: {"inlayHints":{"times":true}}).
'use strict';
const cp = require('child_process');
const fs = require('fs');
const rpc = require('vscode-languageserver-protocol/node');

const [nvtxtc, file, queriesFile, enc = 'utf-16', opts] = process.argv.slice(2);
let text = fs.readFileSync(file, 'utf8');
let lines = text.split('\n');
let version = 1;
const uri = 'file:///features/' + file.replace(/.*\//, '');
const out = [];

// byte column (1-based) <-> character in the negotiated encoding (0-based)
function toChar(line, byteCol) {
  if (enc === 'utf-8') return byteCol - 1;
  return Buffer.from(lines[line - 1]).subarray(0, byteCol - 1).toString('utf8').length;
}
function toByteCol(pos) {
  const l = lines[pos.line] || '';
  if (enc === 'utf-8') return pos.character + 1;
  return Buffer.byteLength(l.slice(0, pos.character)) + 1;
}
const at = p => `${p.line + 1}:${toByteCol(p)}`;
const range = r => `${at(r.start)}-${at(r.end)}`;
const hex = c => '0x' + [c.alpha, c.red, c.green, c.blue].map(v => Math.round(v * 255).toString(16).padStart(2, '0')).join('').toUpperCase();

// "token LINE:COL-COL TYPE.MODIFIERS" for each token of SemanticTokens.data
function tokens(data, legend) {
  const r = [];
  let line = 0, ch = 0;
  for (let i = 0; i < data.length; i += 5) {
    const [dl, dc, len, type, mods] = data.slice(i, i + 5);
    if (dl) ch = 0;
    line += dl;
    ch += dc;
    const a = { line, character: ch }, b = { line, character: ch + len };
    const m = legend.tokenModifiers.filter((_, k) => mods & (1 << k));
    r.push(`token ${at(a)}-${toByteCol(b)} ${legend.tokenTypes[type]}${m.map(x => '.' + x).join('')}`);
  }
  return r;
}
// SemanticTokensEdit[] applied to data as LSP 3.17 says: each replaces
// deleteCount integers from start (of the old data) with its data
function applyEdits(data, edits) {
  const r = data.slice();
  for (const e of edits.slice().sort((a, b) => b.start - a.start)) r.splice(e.start, e.deleteCount, ...(e.data || []));
  return r;
}

async function main() {
  const proc = cp.spawn(nvtxtc, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(proc.stdout), new rpc.StreamMessageWriter(proc.stdin));
  conn.listen();
  const init = await conn.sendRequest(rpc.InitializeRequest.type, {
    processId: process.pid, rootUri: null,
    capabilities: { general: { positionEncodings: [enc] } },
    initializationOptions: opts ? JSON.parse(opts) : { inlayHints: { times: true } },
  });
  const legend = init.capabilities.semanticTokensProvider.legend;
  conn.sendNotification(rpc.InitializedNotification.type, {});
  conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'nvtxt', version: 1, text } });
  const td = { uri };
  for (const q of fs.readFileSync(queriesFile, 'utf8').split('\n')) {
    const w = q.split(' ');
    if (q.startsWith('#') || !q.trim()) continue;
    const lineRange = () => ({ start: { line: +w[1] - 1, character: 0 }, end: { line: +w[2] - 1, character: toChar(+w[2], Buffer.byteLength(lines[+w[2] - 1]) + 1) } });
    const pos = () => ({ line: +w[1] - 1, character: toChar(+w[1], +w[2]) });
    if (w[0] === 'hints') {
      const r = await conn.sendRequest(rpc.InlayHintRequest.type, { textDocument: td, range: lineRange() });
      for (const h of r) out.push(`hint ${at(h.position)} ${h.label}`);
    } else if (w[0] === 'signature') {
      const r = await conn.sendRequest(rpc.SignatureHelpRequest.type, { textDocument: td, position: pos() });
      const sig = r && r.signatures[r.activeSignature || 0];
      const p = sig && sig.parameters[r.activeParameter];
      out.push(`signature ${w[1]}:${w[2]} ${p ? sig.label.slice(p.label[0], p.label[1]) : '-'}`);
    } else if (w[0] === 'highlight') {
      const r = await conn.sendRequest(rpc.DocumentHighlightRequest.type, { textDocument: td, position: pos() });
      // in document order, as an editor shows them
      (r || []).sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
      for (const h of r || []) out.push(`highlight ${w[1]}:${w[2]} ${range(h.range)}`);
    } else if (w[0] === 'folds') {
      const r = await conn.sendRequest(rpc.FoldingRangeRequest.type, { textDocument: td });
      r.sort((a, b) => a.startLine - b.startLine);
      for (const f of r) out.push(`fold ${f.startLine + 1}-${f.endLine + 1} ${f.kind || '-'}`);
    } else if (w[0] === 'colors') {
      const r = await conn.sendRequest(rpc.DocumentColorRequest.type, { textDocument: td });
      for (const c of r) out.push(`color ${range(c.range)} ${hex(c.color)}`);
    } else if (w[0] === 'presentation') {
      const cs = await conn.sendRequest(rpc.DocumentColorRequest.type, { textDocument: td });
      const c = cs.find(c => c.range.start.line === +w[1] - 1 && toByteCol(c.range.start) === +w[2]);
      const v = parseInt(w[3], 16);
      const color = { alpha: (v >>> 24) / 255, red: (v >> 16 & 255) / 255, green: (v >> 8 & 255) / 255, blue: (v & 255) / 255 };
      const r = await conn.sendRequest(rpc.ColorPresentationRequest.type, { textDocument: td, color, range: c.range });
      out.push(`presentation ${w[1]}:${w[2]} ${r[0].textEdit ? r[0].textEdit.newText : '-'}`);
    } else if (w[0] === 'tokens') {
      const r = await conn.sendRequest(rpc.SemanticTokensRangeRequest.type, { textDocument: td, range: lineRange() });
      out.push(...tokens(r.data, legend));
    } else if (w[0] === 'delta') {
      // TEXT typed at LINE:COL and taken back, each followed by full/delta
      const first = await conn.sendRequest(rpc.SemanticTokensRequest.type, { textDocument: td });
      const p = pos(), t = w[3], tag = `delta ${w[1]}:${w[2]}`;
      const edit = (range, newText) => {
        const l = lines[range.start.line], js = Buffer.from(l).subarray(0, +w[2] - 1).toString().length;
        lines[range.start.line] = newText ? l.slice(0, js) + newText + l.slice(js) : l.slice(0, js) + l.slice(js + t.length);
        text = lines.join('\n');
        conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { uri, version: ++version }, contentChanges: [{ range, text: newText }] });
      };
      edit({ start: p, end: p }, t);
      const d = await conn.sendRequest(rpc.SemanticTokensDeltaRequest.type, { textDocument: td, previousResultId: first.resultId });
      const data = applyEdits(first.data, d.edits);
      out.push(...tokens(data, legend).filter(x => x.startsWith(`token ${w[1]}:`)).map(x => `${tag} +${t} ${x}`));
      const full = await conn.sendRequest(rpc.SemanticTokensRequest.type, { textDocument: td });
      out.push(`${tag} +${t} edits applied = full: ${JSON.stringify(data) === JSON.stringify(full.data)}`);
      edit({ start: p, end: { line: p.line, character: p.character + (enc === 'utf-8' ? Buffer.byteLength(t) : t.length) } }, '');
      const back = await conn.sendRequest(rpc.SemanticTokensDeltaRequest.type, { textDocument: td, previousResultId: full.resultId });
      out.push(`${tag} -${t} edits applied = first full: ${JSON.stringify(applyEdits(full.data, back.edits)) === JSON.stringify(first.data)}`);
    } else if (w[0] === 'references') {
      const r = await conn.sendRequest(rpc.ReferencesRequest.type, { textDocument: td, position: pos(), context: { includeDeclaration: true } });
      (r || []).sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
      for (const l of r || []) out.push(`references ${w[1]}:${w[2]} ${at(l.range.start)}`);
    } else if (w[0] === 'rename') {
      let r;
      try {
        r = await conn.sendRequest(rpc.RenameRequest.type, { textDocument: td, position: pos(), newName: w[3] });
      } catch (e) {
        out.push(`rename ${w[1]}:${w[2]} ${w[3]} refused ${e.message}`);
        continue;
      }
      out.push(`rename ${w[1]}:${w[2]} ${w[3]}`);
      // the edits, last first, then the new text to the server as an editor sends it
      const old = lines.slice();
      const edits = r.changes[uri].slice().sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character);
      // a position in the JS string (UTF-16) of its line
      const js = p => Buffer.from(lines[p.line]).subarray(0, toByteCol(p) - 1).toString().length;
      for (const e of edits) {
        const l = lines[e.range.start.line];
        lines[e.range.start.line] = l.slice(0, js(e.range.start)) + e.newText + l.slice(js(e.range.end));
      }
      lines.forEach((l, i) => { if (l !== old[i]) out.push(`renamed ${i + 1} ${l}`); });
      text = lines.join('\n');
      conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { uri, version: ++version }, contentChanges: [{ text }] });
    } else {
      throw new Error(`unknown query: ${q}`);
    }
  }
  await conn.sendRequest(rpc.ShutdownRequest.type);
  conn.sendNotification(rpc.ExitNotification.type);
  console.log(out.join('\n'));
}
main().catch(e => { console.error(e); process.exit(1); });
