#!/bin/sh
# --diagnostics-format=json and sarif on every lint case of tests/lint/
# (with its NAME.args): tests/diag-formats.js checks that both documents
# hold the same diagnostics as the text output (checks, severities, lines,
# columns, messages, notes, counts, exit status); then one entry per input
# (a file named twice too), the UTF-16 column of a payload input, SARIF
# fingerprints, the URIs of every path shape (normalised, relative to
# SRCROOT or absolute, percent-encoded; standard input with and without a
# name) and the rules' help; and every SARIF document of this test, and of
# a few more runs (several files with -j, standard input, an unreadable
# file, a usage error, --fix), is validated by Microsoft's SARIF validator
# with GitHub's rules (sarif-multitool validate --rule-kind "Sarif;Gh", from
# the package-lock.json at the top; make check installs it with npm ci): no
# error, no warning.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
top=$PWD
mkdir -p "$T/docs" "$T/sarif"

if ! need node "the JSON and SARIF documents"; then
	done_testing
	exit
fi

cd tests/lint || exit 1
names=""
for f in *.nvtxt; do
	base=${f%.nvtxt}
	args=""
	[ -f "$base.args" ] && args=$(cat "$base.args")
	# shellcheck disable=SC2086
	"$NVTXTC" lint --color=never $args "$f" >/dev/null 2>"$T/docs/$base.txt"
	echo "exit $?" >>"$T/docs/$base.txt"
	# shellcheck disable=SC2086
	"$NVTXTC" lint --diagnostics-format=json $args "$f" >"$T/docs/$base.json" 2>"$T/docs/$base.json.err"
	# shellcheck disable=SC2086
	"$NVTXTC" lint --diagnostics-format=sarif $args "$f" >"$T/docs/$base.sarif" 2>>"$T/docs/$base.json.err"
	names="$names $base"
