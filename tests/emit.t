#!/bin/sh
# Canonical output: for every tests/emit/NAME.nvtxt, `nvtxtc --emit=nvtxt`
# must exit 0 and print exactly NAME.out.
cd "$(dirname "$0")/emit" || exit 1
. ../lib.sh
for f in *.nvtxt; do
	base=${f%.nvtxt}
	"$NVTXTC" --emit=nvtxt --color=never "$f" >"$T/out" 2>"$T/err"
	ok $? "emit $base exits 0"
	same_file "$T/out" "$base.out" "emit $base output"
done
done_testing
