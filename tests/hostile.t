#!/bin/sh
# Hostile inputs (issue 6): each is generated into $T at run time and run
# under `timeout 60` and a memory cap (ulimit -v, 1 GiB), and must end with
# its exact exit status and a clear diagnostic, within bounded time, memory
# and output.  Also: output files (-o, fmt -i) interrupted by a signal keep
# the previous file and leave no temporary behind.
#
# Tests marked "# TODO reported" document a problem found and reported but
# not fixed yet; they pass (for prove) either way and turn into ordinary
# tests once fixed (drop the TODO).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

MEM_KB=1048576
LIMIT=60
# A sanitizer build reserves terabytes of address space: no ulimit -v then.
if ! sh -c 'ulimit -v "$1" && "$2" --version; exit $?' sh "$MEM_KB" "$NVTXTC" >/dev/null 2>&1; then
	MEM_KB=unlimited
	echo "# $NVTXTC does not run under ulimit -v (a sanitizer build?): no memory cap"
fi

# run ARG...: nvtxtc under the time and memory caps; stdout in $T/out,
# stderr in $T/err, the exit status in $st (124: timed out).
run() {
	(ulimit -v "$MEM_KB" 2>/dev/null; exec timeout "$LIMIT" "$NVTXTC" "$@") >"$T/out" 2>"$T/err"
	st=$?
}

# tap STATUS NAME [TODO-REASON]: like ok, with an optional TODO directive
# (a failing TODO test is not counted as a failure).
tap() {
	tap_n=$((tap_n + 1))
	dir=""
	[ -n "${3:-}" ] && dir=" # TODO $3"
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2$dir"
	else
		echo "not ok $tap_n - $2$dir"
		[ -z "${3:-}" ] && tap_failed=$((tap_failed + 1))
	fi
}

# expect NAME STATUS PATTERN [TODO-REASON]: after run, the exit status is
# STATUS, standard error matches the extended regexp PATTERN (none: "-";
# empty standard error: ""), and the run ended in time.
expect() {
	e_ok=0
	if [ "$st" -eq 124 ]; then
		echo "# $1: did not finish within $LIMIT s"
		e_ok=1
	elif [ "$st" -ne "$2" ]; then
		echo "# $1: exit status $st, expected $2"
		e_ok=1
	fi
	case $3 in
	-) ;;
	"") if [ -s "$T/err" ]; then echo "# $1: expected no diagnostics"; e_ok=1; fi ;;
	*) if ! grep -Eq -- "$3" "$T/err"; then echo "# $1: no diagnostic matching /$3/"; e_ok=1; fi ;;
	esac
	[ "$e_ok" -ne 0 ] && head -c 2000 "$T/err" | head -n 8 | cut -c1-200 | sed 's/^/#   /'
	tap "$e_ok" "$1: exit $2$([ "$3" != - ] && [ -n "$3" ] && printf ", /%s/" "$3") within ${LIMIT}s and ${MEM_KB} KiB" "${4:-}"
}

# bounded NAME MAXLINES: the diagnostics of the last run have at most MAXLINES lines.
bounded() {
	n=$(wc -l <"$T/err")
	[ "$n" -le "$2" ]
	tap $? "$1: at most $2 lines of diagnostics (got $n)" "${3:-}"
}

a_run() { head -c "$1" /dev/zero | tr '\0' a; }

# --- long lines ----------------------------------------------------------
# A line may have at most 131071 bytes before its line break (nvtxt(5),
# Lines): a longer one is one error, with its line, the limit and its
# length, and is skipped without being kept, so memory does not follow the
# longest line; the lines after it are checked as usual.
{ echo 'Marker, -1, Qpc, 1, 2,,, "a",'; printf 'Marker, 1, Qpc, 1, 2,,, "'; a_run 131044; printf '",\n'
  echo 'Marker, -2, Qpc, 1, 2,,, "b",'; } >"$T/limit.nvtxt"
[ "$(sed -n 2p "$T/limit.nvtxt" | wc -c)" -eq 131072 ]
tap $? "a line of 131071 bytes and its line break: made"
run lint "$T/limit.nvtxt"
expect "a line of 131071 bytes" 1 "limit.nvtxt:3:9: error: expected an Integer timestamp"
! grep -q 'line-too-long' "$T/err"
tap $? "a line of 131071 bytes is checked, not too long"
[ "$(grep -c error: "$T/err")" -eq 2 ]
tap $? "a line of 131071 bytes: the errors of lines 1 and 3 only"

