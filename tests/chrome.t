#!/bin/sh
# --emit=chrome (nvtxtc(1), CHROME TRACE EVENTS) and --time-conversion
# (TIME CONVERSION).  Every valid test file (tests/emit, tests/lint,
# tests/fmt, examples, the viewer's traces) is exported and the export is
# parsed back with jansson by $TOOLS/chrome_check, which compares it with
# the file's checked events (its normal form): every event present once,
# ranges paired as in the normal form, times exact to the nanosecond.  Then the
# errors, the exact timestamps and --emit=nvtxt with a conversion, by hand.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
CHECK=${TOOLS:-$top/build/tests/tools}/chrome_check
# Tick clocks converted without overflow anywhere in int64 (lin and lerp at slope 1).
CONV="Qpc:lin:0,0,1000000000 Rdtsc:lerp:0,0,1000,1000 CNTVCT:lin:5,5,1000000000 FileTime:lerp:-10,-10,10,10"
OPTS=
for c in $CONV; do OPTS="$OPTS --time-conversion=$c"; done

if ! [ -x "$CHECK" ]; then
	ok 1 "no $CHECK: make check builds it"
	done_testing
	exit
fi
for f in tests/emit/*.nvtxt tests/lint/*.nvtxt tests/fmt/*.nvtxt examples/*.nvtxt tests/viewer/*.nvtxt; do
	# shellcheck disable=SC2086
	"$NVTXTC" --emit=chrome $OPTS -o "$T/x.json" "$f" 2>"$T/err"
	st=$?
	# exit 1 is right only for a file with errors, which lint confirms (and which is skipped)
	if [ $st = 1 ] && ! "$NVTXTC" lint -w "$f" >/dev/null 2>&1; then continue; fi
	ok $st "$f exports"
	# shellcheck disable=SC2086
	"$CHECK" "$f" "$T/x.json" $CONV >"$T/check" 2>&1
	st=$?
	ok $st "$f: the export matches its events"
	[ $st = 0 ] || sed 's/^/# /' "$T/check" | head -n 10
done

# The writer against jansson (issue 22's rule, condition a): every export of the test files, the
# examples, the corpus, the fuzz corpus and a generated trace is parsed with jansson and compared,
# event by event, with the document jansson builds from the events the writer was given.
DIFF=${TOOLS:-$top/build/tests/tools}/chrome_diff
GEN=${GEN:-$top/build/bench/gen}
if [ -x "$GEN" ]; then
	"$GEN" 3000000 >"$T/gen.nvtxt"
	ok $? "bench/gen writes a 3 MB trace"
else
	ok 1 "no $GEN: make check builds it (make build/bench/gen)"
fi
# hostile but valid strings: controls, quotes, backslashes, U+2028/2029, DEL, non-BMP, long
# (the longest string a line can hold: a line has at most 131071 bytes, nvtxt(5) Lines)
long=$(head -c 131000 /dev/zero | tr '\0' 'x')
{
	printf 'NameProcess, 1, "tab\there\033esc\001soh\037us\177del"\n'
	cat <<'EOF'
NameOsThread, 1, 2, 'say "hi" \ back\slash'
RangePush, 2, Manual, 1, 2, 3, , "/ \\ \u0041 \n", 
RangePop, 3, Manual, 1, 2
EOF
	printf 'SetFileDisplayName, "sep\342\200\250line\342\200\251para"\n'
	printf 'NameCategory, 3, "cat \360\237\230\200 \344\270\255 \303\251"\n'
	printf 'Marker, 1, Manual, 1, 2, 3, , "%s", \n' "$long"
} >"$T/strings.nvtxt"
"$NVTXTC" lint -w "$T/strings.nvtxt"
ok $? "the hostile strings lint clean"
# (../shared is optional: README)
set -- "$top"/../shared/corpus/*.nvtxt
[ -e "$1" ] || set --
# shellcheck disable=SC2086
"$DIFF" -c Qpc:lin:0,0,1000000000 -c Rdtsc:lerp:0,0,1000,1000 -c CNTVCT:lin:5,5,1000000000 \
	tests/*/*.nvtxt examples/*.nvtxt "$@" tests/fuzz/corpus/*/* \
	"$T/strings.nvtxt" ${GEN:+"$T/gen.nvtxt"} >"$T/diff" 2>&1
