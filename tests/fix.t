#!/bin/sh
# nvtxtc lint --fix.  A property test over the suite's inputs (tests/lint
# with their .args, tests/emit, tests/fmt, examples): for each file that
# --fix changes, the file changed only on the lines --fix said it fixed, a
# second --fix changes nothing, no fix-it of a fixable check is left, and
# every event of the original's normal form (--emit=nvtxt) is still in the
# fixed file's (fixes only make rejected lines valid: the meaning changes
# only where a diagnostic said so).  Then the command line: '-', the
# documents, atomic writes, options.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
top=$PWD

# The sorted normal form of $1; with $2 = 1, colors without their alpha byte.
normal_form() {
	"$NVTXTC" --emit=nvtxt "$1" 2>/dev/null | if [ "$2" = 1 ]; then
		sed 's/0x[0-9A-F][0-9A-F]\([0-9A-F]\{6\}\)/0x..\1/g'
	else
		cat
	fi | sort
}

changed=0
for f in tests/lint/*.nvtxt tests/emit/*.nvtxt tests/fmt/*.nvtxt examples/*.nvtxt; do
	base=${f%.nvtxt}
	name=$(basename "$(dirname "$f")")/$(basename "$base")
	args=""
	[ -f "$base.args" ] && args=$(cat "$base.args")
	cp "$f" "$T/x.nvtxt"
	# shellcheck disable=SC2086
	"$NVTXTC" lint --fix $args "$T/x.nvtxt" >"$T/out" 2>"$T/err"
	if cmp -s "$f" "$T/x.nvtxt"; then
		! grep -q ': fixed: ' "$T/err"
		ok $? "$name: --fix changes nothing and says so"
		continue
	fi
	changed=$((changed + 1))
	[ ! -s "$T/out" ]
	ok $? "$name: --fix FILE writes nothing on standard output"
	# the lines that differ are lines that a fix named (fixes never add or remove a line)
	sed -n 's/^[^:]*x\.nvtxt:\([0-9]*\):[0-9]*: fixed: .*/\1/p' "$T/err" | sort -u >"$T/fixed.lines"
	awk 'NR == FNR { a[FNR] = $0; next } a[FNR] != $0 { print FNR }' "$f" "$T/x.nvtxt" | sort -u >"$T/diff.lines"
	[ "$(wc -l <"$f")" -eq "$(wc -l <"$T/x.nvtxt")" ] && [ -z "$(comm -23 "$T/diff.lines" "$T/fixed.lines")" ]
	ok $? "$name: only the lines that --fix reports are changed"
	sed -n 's/^[^:]*x\.nvtxt:\([0-9]*\):\([0-9]*\): fixed: .*/\1 \2/p' "$T/err" >"$T/order"
	sort -n -k1,1 -k2,2 -s "$T/order" | cmp -s - "$T/order"
	ok $? "$name: the fixes are listed in line order"
	cp "$T/x.nvtxt" "$T/y.nvtxt"
	# shellcheck disable=SC2086
	"$NVTXTC" lint --fix $args "$T/x.nvtxt" >/dev/null 2>"$T/err2"
	cmp -s "$T/x.nvtxt" "$T/y.nvtxt" && ! grep -q ': fixed: ' "$T/err2"
	ok $? "$name: a second --fix changes nothing"
	# shellcheck disable=SC2086
	"$NVTXTC" lint --diagnostics-format=json $args "$T/x.nvtxt" >"$T/left.json" 2>/dev/null
	! grep -q '"fixable": true' "$T/left.json"
	ok $? "$name: no fix-it of a fixable check is left"
	# the one fix that changes an accepted value, and says so: color-alpha sets a Color's alpha byte
	# (0xRRGGBB -> 0xFFRRGGBB), so where it was applied the normal forms are compared without alpha
	mask=0
	grep -q ': fixed: .*\[color-alpha\]$' "$T/err" && mask=1
	normal_form "$f" $mask >"$T/before.nf"
	normal_form "$T/x.nvtxt" $mask >"$T/after.nf"
	comm -23 "$T/before.nf" "$T/after.nf" >"$T/gone"
	[ ! -s "$T/gone" ]
	ok $? "$name: every event of the original normal form is in the fixed file's"
	sed 's/^/# gone: /' "$T/gone" | head -n 5
