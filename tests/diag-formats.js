// tests/diag-formats.js DIR NAME... - compares, for each lint case NAME,
// the diagnostics of one run in the three formats (tests/diag-formats.t
// writes them to DIR): NAME.txt (standard error of the text run, then
// "exit STATUS"), NAME.json (--diagnostics-format=json) and NAME.sarif
// (--diagnostics-format=sarif).  Every diagnostic and note of the text must
// be in both documents with the same file, line, byte column (text, JSON),
// severity, check and message, and nothing more; the UTF-16 columns of the
// documents must be those of the source lines; counts and exit statuses
// must agree; JSON fix-its must be SARIF fixes.  Prints TAP lines from
// number FIRST (environment), and the count on the last line as "# count N".
'use strict';
const fs = require('fs');
const path = require('path');

const [dir, ...names] = process.argv.slice(2);
let n = Number(process.env.FIRST || 1) - 1;
let failed = 0;

function ok(cond, what, detail) {
	n++;
	console.log(`${cond ? '' : 'not '}ok ${n} - ${what}`);
	if (!cond) {
		failed++;
		if (detail) for (const l of String(detail).split('\n').slice(0, 30)) console.log(`# ${l}`);
	}
}

// The records of the text output: "FILE:LINE:COL: SEV: MESSAGE [TAG]" and "FILE: SEV: MESSAGE [TAG]".
function fromText(text) {
	const recs = [];
	let exit = null, errors = 0, warnings = 0;
	for (const line of text.split('\n')) {
		let m;
		if ((m = /^exit (\d+)$/.exec(line))) { exit = Number(m[1]); continue; }
		if ((m = /^(?:(\d+) errors?)?(?: and )?(?:(\d+) warnings?)? generated\.$/.exec(line))) {
			errors = Number(m[1] || 0); warnings = Number(m[2] || 0); continue;
		}
		if (line.startsWith(' ')) continue; // excerpt, caret, fix-it
		m = /^(.*?):(\d+):(\d+): (error|warning|note): (.*)$/.exec(line) ||
		    /^(.*?): (error|warning|note): (.*)$/.exec(line);
		if (!m) continue;
		const located = m.length === 6;
		const rec = { file: m[1], line: located ? Number(m[2]) : 0, col: located ? Number(m[3]) : 0,
			severity: located ? m[4] : m[2], message: located ? m[5] : m[3], check: '' };
		const t = / \[(-W(?:error=)?)?([a-z][a-z0-9-]*)\]$/.exec(rec.message);
		if (t && rec.severity !== 'note') {
			rec.check = t[2];
			rec.message = rec.message.slice(0, t.index);
		}
		recs.push(rec);
	}
	return { recs, exit, errors, warnings };
}

const key = r => `${r.file}:${r.line}:${r.col}: ${r.severity}: ${r.message} [${r.check}]`;

// UTF-16 code units of the bytes before byte column col of line `line` of the source.
function utf16Col(src, line, col) {
	let l = src.split('\n')[line - 1];
	if (line === 1 && l !== undefined && l.startsWith('\xEF\xBB\xBF')) l = l.slice(3); // columns start after a BOM
	if (l === undefined) return null;
	const bytes = Buffer.from(l, 'latin1').subarray(0, col - 1);
	return Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes) ? bytes.toString('utf8').length + 1 : null;
}

function fromJson(doc, srcOf) {
	const recs = [], bad = [];
	const pos = (file, r) => {
		if (!r) return [0, 0];
		const s = srcOf(file);
		for (const end of ['start', 'end']) {
			const p = r[end];
			const want = s === null ? null : utf16Col(s, p.line, p.column);
			if (want !== null && p.column_utf16 !== want)
				bad.push(`${file}:${p.line}: ${end} column ${p.column}: column_utf16 ${p.column_utf16}, want ${want}`);
		}
		return [r.start.line, r.start.column];
	};
	for (const f of doc.files) {
		for (const d of f.diagnostics) {
			const [line, col] = pos(f.file, d.range);
			recs.push({ file: f.file, line, col, severity: d.severity,
				check: d.severity === 'note' ? '' : d.check, message: d.message });
			for (const note of d.notes) {
				const [nl, nc] = pos(f.file, note.range);
				recs.push({ file: f.file, line: nl, col: nc, severity: 'note', check: '', message: note.message });
			}
		}
	}
	for (const d of doc.messages)
		recs.push({ file: 'nvtxtc', line: 0, col: 0, severity: d.severity,
			check: d.severity === 'note' ? '' : d.check, message: d.message });
	return { recs, bad };
}