done
cat "$T"/docs/*.json.err >"$T/stderr"
[ ! -s "$T/stderr" ]
ok $? "json and sarif lint runs write nothing on standard error"
head -n 5 "$T/stderr" | sed 's/^/# /'
# shellcheck disable=SC2086
FIRST=$((tap_n + 1)) SRCDIR=. node "$top/tests/diag-formats.js" "$T/docs" $names >"$T/tap"
st=$?
grep -v '^# count' "$T/tap"
count=$(sed -n 's/^# count //p' "$T/tap")
[ -n "$count" ] || { count=$((tap_n + 1)); ok 1 "diag-formats.js ran"; }
tap_failed=$((tap_failed + $(grep -c '^not ok' "$T/tap")))
tap_n=$count
[ "$st" -eq 0 ] || [ "$(grep -c '^not ok' "$T/tap")" -gt 0 ] || ok 1 "diag-formats.js exited with $st"

# More runs, for the validator: several files at once, -j, stdin, errors of the driver.
"$NVTXTC" lint -j 2 --diagnostics-format=sarif arity-too-few.nvtxt rename.nvtxt utf8-column.nvtxt \
	>"$T/sarif/several-j2.sarif" 2>/dev/null
"$NVTXTC" lint -j 1 --diagnostics-format=sarif arity-too-few.nvtxt rename.nvtxt utf8-column.nvtxt \
	>"$T/sarif/several-j1.sarif" 2>/dev/null
# the same document but for the arguments of the invocation
node -e 'const fs = require("fs"), [a, b] = process.argv.slice(1).map(f => JSON.parse(fs.readFileSync(f, "utf8")));
	for (const d of [a, b]) delete d.runs[0].invocations[0].arguments;
	process.exit(JSON.stringify(a) === JSON.stringify(b) ? 0 : 1);' "$T/sarif/several-j1.sarif" "$T/sarif/several-j2.sarif"
ok $? "-j 2 writes the same SARIF document as -j 1"
"$NVTXTC" lint --diagnostics-format=sarif --stdin-name=dir/piped.nvtxt - <arity-too-few.nvtxt \
	>"$T/sarif/stdin.sarif" 2>/dev/null
grep -q '"text": "Marker, 1"' "$T/sarif/stdin.sarif"
ok $? "standard input: the SARIF document has the snippets of its lines"
"$NVTXTC" lint --diagnostics-format=sarif no-such-file.nvtxt arity-too-few.nvtxt >"$T/sarif/unreadable.sarif" 2>"$T/err"
is "$?:$(cat "$T/err")" "2:" "an unreadable file: exit 2, nothing on standard error"
grep -q '"executionSuccessful": false' "$T/sarif/unreadable.sarif" &&
	grep -q "cannot open 'no-such-file.nvtxt'" "$T/sarif/unreadable.sarif"
ok $? "an unreadable file: a tool notification, execution not successful"
"$NVTXTC" lint --diagnostics-format=sarif --max-errors=x arity-too-few.nvtxt >"$T/sarif/usage.sarif" 2>"$T/err"
is "$?:$(cat "$T/err")" "2:" "a usage error: exit 2, the document on standard output"
cp ../../examples/*.nvtxt "$T/" 2>/dev/null
"$NVTXTC" lint --diagnostics-format=sarif "$T"/*.nvtxt >"$T/sarif/absolute-paths.sarif" 2>/dev/null
printf 'Markr, 1, 2\nTimeBase = Qcp\n' >"$T/fixme.nvtxt"
(cd "$T" && "$NVTXTC" lint --fix --diagnostics-format=sarif fixme.nvtxt >"$T/sarif/fix.sarif" 2>/dev/null)

# Where the document goes, and what is in it.
cd "$T" || exit 1
printf 'Marker, "a\\\\b\001 \303\274 \360\237\230\200 \047q\047", 1, 1, 1, 1, Red, "m", 0\n' >esc.nvtxt
"$NVTXTC" lint --diagnostics-format=sarif esc.nvtxt >esc.sarif 2>err
st=$?
cp esc.sarif "$T/sarif/escapes.sarif"
node -e 'const fs = require("fs");
	const d = JSON.parse(fs.readFileSync("esc.sarif", "utf8"));
	const src = fs.readFileSync("esc.nvtxt", "utf8");
	const snip = d.runs[0].results.map(r => r.locations[0].physicalLocation.region.snippet.text);
	const token = src.slice(8, src.indexOf("\x27\"") + 2);
	const r = d.runs[0].results.find(x => x.ruleId === "invalid-timebase");
	process.exit(snip.includes(token) && token.includes("\x01") && token.includes("\u{1F600}") &&
		r.locations[0].physicalLocation.region.startColumn === 27 ? 0 : 1)'
ok $? "strings of the input (quotes, backslash, a control character, UTF-8) come out whole; columns in UTF-16"
is "$st:$(cat err)" "1:" "sarif: exit 1 for an error, nothing on standard error"
"$NVTXTC" lint -fdiagnostics-format=json esc.nvtxt >out 2>err
st=$?
node -e 'JSON.parse(require("fs").readFileSync("err", "utf8"))' 2>/dev/null && [ ! -s out ] && [ "$st" -eq 1 ]
ok $? "-fdiagnostics-format=json: the document on standard error (as GCC)"
"$NVTXTC" lint -fdiagnostics-format=sarif-stderr esc.nvtxt >out 2>err
grep -q '"version": "2.1.0"' err && [ ! -s out ]
ok $? "-fdiagnostics-format=sarif-stderr: SARIF on standard error"
printf 'Marker, 1, "Qpc", 1, 2,,, "ok",\nRangePush, 1, Qpc, 1, 2,,,,\n' >w.nvtxt
"$NVTXTC" --emit=nvtxt --diagnostics-format=json w.nvtxt >out 2>err
node -e 'const d = JSON.parse(require("fs").readFileSync("err", "utf8"));
	process.exit(d.files[0].diagnostics[0].check === "unclosed-range" && d.warnings === 1 ? 0 : 1)' &&
	grep -q '^Marker, 1' out
ok $? "--emit=nvtxt: the normal form on standard output, the document on standard error"
"$NVTXTC" fmt --diagnostics-format=json w.nvtxt >out 2>err
node -e 'JSON.parse(require("fs").readFileSync("err", "utf8"))' && grep -q '^Marker, 1' out
ok $? "fmt: the formatted text on standard output, the document on standard error"
"$NVTXTC" lint --diagnostics-format=json --diagnostics-output=doc.json w.nvtxt >out 2>err
is "$?:$(cat out err)" "0:" "--diagnostics-output=FILE: nothing on standard output or error"
node -e 'const d = JSON.parse(require("fs").readFileSync("doc.json", "utf8")); process.exit(d.schema_version === 1 ? 0 : 1)'
ok $? "--diagnostics-output=FILE: the document in FILE"
mkdir ro && chmod 555 ro
# (as root, as nobody: root writes anywhere)
as_user "$NVTXTC" lint --diagnostics-format=json --diagnostics-output=ro/doc.json w.nvtxt >out 2>err
is "$?:$(ls -A ro)" "2:" "--diagnostics-output in a directory that cannot be written: exit 2, no file"
if [ -c /dev/full ]; then
	"$NVTXTC" lint --diagnostics-format=json --diagnostics-output=/dev/full w.nvtxt >out 2>err
	is "$?" 2 "--diagnostics-output that cannot be written (/dev/full): exit 2"
fi
"$NVTXTC" lint --diagnostics-format=json --max-errors=x w.nvtxt >out 2>err
st=$?
node -e 'const d = JSON.parse(require("fs").readFileSync("out", "utf8"));
	process.exit(d.messages[0].check === "usage" && d.messages[0].severity === "error" && d.exit_status === 2 ? 0 : 1)' &&
	[ "$st" -eq 2 ] && [ ! -s err ]
ok $? "a usage error is in the document (messages, check usage), exit 2"
"$NVTXTC" lint --diagnostics-output=doc.json w.nvtxt >out 2>err
is "$?" 2 "--diagnostics-output without json or sarif is a usage error"
"$NVTXTC" lint --diagnostics-format=xml w.nvtxt >out 2>err
is "$?" 2 "an unknown --diagnostics-format is a usage error"
grep -q 'expects text, json or sarif' err
ok $? "an unknown --diagnostics-format says which formats there are"

# Every input is its own entry, in command-line order, even the same file twice (nvtxtc(1), JSON DIAGNOSTICS).
printf 'Marker, 1, Qcp, 1, 2,,, "hi",\n' >a.nvtxt
for j in 1 2; do
	"$NVTXTC" lint -j $j --diagnostics-format=json a.nvtxt w.nvtxt a.nvtxt >dup.json 2>err
	node -e 'const d = JSON.parse(require("fs").readFileSync("dup.json", "utf8"));
		const f = d.files.map(x => `${x.file}:${x.errors}:${x.warnings}:${x.diagnostics.map(y => y.check)}`).join(" ");
		if (f !== "a.nvtxt:1:0:invalid-timebase w.nvtxt:0:1:unclosed-range a.nvtxt:1:0:invalid-timebase" || d.errors !== 2)
			{ console.log("# " + f + " errors " + d.errors); process.exit(1); }'
	ok $? "JSON, -j $j: a file named twice is two entries of files[], in command-line order, each with its own counts"
	"$NVTXTC" lint -j $j --diagnostics-format=sarif a.nvtxt w.nvtxt a.nvtxt >"$T/sarif/dup-j$j.sarif" 2>err
	node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs[0];
		const arts = r.artifacts.map(a => a.location.uri).join(" ");
		const order = r.results.map(x => `${x.locations[0].physicalLocation.artifactLocation.index}:${x.ruleId}`).join(" ");
		process.exit(arts === "a.nvtxt w.nvtxt a.nvtxt" && order === "0:invalid-timebase 1:unclosed-range 2:invalid-timebase" ? 0 : 1)' \
		"$T/sarif/dup-j$j.sarif"
	ok $? "SARIF, -j $j: a file named twice is two artifacts, the results in command-line order"
done
"$NVTXTC" fmt --check --diagnostics-format=json a.nvtxt a.nvtxt >out 2>dup.json
node -e 'const d = JSON.parse(require("fs").readFileSync("dup.json", "utf8"));
	process.exit(d.files.map(x => x.file).join(" ") === "a.nvtxt a.nvtxt" ? 0 : 1)'
ok $? "fmt: one entry of files[] per input, even without a diagnostic"

# A payload input: its diagnostics are at column 1 of a call (nvtxtc(1) lint), whose UTF-16 column is 1 too.
"$NVTXTC" --emit=payload -o w.payload w.nvtxt 2>/dev/null
"$NVTXTC" lint --diagnostics-format=json w.payload >p.json 2>err
node -e 'const d = JSON.parse(require("fs").readFileSync("p.json", "utf8"));
	const r = d.files[0].diagnostics[0].range;
	process.exit(r.start.column === 1 && r.start.column_utf16 === 1 && r.end.column_utf16 === 1 ? 0 : 1)'
ok $? "JSON of a payload input: column_utf16 is 1 where the column is 1"

# Fingerprints (partialFingerprints): FNV-1a 64 of the rule id, NUL, the line with white space
# collapsed, and the occurrence of that hash in the file; the same when lines are added above.
printf 'Marker, 1, Qcp, 1, 2,,, "hi",\nMarker,  1, Qcp, 1,\t2,,, "hi",\nMarker, 1, Qcp, 1, 3,,, "hi",\n' >fp.nvtxt
{ printf '# a comment\n\nProcessId = 1\n'; cat fp.nvtxt; } >fp-moved.nvtxt
"$NVTXTC" lint --diagnostics-format=sarif fp.nvtxt fp-moved.nvtxt >"$T/sarif/fingerprints.sarif" 2>err
node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs[0];
	const fnv = s => { let h = 0xcbf29ce484222325n; for (const b of Buffer.from(s, "utf8")) { h ^= BigInt(b); h = (h * 0x100000001b3n) & 0xffffffffffffffffn; } return h.toString(16).padStart(16, "0"); };
	const line = n => fnv(`invalid-timebase\0Marker, 1, Qcp, 1, ${n},,, "hi",`);
	const want = [`${line(2)}:1`, `${line(2)}:2`, `${line(3)}:1`];
	const of = i => r.results.filter(x => x.locations[0].physicalLocation.artifactLocation.index === i)
		.map(x => Object.keys(x.partialFingerprints).join() === "nvtxtc/v1" ? x.partialFingerprints["nvtxtc/v1"] : "?");
	const [a, b] = [of(0), of(1)];
	if (JSON.stringify(a) !== JSON.stringify(want) || JSON.stringify(b) !== JSON.stringify(want))
		{ console.log("# want " + want + "\n# got " + a + " / " + b); process.exit(1); }'  "$T/sarif/fingerprints.sarif"
ok $? "fingerprints: the documented hash, occurrences counted, unchanged by lines added above"

# The path shapes of SARIF URIs (nvtxtc(1), SARIF DIAGNOSTICS): normalised (no "." or ".." segment,
# no empty one), relative to SRCROOT below the working directory, an absolute file URI outside it,
# percent-encoded; standard input without --stdin-name is no file.
m="$T/m"
mkdir -p "$m/work/d/sub" "$m/work/with space" "$m/work/100%" "$m/outside dir"
for f in "d/x.nvtxt" "with space/x.nvtxt" "100%/x.nvtxt" "a#b?.nvtxt" "$(printf '\303\274\342\202\254\360\237\230\200.nvtxt')" 'back\slash.nvtxt'; do
	cp a.nvtxt "$m/work/$f"
done
cp a.nvtxt "$m/outside dir/x.nvtxt"
cp w.payload "$m/work/p.payload"
ln -s work "$m/link"
mdir=$(node -e 'console.log(encodeURI(process.argv[1]))' "$m")
cd "$m/work" || exit 1
n=0
# path_case ARG URI BASE WHAT: the document of `lint ARG` names the input URI (against BASE, "-" for none)
path_case() {
	n=$((n + 1))
	"$NVTXTC" lint --diagnostics-format=sarif "$1" >"$T/sarif/path-$n.sarif" 2>/dev/null
	node -e 'const [file, uri, base] = process.argv.slice(1);
		const r = JSON.parse(require("fs").readFileSync(file, "utf8")).runs[0];
		const a = r.artifacts[0].location, loc = r.results[0].locations[0].physicalLocation.artifactLocation;
		const got = `${a.uri} ${a.uriBaseId || "-"} ${loc.uri} ${loc.uriBaseId || "-"} ${loc.index}`;
		if (got !== `${uri} ${base} ${uri} ${base} 0` || !r.results[0].partialFingerprints["nvtxtc/v1"])
			{ console.log(`# got ${got}, want ${uri} ${base}`); process.exit(1); }' "$T/sarif/path-$n.sarif" "$2" "$3"
	ok $? "SARIF URI of $4"
}
path_case "d/sub/../x.nvtxt" "d/x.nvtxt" SRCROOT "'..' in the middle"
path_case "d//x.nvtxt" "d/x.nvtxt" SRCROOT "'//'"
path_case "./d/./x.nvtxt" "d/x.nvtxt" SRCROOT "'.' segments"
path_case "with space/x.nvtxt" "with%20space/x.nvtxt" SRCROOT "a space"
path_case "100%/x.nvtxt" "100%25/x.nvtxt" SRCROOT "'%'"
path_case "a#b?.nvtxt" "a%23b%3F.nvtxt" SRCROOT "'#' and '?'"
path_case "$(printf '\303\274\342\202\254\360\237\230\200.nvtxt')" "%C3%BC%E2%82%AC%F0%9F%98%80.nvtxt" SRCROOT "non-ASCII (UTF-8 bytes)"
path_case 'back\slash.nvtxt' "back%5Cslash.nvtxt" SRCROOT "a backslash (a character of a POSIX name)"
path_case "$m/work/d/x.nvtxt" "d/x.nvtxt" SRCROOT "an absolute path inside the working directory"
path_case "$m/work/with space/../d/x.nvtxt" "d/x.nvtxt" SRCROOT "an absolute path inside, with a space and '..'"
path_case "$m/outside dir/x.nvtxt" "file://$mdir/outside%20dir/x.nvtxt" - "an absolute path outside the working directory"
path_case "../outside dir/../outside dir/x.nvtxt" "file://$mdir/outside%20dir/x.nvtxt" - "a relative path outside, with '..'"
path_case "p.payload" "p.payload" SRCROOT "a payload input"
node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs[0];
	const g = r.results[0].locations[0].physicalLocation.region;
	process.exit(g.startLine === 2 && g.startColumn === 1 && g.endLine === 2 && g.endColumn === 1 ? 0 : 1)' "$T/sarif/path-$n.sarif"
ok $? "a payload input: the region is line and column 1 of the call, start and end"
node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs[0];
	process.exit(r.originalUriBaseIds.SRCROOT.uri === `file://${process.argv[2]}/work/` &&
		r.invocations[0].workingDirectory.uri === r.originalUriBaseIds.SRCROOT.uri ? 0 : 1)' "$T/sarif/path-1.sarif" "$mdir"
ok $? "SRCROOT is the working directory as a file URI ending in '/'"
(cd "$m/link" && "$NVTXTC" lint --diagnostics-format=sarif "$m/link/d/x.nvtxt" >"$T/sarif/path-link.sarif" 2>/dev/null)
grep -q '"uri": "d/x.nvtxt"' "$T/sarif/path-link.sarif"
ok $? "an absolute path through the symbolic link that \$PWD names: relative to SRCROOT"
"$NVTXTC" lint --diagnostics-format=sarif d/sub/../x.nvtxt "$m/outside dir/x.nvtxt" 'back\slash.nvtxt' p.payload \
	>"$T/sarif/path-all.sarif" 2>/dev/null
node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs[0];
	process.exit(r.artifacts.map(a => a.location.uri).join(" ") ===
		`d/x.nvtxt file://${process.argv[2]}/outside%20dir/x.nvtxt back%5Cslash.nvtxt p.payload` ? 0 : 1)' \
	"$T/sarif/path-all.sarif" "$mdir"
ok $? "several path shapes in one run: one artifact each, in command-line order"
"$NVTXTC" lint --diagnostics-format=sarif - <"$T/a.nvtxt" >"$T/sarif/stdin-unnamed.sarif" 2>/dev/null
node -e 'const text = require("fs").readFileSync(process.argv[1], "utf8"), r = JSON.parse(text).runs[0];
	const loc = r.results[0].locations[0], fix = r.results[0].fixes[0].artifactChanges[0].artifactLocation;
	process.exit(!text.includes("stdin>") && !r.artifacts[0].location && r.artifacts[0].description.text &&
		!loc.physicalLocation && loc.logicalLocations[0].name === "standard input" &&
		loc.properties.region.startColumn === 12 && fix.index === 0 && fix.uri === undefined ? 0 : 1)' \
	"$T/sarif/stdin-unnamed.sarif"
ok $? "standard input without --stdin-name: no file claimed (a described artifact, a logical location)"
"$NVTXTC" lint --diagnostics-format=sarif --stdin-name="with space/../piped x.nvtxt" - <"$T/a.nvtxt" \
	>"$T/sarif/stdin-named.sarif" 2>/dev/null
grep -q '"uri": "piped%20x.nvtxt"' "$T/sarif/stdin-named.sarif"
ok $? "standard input with --stdin-name: that path, normalised and encoded"
cd "$T" || exit 1

# The rules: help (text and Markdown, from the registry), full description and default level for each.
node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs[0].tool.driver;
	const bad = d.rules.filter(r => !r.help || !r.help.text || !r.help.markdown || !r.fullDescription.text ||
		!["error", "warning"].includes(r.defaultConfiguration.level) || r.help.text.includes("`") ||
		!/\(the manual pages of nvtxtc\)/.test(r.help.text));
	for (const r of bad) console.log("# " + r.id);
	process.exit(bad.length === 0 && d.rules.length > 30 && d.informationUri === "man:nvtxtc(1)" ? 0 : 1)' \
	"$T/sarif/path-1.sarif"
ok $? "every rule has help text and Markdown, fullDescription and defaultConfiguration.level; the tool its informationUri"
"$NVTXTC" --list-checks | awk '{ print $1 }' >checks.list
node -e 'const fs = require("fs"), d = JSON.parse(fs.readFileSync(process.argv[1], "utf8")).runs[0].tool.driver;
	const w = d.rules.find(r => r.id === "rename"), e = d.rules.find(r => r.id === "arity");
	process.exit(d.rules.map(r => r.id).join("\n") === fs.readFileSync("checks.list", "utf8").trim() &&
		w.help.markdown.includes("`-Wno-rename`") && w.help.text.includes("-Wno-rename") &&
		e.help.text.includes("cannot be disabled") ? 0 : 1)' "$T/sarif/path-1.sarif"
ok $? "the rules are the checks of --list-checks; a warning's help says how to disable it, an error's that it cannot be"
"$NVTXTC" --list-checks --diagnostics-format=json >checks.json
node -e 'const fs = require("fs"), d = JSON.parse(fs.readFileSync(process.argv[1], "utf8")).runs[0].tool.driver;
	const reg = JSON.parse(fs.readFileSync("checks.json", "utf8")).checks;
	const bad = reg.filter((c, i) => !c.help || d.rules[i].id !== c.name || !d.rules[i].help.text.includes(c.help.replace(/`/g, "")) ||
		!(c.help.match(/`[^`]*`/g) || []).every(code => d.rules[i].help.markdown.includes(code)));
	for (const c of bad) console.log("# " + c.name);
	process.exit(bad.length ? 1 : 0)' "$T/sarif/path-1.sarif"
ok $? "each rule's help is the registry's (as --list-checks --diagnostics-format=json shows it), its code spans in the Markdown"

# The validator, with GitHub's rules too (--rule-kind "Sarif;Gh"): no result of level error or
# warning (a result without a level is a warning), no tool error.  Its console shows them all.
if need node_modules "the SARIF validator (@microsoft/sarif-multitool)"; then
	# npm 11 may skip the package's postinstall, which only makes the binary executable
	bin="$top/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
	[ -f "$bin" ] && [ ! -x "$bin" ] && chmod u+x "$bin"
	# The lint cases' documents are validated as the runs of a few logs of at most 20 runs (GitHub's
	# limit, the validator's GH1013; it takes about a second a file, most of it per file; its checks
	# are per run and per result, and each run is a whole document's, unchanged); the others one by one.
	node -e 'const fs = require("fs"), [dir, ...files] = process.argv.slice(1);
		const runs = files.flatMap(f => JSON.parse(fs.readFileSync(f, "utf8")).runs);
		for (let i = 0; i * 20 < runs.length; i++) {
			const log = JSON.parse(fs.readFileSync(files[0], "utf8"));
			log.runs = runs.slice(i * 20, i * 20 + 20);
			fs.writeFileSync(`${dir}/lint-cases-${i}.sarif`, JSON.stringify(log, null, 1));
		}' "$T/sarif" "$T"/docs/*.sarif
	# the binary itself: the package's wrapper runs it through a shell, which would split "Sarif;Gh"
	(cd "$T/sarif" && "$bin" validate --rule-kind "Sarif;Gh" --log ForceOverwrite -o "$T/validation.sarif" ./*.sarif) \
		>"$T/validator.out" 2>&1
	st=$?
	grep -E ': (error|warning) ' "$T/validator.out" | head -n 40 | sed 's/^/# validator: /'
	node -e '
		const log = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
		const run = log.runs[0];
		const bad = (run.results || []).filter(r => (r.level || "warning") === "error" || (r.level || "warning") === "warning");
		const broken = (run.invocations || []).flatMap(i => i.toolExecutionNotifications || []).filter(t => t.level === "error");
		for (const e of bad) console.log("# " + (e.level || "warning") + " " + e.ruleId + " " + JSON.stringify(e.message.arguments || e.message.text) +
			" in " + JSON.stringify(((e.locations || [])[0] || {}).physicalLocation || {}));
		for (const t of broken) console.log("# tool error " + t.message.text);
		console.log("# " + (run.results || []).length + " validator results, " + bad.length + " errors or warnings");
		process.exit(bad.length || broken.length ? 1 : 0);
	' "$T/validation.sarif"
	vst=$?
	ok $((st || vst)) "the SARIF validator (rules Sarif;Gh) finds no error or warning in the SARIF documents of this test ($(ls "$T/docs"/*.sarif | wc -l) lint cases, $(ls "$T/sarif" | grep -vc '^lint-cases-') other runs)"
fi
done_testing
