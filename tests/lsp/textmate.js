// tests/lsp/textmate.js - the TextMate grammar (editors/textmate/) tokenised
// with vscode-textmate and vscode-oniguruma, the libraries VS Code uses,
// over the suite's NVTXT files that parse (TAP).
//
// Usage: node tests/lsp/textmate.js NVTXTC FILE...
//
// Each line is split independently of the grammar (nvtxt(5), Lines and
// VALUES: one instruction per line, values separated by commas outside
// quotes) and the scope of each piece is checked: comments, definitions
// (the command and its argument names), assignments (the variable), calls
// (the command), quoted strings, integers and $expansions.
'use strict';
const fs = require('fs');
const path = require('path');
const cp = require('child_process');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const [nvtxtc, ...files] = process.argv.slice(2);
const top = path.resolve(__dirname, '../..');
const grammarPath = path.join(top, 'editors/textmate/nvtxt.tmLanguage.json');
const COMMANDS = ['Marker', 'RangePush', 'RangePop', 'RangeStartEnd', 'NameCategory', 'AddChildCategory', 'NameOsThread', 'NameProcess', 'SetFileDisplayName'];
const ARGS = ['Time', 'Start', 'End', 'TimeBase', 'ProcessId', 'ThreadId', 'CategoryId', 'Color', 'Message', 'Payload', 'Name', 'ParentCategoryId'];

let n = 0, failed = 0;
function ok(c, name, extra) {
  n++; console.log(`${c ? 'ok' : 'not ok'} ${n} - ${name}`);
  if (!c) { failed++; if (extra) console.log(extra.split('\n').slice(0, 20).map(x => '# ' + x).join('\n')); }
}

async function main() {
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve('vscode-oniguruma')), 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({ createOnigScanner: p => new oniguruma.OnigScanner(p), createOnigString: s => new oniguruma.OnigString(s) }),
    loadGrammar: async () => vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath),
  });
  const grammar = await registry.loadGrammar('source.nvtxt');
  ok(grammar !== null, 'the grammar loads (scope source.nvtxt)');

  const counts = { comment: 0, definition: 0, argument: 0, assignment: 0, command: 0, string: 0, integer: 0, expansion: 0 };
  const bad = [];
  let checkedFiles = 0;
  for (const f of files) {
    // only files that parse: their lines are what nvtxt(5) describes
    if (cp.spawnSync(nvtxtc, ['fmt', f], { stdio: 'ignore' }).status !== 0) continue;
    checkedFiles++;
    let stack = vsctm.INITIAL;
    const lines = fs.readFileSync(f, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/);
    lines.forEach((line, ln) => {
      const r = grammar.tokenizeLine(line, stack);
      stack = r.ruleStack;
      const scopeAt = (i) => { const t = r.tokens.find(t => t.startIndex <= i && i < t.endIndex); return t ? t.scopes.join(' ') : ''; };
      const expect = (i, re, what) => {
        counts[what]++;
        if (!re.test(scopeAt(i))) bad.push(`${path.basename(f)}:${ln + 1}:${i + 1}: ${what} expected (${re}), found "${scopeAt(i)}" in: ${line}`);
      };
      const lead = line.length - line.trimStart().length;
      const body = line.trim();
      if (body === '') return;
      if (body[0] === '#') { for (let i = lead; i < line.length; i += 7) expect(i, /comment\.line/, 'comment'); return; }
      // split at commas outside quotes: [start, end) of each field
      const fields = [];
      let start = 0, q = null;
      for (let i = 0; i <= line.length; i++) {
        const c = line[i];
        if (q) { if (c === q) q = null; continue; }
        if (c === '"' || c === "'") q = c;
        else if (c === ',' || i === line.length) { fields.push([start, i]); start = i + 1; }
      }
      const trimmed = ([a, b]) => { while (a < b && /[ \t]/.test(line[a])) a++; while (b > a && /[ \t]/.test(line[b - 1])) b--; return [a, b]; };
      let values;
      if (body[0] === '@') {
        expect(lead + 1 + (line.slice(lead + 1).length - line.slice(lead + 1).trimStart().length), /entity\.name\.function\.definition/, 'definition');
        for (const fld of fields.slice(1)) { const [a, b] = trimmed(fld); if (ARGS.includes(line.slice(a, b))) expect(a, /variable\.parameter/, 'argument'); }
        return;
      }
      const eq = /^[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*=/.exec(line);
      if (eq) {
        expect(lead, /variable\.other\.assignment/, 'assignment');
        values = [trimmed([eq[0].length, line.length])];
      } else {
        const name = trimmed(fields[0]);
        if (COMMANDS.includes(line.slice(name[0], name[1]))) expect(name[0], /keyword\.other\.command/, 'command');
        values = fields.slice(1).map(trimmed);
      }
      for (const [a, b] of values) {
        const v = line.slice(a, b);
        if (v === '') continue;
        if (v[0] === '"' || v[0] === "'") { expect(a, /string\.quoted/, 'string'); expect(b - 1, /string\.quoted/, 'string'); }
        else if (v[0] === '$') expect(a + 1, /variable\.other\.expansion/, 'expansion');
        else if (/^([-+]?[0-9]+|0[xX][0-9A-Fa-f]{1,16})$/.test(v)) { expect(a, /constant\.numeric\.integer/, 'integer'); expect(b - 1, /constant\.numeric\.integer/, 'integer'); }
      }
    });
  }
  ok(checkedFiles >= 20, `tokenised ${checkedFiles} of the suite's files that parse`);
  ok(bad.length === 0, `every checked piece has its scope (${JSON.stringify(counts)})`, bad.join('\n'));
  for (const [k, v] of Object.entries(counts)) ok(v > 0, `the files have ${k}s to check (${v})`);
  console.log(`1..${n}`);
  process.exit(failed ? 1 : 0);
}
main().catch(e => { console.log(`not ok ${++n} - ${e.stack.split('\n').join('\n# ')}`); console.log(`1..${n}`); process.exit(1); });