# long_line BYTES: a file of three lines, the second a Marker of BYTES
# bytes before its line break, written through a pipe.
long_line() {
	echo 'Marker, -1, Qpc, 1, 2,,, "a",'
	printf 'Marker, 1, Qpc, 1, 2,,, "'; a_run $(($1 - 27)); printf '",\n'
	echo 'Marker, -2, Qpc, 1, 2,,, "b",'
}
# run_pipe BYTES ARG...: nvtxtc ARG... - reading long_line BYTES from a pipe, in 64 MiB
run_pipe() {
	n=$1
	shift
	mem=65536
	[ "$MEM_KB" = unlimited ] && mem=unlimited
	long_line "$n" | (ulimit -v "$mem" 2>/dev/null; exec timeout "$LIMIT" "$NVTXTC" "$@" -) >"$T/out" 2>"$T/err"
	st=$?
}
run_pipe 131072 lint
expect "a line of 131072 bytes from a pipe" 1 \
	"^<stdin>:2:1: error: line too long: a line may have at most 131071 bytes before its line break, and this one has 131072; it is skipped \[line-too-long\]$"
grep -q '^<stdin>:3:9: error: expected an Integer timestamp' "$T/err" &&
	grep -q '^<stdin>:1:9: error: expected an Integer timestamp' "$T/err" && [ "$(grep -c error: "$T/err")" -eq 3 ]
tap $? "a line of 131072 bytes: the lines around it are checked (lines 1 and 3 reported)"
LIMIT=60
for cmd in lint "lint -j 1" --emit=nvtxt info; do
	# shellcheck disable=SC2086
	run_pipe 200000000 $cmd
	expect "a 200 MB line from a pipe, $cmd, in 64 MiB of address space" 1 \
		"^<stdin>:2:1: error: line too long: .* this one has 200000000; it is skipped"
	[ "$(wc -c <"$T/err")" -le 4096 ]
	tap $? "a 200 MB line, $cmd: at most 4 KiB of diagnostics"
done

# An error past the first 4096 bytes of a line: the excerpt is a window
# around the column, with the offending token under the caret.
{ printf 'Marker, 1, Qpc, 1, 2,,, "'; a_run 5000; printf '", bogus\n'; } >"$T/far.nvtxt"
run lint --color=never "$T/far.nvtxt"
expect "an error at column 5029" 1 "^[^:]*far.nvtxt:1:5029: error: expected an Integer for Payload"
sed -n 2p "$T/err" | grep -q 'bogus'
tap $? "an error at column 5029: the excerpt shows the offending token"

# A call with 2*10^7 values (20 MB of commas): a line that long is too
# long, and skipped as a whole; under the limit, a line stops keeping values
# after 1024 and says so (tests/lint/too-many-values); memory stays small.
{ printf 'Marker, 1, Qpc, 1, 2'; head -c 20000000 /dev/zero | tr '\0' ,; echo; } >"$T/commas.nvtxt"
run lint "$T/commas.nvtxt"
expect "a call with 2*10^7 values" 1 "line too long: .* this one has 20000020; it is skipped"
{ printf 'Marker, 1, Qpc, 1, 2'; head -c 100000 /dev/zero | tr '\0' ,; echo; } >"$T/commas.nvtxt"
run lint "$T/commas.nvtxt"
expect "a call with 10^5 values" 1 "too many values on one line: a command takes at most 9"
rm -f "$T/commas.nvtxt"

# --- encodings -----------------------------------------------------------
printf 'Marker, 1, Qpc, 1, 2,,, "a\000b",\n' >"$T/nul.nvtxt"
run lint "$T/nul.nvtxt"
expect "a NUL byte in a string" 1 "nul.nvtxt:1:27: error: NUL byte"
printf 'Marker, 1, Qpc, 1, 2,,,,\000\000\000\n\000Marker' >"$T/nul2.nvtxt"
run lint "$T/nul2.nvtxt"
expect "NUL bytes between values and lines" 1 "NUL byte"
run fmt "$T/nul2.nvtxt"
expect "fmt of NUL bytes" 1 "NUL byte"

