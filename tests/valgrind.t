#!/bin/sh
# nvtxtc under valgrind (memcheck) for a representative subset of the suite
# (issue 6): lint of every tests/lint case that has errors, --emit=nvtxt of
# the examples, fmt (to standard output, --check and -i), the payload back
# end (--emit=payload -o, dump, --emit=nvtxt of a payload), standard input,
# an aborted -o, stats (its trace report through its sort's runs on disk
# too) and a merged --emit=chrome.  Each run must have no memcheck error and no definite
# leak.
#
# valgrind's --error-exitcode is 97, not 1: nvtxtc itself exits 1 for an
# input with errors.  Without valgrind, a failure that says how to install
# it (tests/lib.sh's need); skipped when valgrind cannot run the binary (a
# sanitizer build, which make check-sanitize tests instead).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

if ! need valgrind; then
	done_testing
	exit
fi
VG="valgrind -q --error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite --track-fds=no"
if ! $VG --log-file="$T/probe.log" "$NVTXTC" --version >/dev/null 2>&1; then
	skip "valgrind cannot run $NVTXTC (a sanitizer build?)"
	done_testing
	exit
fi

# vg NAME WANT-STATUS ARG...: nvtxtc ARG... under valgrind; the exit status
# must be WANT-STATUS (nvtxtc's own) and valgrind's log empty.  Standard
# input is $VG_IN (default /dev/null).
vg() {
	v_name=$1 v_want=$2
	shift 2
	$VG --log-file="$T/vg.log" "$NVTXTC" "$@" >"$T/out" 2>"$T/err" <"${VG_IN:-/dev/null}"
	v_st=$?
	if [ "$v_st" -eq "$v_want" ] && ! [ -s "$T/vg.log" ]; then
		ok 0 "valgrind: $v_name"
	else
		ok 1 "valgrind: $v_name (exit $v_st, want $v_want)"
		head -n 40 "$T/vg.log" | sed 's/^/# /'
	fi
}

# Every tests/lint case with errors: the ones without arguments on one
# command line (each file is compiled on its own), the others one by one.
# Run from tests/lint, like tests/lint.t (NAME.args may name files there).
cd tests/lint || exit 1
plain=""
nplain=0
for err in *.err; do
	grep -q '^exit 1$' "$err" || continue
	base=${err%.err}
	if [ -f "$base.args" ]; then
		# shellcheck disable=SC2046
		vg "lint $(cat "$base.args") $base.nvtxt" 1 lint --color=never $(cat "$base.args") "$base.nvtxt"
	else
		plain="$plain $base.nvtxt"
		nplain=$((nplain + 1))
	fi
done
# shellcheck disable=SC2086
vg "lint of the $nplain tests/lint cases with errors" 1 lint --color=always $plain
# shellcheck disable=SC2086
vg "lint --max-errors=1 of the same" 1 lint --color=never --max-errors=1 $plain
cd "$top" || exit 1

for f in examples/*.nvtxt; do
	vg "--emit=nvtxt $f" 0 --emit=nvtxt "$f"
done
vg "--emit=nvtxt of a file with errors" 1 --emit=nvtxt tests/lint/arity-too-few.nvtxt

vg "fmt of every tests/fmt input" 0 fmt tests/fmt/*.nvtxt
vg "fmt --check of every example" 0 fmt --check examples/*.nvtxt
cp tests/fmt/call-spacing.nvtxt "$T/messy.nvtxt"
vg "fmt -i" 0 fmt -i "$T/messy.nvtxt"
VG_IN=tests/fmt/call-spacing.nvtxt
vg "fmt of standard input" 0 fmt -
VG_IN=/dev/null

vg "--emit=payload -o" 0 --emit=payload -o "$T/a.payload" tests/payload-goldens/all-commands.nvtxt
vg "dump" 0 dump "$T/a.payload"
vg "--emit=nvtxt of a payload" 0 --emit=nvtxt "$T/a.payload"
vg "lint of a payload" 0 lint "$T/a.payload"
head -c 1000 "$T/a.payload" >"$T/cut.payload"
vg "dump of a truncated payload" 1 dump "$T/cut.payload"
printf 'previous\n' >"$T/prev"
vg "--emit=nvtxt -o of a file with errors (aborted output)" 1 \
	--emit=nvtxt -o "$T/prev" tests/lint/arity-too-few.nvtxt
vg "--emit=payload -o of a file with errors (aborted output)" 1 \
	--emit=payload -o "$T/prev" tests/lint/arity-too-few.nvtxt
printf 'Marker, 1, Qpc, 1, 2,,, "x\000", \377\n' >"$T/bytes.nvtxt"
vg "lint of NUL and invalid UTF-8" 1 lint "$T/bytes.nvtxt"
vg "fmt of a file with syntax errors" 1 fmt "$T/bytes.nvtxt"
# stats: the summaries, the trace in memory (json streamed) and through its sort's runs on disk
# (120,000 ranges: more than its 4 MiB block); --emit=chrome of several files (the heads, one origin)
vg "stats of the examples" 0 stats --timeunit=usec examples/*.nvtxt
vg "stats --report=nvtx_pushpop_trace --format=json of the examples" 0 stats --report=nvtx_pushpop_trace --format=json examples/*.nvtxt
awk 'BEGIN { for (i = 0; i < 40000; i++) {
	t = 1000 * i
	printf "RangePush, %d, ClockMonotonicRaw, 1, %d,,, \"outer %d\",\n", t, i % 3, i % 7
	printf "RangePush, %d, ClockMonotonicRaw, 1, %d,,, \"inner\",\n", t + 1, i % 3
	printf "RangePush, %d, ClockMonotonicRaw, 1, %d,,, \"leaf\",\n", t + 2, i % 3
	printf "RangePop, %d, ClockMonotonicRaw, 1, %d\nRangePop, %d, ClockMonotonicRaw, 1, %d\nRangePop, %d, ClockMonotonicRaw, 1, %d\n", t + 3, i % 3, t + 4, i % 3, t + 9, i % 3 } }' >"$T/big.nvtxt"
vg "stats --report=nvtx_pushpop_trace through runs on disk" 0 stats --report=nvtx_pushpop_trace --format=csv "$T/big.nvtxt"
vg "--emit=chrome of two files" 0 --emit=chrome tests/viewer/merged-b.nvtxt tests/viewer/merged-a.nvtxt
vg "a usage error" 2 --max-errors=x "$T/bytes.nvtxt"
vg "a missing file" 2 lint "$T/missing.nvtxt"
done_testing