done
[ "$changed" -ge 10 ]
ok $? "--fix changed $changed of the suite's files (at least 10)"

cd "$T" || exit 1
printf '@Markr, Time, Message\nTimeBase = Qcp\nProcessId = 1\nThreadId = 2\nMarkr, 1, "a"\nMarker, 1\n' >typo.nvtxt
cp typo.nvtxt typo.orig
"$NVTXTC" lint --fix - <typo.nvtxt >out 2>err
st=$?
printf '@Marker, Time, Message\nTimeBase = Qpc\nProcessId = 1\nThreadId = 2\nMarker, 1, "a"\nMarker, 1\n' >want
same_file out want "--fix -: the fixed text on standard output, with the fixes that each fix uncovered"
cmp -s typo.nvtxt typo.orig
ok $? "--fix -: no file is written"
grep -q "^<stdin>:1:2: fixed: replaced 'Markr' with 'Marker' \[unknown-command\]$" err
ok $? "--fix says what it changed, FILE:LINE:COL: fixed: ..."
grep -q "^<stdin>:6:1: error: .*\[arity\]$" err && [ "$st" -eq 1 ] && [ "$(grep -c ': error: ' err)" -eq 1 ]
ok $? "--fix then reports what is left, and the exit status is what is left's"

"$NVTXTC" lint --fix --diagnostics-format=json typo.nvtxt >doc.json 2>err
node -e 'const d = JSON.parse(require("fs").readFileSync("doc.json", "utf8"));
	const f = d.files[0];
	process.exit(f.file === "typo.nvtxt" && f.fixed.length === 3 && f.errors === 1 && f.fixed[0].original === "Markr" &&
		f.fixed[0].replacement === "Marker" && f.fixed[0].check === "unknown-command" &&
		f.diagnostics.every(x => x.check !== "unknown-command") ? 0 : 1)' 2>/dev/null
ok $? "--fix --diagnostics-format=json: the fixes under \"fixed\", what is left under \"diagnostics\""
[ ! -s err ]
ok $? "--fix --diagnostics-format=json: nothing on standard error"
same_file typo.nvtxt want "--fix FILE rewrites the file"

printf 'Marker, 1, "a"\n' >clean.nvtxt
mkdir ro && printf '@Markr, Time\n' >ro/t.nvtxt && chmod 555 ro
# (as root, as nobody: root writes anywhere)
as_user "$NVTXTC" lint --fix ro/t.nvtxt >out 2>err
is "$?:$(cat ro/t.nvtxt)" "2:@Markr, Time" "--fix in a directory that cannot be written: exit 2, the file untouched"
ls -A ro >ls
is "$(cat ls)" "t.nvtxt" "--fix leaves no temporary behind"
chmod 755 ro
"$NVTXTC" lint --fix --emit=nvtxt clean.nvtxt >out 2>err
is "$?" 2 "--fix with --emit is a usage error"
"$NVTXTC" fmt --fix clean.nvtxt >out 2>err
is "$?" 2 "--fix is an option of lint only"
# issue 20: fixes are told in line order, once the file is written, and not at all when it is not
printf 'ProcessId = 1\nThreadId = 2\n@Markr, Time, TimeBase, Message\nMarkr, 1, Qcp, "x"\nMarker, 1, Qpc, 1, 2,, Blu, "y",\n' >"$T/order.nvtxt"
cp "$T/order.nvtxt" "$T/order.orig"
"$NVTXTC" lint --fix "$T/order.nvtxt" >/dev/null 2>"$T/err"
grep ': fixed: ' "$T/err" | sed 's/^[^:]*:\([0-9]*:[0-9]*\): fixed: .*\[\(.*\)\]$/\1 \2/' | tr '\n' ' ' >"$T/got"
is "$(cat "$T/got")" "3:2 unknown-command 4:1 unknown-command 4:12 invalid-timebase 5:24 invalid-color " \
	"20: --fix lists its fixes in line order (a fix of the second pass, line 4, before line 5)"
