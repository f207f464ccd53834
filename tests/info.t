#!/bin/sh
# nvtxtc info (nvtxtc(1), INFO): for every tests/info/NAME.nvtxt (the
# corpus and a few more; NAME.args holds extra options), the text and the
# JSON report must be exactly NAME.txt and NAME.json (tests/regen rewrites
# them; review the diff).  The JSON must parse (chrome_check's jansson is
# not needed: the report is checked against the text's numbers by hand in
# the goldens).  Then several files at once, and the usage errors.
cd "$(dirname "$0")/info" || exit 1
. ../lib.sh
for f in *.nvtxt; do
	b=${f%.nvtxt}
	args=""
	[ -f "$b.args" ] && args=$(cat "$b.args")
	# shellcheck disable=SC2086
	"$NVTXTC" info $args "$f" >"$T/out" 2>"$T/err"
	st=$?
	[ $st -le 1 ]
	ok $? "info $b exits 0 or 1 (got $st)"
	same_file "$T/out" "$b.txt" "info $b: text"
	# shellcheck disable=SC2086
	"$NVTXTC" info --format=json $args "$f" >"$T/out" 2>"$T/err"
	same_file "$T/out" "$b.json" "info $b: JSON"
done
# Several files: one report of them all (nvtxtc(1), INFO).
"$NVTXTC" info corpus-vse-example.nvtxt categories-and-names.nvtxt open-and-mixed.nvtxt >"$T/out" 2>/dev/null
is "$(head -n 4 "$T/out" | tr '\n' '|')" \
	"3 files, one report|  file: corpus-vse-example.nvtxt|  file: categories-and-names.nvtxt (display name: render loop)|  file: open-and-mixed.nvtxt|" \
	"three files, one report: the files in command-line order, each with its display name"
is "$(sed -n 's/^  events: //p' "$T/out")" 27 "the events of all three (3 + 17 + 7)"
grep -q '^    open-and-mixed.nvtxt:6  *7  *1  load$' "$T/out"
ok $? "an open range is named by its file and line"
grep -q '^ *4100 ns  categories-and-names.nvtxt:20-25 ' "$T/out"
ok $? "the longest ranges of all files, each with its file and lines"
# the same ProcessId and ThreadId in two files: one thread; push/pop nesting per file
printf 'RangePush, 10, Manual, 5, 1,,, "a",\nRangePush, 20, Manual, 5, 1,,, "left open",\n' >"$T/a.nvtxt"
printf 'RangePush, 100, Manual, 5, 1,,, "b",\nRangePop, 150, Manual, 5, 1\nMarker, 160, Manual, 5, 2,,, "m",\n' >"$T/b.nvtxt"
"$NVTXTC" info --format=json "$T/a.nvtxt" "$T/b.nvtxt" >"$T/ab.json" 2>/dev/null
is "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=[x for x in d["threads"] if x["thread_id"] == 1][0]
print(len(d["files"]), len(d["threads"]), t["events"], t["max_push_depth"], d["open_ranges"], d["longest_ranges"][0]["file"].endswith("b.nvtxt"))' "$T/ab.json")" \
	"2 2 4 2 2 True" "two files, one thread of (5, 1): 4 events, depth 2 (the second file starts none deeper), 2 open"
"$NVTXTC" info --format=json corpus-vse-example.nvtxt >"$T/one.json" 2>/dev/null
is "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([f["file"] for f in d["files"]], "file" in d, {r["file"] for r in d["longest_ranges"]})' "$T/one.json")" \
	"['corpus-vse-example.nvtxt'] False {'corpus-vse-example.nvtxt'}" "one file: the shape of several, 'files' with one entry, each range's 'file'"
# A time base without a rule to nanoseconds: first_ns and last_ns are null, not left out.
"$NVTXTC" info --format=json qpc-ticks.nvtxt 2>/dev/null | grep -c '"\(first\|last\)_ns": null' >"$T/n"
is "$(cat "$T/n")" 2 "time_bases: first_ns and last_ns are null where the time base does not convert"
# Distinct messages: equal only byte for byte (lengths around the 4- and 8-byte words of the hash and compare).
: >"$T/msgs.nvtxt"
for m in a b a ab abcd abce abcd abcdefgh abcdefgi abcdefgh abcdefghX xbcdefghX abcdefghX \
	abcdefghijklmnop abcdefghijklmnoq abcdefghijklmnop abcdefgHijklmnop; do
	printf 'Marker, 1, Manual, 1, 2, , , "%s", \n' "$m" >>"$T/msgs.nvtxt"
done
"$NVTXTC" info "$T/msgs.nvtxt" | sed -n 's/^  distinct messages: //p' >"$T/n"
is "$(cat "$T/n")" 12 "12 distinct messages among 17"
# Around the words the table compares (bytes 0-8, 8-16, 16-24, the last 8; over 32 bytes the rest):
# one byte changed in the middle of a message of 15, 23, 31, 33 and 47 bytes.
: >"$T/msgs.nvtxt"
for m in abcdefg_ijklmno abcdefg.ijklmno abcdefghijk_mnopqrstuvw abcdefghijk.mnopqrstuvw \
	abcdefghijklmno_qrstuvwxyz01234 abcdefghijklmno.qrstuvwxyz01234 abcdefghijklmno_qrstuvwxyz01234 \
	abcdefghijklmnopqrstuvwxy_0123456 abcdefghijklmnopqrstuvwxy.0123456 \
	abcdefghijklmnopqrstuvwxyzABCDE_GHIJKLMNOPQRSTU abcdefghijklmnopqrstuvwxyzABCDE.GHIJKLMNOPQRSTU \
	abcdefghijklmnopqrstuvwxyzABCDE_GHIJKLMNOPQRSTU; do
	printf 'Marker, 1, Manual, 1, 2, , , "%s", \n' "$m" >>"$T/msgs.nvtxt"
done
"$NVTXTC" info "$T/msgs.nvtxt" | sed -n 's/^  distinct messages: //p' >"$T/n"
is "$(cat "$T/n")" 10 "10 distinct messages among 12, each pair apart by one byte in its middle"
# A file with errors: described by its valid events, exit 1.
printf 'Marker, 1, Manual, 1, 2,,,,\nRangePop, 5, Manual, 1, 2\n' >"$T/bad.nvtxt"
"$NVTXTC" info "$T/bad.nvtxt" >"$T/out" 2>"$T/err"
is "$?:$(grep -c 'Marker  *1$' "$T/out")" "1:1" "a file with errors: exit 1, its valid events counted"
# Usage errors.
"$NVTXTC" info --format=xml corpus-vse-example.nvtxt >/dev/null 2>"$T/err"
is "$?:$(head -n 1 "$T/err")" "2:nvtxtc: error: --format expects text or json, found 'xml' [usage]" "an unknown --format"
on_tty "'$NVTXTC' info 2>'$T/err'"
is "$?:$(head -n 1 "$T/err")" "2:nvtxtc: error: no input files [usage]" "info without a file, standard input a terminal"
"$NVTXTC" info <corpus-vse-example.nvtxt >"$T/out" 2>"$T/err"
is "$?:$(head -n 1 "$T/out")" "0:<stdin>" "info without a file reads standard input when it is not a terminal"
"$NVTXTC" info --emit=nvtxt corpus-vse-example.nvtxt >/dev/null 2>"$T/err"
is "$?" 2 "info takes no --emit"
done_testing
