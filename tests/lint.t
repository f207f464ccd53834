#!/bin/sh
# Data-driven diagnostics: for every tests/lint/NAME.nvtxt, the standard
# error of `nvtxtc lint --color=never [ARGS] NAME.nvtxt` followed by a line
# "exit STATUS" must equal NAME.err.  ARGS come from NAME.args when present.
# Goldens are reviewed by hand; tests/regen rewrites them from the binary.
cd "$(dirname "$0")/lint" || exit 1
. ../lib.sh
for f in *.nvtxt; do
	base=${f%.nvtxt}
	args=""
	[ -f "$base.args" ] && args=$(cat "$base.args")
	# shellcheck disable=SC2086
	"$NVTXTC" lint --color=never $args "$f" >"$T/out" 2>"$T/err"
	echo "exit $?" >>"$T/err"
	same_file "$T/err" "$base.err" "lint $base"
	if [ -s "$T/out" ]; then
		ok 1 "lint $base prints nothing on standard output"
	fi
done
done_testing