if need iconv "UTF-16 inputs"; then
	printf 'Marker, 1, Qpc, 1, 2,,, "ok",\n' | iconv -f UTF-8 -t UTF-16 >"$T/u16bom.nvtxt"
	run lint "$T/u16bom.nvtxt"
	expect "UTF-16 with a byte order mark" 1 "is UTF-16 .*byte order mark"
	printf 'Marker, 1, Qpc, 1, 2,,, "ok",\n' | iconv -f UTF-8 -t UTF-16LE >"$T/u16le.nvtxt"
	run lint "$T/u16le.nvtxt"
	expect "UTF-16LE without a byte order mark" 1 "looks like UTF-16"
	printf 'Marker, 1, Qpc, 1, 2,,, "ok",\n' | iconv -f UTF-8 -t UTF-16BE >"$T/u16be.nvtxt"
	run lint "$T/u16be.nvtxt"
	expect "UTF-16BE without a byte order mark" 1 "looks like UTF-16"
	run fmt "$T/u16le.nvtxt"
	expect "fmt of UTF-16" 1 "UTF-16"
fi

# Invalid UTF-8: a stray byte, an overlong form, a surrogate, a code point
# over U+10FFFF, a sequence cut by the end of the line and by the end of the file.
for bad in 'stray \377' 'overlong \300\257' 'surrogate \355\240\200' \
	'over-U+10FFFF \364\220\200\200' 'truncated \342\202'; do
	name=${bad%% *}
	bytes=${bad#* }
	printf "Marker, 1, Qpc, 1, 2,,, \"x${bytes}y\",\n" >"$T/utf8.nvtxt"
	run lint "$T/utf8.nvtxt"
	expect "invalid UTF-8 ($name) in a string" 1 "invalid UTF-8"
done
printf 'Marker, 1, Qpc, 1, 2,,, x\342\202' >"$T/utf8e.nvtxt"
run lint "$T/utf8e.nvtxt"
expect "a UTF-8 sequence cut by the end of the file" 1 "invalid UTF-8"
# nvtxt(5): "the text of a comment is not checked"; fmt keeps its bytes.
printf '# comment \377\300\nMarker, 1, Qpc, 1, 2,,, "x",\n' >"$T/utf8c.nvtxt"
run lint "$T/utf8c.nvtxt"
expect "invalid UTF-8 in a comment (not checked)" 0 ""
run fmt "$T/utf8c.nvtxt"
cmp -s "$T/out" "$T/utf8c.nvtxt"
tap $? "fmt keeps the bytes of a comment with invalid UTF-8"

# --- deep and wide -------------------------------------------------------
awk 'BEGIN { for (i = 1; i <= 1000000; i++) printf "RangePush, %d, Qpc, 1, 2,,,,\n", i }' >"$T/push.nvtxt"
run lint "$T/push.nvtxt"
expect "10^6 nested pushes on one thread, never popped" 0 "999950 more warnings not shown \(--max-errors=50\)"
bounded "10^6 nested pushes" 205
awk 'BEGIN { for (i = 1; i <= 1000000; i++) printf "RangePop, %d, Qpc, 1, 2\n", 1000000 + i }' >>"$T/push.nvtxt"
run lint "$T/push.nvtxt"
expect "10^6 nested pushes on one thread, all popped" 0 ""
rm -f "$T/push.nvtxt"

# About 1.5 KiB per open thread (each thread's stack starts with room for 8
# pushes): 10^6 threads run out of 1 GiB.
awk 'BEGIN { for (i = 1; i <= 1000000; i++) printf "RangePush, %d, Qpc, 1, %d,,,,\n", i, i }' >"$T/threads.nvtxt"
run lint "$T/threads.nvtxt"
expect "10^6 open threads" 0 "999950 more warnings not shown \(--max-errors=50\)"
bounded "10^6 open threads" 205
rm -f "$T/threads.nvtxt"

awk 'BEGIN { for (i = 1; i <= 1000000; i++) printf "AddChildCategory, %d, %d\n", i, i + 1 }' >"$T/chain.nvtxt"
run lint "$T/chain.nvtxt"
expect "a category chain 10^6 long" 0 ""
printf 'AddChildCategory, 1000001, 1\n' >>"$T/chain.nvtxt"
run lint "$T/chain.nvtxt"
expect "a category cycle 10^6 long" 1 "would close a cycle of 1000001 categories .*: 1 -> 2 -> .* -> 1000001 -> 1 \[category-cycle\]$"
grep -q '^1 error generated\.$' "$T/err"
tap $? "a category cycle 10^6 long: one error"
[ "$(wc -c <"$T/err")" -le 4096 ]
tap $? "a category cycle 10^6 long: the cycle is cut (at most 4 KiB of diagnostics)"
rm -f "$T/chain.nvtxt"

# A cycle of 10^4 categories: the first 16 other calls get a note, the rest are counted.
awk 'BEGIN { for (i = 1; i < 10000; i++) printf "AddChildCategory, %d, %d\n", i, i + 1; print "AddChildCategory, 10000, 1" }' >"$T/cycle.nvtxt"
run lint "$T/cycle.nvtxt"
expect "a category cycle of 10^4" 1 "would close a cycle of 10000 categories"
[ "$(grep -c ': note: category [0-9]* was made a child of' "$T/err")" = 16 ]
tap $? "a category cycle of 10^4: 16 notes at the calls of the cycle"
grep -q ': note: and 9983 more calls of the cycle, not shown$' "$T/err"
tap $? "a category cycle of 10^4: the last note counts the 9983 calls not shown"
rm -f "$T/cycle.nvtxt"

awk 'BEGIN {
	for (i = 1; i <= 100000; i++) printf "Var%d = %d\n", i, i
	for (i = 1; i <= 100000; i++) printf "@Marker, Time, TimeBase, ProcessId, ThreadId, CategoryId, Color, Message, Payload\n"
	print "Marker, 1, Qpc, 1, 2,,, $Var99999x,"
}' >"$T/vars.nvtxt"
run lint "$T/vars.nvtxt"
expect "10^5 variables and definitions" 1 "undefined variable 'Var99999x'; did you mean 'Var99999'\?"

