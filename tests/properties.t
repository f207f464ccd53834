#!/bin/sh
# Properties over every test input, every example and ../shared/corpus/:
#   for a file that lints without errors, its normal form (--emit=nvtxt)
#   lints without errors and is a fixed point;
#   for a file fmt accepts, fmt is idempotent and keeps the normal form.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
for f in tests/lint/*.nvtxt tests/emit/*.nvtxt tests/fmt/*.nvtxt examples/*.nvtxt ../shared/corpus/*.nvtxt; do
	[ -f "$f" ] || continue
	if "$NVTXTC" lint -w "$f" >/dev/null 2>&1; then
		"$NVTXTC" --emit=nvtxt "$f" >"$T/nf1" 2>/dev/null
		ok $? "$f: --emit=nvtxt succeeds"
		"$NVTXTC" lint -w "$T/nf1" >/dev/null 2>&1
		ok $? "$f: its normal form lints clean"
		"$NVTXTC" --emit=nvtxt "$T/nf1" >"$T/nf2" 2>/dev/null
		same_file "$T/nf2" "$T/nf1" "$f: the normal form is a fixed point"
		nf=yes
	else
		nf=no
	fi
	if "$NVTXTC" fmt "$f" >"$T/fmt1" 2>/dev/null; then
		"$NVTXTC" fmt "$T/fmt1" >"$T/fmt2" 2>/dev/null
		same_file "$T/fmt2" "$T/fmt1" "$f: fmt is idempotent"
		if [ $nf = yes ]; then
			"$NVTXTC" --emit=nvtxt "$T/fmt1" >"$T/nf3" 2>/dev/null
			same_file "$T/nf3" "$T/nf1" "$f: fmt keeps the normal form"
		fi
	fi
done
done_testing