ok $? "chrome_diff: every export equals jansson's document, event by event"
sed 's/^/# /' "$T/diff" | head -n 12
"$NVTXTC" --emit=chrome "$T/strings.nvtxt" >"$T/s.json"
{
	printf '%s\n' '"name":"tab\there\u001besc\u0001soh\u001fus'"$(printf '\177')"'del"'
	cat <<'EOF'
"name":"say \"hi\" \\ back\\slash"
"name":"/ \\\\ \\u0041 \\n"
"file_display_name":"sep\u2028line\u2029para"
EOF
	printf '"cat":"cat \360\237\230\200 \344\270\255 \303\251"\n'
} >"$T/want"
grep -v '"name":"xxx' "$T/s.json" | grep -F -c -f "$T/want" >"$T/n"
is "$(cat "$T/n")" 4 "strings escaped as nvtxtc(1) says: controls, quotes, backslashes, U+2028/9 escaped; DEL, non-BMP, '/' as they are"
grep -o '"name":"x*"' "$T/s.json" | awk '{ print length($0) }' >"$T/n"
is "$(cat "$T/n")" 131009 "a name of 131000 bytes, half the writer's buffer, is written whole"

# The checker finds a time one nanosecond off, and a missing event.
"$NVTXTC" --emit=chrome -o "$T/v.json" tests/viewer/ranges.nvtxt
sed 's/"dur":300.0,/"dur":300.001,/' "$T/v.json" >"$T/bad.json"
"$CHECK" tests/viewer/ranges.nvtxt "$T/bad.json" >"$T/check" 2>&1
is "$?:$(head -n 1 "$T/check")" "1:chrome_check: pop at line 14: ends at 1000400001 ns, expected 1000400000" \
	"chrome_check sees a time 1 ns off"
grep -v '"name":"fence"' "$T/v.json" >"$T/bad.json"
"$CHECK" tests/viewer/ranges.nvtxt "$T/bad.json" >"$T/check" 2>&1
is "$?:$(head -n 1 "$T/check")" "1:chrome_check: markers missing from the export" "chrome_check sees a missing marker"

# Pushes left open at end of file: a range each, to its thread's latest time, with args.unclosed, after
# the other events (one of length zero: a B and an E with the same args).
printf 'RangePush, 100, Manual, 1, 2, , , "outer", \nRangePush, 200, Manual, 1, 2, , , "inner", \nMarker, 350, Manual, 1, 2, , , "m", \nRangePush, 150, Manual, 1, 3, , , "other", \nRangePush, 5, Manual, 1, 4, , , "p", \nRangePop, 9, Manual, 1, 4\n' >"$T/open.nvtxt"
"$NVTXTC" --emit=chrome "$T/open.nvtxt" 2>/dev/null >"$T/open.json"
grep '"unclosed"' "$T/open.json" >"$T/out"
printf '%s\n' '{"name":"outer","ph":"X","ts":0.1,"dur":0.25,"pid":1,"tid":2,"args":{"line":1,"unclosed":true}},' \
	'{"name":"inner","ph":"X","ts":0.2,"dur":0.15,"pid":1,"tid":2,"args":{"line":2,"unclosed":true}},' \
	'{"name":"other","ph":"B","ts":0.15,"pid":1,"tid":3,"args":{"line":4,"unclosed":true}},' \
	'{"name":"other","ph":"E","ts":0.15,"pid":1,"tid":3,"args":{"line":4,"unclosed":true}}' >"$T/want"
same_file "$T/out" "$T/want" "three pushes left open: each a range to its thread's latest time"
"$CHECK" "$T/open.nvtxt" "$T/open.json" >/dev/null
ok $? "the export with closed open pushes checks"
sed 's/"dur":0.25,/"dur":0.24,/' "$T/open.json" >"$T/bad.json"
"$CHECK" "$T/open.nvtxt" "$T/bad.json" >"$T/check" 2>&1
is "$?:$(head -n 1 "$T/check")" "1:chrome_check: unclosed push at line 1: ends at 340 ns, expected 350" \
	"chrome_check sees an open push closed before its thread's latest time"
