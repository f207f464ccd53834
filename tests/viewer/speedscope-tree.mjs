// speedscope-tree.mjs - speedscope's own Trace Event importer on
// --emit=chrome exports, under Node (tests/viewer-tree.t).
//
//   node speedscope-tree.mjs [--profiles=NAME|NAME...] NORMAL_FORM EXPORT.json [...]...
//
// NORMAL_FORM is `nvtxtc --emit=nvtxt FILE`, EXPORT.json `nvtxtc
// --emit=chrome FILE` with time conversions of slope 1 (so every time is
// its own nanoseconds).  The importer is the one of the npm package
// `speedscope` (pinned in package-lock.json): its bundle
// (dist/release/speedscope-*.js) is evaluated with a few stand-ins for the
// browser's globals, and its function for the Trace Event Format (the
// one that logs "Importing as Trace Event Format profile") is called on
// the export.  For every thread, the call tree it builds (Profile.
// forEachCall: each frame opened and closed, with its time) must equal
// the tree of the normal form's push/pop ranges: the same names in the
// same nesting and order, each opening and closing at its push's and
// pop's nanosecond (a push left open at end of file at its thread's
// latest time), and each frame's args holding a line (the normal form has
// no line numbers of the file to compare them with: tests/chrome.t checks
// them).  A range of length zero has no time, so speedscope shows it
// nowhere: it is left out of the expected tree, and must not disturb the
// rest (speedscope may warn about one that it nests into a sibling ending
// at the same time: invisible, and not a difference).
//
// --profiles=NAME|NAME... before a pair: the names speedscope gives that
// export's profiles (one per thread: "PROCESS (pid P), THREAD (tid T)"),
// in its order, must be these (a merged export of several files: their
// processes apart or shared).  NORMAL_FORM may be several files' normal
// forms one after the other: the tree of a thread is then its ranges in
// the order of the files.
//
// Prints one TAP line per pair ("ok N - ..." or "not ok N - ..." with the
// first differences as # comments), without a plan; exits 0 when all
// passed, 1 when one failed, 2 on a usage or set-up error.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pairs = [], profileNames = [];
for (const arg of process.argv.slice(2)) {
  if (arg.startsWith('--profiles=')) profileNames[pairs.length / 2] = arg.slice(11).split('|');
  else pairs.push(arg);
}
if (pairs.length === 0 || pairs.length % 2) {
  console.error('usage: node speedscope-tree.mjs [--profiles=NAME|NAME...] NORMAL_FORM EXPORT.json [...]...');
  process.exit(2);
}

// --- speedscope's importer, from its bundle ---------------------------------

function loadImporter() {
  const pkg = require.resolve('speedscope/package.json');
  const version = JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
  const dir = path.join(path.dirname(pkg), 'dist', 'release');
  const file = fs.readdirSync(dir).find((f) => /^speedscope-[A-Z0-9]+\.js$/.test(f));
  let src = fs.readFileSync(path.join(dir, file), 'utf8');
  // function IMPORT(t){return A(t)?B(t):C(t)?D(t.traceEvents):...}var X,INIT=re(()=>{"use strict";
  const m = /function (\w+)\(t\)\{return \w+\(t\)\?\w+\(t\):\w+\(t\)\?\w+\(t\.traceEvents\)[^}]*\}var \w+,(\w+)=(\w+)\(\(\)=>\{"use strict";/.exec(src);
  const tail = src.lastIndexOf('console.log(`speedscope v${');
  if (!m || tail < 0) {
    console.error(`speedscope ${version}: its Trace Event importer was not found in ${file} ` +
      '(this test reads the bundle of speedscope 1.25; see tests/viewer/speedscope-tree.mjs)');
    process.exit(2);
  }
  // the bundle without its last statement (which renders the app), handing out the importer
  src = `${src.slice(0, tail)}globalThis.__nvtxtcImporter={importTrace:${m[1]},init:${m[2]}};})();`;
  const stub = () => ({ style: {}, getContext: () => null, addEventListener() {}, appendChild() {} });
  Object.assign(globalThis, {
    window: globalThis, self: globalThis,
    document: { createElement: stub, addEventListener() {}, body: stub(), documentElement: { style: {} } },
    navigator: { userAgent: 'node', platform: 'linux' },
    localStorage: { getItem: () => null, setItem() {} },
    matchMedia: () => ({ matches: false, addEventListener() {}, addListener() {} }),
    location: { hash: '', search: '', href: 'http://127.0.0.1/' },
    addEventListener() {},
  });
  new Function(src)();
  const { importTrace, init } = globalThis.__nvtxtcImporter;
  init();
  return importTrace;
}

// --- the normal form's ranges ---------------------------------------------------

// The fields of one normal-form line: values split at commas outside quotes, quotes removed.
function fields(line) {
  const out = [];
  let cur = '', quote = null;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === ',') {
      out.push(cur.trim());
      cur = '';
    } else {
      cur += ch;
    }
  }
  out.push(cur.trim());
  return out;
}

