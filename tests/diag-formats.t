#!/bin/sh
# --diagnostics-format=json and sarif on every lint case of tests/lint/
# (with its NAME.args): tests/diag-formats.js checks that both documents
# hold the same diagnostics as the text output (checks, severities, lines,
# columns, messages, notes, counts, exit status), then every SARIF document
# of this test, and of a few more runs (several files with -j, standard
# input, an unreadable file, a usage error, --fix), is validated by
# Microsoft's SARIF validator (npx @microsoft/sarif-multitool validate, from
# the package-lock.json at the top; make check installs it with npm ci): no
# result of level error.
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

# The validator.  Its console shows warnings; its errors are in its own SARIF output.
mt="$top/node_modules/.bin/sarif-multitool"
if need node_modules "the SARIF validator (@microsoft/sarif-multitool)"; then
	# npm 11 may skip the package's postinstall, which only makes the binary executable
	bin="$top/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
	[ -f "$bin" ] && [ ! -x "$bin" ] && chmod u+x "$bin"
	# The lint cases' documents are validated as the runs of one log (the validator
	# takes about a second a file, most of it per file; its checks are per run and
	# per result, and each run is a whole document's, unchanged); the others one by one.
	node -e 'const fs = require("fs"), files = process.argv.slice(1);
		const log = JSON.parse(fs.readFileSync(files[0], "utf8"));
		log.runs = files.flatMap(f => JSON.parse(fs.readFileSync(f, "utf8")).runs);
		fs.writeFileSync("'"$T/sarif/lint-cases.sarif"'", JSON.stringify(log, null, 1));' "$T"/docs/*.sarif
	(cd "$T/sarif" && "$mt" validate --log ForceOverwrite -o "$T/validation.sarif" ./*.sarif) >"$T/validator.out" 2>&1
	st=$?
	sed 's/^/# validator: /' "$T/validator.out" | grep -v 'SARIF2005' | head -n 40
	node -e '
		const log = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
		const run = log.runs[0];
		const errors = (run.results || []).filter(r => r.level === "error");
		const broken = (run.invocations || []).flatMap(i => i.toolExecutionNotifications || []).filter(t => t.level === "error");
		for (const e of errors) console.log("# error " + e.ruleId + " " + JSON.stringify(e.message.arguments || e.message.text) +
			" in " + JSON.stringify(((e.locations || [])[0] || {}).physicalLocation || {}));
		for (const t of broken) console.log("# tool error " + t.message.text);
		console.log("# " + (run.results || []).length + " validator results, " + errors.length + " of level error");
		process.exit(errors.length || broken.length ? 1 : 0);
	' "$T/validation.sarif"
	vst=$?
	ok $((st || vst)) "the SARIF validator finds no error in the SARIF documents of this test ($(ls "$T/docs"/*.sarif | wc -l) lint cases, $(($(ls "$T/sarif" | wc -l) - 1)) other runs)"
fi
done_testing