function fromSarif(doc, json) {
	const run = doc.runs[0];
	const recs = [], bad = [];
	const files = run.artifacts.map(a => decodeURIComponent(a.location.uri));
	const jsonFix = new Map();
	for (const f of json.files)
		for (const d of f.diagnostics)
			for (const x of d.fixits) jsonFix.set(`${f.file}:${x.range.start.line}:${x.range.start.column_utf16}`, x.replacement);
	const where = (loc) => {
		const p = loc.physicalLocation;
		if (!p) return ['?', 0, 0];
		const file = files[p.artifactLocation.index];
		if (decodeURIComponent(p.artifactLocation.uri) !== file) bad.push(`uri ${p.artifactLocation.uri} is not artifact ${file}`);
		// a result about the file as a whole spans its bytes (byteOffset 0): no line, no column
		return [file, p.region && p.region.startLine ? p.region.startLine : 0, p.region && p.region.startLine ? p.region.startColumn : 0];
	};
	let sarifFixes = 0;
	for (const r of run.results) {
		const rule = run.tool.driver.rules[r.ruleIndex];
		if (!rule || rule.id !== r.ruleId) bad.push(`ruleIndex ${r.ruleIndex} is not rule ${r.ruleId}`);
		const [file, line, col] = where(r.locations[0]);
		recs.push({ file, line, col16: col, severity: r.level, check: r.level === 'note' ? '' : r.ruleId, message: r.message.text });
		for (const rel of r.relatedLocations || []) {
			const [nf, nl, nc] = rel.physicalLocation ? where(rel) : [file, 0, 0];
			recs.push({ file: nf, line: nl, col16: nc, severity: 'note', check: '', message: rel.message.text });
		}
		for (const fx of r.fixes || []) {
			sarifFixes++;
			const rep = fx.artifactChanges[0].replacements[0];
			const k = `${file}:${rep.deletedRegion.startLine}:${rep.deletedRegion.startColumn}`;
			if (jsonFix.get(k) !== rep.insertedContent.text) bad.push(`SARIF fix at ${k} '${rep.insertedContent.text}' is not a JSON fix-it`);
		}
	}
	if (sarifFixes !== jsonFix.size) bad.push(`${sarifFixes} SARIF fixes, ${jsonFix.size} JSON fix-its`);
	for (const t of run.invocations[0].toolExecutionNotifications || [])
		recs.push({ file: 'nvtxtc', line: 0, col16: 0, severity: t.level, check: t.level === 'note' ? '' : t.associatedRule.id, message: t.message.text });
	return { recs, bad, exit: run.invocations[0].exitCode };
}

// SARIF messages are sentences: the text's message, with a period added when it has no final punctuation.
const sentence = m => (/[.?!]$/.test(m) ? m : m + '.');

for (const name of names) {
	const base = path.join(dir, name);
	const text = fromText(fs.readFileSync(base + '.txt', 'latin1'));
	let json, sarif;
	try {
		json = JSON.parse(fs.readFileSync(base + '.json', 'utf8'));
		sarif = JSON.parse(fs.readFileSync(base + '.sarif', 'utf8'));
	} catch (e) {
		ok(false, `${name}: the JSON and SARIF documents parse`, e.message);
		continue;
	}
	const srcCache = new Map();
	const srcOf = file => {
		if (!srcCache.has(file)) {
			let s = null;
			try { s = fs.readFileSync(path.join(process.env.SRCDIR || '.', file), 'latin1'); } catch (e) { /* no source */ }
			srcCache.set(file, s);
		}
		return srcCache.get(file);
	};
	// the text is read as latin1 (bytes); JSON strings are UTF-8: compare bytes
	const latin = s => Buffer.from(s, 'utf8').toString('latin1');
	const j = fromJson(json, srcOf);
	const want = text.recs.map(key).sort();
	const gotJ = j.recs.map(r => key({ ...r, message: latin(r.message), file: latin(r.file) })).sort();
	ok(JSON.stringify(gotJ) === JSON.stringify(want), `${name}: JSON has the text's diagnostics and notes (check, severity, line, column, message)`,
		`text:\n${want.join('\n')}\njson:\n${gotJ.join('\n')}`);
	ok(j.bad.length === 0, `${name}: JSON UTF-16 columns are those of the source`, j.bad.join('\n'));
	ok(json.errors === text.errors && json.warnings === text.warnings && json.exit_status === text.exit,
		`${name}: JSON counts and exit status are the text's`,
		`json ${json.errors}/${json.warnings}/exit ${json.exit_status}, text ${text.errors}/${text.warnings}/exit ${text.exit}`);

	// SARIF: columns are UTF-16; compare with JSON's column_utf16 through the JSON records
	const s = fromSarif(sarif, json);
	const colMap = [];
	for (const f of json.files)
		for (const d of f.diagnostics) {
			colMap.push(d.range ? d.range.start.column_utf16 : 0);
			for (const note of d.notes) colMap.push(note.range ? note.range.start.column_utf16 : 0);
		}
	const jsonAsSarif = [];
	let i = 0;
	for (const f of json.files)
		for (const d of f.diagnostics) {
			jsonAsSarif.push(`${f.file}:${d.range ? d.range.start.line : 0}:${colMap[i++] || 0}: ${d.severity}: ${sentence(d.message)} [${d.severity === 'note' ? '' : d.check}]`);
			for (const note of d.notes)
				jsonAsSarif.push(`${f.file}:${note.range ? note.range.start.line : 0}:${colMap[i++] || 0}: note: ${sentence(note.message)} []`);
		}
	for (const d of json.messages)
		jsonAsSarif.push(`nvtxtc:0:0: ${d.severity}: ${sentence(d.message)} [${d.severity === 'note' ? '' : d.check}]`);
	const gotS = s.recs.map(r => `${r.file}:${r.line}:${r.col16 || 0}: ${r.severity}: ${r.message} [${r.check}]`).sort();
	jsonAsSarif.sort();
	ok(JSON.stringify(gotS) === JSON.stringify(jsonAsSarif) && s.bad.length === 0 && s.exit === text.exit,
		`${name}: SARIF has the same results, related locations, fixes and exit status`,
		`${s.bad.join('\n')}\nsarif exit ${s.exit}\nwant:\n${jsonAsSarif.join('\n')}\nsarif:\n${gotS.join('\n')}`);
}
console.log(`# count ${n}`);
process.exit(failed ? 1 : 0);