d=$(a_run 10000 | tr a 9)
printf 'Marker, %s, Qpc, 1, 2,,, "x",\nX = -%s\nMarker, 1, Qpc, 1, 2,,, "x", 0x%s\n' "$d" "$d" "$d" >"$T/digits.nvtxt"
run lint "$T/digits.nvtxt"
expect "integers of 10^4 digits" 1 "integer 9+\.\.\. is out of range"
grep -q '^3 errors generated\.$' "$T/err"
tap $? "integers of 10^4 digits: three errors (decimal, negative, hexadecimal)"
[ "$(wc -c <"$T/err")" -le 4096 ]
tap $? "integers of 10^4 digits: the diagnostics are bounded"

awk 'BEGIN { print "V0 = -1"; for (i = 1; i <= 100000; i++) printf "V%d = $V%d\n", i, i - 1
	print "NameProcess, $V100000, \"x\"" }' >"$T/expand.nvtxt"
run lint "$T/expand.nvtxt"
expect "a chain of 10^5 expansions" 1 "expected an Integer >= 0 for ProcessId, found integer -1"
awk 'BEGIN { s = ""; for (i = 0; i < 10000; i++) s = s "a"; printf "X = \"%s\"\n", s
	for (i = 1; i <= 100000; i++) printf "Marker, %d, Qpc, 1, 2,,, $X,\n", i }' >"$T/repeat.nvtxt"
run lint "$T/repeat.nvtxt"
expect "10^5 expansions of a 10 KB string" 0 ""
rm -f "$T/repeat.nvtxt" "$T/expand.nvtxt" "$T/vars.nvtxt"

# --- files that are not NVTXT --------------------------------------------
: >"$T/empty.nvtxt"
for cmd in lint "--emit=nvtxt" fmt; do
	run $cmd "$T/empty.nvtxt"
	[ "$st" -eq 0 ] && ! [ -s "$T/out" ] && ! [ -s "$T/err" ]
	tap $? "an empty file: nvtxtc $cmd exits 0 and prints nothing"
done

mkdir "$T/adir"
run lint "$T/adir"
expect "a directory without any .nvtxt file as FILE" 2 "adir.*directory"
run fmt "$T/adir"
expect "a directory without any .nvtxt file as FILE to fmt" 2 "adir.*directory"
run dump "$T/adir"
expect "a directory as FILE to dump" 2 "adir.*directory"
printf 'x\n' >"$T/plain"
run lint "$T/plain/x.nvtxt"
expect "a path through a regular file" 2 "cannot open '.*plain/x.nvtxt'"
# (as root, as nobody: root reads anything)
printf 'Marker, 1, Qpc, 1, 2,,,,\n' >"$T/locked.nvtxt"
chmod 000 "$T/locked.nvtxt"
as_user "$NVTXTC" lint "$T/locked.nvtxt" >"$T/out" 2>"$T/err"
st=$?
expect "an unreadable file" 2 "cannot open '.*locked.nvtxt'"