awk 'BEGIN { printf "TimeBase = Qcp\nProcessId = 1\nThreadId = 2\n@Marker, Time, Message\n"
	for (i = 1; i <= 20000; i++) printf "Marker, %d, \"message %d\"\n", i, i }' >"$T/big.nvtxt"
cp "$T/big.nvtxt" "$T/big.orig"
(ulimit -f 64; exec "$NVTXTC" lint --fix "$T/big.nvtxt") >/dev/null 2>"$T/err"
st=$?
cmp -s "$T/big.nvtxt" "$T/big.orig"
is "$st:$?:$(grep -c ': fixed: ' "$T/err")" "2:0:0" "20: --fix that cannot write the file: exit 2, the file as it was, no 'fixed:' line"
grep -q "^$T/big.nvtxt: note: nothing was fixed: the fixed text could not be written$" "$T/err"
ok $? "20: ... and a note says that nothing was fixed"
printf 'TimeBase = Qcp\nProcessId = 1\nThreadId = 2\n@Marker, Time, Message\nMarker, 1, "a"\n' >"$T/p.nvtxt"
"$NVTXTC" lint --fix - <"$T/p.nvtxt" >/dev/full 2>"$T/err"
is "$?:$(grep -c ': fixed: ' "$T/err"):$(grep -c 'nothing was fixed' "$T/err")" "2:0:1" \
	"20: --fix - to a full standard output: no 'fixed:' line, nothing was fixed"
# The traps of the first hour (issue 20): each fix-it, applied by --fix, leaves a file that lints clean.
# trap NAME TEXT: TEXT (printf format) after a preamble of statics and definitions
trap_fix() {
	printf 'TimeBase = Qpc\nProcessId = 1\nThreadId = 2\n@Marker, Time, Color, Message\n@RangePush, Time, ThreadId, Message\n@RangePop, Time\n'"$2" >trap.nvtxt
	"$NVTXTC" lint trap.nvtxt >/dev/null 2>before
	b=$?
	"$NVTXTC" lint --fix trap.nvtxt >/dev/null 2>fixed
	"$NVTXTC" lint trap.nvtxt >out 2>err
	a=$?
	[ "$b" != 0 ] || grep -q ': warning: ' before
	ok $? "trap $1: diagnosed before the fix"
	grep -q ': fixed: ' fixed && [ "$a" = 0 ] && [ ! -s err ]
	ok $? "trap $1: --fix applies the fix-it and the file then lints clean"
	sed 's/^/# /' err | head -n 5
}
trap_fix "six-digit hex color" 'Marker, 1002, 0xFF0000, "z"\nRangePush, 1, 2, "a"\nRangePop, 2\n'
trap_fix "quoted six-digit hex color" 'Marker, 1002, "0xff0000", "z"\n'
trap_fix "CSS #RRGGBB color" 'Marker, 1002, "#FF0000", "z"\n'
trap_fix "CSS #RGB color" 'Color = #F00\n@Marker, Time, Message\nMarker, 1002, "z"\n'
trap_fix "abbreviated argument name" '@Marker, Time, Msg\nMarker, 1, "a"\n'
trap_fix "missing comma between Integers" 'RangePush, 1100 2, "x"\nRangePop, 1200\n'
trap_fix "unquoted Message with a comma" 'Marker, 100,, hello, world\n'
trap_fix "misspelt RangePop" 'RangePush, 1, 2, "a"\nRangPop, 2\n'
# one slip, one error: the misspelt RangePop is the only diagnostic, also under -Werror
printf '@RangePush, Time, TimeBase, ProcessId, ThreadId\n@RangePop, Time, TimeBase, ProcessId, ThreadId\nRangePush, 1, Qpc, 1, 2\nRangPop, 2, Qpc, 1, 2\n' >slip.nvtxt
"$NVTXTC" lint -Werror slip.nvtxt >out 2>err
is "$(grep -c ': error: ' err):$(grep -c ': warning: ' err)" "1:0" "trap misspelt RangePop: one error, the push not reported as never popped"
# "say \"hi\"": the message's suggestion, put in place of the string, lints clean
printf '@Marker, Time, TimeBase, ProcessId, ThreadId, Message\nMarker, 1, Qpc, 1, 2, "say \\"hi\\""\n' >esc.nvtxt
"$NVTXTC" lint esc.nvtxt >/dev/null 2>err
sugg=$(sed -n "s/.*written in single quotes: \('.*'\) \[syntax\]\$/\1/p" err)
is "$sugg" "'say \"hi\"'" "trap backslash escape: the message suggests the string in single quotes"
printf '@Marker, Time, TimeBase, ProcessId, ThreadId, Message\nMarker, 1, Qpc, 1, 2, %s\n' "$sugg" >esc.nvtxt
"$NVTXTC" lint esc.nvtxt >out 2>err
ok $? "trap backslash escape: the suggestion, followed, lints clean"
is "$("$NVTXTC" --emit=nvtxt esc.nvtxt 2>&1 | tail -n 1)" "Marker, 1, \"Qpc\", 1, 2,,, 'say \"hi\"'," "trap backslash escape: the message is say \"hi\""
# --fix streams: the text is never held in memory (a regular file is read
# where it is, each pass writes its text to a temporary), so 100 MB with a
# fix on the first line are fixed in 64 MiB of address space
mem=65536
if ! sh -c 'ulimit -v "$1" && "$2" --version' sh "$mem" "$NVTXTC" >/dev/null 2>&1; then
	mem=unlimited # a sanitizer build reserves terabytes of address space
	echo "# $NVTXTC does not run under ulimit -v (a sanitizer build?): no memory cap"