sed -e '/"unclosed"/d' -e 's/"line":5}},$/"line":5}}/' "$T/open.json" >"$T/bad.json"
"$CHECK" "$T/open.nvtxt" "$T/bad.json" >"$T/check" 2>&1
is "$?:$(head -n 1 "$T/check")" "1:chrome_check: 1 push/pop ranges in the export, expected 4" \
	"chrome_check sees open pushes left without a range"

# A start/end range of length zero is one async instant n; a longer one a b and an e; ids count both.
printf 'RangeStartEnd, 100, 100, Manual, 1, 2, , , "zero", \nRangeStartEnd, 100, 300, Manual, 1, 2, , , "long", \n' >"$T/se.nvtxt"
"$NVTXTC" --emit=chrome "$T/se.nvtxt" >"$T/se.json"
grep -o '"name":"[a-z]*","ph":"[ben]","id":[0-9]*,"ts":[0-9.]*' "$T/se.json" | tr '\n' ' ' >"$T/out"
is "$(cat "$T/out")" '"name":"zero","ph":"n","id":0,"ts":0.1 "name":"long","ph":"b","id":1,"ts":0.1 "name":"long","ph":"e","id":1,"ts":0.3 ' \
	"start/end ranges: n for length zero, b and e otherwise"
"$CHECK" "$T/se.nvtxt" "$T/se.json" >/dev/null
ok $? "the export with an async instant checks"
sed 's/"ph":"n","id":0,"ts":0.1,/"ph":"n","id":0,"ts":0.101,/' "$T/se.json" >"$T/bad.json"
"$CHECK" "$T/se.nvtxt" "$T/bad.json" >"$T/check" 2>&1
is "$?:$(head -n 1 "$T/check")" "1:chrome_check: start/end at line 1: start 101 ns, expected 100" \
	"chrome_check sees an async instant 1 ns off"
sed 's/"ph":"n"/"ph":"b"/' "$T/se.json" >"$T/bad.json"
"$CHECK" "$T/se.nvtxt" "$T/bad.json" >"$T/check" 2>&1
is "$?:$(head -n 1 "$T/check")" "1:chrome_check: start/end at line 1: b/e for a range of length zero (n expected)" \
	"chrome_check sees a zero-length start/end range written as b"

# A long name, then none, then a short one.
printf 'Marker, 1, Manual, 1, 2, , , "a name longer than the first", \nMarker, 2, Manual, 1, 2, , , , \nMarker, 3, Manual, 1, 2, , , "b", \n' >"$T/names.nvtxt"
"$NVTXTC" --emit=chrome "$T/names.nvtxt" | grep -o '"name":"[^"]*"' | tr '\n' ' ' >"$T/out"
is "$(cat "$T/out")" '"name":"a name longer than the first" "name":"" "name":"b" ' "names long, empty, short"

# Exact timestamps: microseconds with the nanosecond digits, from a whole-second origin.
printf 'Marker, 1700000000123456789, ClockMonotonicRaw, 1, 2, , , "m", \nMarker, 1700000000999999999, ClockMonotonicRaw, 1, 2, , , "n", \n' >"$T/big.nvtxt"
"$NVTXTC" --emit=chrome "$T/big.nvtxt" >"$T/big.json"
grep -c '"ts":123456.789,\|"ts":999999.999,\|"nvtxtc_time_origin_ns":1700000000000000000' "$T/big.json" >"$T/n"
is "$(cat "$T/n")" 3 "1.7e18 ns: ts 123456.789 and 999999.999 after origin 1700000000000000000, exactly"
# Far from the origin: the nearest double as ts, and the exact nanoseconds in args.ns.
printf 'Marker, 0, Manual, 1, 2, , , "a", \nMarker, 9223372036854775807, Manual, 1, 2, , , "b", \n' >"$T/far.nvtxt"
"$NVTXTC" --emit=chrome "$T/far.nvtxt" >"$T/far.json"
grep -q '"ns":9223372036854775807' "$T/far.json"
ok $? "INT64_MAX ns, 292 years from the origin: exact in args.ns"
"$CHECK" "$T/far.nvtxt" "$T/far.json" >/dev/null
ok $? "the far export checks"
# ts is the exact decimal, computed in integers: before the origin, and at both ends of int64.
printf 'Marker, -1500, Relative, 1, 2, , , "a", \nMarker, -1, Relative, 1, 2, , , "b", \nMarker, 9223372036854775807, Relative, 1, 2, , , "c", \nMarker, -9223372036854775808, Relative, 1, 2, , , "d", \n' >"$T/edge.nvtxt"
"$NVTXTC" --emit=chrome "$T/edge.nvtxt" >"$T/edge.json"
grep -o '"ts":[^,]*' "$T/edge.json" | tr '\n' ' ' >"$T/ts"
is "$(cat "$T/ts")" '"ts":-1.5 "ts":-0.001 "ts":9223372036854775.807 "ts":-9223372036854775.808 ' \
	"ts of -1500, -1, INT64_MAX and INT64_MIN ns: exact decimals of microseconds"