# 1 MB of random bytes (fixed seed): a bounded number of lines, ending with
# the summary of what was not shown.
awk 'BEGIN { srand(6); for (i = 0; i < 1000000; i++) printf "%c", 1 + int(rand() * 255) }' >"$T/garbage"
for max in 50 3; do
	run lint --max-errors=$max "$T/garbage"
	expect "1 MB of random bytes, --max-errors=$max" 1 "not shown \(--max-errors=$max\)"
	bounded "1 MB of random bytes, --max-errors=$max" $((4 * max + 5))
	tail -n 2 "$T/err" | head -n 1 | grep -q "more errors\{0,1\}.* not shown (--max-errors=$max)$"
	tap $? "1 MB of random bytes, --max-errors=$max: the summary of what was not shown comes last"
done
run fmt "$T/garbage"
expect "fmt of 1 MB of random bytes" 1 "not formatted"
bounded "fmt of 1 MB of random bytes" 205

# --- payload files whose counts and offsets point past the end ----------
# Patches of a real payload (nvtxt-payload(5), format 2.0); offsets of
# vse-example: header 0-63, the time domain's section at 64 (body at 80),
# the schema's at 136 (body at 152), the batch's at 1216 (body at 1232, its
# event at 1296, flexData at 1360).
le64() {
	h=$1 s="" i=16
	while [ $i -gt 0 ]; do
		s="$s\\$(printf '%03o' "0x$(printf '%s' "$h" | cut -c$((i - 1))-$i)")"
		i=$((i - 2))
	done
	printf "$s"
}
put64() { le64 "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }
payload_ok=1
run --emit=payload -o "$T/good.payload" examples/vse-example.nvtxt
[ "$st" -eq 0 ] && [ "$(wc -c <"$T/good.payload")" -eq 1376 ] && payload_ok=0
tap $payload_ok "the payload of examples/vse-example.nvtxt has the layout these tests patch"
if [ $payload_ok -eq 0 ]; then
	while read -r name off val; do
		cp "$T/good.payload" "$T/bad.payload"
		put64 "$T/bad.payload" "$off" "$val"
		run dump "$T/bad.payload"
		expect "payload $name (u64 at $off = 0x$val): dump" 1 "bad.payload: error: offset [0-9]+: "
		run --emit=nvtxt "$T/bad.payload"
		expect "payload $name: --emit=nvtxt" 1 "offset [0-9]+: "
	done <<-'EOF'
	file-size-past-end 24 0000000000010000
	file-size-2^64-1 24 FFFFFFFFFFFFFFFF
	ordinals-2^64-1 32 FFFFFFFFFFFFFFFF
	sections-2^64-1 40 FFFFFFFFFFFFFFFF
	section-length-wraps 72 FFFFFFFFFFFFFFF8
	section-length-past-end 72 0000000000001000
	batch-size-past-end 1240 7FFFFFFFFFFFFFC0
	batch-size-wraps 1240 FFFFFFFFFFFFFFC0
	batch-events-offset-wraps 1248 FFFFFFFFFFFFFFF8
	flexdata-offset-2^64-1 1272 FFFFFFFFFFFFFFFF
	flexdata-size-wraps 1280 FFFFFFFFFFFFFFF0
	message-offset-past-flexdata 1344 FFFFFFFF00000000
	schema-name-offset-2^64-1 160 FFFFFFFFFFFFFFFF
	schema-entries-offset-wraps 184 FFFFFFFFFFFFFFC0
	schema-entry-count-times-64-wraps 192 0400000000000000
	schema-static-size-huge 200 4000000000000000
	EOF
	head -c 1000 "$T/good.payload" >"$T/bad.payload"
	run dump "$T/bad.payload"
	expect "a truncated payload" 1 "offset [0-9]+: .*truncated"
	head -c 70 "$T/good.payload" >"$T/bad.payload"
	run dump "$T/bad.payload"
	expect "a payload cut inside a section header" 1 "offset [0-9]+: "
	printf 'previous\n' >"$T/prev.out"
	run --emit=nvtxt -o "$T/prev.out" "$T/bad.payload"
	[ "$st" -eq 1 ] && [ "$(cat "$T/prev.out")" = previous ] &&
		[ -z "$(find "$T" -name '.*.tmp*' -o -name '.*.nvtxtc-*')" ]
	tap $? "--emit=nvtxt -o of a bad payload keeps the previous file and no temporary"
fi

# Payloads that pass every check of nvtxt-payload(5) VALIDATION but are no
# NVTXT file's calls: category edges that NVTXT rejects (one byte patched in
# the record of an AddChildCategory, at body 496 + 64 + 8 or 12 + 16 per
# record; found by tests/fuzz/fuzz_payload.c,
# kept in tests/fuzz/crashes-found/payload/).  Reading one must fail like
# any other invalid payload instead of printing NVTXT that lint rejects.
while read -r name text off byte; do
	printf "$text" >"$T/cat.nvtxt"
	run --emit=payload -o "$T/cat.payload" "$T/cat.nvtxt"
	printf "\\$byte" | dd of="$T/cat.payload" bs=1 seek="$off" conv=notrunc 2>/dev/null
	run --emit=nvtxt "$T/cat.payload"
	expect "payload with $name: --emit=nvtxt" 1 "error: (category [0-9]+ cannot be its own parent|making category|category [0-9]+ already has parent)"
done <<-'EOF'
	a-category-its-own-parent AddChildCategory,1,2\n 572 001
	a-cycle-of-categories AddChildCategory,1,2\nAddChildCategory,3,1\n 584 002
	a-category-with-two-parents AddChildCategory,1,2\nAddChildCategory,3,4\n 588 002
	EOF

# --- interrupted output files --------------------------------------------
# perl restores the default SIGINT action, which sh ignores in background jobs.
awk 'BEGIN { for (i = 1; i <= 1000000; i++) printf "RangePush,%d,  Qpc,1,2,,,,\n", i
	for (i = 1; i <= 1000000; i++) printf "RangePop, %d,Qpc, 1,2\n", 1000000 + i }' >"$T/big.nvtxt"
