#!/bin/sh
# The real-viewer test of --emit=chrome: tests/viewer/ranges.nvtxt is
# exported and opened in speedscope (npm, pinned in package-lock.json) in
# Debian's headless Chromium (tests/viewer/speedscope.mjs), which must show
# its push/pop ranges as frames with their names and exact durations, one
# of them 250 ns long; a screenshot of the timeline goes to
# build/viewer/speedscope.png (VIEWER_SHOT).  A merged export of two files
# (merged-a.nvtxt, merged-b.nvtxt) shows one profile per thread, named as
# the files name it, each with its frames (speedscope-merged.png).  node, the npm packages (npm
# ci) and Chromium come with make check; when one is missing, or Chromium
# cannot start, the test fails (skips under make check OFFLINE=1: need).
cd "$(dirname "$0")/viewer" || exit 1
. ../lib.sh
shot=${VIEWER_SHOT:-$top/build/viewer/speedscope.png}
mkdir -p "$(dirname "$shot")"

"$NVTXTC" --emit=chrome -o "$T/trace.json" ranges.nvtxt
ok $? "ranges.nvtxt exports"

# speedscope PREFIX TRACE SHOT EXPECT...: speedscope.mjs on TRACE, its TAP lines renumbered into this plan
speedscope() {
	s_prefix=$1
	shift
	timeout 180 node speedscope.mjs "$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc = 77 ]; then
		# installed, yet it cannot run: a failure
		ok 1 "$s_prefix$(sed -n 's/^# //p' "$T/out" | head -n 1)"
	else
		relay_tap "$T/out" "$s_prefix"
		[ $rc = 0 ] || { ok 1 "${s_prefix}speedscope.mjs exits 0 (exit $rc)"; sed 's/^/# /' "$T/err" | head -n 20; }
	fi
}

if need node "speedscope" && need node_modules "speedscope and playwright-core" &&
	need chromium "speedscope in headless Chromium"; then
	speedscope "speedscope: " "$T/trace.json" "$shot" frame=1.00ms upload=300.00µs draw=400.00µs tiny=250.00ns
	# two files in one document: processes 10 and 20 their own, process 30 shared; each thread one
	# profile, named as the files name it, reached in turn (speedscope's key n)
	"$NVTXTC" --emit=chrome -o "$T/merged.json" merged-a.nvtxt merged-b.nvtxt
	ok $? "merged-a.nvtxt and merged-b.nvtxt export as one document"
	speedscope "speedscope, merged: " "$T/merged.json" "${shot%.png}-merged.png" \
		"profile=rank 0 (pid 10), main 0 (tid 1) (1/3)" "step a=1.00ms" "kernel a=300.00µs" \
		"profile=rank 1 (pid 20), main 1 (tid 1) (2/3)" "step b=2.00ms" "kernel b=300.00µs" \
		"profile=shared (pid 30, tid 1) (3/3)" "io a=200.00µs" "io b=50.00µs"
fi
done_testing