// Per thread ("pid:tid"): the tree of push/pop ranges, { name, line, start, end, children }, times in ns (BigInt).
function expectedTrees(text) {
  const threads = new Map();
  const thread = (pid, tid) => {
    const key = `${pid}:${tid}`;
    if (!threads.has(key)) threads.set(key, { root: { children: [] }, stack: [], last: null });
    return threads.get(key);
  };
  const note = (t, ns) => { if (t.last === null || ns > t.last) t.last = ns; };
  text.split('\n').forEach((line, i) => {
    const f = fields(line);
    const cmd = f[0];
    if (cmd === 'RangePush' || cmd === 'RangePop' || cmd === 'Marker') {
      const t = thread(f[3] || '0', f[4] || '0');
      const ns = BigInt(f[1]);
      note(t, ns);
      if (cmd === 'RangePush') {
        // speedscope calls an event without a name "(unnamed)"
        const r = { name: f[7] || '(unnamed)', line: i + 1, start: ns, end: null, children: [] };
        (t.stack.length ? t.stack[t.stack.length - 1] : t.root).children.push(r);
        t.stack.push(r);
      } else if (cmd === 'RangePop') {
        t.stack.pop().end = ns;
      }
    } else if (cmd === 'RangeStartEnd') {
      const t = thread(f[4] || '0', f[5] || '0');
      note(t, BigInt(f[1]));
      note(t, BigInt(f[2]));
    }
  });
  for (const t of threads.values()) {
    for (const r of t.stack) {
      r.end = t.last;
      r.unclosed = true;
    }
  }
  return threads;
}

// The opens and closes of a tree, in order, without ranges of length zero, times from `origin`.
function expectedCalls(tree, origin) {
  const calls = [];
  const walk = (r) => {
    if (r.end <= r.start) return;
    calls.push({ open: true, name: r.name, line: r.line, ns: r.start - origin });
    r.children.forEach(walk);
    calls.push({ open: false, name: r.name, line: r.line, ns: r.end - origin });
  };
  tree.children.forEach(walk);
  return calls;
}

function firstStart(tree) {
  let min = null;
  const walk = (r) => {
    if (min === null || r.start < min) min = r.start;
    r.children.forEach(walk);
  };
  tree.children.forEach(walk);
  return min;
}

// --- comparing -------------------------------------------------------------------

// A frame's name is "NAME {ARGS}": the name and args.line.
function splitFrame(frameName) {
  for (let at = frameName.lastIndexOf(' {'); at >= 0; at = frameName.lastIndexOf(' {', at - 1)) {
    try {
      return { name: frameName.slice(0, at), args: JSON.parse(frameName.slice(at + 1)) };
    } catch {
      // a " {" inside the name: try further left
    }
  }
  return { name: frameName, args: {} };
}

function check(importTrace, normalPath, exportPath, names) {
  const problems = [];
  const trees = expectedTrees(fs.readFileSync(normalPath, 'utf8'));
  const trace = JSON.parse(fs.readFileSync(exportPath, 'utf8'));
  const warn = console.warn;
  console.warn = () => {};
  let group;
  try {
    group = importTrace(trace);
  } finally {
    console.warn = warn;
  }
  const seen = new Set();
  const profiles = group && Array.isArray(group.profiles) ? group.profiles : [];
  if (names && profiles.map((p) => p.getName()).join('|') !== names.join('|'))
    problems.push(`profiles '${profiles.map((p) => p.getName()).join("', '")}', expected '${names.join("', '")}'`);
  // an export without events is no trace to speedscope: it hands the input back
  for (const profile of group && Array.isArray(group.profiles) ? group.profiles : []) {
    // "pid P, tid T", "NAME (pid P, tid T)" or "PROCESS (pid P), THREAD (tid T)"
    const pname = profile.getName(), t = pname.lastIndexOf('tid '), p = pname.lastIndexOf('pid ', t);
    const key = t > p && p >= 0 ? `${parseInt(pname.slice(p + 4), 10)}:${parseInt(pname.slice(t + 4), 10)}` : pname;
    seen.add(key);
    const tree = trees.get(key);
    if (!tree) {
      problems.push(`profile '${profile.getName()}': no such thread in the normal form`);
      continue;
    }
    const want = expectedCalls(tree.root, firstStart(tree.root));
    const got = [];
    profile.forEachCall(
      (node, value) => got.push({ open: true, frame: node.frame.name, us: value }),
      (node, value) => got.push({ open: false, frame: node.frame.name, us: value }));
    for (let i = 0; i < Math.max(want.length, got.length) && problems.length < 5; i++) {
      const w = want[i], g = got[i];
      const what = w ? `${w.open ? 'open' : 'close'} '${w.name}' at ${w.ns} ns` : 'nothing';
      if (!w || !g) {
        problems.push(`thread ${key}, call ${i}: expected ${what}, speedscope has ${g ? `${g.open ? 'open' : 'close'} '${g.frame}'` : 'nothing'}`);
        break;
      }
      const { name, args } = splitFrame(g.frame);
      const ns = BigInt(Math.round(g.us * 1000));
      if (w.open !== g.open || w.name !== name || !Number.isInteger(args.line) || w.ns !== ns) {
        problems.push(`thread ${key}, call ${i}: expected ${what}, speedscope has ` +
          `${g.open ? 'open' : 'close'} '${g.frame}' at ${ns} ns`);
      }
    }
  }
  for (const [key, t] of trees) {
    if (!seen.has(key) && expectedCalls(t.root, 0n).length)
      problems.push(`thread ${key}: its ranges are missing from speedscope's profiles`);
  }
  return problems;
}

let importTrace;
try {
  importTrace = loadImporter();
} catch (e) {
  console.error(`speedscope's importer could not be loaded: ${e.message}`);
  process.exit(2);
}
let n = 0, failed = 0;
for (let i = 0; i < pairs.length; i += 2) {
  let problems;
  try {
    problems = check(importTrace, pairs[i], pairs[i + 1], profileNames[i / 2]);
  } catch (e) {
    problems = [`${e.name}: ${e.message}`];
  }
  n++;
  console.log(`${problems.length ? 'not ok' : 'ok'} ${n} - ${pairs[i + 1]}: speedscope's call tree is the normal form's`);
  if (problems.length) {
    failed++;
    for (const p of problems.slice(0, 5)) console.log(`# ${p}`);
  }
}
process.exit(failed ? 1 : 0);