# interrupt NAME SIGNAL ARG...: runs nvtxtc ARG... -o nf.out on a FIFO that
# has been given only part of the trace, so it is surely mid-run (waiting for
# input, its temporary open) when SIGNAL arrives; nf.out must be untouched, no
# temporary left, and the exit status say the signal ended it.
interrupt() {
	i_name=$1 i_sig=$2
	shift 2
	printf 'previous\n' >"$T/nf.out"
	cp "$T/nf.out" "$T/before"
	rm -f "$T/in.fifo"
	mkfifo "$T/in.fifo"
	exec 3<>"$T/in.fifo"
	perl -e '$SIG{INT} = $SIG{HUP} = $SIG{TERM} = "DEFAULT"; exec @ARGV or die "exec: $!"' \
		"$NVTXTC" "$@" -o "$T/nf.out" "$T/in.fifo" >/dev/null 2>&1 &
	i_pid=$!
	timeout 20 head -c 1000000 "$T/big.nvtxt" >&3
	i_n=0
	# the temporary is open: a named one, or an unnamed one (O_TMPFILE) seen in /proc
	while [ -z "$(find "$T" -name '.*.tmp*' -o -name '.*.nvtxtc-*')" ] &&
		! ls -l "/proc/$i_pid/fd" 2>/dev/null | grep -q "$T/#" && [ "$i_n" -lt 1000 ]; do
		sleep 0.01
		i_n=$((i_n + 1))
	done
	kill -"$i_sig" "$i_pid"
	{ wait "$i_pid"; } 2>/dev/null
	i_st=$?
	exec 3>&-
	cmp -s "$T/nf.out" "$T/before" && [ -z "$(find "$T" -name '.*.tmp*' -o -name '.*.nvtxtc-*')" ] && [ "$i_st" -gt 128 ]
	tap $? "$i_name: SIG$i_sig mid-run keeps the previous file and leaves no temporary (exit $i_st)"
}
interrupt "--emit=nvtxt -o" INT --emit=nvtxt
interrupt "--emit=payload -o" INT --emit=payload
interrupt "--emit=nvtxt -o" TERM --emit=nvtxt