"$CHECK" "$T/edge.nvtxt" "$T/edge.json" >/dev/null
ok $? "the int64 edges export and check"
# FileTime: 100 ns since 1601 become ns since 1970.
printf 'Marker, 133000000000000000, FileTime, 1, 2, , , "2022", \n' >"$T/ft.nvtxt"
"$NVTXTC" --emit=chrome "$T/ft.nvtxt" | grep -c '"ts":0.0,.*\|"nvtxtc_time_origin_ns":1655526400000000000' >"$T/n"
is "$(cat "$T/n")" 2 "FileTime 133000000000000000 is 1655526400000000000 ns since 1970"
# The origin is the first event read, not the first written: a push at 0.9 s is written (as an X) at its
# pop at 1.5 s, after a marker at 1.1 s; on the marker's second (1 s) the range would start at -0.1 s.
printf 'RangePush, 900000000, ClockMonotonicRaw, 1, 2, , , "outer", \nMarker, 1100000000, ClockMonotonicRaw, 1, 2, , , "m", \nRangePop, 1500000000, ClockMonotonicRaw, 1, 2\n' >"$T/cross.nvtxt"
printf '%s\n' '{"displayTimeUnit":"ns","traceEvents":[' \
	'{"name":"m","ph":"i","ts":1100000.0,"pid":1,"tid":2,"args":{"line":2}},' \
	'{"name":"outer","ph":"X","ts":900000.0,"dur":600000.0,"pid":1,"tid":2,"args":{"line":1}}' \
	'],"otherData":{"producer":"nvtxtc","nvtxtc_time_origin_ns":0}}' >"$T/want"
"$NVTXTC" --emit=chrome "$T/cross.nvtxt" >"$T/out"
same_file "$T/out" "$T/want" "push 0.9 s, marker 1.1 s, pop 1.5 s: origin 0 (the push's second), no negative ts"
"$NVTXTC" --emit=chrome - <"$T/cross.nvtxt" >"$T/out"
same_file "$T/out" "$T/want" "the same from standard input (read once): the same origin"
"$NVTXTC" --emit=payload -o "$T/cross.payload" "$T/cross.nvtxt"
"$NVTXTC" --emit=chrome "$T/cross.payload" >"$T/out"
same_file "$T/out" "$T/want" "the same from a payload file"
"$NVTXTC" --emit=chrome - <"$T/cross.payload" >"$T/out"
same_file "$T/out" "$T/want" "the same from a payload on standard input"
# Far from zero, with a start/end range first: its start (2.9 s after 1.7e18 ns) is the first time read.
printf 'RangeStartEnd, 1700000002900000000, 1700000003600000000, ClockMonotonicRaw, 1, 2, , , "se", \nRangePush, 1700000002950000000, ClockMonotonicRaw, 1, 2, , , "p", \nMarker, 1700000003100000000, ClockMonotonicRaw, 1, 2, , , "m", \nRangePop, 1700000003500000000, ClockMonotonicRaw, 1, 2\n' >"$T/cross2.nvtxt"
"$NVTXTC" --emit=chrome "$T/cross2.nvtxt" >"$T/out"
is "$(grep -o '"ts":[^,]*\|"nvtxtc_time_origin_ns":[0-9]*' "$T/out" | tr '\n' ' ')" \
	'"ts":900000.0 "ts":1600000.0 "ts":1100000.0 "ts":950000.0 "nvtxtc_time_origin_ns":1700000002000000000 ' \
	"a start/end range's start read first: origin 1700000002 s, every ts from it, none negative"
