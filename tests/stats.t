#!/bin/sh
# nvtxtc stats (nvtxtc(1), STATS).  The numbers of every report are checked
# against tests/tools/stats_ref.py, an independent computation in Python
# (`statistics` over exact fractions) from the normal form of the same files
# (nvtxtc --emit=nvtxt), on the corpus and the examples, on generated traces
# of known durations and on hostile cases; a few values by hand as well.
# Every format is parsed back (csv with Python's csv, json with Python's
# json, column, table and tsv by their rules); the html page is opened in
# Debian's headless Chromium (tests/stats/html.mjs, playwright-core from
# npm ci), which checks its rows and bars in the DOM and keeps a screenshot
# (build/tests/stats.png, build/tests/stats-trace.png).  python3, node,
# playwright-core and Chromium come with make check; without one the test
# fails and says what installs it (skips under make check OFFLINE=1: need).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
REF="python3 tests/tools/stats_ref.py"
SHOTS=${STATS_SHOTS:-$top/build/tests}
mkdir -p "$SHOTS"

if ! need python3 "the reference computation (tests/tools/stats_ref.py)"; then
	done_testing
	exit
fi

# agree NAME "OPTIONS" FILE...: nvtxtc's csv equals the reference's
agree() {
	name=$1 opts=$2
	shift 2
	i=0 nfs=
	for f in "$@"; do
		i=$((i + 1))
		"$NVTXTC" --emit=nvtxt "$f" >"$T/nf$i.nvtxt" 2>/dev/null
		nfs="$nfs $T/nf$i.nvtxt"
	done
	# shellcheck disable=SC2086
	"$NVTXTC" stats --format=csv $opts "$@" >"$T/got.csv" 2>"$T/err"
	# shellcheck disable=SC2086
	$REF $opts $nfs >"$T/want.csv"
	$REF --compare "$T/got.csv" "$T/want.csv" >"$T/diff" 2>&1
	ok $? "$name"
	sed 's/^/# /' "$T/diff" | head -n 10
}

# cell CSV ROW COLUMN: one cell of the first table (row 1 is the first after the header)
cell() {
	python3 -c 'import csv,sys; t=list(csv.reader(open(sys.argv[1]))); h=t[0].index(sys.argv[3]); print(t[int(sys.argv[2])][h])' "$@"
}