fi
awk 'BEGIN { printf "TimeBase = Qcp\nProcessId = 1\nThreadId = 2\n@Marker, Time, Message\n"
	for (i = 1; i <= 3000000; i++) printf "Marker, %d, \"message %d\"\n", i, i }' >"$T/huge.nvtxt"
(ulimit -v "$mem" 2>/dev/null; exec "$NVTXTC" lint --fix "$T/huge.nvtxt") >"$T/out" 2>"$T/err"
is "$?:$(head -n 1 "$T/huge.nvtxt"):$(wc -l <"$T/huge.nvtxt" | tr -d ' ')" "0:TimeBase = Qpc:3000004" \
	"--fix of 100 MB in 64 MiB of address space: fixed, exit 0, every line kept"
grep -q "huge.nvtxt:1:12: fixed: replaced 'Qcp' with 'Qpc' \[invalid-timebase\]" "$T/err"
ok $? "... and it says what it fixed"
rm -f "$T/huge.nvtxt"

# --fix - copies standard input to an unnamed temporary file in $TMPDIR:
# while it waits for the rest of its input, one of its descriptors is there
mkdir "$T/tmpd" && mkfifo "$T/in"
TMPDIR=$T/tmpd "$NVTXTC" lint --fix - <"$T/in" >"$T/out" 2>"$T/err" &
pid=$!
exec 4>"$T/in"
printf 'TimeBase = Qcp\nProcessId = 1\nThreadId = 2\n@Marker, Time, Message\n' >&4
spooled=$(spooled_in $pid "$T/tmpd")
printf 'Marker, 1, "a"\n' >&4
exec 4>&-
wait $pid
is "$?:$spooled:$(head -n 1 "$T/out")" "0:yes:TimeBase = Qpc" "--fix - spools standard input in \$TMPDIR and prints the fixed text"
is "$(ls -A "$T/tmpd")" "" "... and leaves nothing there"
done_testing