"$CHECK" "$T/cross2.nvtxt" "$T/out" >/dev/null
ok $? "the export from the first event read's origin checks"
"$DIFF" "$T/cross.nvtxt" "$T/cross2.nvtxt" >"$T/diff" 2>&1
ok $? "chrome_diff: its reference origin (the first event read) is the writer's"
sed 's/^/# /' "$T/diff" | head -n 4

# A tick clock without a conversion: an error at its first event, naming the option; nothing written.
printf 'Marker, 100, ClockMonotonicRaw, 1, 2, , , "ok", \nMarker, 7, Qpc, 1, 2, , , "tick", \n' >"$T/qpc.nvtxt"
"$NVTXTC" --emit=chrome -o "$T/q.json" "$T/qpc.nvtxt" 2>"$T/err"
is "$?" 1 "Qpc without --time-conversion: exit 1"
grep -q "qpc.nvtxt:2:1: error: time base Qpc counts ticks of a clock whose rate nvtxtc does not know: give --time-conversion=Qpc:lin:NS_A,T_A,FREQ or --time-conversion=Qpc:lerp:NS_A,T_A,NS_B,T_B (see nvtxtc(1), TIME CONVERSION) \[time-conversion\]" "$T/err"
ok $? "the error says where, why, and which option fixes it"
sed 's/^/# /' "$T/err" | head -n 3
is "$(sed -n 2,3p "$T/err")" "    2 | Marker, 7, Qpc, 1, 2, , , \"tick\", 
      | ^~~~~~" "the error shows the line it is about, read back from the file"
"$NVTXTC" --emit=chrome - <"$T/qpc.nvtxt" >/dev/null 2>"$T/err"
is "$?:$(sed -n 2p "$T/err")" "1:1 error generated." "from standard input, which cannot be read back: the error without an excerpt"
! [ -e "$T/q.json" ]
ok $? "no partial output file"
grep -q '^1 error generated' "$T/err"
ok $? "the error is counted"
"$NVTXTC" --emit=chrome --time-conversion=Qpc:lin:0,0,1000 "$T/qpc.nvtxt" | grep -q '"name":"tick","ph":"i","ts":7000.0,'
ok $? "with Qpc at 1 kHz the marker converts (7 ticks = 7000000 ns)"
# Every call whose time does not convert is an error, in line order; nothing is written.
printf 'Marker, 7, Qpc, 1, 2, , , "a", \nRangeStartEnd, 1, 2, Qpc, 1, 2, , , "b", \nMarker, 9, Manual, 1, 2, , , "ok", \nMarker, 10, Rdtsc, 1, 2, , , "c", \n' >"$T/three.nvtxt"
"$NVTXTC" --emit=chrome -o "$T/three.json" "$T/three.nvtxt" 2>"$T/err"
is "$?:$(grep -o '^[^ ]*three.nvtxt:[0-9]*:[0-9]*: error: time base [A-Za-z]*' "$T/err" | sed 's|.*three.nvtxt:||' | tr '\n' ' ')$(tail -n 1 "$T/err")" \
	"1:1:1: error: time base Qpc 2:1: error: time base Qpc 4:1: error: time base Rdtsc 3 errors generated." \
	"three conversion errors (lines 1, 2 and 4): all three, in line order, one for a start/end range's two times"
! [ -e "$T/three.json" ]
ok $? "and no output file"
"$NVTXTC" --emit=chrome --max-errors=2 "$T/three.nvtxt" 2>"$T/err" >/dev/null
is "$(grep -c ': error: ' "$T/err"):$(grep -c '1 more error not shown (--max-errors=2)' "$T/err")" "2:1" \
	"--max-errors=2 shows two of them and counts the third"