# --- the corpus and the examples: every report, two time units ------------
for f in ../shared/corpus/*.nvtxt examples/*.nvtxt; do
	[ -f "$f" ] || continue # ../shared is optional (README)
	for r in nvtx_sum nvtx_pushpop_sum nvtx_startend_sum nvtx_pushpop_trace; do
		agree "$f: $r" "--report=$r" "$f"
	done
	agree "$f: nvtx_sum in usec" "--timeunit=usec" "$f"
done
agree "examples, all together, in msec" "--timeunit=msec" examples/*.nvtxt
agree "examples, all together, trace in sec" "--report=nvtx_pushpop_trace --timeunit=sec" examples/*.nvtxt

# --- generated traces of known durations -----------------------------------
# gen SEED N: N push/pop ranges (three levels, four threads of two processes) and N/2
# start/end ranges, durations from a linear congruential generator, eight names
gen() {
	awk -v seed="$1" -v n="$2" 'BEGIN {
		x = seed
		for (i = 0; i < n; i++) {
			x = (x * 1103515245 + 12345) % 2147483648
			p = 100 + x % 2; tid = 1 + x % 2; t = 1000000 * i
			d = 1 + x % 5000
			printf "RangePush, %d, \"ClockMonotonicRaw\", %d, %d,,, \"step %d\",\n", t, p, tid, x % 3
			printf "RangePush, %d, \"ClockMonotonicRaw\", %d, %d,,, \"kernel %d\",\n", t + 10, p, tid, x % 4
			if (x % 3 == 0) {
				printf "RangePush, %d, \"ClockMonotonicRaw\", %d, %d,,, \"kernel %d\",\n", t + 20, p, tid, x % 4
				printf "RangePop, %d, \"ClockMonotonicRaw\", %d, %d\n", t + 20 + d, p, tid
			}
			printf "RangePop, %d, \"ClockMonotonicRaw\", %d, %d\n", t + 40 + 2 * d, p, tid
			printf "RangePop, %d, \"ClockMonotonicRaw\", %d, %d\n", t + 50 + 3 * d + x % 7, p, tid
			if (i % 2 == 0)
				printf "RangeStartEnd, %d, %d, \"ClockMonotonicRaw\", %d, 9,,, \"copy %d\",\n", t + 5, t + 5 + (x % 977) * (x % 3), p, x % 2
		}
	}'
}
gen 1 2000 >"$T/gen1.nvtxt"
gen 7 333 >"$T/gen2.nvtxt"
"$NVTXTC" lint -Werror "$T/gen1.nvtxt" "$T/gen2.nvtxt" >/dev/null 2>"$T/err"
ok $? "the generated traces lint clean"
for r in nvtx_sum nvtx_pushpop_sum nvtx_startend_sum nvtx_pushpop_trace; do
	agree "generated: $r" "--report=$r" "$T/gen1.nvtxt"
done
agree "two generated traces together (same process ids: nesting per file)" "" "$T/gen1.nvtxt" "$T/gen2.nvtxt"
agree "two generated traces together: the trace" "--report=nvtx_pushpop_trace" "$T/gen2.nvtxt" "$T/gen1.nvtxt"
agree "generated, in usec" "--timeunit=usec" "$T/gen2.nvtxt"

# --- nvtx_pushpop_trace in bounded memory (nvtxtc(1), STATS, Memory) ----------
# 93,000 ranges: more than the sort's 4 MiB block, so sorted runs go to a
# temporary file and are merged; the rows agree with the reference all the same
gen 3 40000 >"$T/big.nvtxt"
agree "93,000 ranges, sorted through runs on disk: the trace" "--report=nvtx_pushpop_trace" "$T/big.nvtxt"
"$NVTXTC" stats --report=nvtx_pushpop_trace --format=json "$T/big.nvtxt" >"$T/big.json" 2>/dev/null
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["tables"][0]["rows"]; sys.exit(len(r) != 93225 or [x["Start (ns)"] for x in r] != sorted(x["Start (ns)"] for x in r))' "$T/big.json"
ok $? "json, streamed row by row: one document, every row, in order of start"
FAULTS=${FAULTS:-$top/build/tests/inject/faults.so}
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS
if [ -f "$FAULTS" ] && LD_PRELOAD=$FAULTS "$NVTXTC" --version >/dev/null 2>&1; then
	echo old >"$T/keep.txt"
	LD_PRELOAD=$FAULTS NVTXT_FAULTS=tmpwrite=ENOSPC "$NVTXTC" stats --report=nvtx_pushpop_trace -o "$T/keep.txt" \
		"$T/big.nvtxt" "$T/big.nvtxt" 2>"$T/err"
	is "$?:$(cat "$T/keep.txt"):$(grep -c "error: cannot write a temporary file in '.*' (TMPDIR; the rows of nvtx_pushpop_trace are sorted there): No space left on device" "$T/err")" \
		"2:old:1" "TMPDIR's disk full: exit 2, said once with the directory, -o left as it was"
	LD_PRELOAD=$FAULTS NVTXT_FAULTS=tmpwrite=ENOSPC "$NVTXTC" stats --report=nvtx_pushpop_trace "$T/gen1.nvtxt" >"$T/small.csv" 2>"$T/err"
	is "$?:$(wc -c <"$T/err" | tr -d ' ')" "0:0" "rows that fit in memory make no temporary file"
else
	ok 1 "$FAULTS can be preloaded (make check builds it: make build/tests/inject/faults.so)"
fi

# --- hostile cases -----------------------------------------------------------
cat >"$T/h.nvtxt" <<'EOF'
RangePush, 100, "Manual", 1, 1,,, "one",
RangePop, 350, "Manual", 1, 1
RangeStartEnd, 10, 110, "Manual", 1, 1,,, "equal",
RangeStartEnd, 20, 120, "Manual", 1, 1,,, "equal",
RangeStartEnd, 30, 130, "Manual", 1, 1,,, "equal",
RangeStartEnd, 40, 140, "Manual", 1, 1,,, "equal",
RangeStartEnd, 5, 5, "Manual", 1, 1,,, "zero",
RangeStartEnd, 7, 7, "Manual", 1, 1,,, "zero",
RangePush, 1000, "Manual", 1, 1,,, "x",
RangePush, 1003, "Manual", 1, 1,,, "x",
RangePop, 1007, "Manual", 1, 1
RangePop, 1010, "Manual", 1, 1
RangeStartEnd, 0, 1, "Manual", 2, 1,,, "even",
RangeStartEnd, 0, 2, "Manual", 2, 1,,, "even",
RangeStartEnd, 0, 3, "Manual", 2, 1,,, "even",
RangeStartEnd, 0, 4, "Manual", 2, 1,,, "even",
RangeStartEnd, 0, 1, "Manual", 2, 1,,, 'a,b "c"',
RangePush, 2000, "Manual", 1, 1,,, "open",
EOF
"$NVTXTC" stats --format=csv "$T/h.nvtxt" >"$T/h.csv" 2>"$T/err"
ok $? "hostile cases: exit 0 (an open range is a warning)"
grep -q 'note: 1 push range still open at the end of the file is left out of the statistics' "$T/err"
ok $? "the open range is counted in a note on standard error"
grep -q ',open$' "$T/h.csv"
ok $((!$?)) "the open range is left out of the statistics"
agree "hostile cases: nvtx_sum" "" "$T/h.nvtxt"
agree "hostile cases: the trace" "--report=nvtx_pushpop_trace" "$T/h.nvtxt"
# by hand (nvtxtc(1), STATS): row r of the table sorted by total time
is "$(cell "$T/h.csv" 1 Range):$(cell "$T/h.csv" 1 'Time (%)'):$(cell "$T/h.csv" 1 'StdDev (ns)'):$(cell "$T/h.csv" 1 'Med (ns)')" \
	"equal:59.3:0.0:100.0" "four equal durations: StdDev 0.0, Med 100.0; 400 of 675 ns is 59.3 %"
is "$(cell "$T/h.csv" 2 Range):$(cell "$T/h.csv" 2 Instances):$(cell "$T/h.csv" 2 'StdDev (ns)')" "one:1:0.0" \
	"one instance: StdDev 0.0"
is "$(cell "$T/h.csv" 3 Range):$(cell "$T/h.csv" 3 Instances):$(cell "$T/h.csv" 3 'Med (ns)'):$(cell "$T/h.csv" 3 'StdDev (ns)')" \
	"x:2:7.0:4.2" "nested ranges of the same name are two instances (10 and 4 ns: Med 7.0, StdDev 4.2)"
is "$(cell "$T/h.csv" 4 'Avg (ns)'):$(cell "$T/h.csv" 4 'Med (ns)'):$(cell "$T/h.csv" 4 'StdDev (ns)')" "2.5:2.5:1.3" \
	"1, 2, 3, 4 ns: Avg 2.5, Med 2.5 (the mean of the middle two), StdDev 1.3 (sample)"
is "$(cell "$T/h.csv" 5 Range)" 'a,b "c"' "a name with a comma and quotes survives csv"
is "$(cell "$T/h.csv" 6 Range):$(cell "$T/h.csv" 6 'Total Time (ns)'):$(cell "$T/h.csv" 6 'Time (%)')" "zero:0:0.0" \
	"zero-length ranges: total 0, 0.0 %"
"$NVTXTC" stats --format=csv --report=nvtx_pushpop_trace "$T/h.nvtxt" 2>/dev/null >"$T/t.csv"
is "$(cell "$T/t.csv" 3 NameTree):$(cell "$T/t.csv" 3 ParentId):$(cell "$T/t.csv" 3 RangeStack):$(cell "$T/t.csv" 2 'DurChild (ns)'):$(cell "$T/t.csv" 2 'DurNonChild (ns)')" \
	"--x:2::2:3:4:6" "trace: the nested x is at level 1 under range 2, which has 4 ns of child and 6 of its own"
printf 'RangeStartEnd, 0, 0, "Manual", 1, 1,,, "z",\n' >"$T/z.nvtxt"
"$NVTXTC" stats --format=csv "$T/z.nvtxt" >"$T/z.csv" 2>/dev/null
is "$(cell "$T/z.csv" 1 'Time (%)'):$(cell "$T/z.csv" 1 'Total Time (ns)')" "0.0:0" "only zero-length ranges: 0.0 %, no division by zero"
: >"$T/empty.nvtxt"
"$NVTXTC" stats --format=csv "$T/empty.nvtxt" >"$T/e.csv" 2>"$T/err"
is "$?:$(wc -l <"$T/e.csv")" "0:1" "a file without ranges: the header alone"

# durations are kept in 4 bytes while they fit in 32 bits: a name whose durations pass 2^32
# ns (4.29 s) after some that fit, exactly 2^32 - 1, and one far beyond
cat >"$T/w.nvtxt" <<'EOF'
RangeStartEnd, 0, 7, "Manual", 1, 1,,, "wide",
RangeStartEnd, 0, 4294967295, "Manual", 1, 1,,, "wide",
RangeStartEnd, 0, 3, "Manual", 1, 1,,, "wide",
RangeStartEnd, 0, 4294967296, "Manual", 1, 1,,, "wide",
RangeStartEnd, 0, 90000000000, "Manual", 1, 1,,, "wide",
RangeStartEnd, 0, 1, "Manual", 1, 1,,, "wide",
RangeStartEnd, 0, 4294967295, "Manual", 1, 1,,, "narrow",
RangeStartEnd, 0, 2, "Manual", 1, 1,,, "narrow",
EOF
"$NVTXTC" stats --format=csv "$T/w.nvtxt" >"$T/w.csv" 2>"$T/err"
is "$(cell "$T/w.csv" 1 Range):$(cell "$T/w.csv" 1 'Med (ns)'):$(cell "$T/w.csv" 1 'Max (ns)'):$(cell "$T/w.csv" 1 'Min (ns)')" \
	"wide:2147483651.0:90000000000:1" "durations past 32 bits after short ones: Med of 1, 3, 7, 2^32-1, 2^32, 9e10"
is "$(cell "$T/w.csv" 2 Range):$(cell "$T/w.csv" 2 'Max (ns)'):$(cell "$T/w.csv" 2 'Med (ns)')" "narrow:4294967295:2147483648.5" \
	"2^32 - 1 is kept whole in 32 bits"
agree "durations past 32 bits" "" "$T/w.nvtxt"

# ranges across files: one row per name, push/pop pairing per file
printf 'RangePush, 10, "Manual", 1, 1,,, "step",\nRangePop, 30, "Manual", 1, 1\nRangePush, 40, "Manual", 1, 1,,, "left open",\n' >"$T/a.nvtxt"
printf 'RangePush, 100, "Manual", 1, 1,,, "step",\nRangePop, 160, "Manual", 1, 1\n' >"$T/b.nvtxt"
"$NVTXTC" stats --format=csv "$T/a.nvtxt" "$T/b.nvtxt" >"$T/ab.csv" 2>"$T/err"
is "$?:$(cell "$T/ab.csv" 1 Instances):$(cell "$T/ab.csv" 1 'Total Time (ns)'):$(wc -l <"$T/ab.csv")" "0:2:80:2" \
	"two files: their 'step' ranges in one row"
grep -c 'still open at the end of the file' "$T/err" >"$T/n"
is "$(cat "$T/n")" 1 "the open range of the first file is noted once; the second file's pop does not close it"
agree "ranges across files" "" "$T/a.nvtxt" "$T/b.nvtxt"
agree "ranges across files: the trace" "--report=nvtx_pushpop_trace" "$T/a.nvtxt" "$T/b.nvtxt"

# a time base without a conversion: ticks, said in the header; with one, nanoseconds
printf 'RangeStartEnd, 100, 350, "Qpc", 1, 1,,, "q",\nRangeStartEnd, 5, 9, "Manual", 1, 1,,, "m",\n' >"$T/q.nvtxt"
"$NVTXTC" stats --format=csv "$T/q.nvtxt" >"$T/q.csv" 2>"$T/err"
is "$(head -n 1 "$T/q.csv" | cut -d, -f2):$(grep -c '^Time' "$T/q.csv"):$(sed -n '$p' "$T/q.csv")" \
	"Total Time (ns):2:100.0,250,1,250.0,250.0,250,250,0.0,StartEnd,q" "nanoseconds first, then a table of Qpc ticks"
grep -q "Total Time (ticks)" "$T/q.csv"
ok $? "the ticks table's header says (ticks)"
grep -q "note: the ranges of time base Qpc are counted in its ticks" "$T/err"
ok $? "a note names the time base left in ticks and the option"
agree "ticks: nvtx_sum" "" "$T/q.nvtxt"
agree "ticks converted with --time-conversion" "--time-conversion=Qpc:lin:0,0,1000000 --timeunit=usec" "$T/q.nvtxt"
"$NVTXTC" stats --format=csv --time-conversion=Qpc:lin:0,0,1000000 "$T/q.nvtxt" >"$T/q2.csv" 2>/dev/null
is "$(grep -c '(ticks)' "$T/q2.csv"):$(cell "$T/q2.csv" 1 'Total Time (ns)')" "0:250000" "Qpc at 10^6 ticks a second: 250 ticks are 250,000 ns"
printf 'RangeStartEnd, 9223372036854775000, 9223372036854775800, "Qpc", 1, 1,,, "far",\n' >"$T/far.nvtxt"
"$NVTXTC" stats --time-conversion=Qpc:lin:0,0,1000 "$T/far.nvtxt" >/dev/null 2>"$T/err"
st=$?
grep -q 'far.nvtxt:1:.*error: time 9223372036854775000 of time base Qpc is outside the int64 range' "$T/err"
is "$st:$?" "1:0" "a time that converts outside int64: an error at its line, exit 1"

# payload files: the same report as their text
"$NVTXTC" --emit=payload -o "$T/gen2.payload" "$T/gen2.nvtxt"
"$NVTXTC" stats --format=csv "$T/gen2.payload" >"$T/p.csv" 2>"$T/err"
"$NVTXTC" stats --format=csv "$T/gen2.nvtxt" >"$T/g.csv" 2>/dev/null
same_file "$T/p.csv" "$T/g.csv" "a payload file gives the report of its text"

# --- the summaries' durations past their budget (nvtxtc(1), STATS, Memory) ------------
# NVTXTC_STATS_MEMORY (for the tests only: src/driver/cmd_stats.c) shrinks the 4 MiB
# the summaries keep durations in, so that these files spill to the temporary file as
# traces of hundreds of MB do: 64 bytes spill every few ranges (thousands of runs; rows
# of more than 4 durations are not loaded back, their medians found by histograms),
# 4 KiB spill rows of up to 256 durations loaded back whole.  Every report and format
# is byte for byte the report with every duration in memory; the files hold rows of
# one range, even and odd counts, ties, zero durations, durations past 32 bits, a
# table of ticks and 93,000 ranges in 16 rows.
spilled=0
for r in nvtx_sum nvtx_pushpop_sum nvtx_startend_sum; do
	for fm in column csv json tsv; do
		"$NVTXTC" stats --report=$r --format=$fm "$T/big.nvtxt" "$T/h.nvtxt" "$T/w.nvtxt" "$T/q.nvtxt" \
			"$T/gen2.nvtxt" >"$T/mem.out" 2>/dev/null
		for mem in 64 4096; do
			NVTXTC_STATS_MEMORY=$mem "$NVTXTC" stats --report=$r --format=$fm "$T/big.nvtxt" "$T/h.nvtxt" \
				"$T/w.nvtxt" "$T/q.nvtxt" "$T/gen2.nvtxt" >"$T/spill.out" 2>/dev/null
			cmp -s "$T/spill.out" "$T/mem.out" || { spilled=$((spilled + 1)); echo "# differs: $r $fm $mem"; }
		done
	done
done
is "$spilled" 0 "durations spilled (budgets of 64 bytes and 4 KiB): every summary, every format as in memory"
NVTXTC_STATS_MEMORY=64 agree "durations spilled: nvtx_sum against the reference" "" "$T/big.nvtxt" "$T/h.nvtxt" "$T/w.nvtxt"
NVTXTC_STATS_MEMORY=300 agree "durations spilled: nvtx_pushpop_sum in usec" "--report=nvtx_pushpop_sum --timeunit=usec" "$T/gen1.nvtxt"
mkdir "$T/tmpd"
if [ -f "$FAULTS" ] && LD_PRELOAD=$FAULTS "$NVTXTC" --version >/dev/null 2>&1; then
	echo old >"$T/keep.txt"
	TMPDIR=$T/tmpd NVTXTC_STATS_MEMORY=4096 LD_PRELOAD=$FAULTS NVTXT_FAULTS=tmpwrite=ENOSPC "$NVTXTC" stats \
		-o "$T/keep.txt" "$T/big.nvtxt" "$T/h.nvtxt" 2>"$T/err"
	is "$?:$(cat "$T/keep.txt"):$(grep -c "error: cannot write a temporary file in '$T/tmpd' (TMPDIR; the durations of the summaries are kept there for their medians): No space left on device" "$T/err")" \
		"2:old:1" "summaries, TMPDIR's disk full: exit 2, said once with the directory, -o left as it was"
	TMPDIR=$T/tmpd NVTXTC_STATS_MEMORY=4096 LD_PRELOAD=$FAULTS NVTXT_FAULTS=tmpwrite=ENOSPC "$NVTXTC" stats \
		--report=nvtx_startend_sum --format=json "$T/big.nvtxt" >"$T/out" 2>"$T/err"
	is "$?:$(wc -c <"$T/out" | tr -d ' '):$(grep -c "cannot write a temporary file in '$T/tmpd'" "$T/err")" "2:0:1" \
		"summaries, TMPDIR's disk full: nothing on standard output"
	LD_PRELOAD=$FAULTS NVTXT_FAULTS=tmpwrite=ENOSPC "$NVTXTC" stats "$T/big.nvtxt" >"$T/out" 2>"$T/err"
	is "$?:$(wc -c <"$T/err" | tr -d ' ')" "0:0" "summaries within the budget make no temporary file"
else
	ok 1 "$FAULTS can be preloaded (make check builds it: make build/tests/inject/faults.so)"
fi
TMPDIR=$T/not-there NVTXTC_STATS_MEMORY=64 "$NVTXTC" stats "$T/h.nvtxt" "$T/big.nvtxt" >"$T/spill.out" 2>"$T/err"
"$NVTXTC" stats "$T/h.nvtxt" "$T/big.nvtxt" >"$T/mem.out" 2>/dev/null
is "$?:$(cmp -s "$T/spill.out" "$T/mem.out" && echo same)" "0:same" \
	"a TMPDIR that is not a writable directory: /tmp instead (nvtxtc(1), ENVIRONMENT)"

# --- every format parsed back ---------------------------------------------------
for args in "" "--report=nvtx_pushpop_trace --timeunit=usec" "--report=nvtx_startend_sum --timeunit=sec"; do
	for fm in csv column table tsv json; do
		# shellcheck disable=SC2086
		"$NVTXTC" stats $args --format=$fm "$T/gen2.nvtxt" "$T/h.nvtxt" "$T/q.nvtxt" >"$T/o.$fm" 2>/dev/null
	done
	$REF --check-formats "$T/o.csv" "$T/o.column" "$T/o.table" "$T/o.tsv" "$T/o.json" >"$T/diff" 2>&1
	ok $? "column, table, tsv and json say what csv says (${args:-nvtx_sum})"
	sed 's/^/# /' "$T/diff" | head -n 10
done
"$NVTXTC" stats "$T/h.nvtxt" 2>/dev/null | head -n 3 >"$T/col"
cat >"$T/col.want" <<'EOF'
 Time (%)  Total Time (ns)  Instances  Avg (ns)  Med (ns)  Min (ns)  Max (ns)  StdDev (ns)   Style     Range
 --------  ---------------  ---------  --------  --------  --------  --------  -----------  --------  -------
     59.3              400          4     100.0     100.0       100       100          0.0  StartEnd  equal
EOF
same_file "$T/col" "$T/col.want" "column: nsys's layout (centered headers, dashes, right-aligned numbers)"
"$NVTXTC" stats --timeunit=msec --format=csv "$T/gen1.nvtxt" | head -n 1 >"$T/h1"
is "$(cat "$T/h1")" "Time (%),Total Time (ms),Instances,Avg (ms),Med (ms),Min (ms),Max (ms),StdDev (ms),Style,Range" \
	"--timeunit=msec: the headers say (ms)"

# --- -o and the usage errors --------------------------------------------------------
"$NVTXTC" stats -o "$T/out.json" --format=json "$T/h.nvtxt" 2>/dev/null
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["report"] != "nvtx_sum" or d["open_ranges"] != 1)' "$T/out.json"
ok $? "-o writes the report (json: report, open_ranges)"
printf 'RangePop, 5, "Manual", 1, 1\nRangeStartEnd, 1, 4, "Manual", 1, 1,,, "ok",\n' >"$T/bad.nvtxt"
echo old >"$T/keep.txt"
"$NVTXTC" stats -o "$T/keep.txt" "$T/bad.nvtxt" 2>/dev/null
is "$?:$(cat "$T/keep.txt")" "1:old" "an input with errors: exit 1, -o left as it was"
"$NVTXTC" stats --format=csv "$T/bad.nvtxt" 2>/dev/null >"$T/bad.csv"
is "$?:$(cell "$T/bad.csv" 1 Range)" "1:ok" "an input with errors: the report of its valid lines on standard output, exit 1"
if [ -w /dev/full ]; then
	"$NVTXTC" stats "$T/h.nvtxt" >/dev/full 2>"$T/err"
	is "$?:$(grep -c "cannot write 'standard output'" "$T/err")" "2:1" "a write error: exit 2, said"
fi
for bad in "--report=nvtx_kern_sum" "--format=hdoc" "--timeunit=ns" "--emit=chrome"; do
	"$NVTXTC" stats "$bad" "$T/h.nvtxt" >"$T/out" 2>"$T/err"
	st=$?
	is "$st:$(wc -c <"$T/out" | tr -d ' ')" "2:0" "stats $bad: a usage error, nothing written"
done
"$NVTXTC" stats --format=hdoc "$T/h.nvtxt" 2>"$T/err"
grep -q "expects column, table, csv, tsv, json or html, found 'hdoc'" "$T/err"
ok $? "the usage error says what was expected and what was found"
printf 'RangeStartEnd, 1, 4, "Manual", 1, 1,,, "piped",\n' | "$NVTXTC" stats --format=csv >"$T/pipe.csv" 2>"$T/err"
is "$?:$(cell "$T/pipe.csv" 1 Range)" "0:piped" "stats without a file reads standard input when it is not a terminal"

# --- html in headless Chromium --------------------------------------------------------
# html_check NAME KIND ARGS...: the page of ARGS, checked by html.mjs; the screenshot is SHOTS/NAME.png
html_check() {
	name=$1 kind=$2
	shift 2
	"$NVTXTC" stats --format=html "$@" >"$T/$name.html" 2>/dev/null
	"$NVTXTC" stats --format=csv "$@" >"$T/$name.csv" 2>/dev/null
	$REF --expect-html "$T/$name.csv" "$kind" >"$T/$name.expect.json"
	(cd tests/stats && timeout 180 node html.mjs "$T/$name.html" "$T/$name.expect.json" "$SHOTS/$name.png") \
		>"$T/out" 2>"$T/err"
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*) ok 0 "html $name: ${line#* - }" ;;
		"not ok "*) ok 1 "html $name: ${line#* - }" ;;
		*) echo "$line" ;;
		esac
	done <"$T/out"
	[ $rc = 0 ] || { ok 1 "html.mjs exits 0 (exit $rc)"; sed 's/^/# /' "$T/err" | head -n 10; }
}
if need node "the html page in Chromium" && need node_modules "playwright-core" &&
	need chromium "the html page in headless Chromium"; then
	html_check stats bars --timeunit=usec examples/kernelabstractions-pushpop.nvtxt examples/categories-and-names.nvtxt
	html_check stats-trace flame --report=nvtx_pushpop_trace "$T/gen2.nvtxt"
	html_check stats-hostile bars "$T/h.nvtxt"
fi
done_testing
