#!/bin/sh
# Layout: for every tests/fmt/NAME.nvtxt, `nvtxtc fmt` must exit 0 and print
# exactly NAME.fmt; formatting NAME.fmt again must change nothing.
cd "$(dirname "$0")/fmt" || exit 1
. ../lib.sh
for f in *.nvtxt; do
	base=${f%.nvtxt}
	"$NVTXTC" fmt --color=never "$f" >"$T/out" 2>"$T/err"
	ok $? "fmt $base exits 0"
	same_file "$T/out" "$base.fmt" "fmt $base output"
	"$NVTXTC" fmt --check "$base.fmt" >/dev/null 2>&1
	ok $? "fmt --check $base.fmt: already formatted"
done
done_testing
