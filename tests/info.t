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
# Several files: one report each, in command-line order; in JSON one array.
"$NVTXTC" info corpus-vse-example.nvtxt categories-and-names.nvtxt >"$T/out" 2>/dev/null
grep -c '^[a-z]' "$T/out" >"$T/n"
is "$(cat "$T/n"):$(head -n 1 "$T/out")" "2:corpus-vse-example.nvtxt" "two files, two reports, in order"
"$NVTXTC" info --format=json corpus-vse-example.nvtxt categories-and-names.nvtxt >"$T/out" 2>/dev/null
grep -c '^      "file": ' "$T/out" >"$T/n"
is "$(cat "$T/n")" 2 "two files in the JSON array"
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
