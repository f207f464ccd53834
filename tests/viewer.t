#!/bin/sh
# The real-viewer test of --emit=chrome: tests/viewer/ranges.nvtxt is
# exported and opened in speedscope (npm, pinned in package-lock.json) in
# Debian's headless Chromium (tests/viewer/speedscope.mjs), which must show
# its push/pop ranges as frames with their names and exact durations, one
# of them 250 ns long; a screenshot of the timeline goes to
# build/viewer/speedscope.png (VIEWER_SHOT).  Skipped, not failed, when
# node, the npm packages (npm ci) or Chromium are missing or Chromium
# cannot start.
cd "$(dirname "$0")/viewer" || exit 1
. ../lib.sh
shot=${VIEWER_SHOT:-$top/build/viewer/speedscope.png}
mkdir -p "$(dirname "$shot")"

"$NVTXTC" --emit=chrome -o "$T/trace.json" ranges.nvtxt
ok $? "ranges.nvtxt exports"

if ! command -v node >/dev/null 2>&1; then
	skip "no node: the viewer test needs node and 'npm ci'"
elif ! [ -d "$top/node_modules/speedscope" ] || ! [ -d "$top/node_modules/playwright-core" ]; then
	skip "speedscope and playwright-core are not installed: run 'npm ci' at the top of the tree"
elif ! [ -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
	skip "no Chromium at ${CHROMIUM:-/usr/bin/chromium} (Debian package chromium)"
else
	timeout 180 node speedscope.mjs "$T/trace.json" "$shot" \
		frame=1.00ms upload=300.00µs draw=400.00µs tiny=250.00ns >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc = 77 ]; then
		skip "$(sed -n 's/^# //p' "$T/out" | head -n 1)"
	else
		# the script's own TAP lines, renumbered into this plan
		while IFS= read -r line; do
			case $line in
			"ok "*) ok 0 "speedscope: ${line#* - }" ;;
			"not ok "*) ok 1 "speedscope: ${line#* - }" ;;
			*) echo "$line" ;;
			esac
		done <"$T/out"
		[ $rc = 0 ] || { ok 1 "speedscope.mjs exits 0 (exit $rc)"; sed 's/^/# /' "$T/err" | head -n 20; }
	fi
fi
done_testing