# Overflow is an error, never a wrapped value.
"$NVTXTC" --emit=chrome --time-conversion=Qpc:lin:0,0,1 "$T/qpc.nvtxt" 2>"$T/err" >/dev/null
is "$?:$(grep -c 'outside the int64 range' "$T/err")" "0:0" "7 s at 1 Hz does not overflow"
printf 'Marker, 9223372037, Qpc, 1, 2, , , "late", \n' >"$T/over.nvtxt"
"$NVTXTC" --emit=chrome --time-conversion=Qpc:lin:0,0,1 -o "$T/o.json" "$T/over.nvtxt" 2>"$T/err"
is "$?:$(head -n 1 "$T/err")" "1:$T/over.nvtxt:1:1: error: time 9223372037 of time base Qpc is outside the int64 range of nanoseconds after --time-conversion=Qpc:lin [time-conversion]" \
	"9223372037 s overflows int64 ns: an error at its line"
# A file with errors exports nothing under -o.
printf 'Marker, 1, ClockMonotonicRaw, 1, 2, , , "a", \nRangePop, 5, ClockMonotonicRaw, 1, 2\n' >"$T/bad.nvtxt"
"$NVTXTC" --emit=chrome -o "$T/b.json" "$T/bad.nvtxt" 2>/dev/null
is "$?:$([ -e "$T/b.json" ] && echo written)" "1:" "a file with errors: exit 1 and no output"

# --emit=nvtxt under a conversion: nvtxtc(1)'s example, Qpc 7 at 10 MHz = 700 ns, TimeBase Manual.
printf 'Marker, 7, Qpc, 1, 2,,,,\nMarker, 7, Rdtsc, 1, 2,,,,\n' >"$T/m.nvtxt"
"$NVTXTC" --emit=nvtxt --time-conversion=Qpc:lin:0,0,10000000 "$T/m.nvtxt" >"$T/out"
printf 'Marker, 700, "Manual", 1, 2,,,,\nMarker, 7, "Rdtsc", 1, 2,,,,\n' >"$T/want"
same_file "$T/out" "$T/want" "--emit=nvtxt converts the given time base to Manual ns, the others not"
"$NVTXTC" --emit=nvtxt --time-conversion=Qpc:lin:0,0,10000000 "$T/out" >"$T/out2"
same_file "$T/out2" "$T/want" "the converted normal form checks clean and is a fixed point"
printf 'RangePush, 1000, Rdtsc, 1, 2,,,,\nRangePop, 3001000, Rdtsc, 1, 2\n' >"$T/p.nvtxt"
"$NVTXTC" --emit=nvtxt --time-conversion=Rdtsc:lerp:0,1000,1000000,3001000 "$T/p.nvtxt" >"$T/out"
printf 'RangePush, 0, "Manual", 1, 2,,,,\nRangePop, 1000000, "Manual", 1, 2\n' >"$T/want"
same_file "$T/out" "$T/want" "--emit=nvtxt with lerp: a push and its pop both convert"

# --emit=payload under the same conversion: its normal form is the converted one.
"$NVTXTC" --emit=payload -o "$T/p.payload" --time-conversion=Rdtsc:lerp:0,1000,1000000,3001000 "$T/p.nvtxt" &&
	"$NVTXTC" --emit=nvtxt "$T/p.payload" >"$T/out"
same_file "$T/out" "$T/want" "--emit=payload with lerp writes the converted times"

# Usage errors.
"$NVTXTC" --emit=chrome --time-conversion=Qpc:lin:1,2 "$T/m.nvtxt" >/dev/null 2>"$T/err"
is "$?:$(head -n 1 "$T/err")" "2:nvtxtc: error: --time-conversion=Qpc:lin:1,2: lin expects 3 values (NS_A,T_A,FREQ), found 2 [usage]" \
	"a short lin rule is a usage error"
"$NVTXTC" --emit=chrome --time-conversion=QPC:lin:1,2,3 "$T/m.nvtxt" >/dev/null 2>"$T/err"
grep -q "unknown time base 'QPC'" "$T/err"
ok $? "an unknown time base in a rule is a usage error"
"$NVTXTC" lint --time-conversion=Qpc:lin:1,2,3 "$T/m.nvtxt" >/dev/null 2>"$T/err"
is "$?:$(head -n 1 "$T/err")" "2:nvtxtc: error: --time-conversion needs --emit=FORMAT (or nvtxtc info) [usage]" \
	"--time-conversion without a back end is a usage error"

