#!/bin/sh
# The real-viewer test of --emit=chrome: tests/viewer/ranges.nvtxt is
# exported and opened in speedscope (npm, pinned in package-lock.json) in
# Debian's headless Chromium (tests/viewer/speedscope.mjs), which must show
# its push/pop ranges as frames with their names and exact durations, one
# of them 250 ns long; a screenshot of the timeline goes to
# build/viewer/speedscope.png (VIEWER_SHOT).  node, the npm packages (npm
# ci) and Chromium come with make check; when one is missing, or Chromium
# cannot start, the test fails (skips under make check OFFLINE=1: need).
cd "$(dirname "$0")/viewer" || exit 1
. ../lib.sh
shot=${VIEWER_SHOT:-$top/build/viewer/speedscope.png}
mkdir -p "$(dirname "$shot")"

"$NVTXTC" --emit=chrome -o "$T/trace.json" ranges.nvtxt
ok $? "ranges.nvtxt exports"

if need node "speedscope" && need node_modules "speedscope and playwright-core" &&
	need chromium "speedscope in headless Chromium"; then
	timeout 180 node speedscope.mjs "$T/trace.json" "$shot" \
		frame=1.00ms upload=300.00µs draw=400.00µs tiny=250.00ns >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc = 77 ]; then
		# installed, yet it cannot run: a failure
		ok 1 "speedscope: $(sed -n 's/^# //p' "$T/out" | head -n 1)"
	else
		# the script's own TAP lines, renumbered into this plan
		relay_tap "$T/out" "speedscope: "
		[ $rc = 0 ] || { ok 1 "speedscope.mjs exits 0 (exit $rc)"; sed 's/^/# /' "$T/err" | head -n 20; }
	fi
fi
done_testing
