#!/bin/sh
# speedscope's own importer on --emit=chrome (issue 20, item 4): every test
# file, example and corpus file that exports (tests/emit, tests/lint,
# tests/fmt, examples, tests/viewer, ../shared/corpus; the tick clocks
# converted at one tick a nanosecond) is loaded into the Trace Event
# importer of the npm package speedscope (1.25, pinned in
# package-lock.json) under Node by tests/viewer/speedscope-tree.mjs, and
# its call tree of every thread (names, nesting, open and close times to
# the nanosecond) must be the normal form's (--emit=nvtxt).
# tests/viewer/same-ts.nvtxt holds the hard cases: zero-length ranges
# among siblings, children starting or ending with their parent, ranges
# of one name back to back, pushes left open.  Needs node and the npm
# packages (make check installs them; without them the test fails, saying
# how to get them, or skips under make check OFFLINE=1).  A merged export
# of two files (tests/viewer/merged-*.nvtxt) must give one profile per
# thread, named as the files name them, the shared one with both files'
# ranges.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
CONV="--time-conversion=Qpc:lin:0,0,1000000000 --time-conversion=Rdtsc:lerp:0,0,1000,1000
      --time-conversion=CNTVCT:lin:5,5,1000000000 --time-conversion=FileTime:lerp:-10,-10,10,10"

if ! need node "speedscope's importer runs under Node" || ! need node_modules "the npm package speedscope"; then
	done_testing
	exit
fi

set --
n=0
for f in tests/emit/*.nvtxt tests/lint/*.nvtxt tests/fmt/*.nvtxt examples/*.nvtxt tests/viewer/*.nvtxt \
	"$top"/../shared/corpus/*.nvtxt; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$NVTXTC" --emit=chrome $CONV -o "$T/$n.json" "$f" 2>/dev/null || continue # a file with errors
	"$NVTXTC" --emit=nvtxt "$f" >"$T/$n.nvtxt" 2>/dev/null || continue
	set -- "$@" "$T/$n.nvtxt" "$T/$n.json"
	echo "# $n: $f"
done
ok $(($# >= 100 ? 0 : 1)) "at least 50 files export ($(($# / 2)))"
grep -l 'same-ts-a' "$T"/*.nvtxt >/dev/null 2>&1
ok $? "tests/viewer/same-ts.nvtxt is among them"

timeout 300 node tests/viewer/speedscope-tree.mjs "$@" >"$T/out" 2>"$T/err"
rc=$?
relay_tap "$T/out" ""
[ $rc = 0 ] || { ok 1 "speedscope-tree.mjs exits 0 (exit $rc)"; sed 's/^/# /' "$T/err" | head -n 20; }

# Several files, one document (nvtxtc(1), CHROME TRACE EVENTS, Several files): tests/viewer/merged-a.nvtxt
# and merged-b.nvtxt, whose processes 10 and 20 are their own and whose process 30, thread 1, they
# share; speedscope makes one profile per thread, with the names NameProcess and NameOsThread gave, and
# the shared thread's tree holds both files' ranges.
"$NVTXTC" --emit=chrome -o "$T/merged.json" tests/viewer/merged-a.nvtxt tests/viewer/merged-b.nvtxt 2>"$T/err"
ok $? "merged-a.nvtxt and merged-b.nvtxt export as one document"
{ "$NVTXTC" --emit=nvtxt tests/viewer/merged-a.nvtxt && "$NVTXTC" --emit=nvtxt tests/viewer/merged-b.nvtxt; } >"$T/merged.nvtxt"
timeout 120 node tests/viewer/speedscope-tree.mjs \
	"--profiles=rank 0 (pid 10), main 0 (tid 1)|rank 1 (pid 20), main 1 (tid 1)|shared (pid 30, tid 1)" \
	"$T/merged.nvtxt" "$T/merged.json" >"$T/out" 2>"$T/err"
rc=$?
relay_tap "$T/out" "merged: "
[ $rc = 0 ] || { ok 1 "speedscope-tree.mjs exits 0 on the merged export (exit $rc)"; sed 's/^/# /' "$T/err" | head -n 20; }

# The test sees a wrong tree: an export in which same-ts-a swallows same-ts-b and outer ends at 9 us.
"$NVTXTC" --emit=nvtxt tests/viewer/same-ts.nvtxt >"$T/s.nvtxt" 2>/dev/null
cat >"$T/bad.json" <<'JSON'
{"traceEvents":[
{"name":"outer","ph":"B","ts":0,"pid":1,"tid":1,"args":{"line":6}},
{"name":"same-ts-a","ph":"B","ts":5,"pid":1,"tid":1,"args":{"line":7}},
{"name":"same-ts-a","ph":"E","ts":5,"pid":1,"tid":1,"args":{"line":8}},
{"name":"same-ts-b","ph":"B","ts":5,"pid":1,"tid":1,"args":{"line":9}},
{"name":"same-ts-b","ph":"E","ts":9,"pid":1,"tid":1,"args":{"line":10}},
{"name":"outer","ph":"E","ts":11,"pid":1,"tid":1,"args":{"line":11}}
]}
JSON
node tests/viewer/speedscope-tree.mjs "$T/s.nvtxt" "$T/bad.json" >"$T/out" 2>&1
is "$?:$(sed -n 2p "$T/out")" "1:# thread 1:1, call 1: expected open 'same-ts-b' at 5000 ns, speedscope has open 'same-ts-a {\"line\":7}' at 5000 ns" \
	"an E whose args differ from its B (the old export) is caught: same-ts-a swallows same-ts-b"
done_testing