# Several files, one document (nvtxtc(1), CHROME TRACE EVENTS, Several files): the merged document is
# checked by tests/tools/chrome_merge_ref.py against each file's own export shifted onto the common
# origin: the same events, file after file, exact to the nanosecond, async ids unique, otherData.files.
MREF="python3 tests/tools/chrome_merge_ref.py"
cat >"$T/r0.nvtxt" <<'EOF'
SetFileDisplayName, "rank 0"
NameProcess, 10, "rank0"
RangePush, 2000000000, ClockMonotonicRaw, 10, 1, , , "a", 
Marker, 2000000500, ClockMonotonicRaw, 10, 1, , , "m", 
RangeStartEnd, 2000000100, 2000000900, ClockMonotonicRaw, 10, 1, , , "se", 
RangePop, 2000001000, ClockMonotonicRaw, 10, 1
EOF
cat >"$T/r1.nvtxt" <<'EOF'
NameProcess, 20, "rank1"
RangePush, 1999999000, ClockMonotonicRaw, 20, 1, , , "b", 
RangeStartEnd, 2000000100, 2000000200, ClockMonotonicRaw, 20, 1, , , "se2", 
RangePop, 2000002000, ClockMonotonicRaw, 20, 1
RangePush, 2000003000, ClockMonotonicRaw, 20, 1, , , "open", 
EOF
# the same ProcessId as r0, another time base (Qpc at 100 MHz under the option below)
cat >"$T/q.nvtxt" <<'EOF'
SetFileDisplayName, "day 2"
NameOsThread, 10, 1, "main of 10"
RangePush, 200000005, Qpc, 10, 1, , , "q", 
RangeStartEnd, 200000006, 200000007, Qpc, 10, 2, , , "qse", 
RangePop, 200000015, Qpc, 10, 1
EOF
QC=--time-conversion=Qpc:lin:0,0,100000000
for f in r0 r1 q; do "$NVTXTC" --emit=chrome $QC -o "$T/$f.json" "$T/$f.nvtxt" 2>/dev/null; done
if need python3 "the merged export's check (tests/tools/chrome_merge_ref.py)"; then
	"$NVTXTC" --emit=chrome -o "$T/m.json" "$T/r0.nvtxt" "$T/r1.nvtxt" 2>/dev/null
	ok $? "two files with different ProcessIds export as one document"
	$MREF "$T/m.json" "$T/r0.json" "$T/r1.json" >"$T/check"
	ok $? "two files: the files' events, file after file, on the first file's origin, ids renumbered"
	sed 's/^/# /' "$T/check"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(sorted({e["pid"] for e in d["traceEvents"]}) != [10, 20])' "$T/m.json"
	ok $? "two files with ProcessIds 10 and 20: two processes"
	"$NVTXTC" --emit=chrome $QC -o "$T/m3.json" "$T/r1.nvtxt" "$T/r0.nvtxt" "$T/q.nvtxt" 2>/dev/null
	ok $? "three files, two time bases, one --time-conversion for all"
	$MREF "$T/m3.json" "$T/r1.json" "$T/r0.json" "$T/q.json" >"$T/check"
	ok $? "three files: each converted by its own time base, shifted onto the common origin"
	sed 's/^/# /' "$T/check"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
ev=d["traceEvents"]; o=d["otherData"]
sys.exit(not ({(e["pid"], e.get("tid")) for e in ev if e["ph"] != "M"} == {(10, 1), (10, 2), (20, 1)}
         and o["nvtxtc_time_origin_ns"] == 1000000000
         and [f["file"].rsplit("/", 1)[-1] for f in o["files"]] == ["r1.nvtxt", "r0.nvtxt", "q.nvtxt"]
         and [f["display_name"] for f in o["files"]] == [None, "rank 0", "day 2"]))' "$T/m3.json"
	ok $? "one ProcessId and ThreadId in two files is one thread; the earliest head as origin; otherData.files in order"
	# the origin: the earliest of the files' first timed events (their heads), rounded toward zero to a
	# second, whatever the order of the files: r1 starts at 1999999000 ns, before r0's 2000000000
	nonneg='import json,sys; d=json.load(open(sys.argv[1])); ts=[e["ts"] for e in d["traceEvents"] if "ts" in e]