# fmt -i rewrites a regular file, so it cannot wait on a FIFO: a signal after
# 0.2 s (the run takes about 0.5 s here) may land before the rename (the file
# must be untouched) or, on a faster machine, after it (the file must then be
# complete); never a partial file, never a temporary left.
"$NVTXTC" fmt "$T/big.nvtxt" >"$T/big.fmt"
cp "$T/big.nvtxt" "$T/before"
perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die "exec: $!"' "$NVTXTC" fmt -i "$T/big.nvtxt" >/dev/null 2>&1 &
i_pid=$!
sleep 0.2
kill -INT "$i_pid" 2>/dev/null
{ wait "$i_pid"; } 2>/dev/null
i_st=$?
if cmp -s "$T/big.nvtxt" "$T/before"; then i_what=untouched; elif cmp -s "$T/big.nvtxt" "$T/big.fmt"; then i_what=formatted; else i_what=partial; fi
[ "$i_what" != partial ] && [ -z "$(find "$T" -name '.*.tmp*' -o -name '.*.nvtxtc-*')" ] && { [ "$i_st" -eq 0 ] || [ "$i_st" -gt 128 ]; }
tap $? "fmt -i: SIGINT leaves the file whole ($i_what, exit $i_st) and no temporary"

# fmt -i of a symbolic link formats the file it points to and keeps the
# link (like gofmt -w and clang-format -i); it replaced the link by a file.
printf 'Marker ,1,Qpc,1,2,,,,\n' >"$T/real.nvtxt"
ln -s real.nvtxt "$T/link.nvtxt"
run fmt -i "$T/link.nvtxt"
[ "$st" -eq 0 ] && [ -L "$T/link.nvtxt" ] && [ "$(cat "$T/real.nvtxt")" = 'Marker, 1, Qpc, 1, 2,,,,' ]
tap $? "fmt -i of a symbolic link rewrites its target and keeps the link"

# -o onto something that is not a regular file writes into it: a FIFO stays
# a FIFO and its reader gets the output, a character device (as root: a copy
# of /dev/null made with mknod) stays a device, a symbolic link stays a link.
# (The temporary-and-rename replaced each by a regular file, so that as root
# `-o /dev/null` or `-o /dev/stdout` would replace the system's /dev/null or
# /dev/stdout.)
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/fifo.out" &
f_pid=$!
run --emit=nvtxt -o "$T/fifo" examples/vse-example.nvtxt
[ "$st" -eq 0 ] && [ -p "$T/fifo" ]
f_ok=$?
# the reader gets end of file when nvtxtc closes the FIFO: give it 5 s to finish
f_n=0
while kill -0 "$f_pid" 2>/dev/null && [ "$f_n" -lt 500 ]; do
	sleep 0.01
	f_n=$((f_n + 1))
done
if kill -0 "$f_pid" 2>/dev/null; then
	kill "$f_pid" 2>/dev/null
	f_ok=1
fi
{ wait "$f_pid"; } 2>/dev/null
[ "$f_ok" -eq 0 ] && [ -s "$T/fifo.out" ]
tap $? "-o FIFO writes into the FIFO"
if [ "$(id -u)" = 0 ] && mknod "$T/null" c 1 3 2>/dev/null; then
	run --emit=nvtxt -o "$T/null" examples/vse-example.nvtxt
	[ "$st" -eq 0 ] && [ -c "$T/null" ]
	tap $? "-o CHARACTER-DEVICE (a copy of /dev/null) keeps the device"
else
	skip "-o CHARACTER-DEVICE: needs root for mknod"
fi
printf 'previous\n' >"$T/real.out"
ln -s real.out "$T/link.out"
run --emit=nvtxt -o "$T/link.out" examples/vse-example.nvtxt
[ "$st" -eq 0 ] && [ -L "$T/link.out" ] && grep -q '^RangeStartEnd' "$T/real.out"
tap $? "-o SYMLINK writes the file it points to and keeps the link"

# A signal ignored by whoever started nvtxtc (nohup) stays ignored: the run
# completes and writes its output.
printf 'previous\n' >"$T/nohup.out"
perl -e '$SIG{HUP} = "IGNORE"; exec @ARGV or die "exec: $!"' \
	"$NVTXTC" --emit=nvtxt -o "$T/nohup.out" "$T/big.nvtxt" >/dev/null 2>&1 &
h_pid=$!
sleep 1
kill -HUP "$h_pid" 2>/dev/null
{ wait "$h_pid"; } 2>/dev/null
h_st=$?
[ "$h_st" -eq 0 ] && [ "$(wc -l <"$T/nohup.out")" -eq 2000000 ]
tap $? "a SIGHUP ignored by the parent (nohup) is still ignored (exit $h_st)"
rm -f "$T/big.nvtxt"

done_testing