sys.exit(not (d["otherData"]["nvtxtc_time_origin_ns"] == int(sys.argv[2]) and min(ts) >= 0))'
	python3 -c "$nonneg" "$T/m.json" 1000000000
	ok $? "files whose first events are out of order (r0 then the earlier r1): origin 1 s (r1's head rounded), no negative ts"
	"$NVTXTC" --emit=payload -o "$T/r1.payload" "$T/r1.nvtxt" 2>/dev/null
	"$NVTXTC" --emit=chrome $QC "$T/q.nvtxt" "$T/r0.nvtxt" "$T/r1.payload" >"$T/m5.json" 2>/dev/null &&
		python3 -c "$nonneg" "$T/m5.json" 1000000000
	ok $? "a payload file's head counts too (Qpc, text, then the earliest: a payload last)"
	"$NVTXTC" --emit=chrome $QC -o "$T/m6.json" "$T/q.nvtxt" "$T/r0.nvtxt" 2>/dev/null &&
		python3 -c "$nonneg" "$T/m6.json" 2000000000
	ok $? "Qpc's head (2000000050 ns at 100 MHz) and r0's (2000000000): origin 2 s"
	"$NVTXTC" --emit=chrome "$T/r0.nvtxt" - <"$T/r1.nvtxt" >"$T/m8.json" 2>/dev/null &&
		python3 -c "$nonneg" "$T/m8.json" 2000000000
	is "$?" 1 "standard input has no head (it cannot be read twice): its earlier events have negative ts"
	"$NVTXTC" --emit=chrome $QC "$T/r0.nvtxt" "$T/r0.nvtxt" "$T/r0.nvtxt" >"$T/m4.json" 2>/dev/null &&
		$MREF "$T/m4.json" "$T/r0.json" "$T/r0.json" "$T/r0.json" >"$T/check"
	ok $? "the same file three times: three copies of its events, three async ids"
	sed 's/^/# /' "$T/check"
fi
# A file with errors among good ones: every file's diagnostics as lint prints them, exit 1, no -o file.
printf 'RangePush, 1, Manual, 1, 2, 3\nbad\n' >"$T/bad.nvtxt"
"$NVTXTC" lint "$T/r0.nvtxt" "$T/bad.nvtxt" "$T/r1.nvtxt" 2>"$T/lint.err"
"$NVTXTC" --emit=chrome -o "$T/mb.json" "$T/r0.nvtxt" "$T/bad.nvtxt" "$T/r1.nvtxt" 2>"$T/m.err"
is "$?:$([ -e "$T/mb.json" ] && echo written)" "1:" "a file with errors among good ones: exit 1 and no output"
same_file "$T/m.err" "$T/lint.err" "a file with errors among good ones: the diagnostics of lint"
# a time that does not convert in one file: its error reported, the others' events written
"$NVTXTC" --emit=chrome "$T/r0.nvtxt" "$T/q.nvtxt" >"$T/mq.json" 2>"$T/err"
is "$?:$(grep -c 'q.nvtxt:3:1: error: .*\[time-conversion\]' "$T/err")" "1:1" \
	"a file whose times do not convert: its error, exit 1"
grep -q '"name":"a","ph":"X"' "$T/mq.json"
ok $? "a file whose times do not convert: the other files' events are still written"
# one file per output for the other back ends
"$NVTXTC" --emit=payload -o "$T/p" "$T/r0.nvtxt" "$T/r1.nvtxt" 2>"$T/err"
is "$?:$(head -n 1 "$T/err")" "2:nvtxtc: error: --emit=payload writes one file per output: give one FILE (only --emit=chrome merges several) [usage]" \
	"--emit=payload with two files is a usage error"
"$NVTXTC" --emit=nvtxt "$T/r0.nvtxt" "$T/r1.nvtxt" 2>"$T/err" >/dev/null
is "$?:$(head -n 1 "$T/err")" "2:nvtxtc: error: --emit=nvtxt writes one file per output: give one FILE (only --emit=chrome merges several) [usage]" \
	"--emit=nvtxt with two files is a usage error"
done_testing
