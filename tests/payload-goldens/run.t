#!/bin/sh
# The payload back end end to end (nvtxt-payload(5)).  For every example,
# corpus file and tests/payload-goldens/*.nvtxt:
#   - `nvtxtc --emit=payload -o P FILE` succeeds;
#   - `nvtxtc --emit=nvtxt P` (a payload where NVTXT is expected) prints the
#     normal form of FILE, byte for byte;
#   - `nvtxtc dump P` succeeds, and equals NAME.dump where one is kept;
#   - `nvtxtc replay P` under the recording injection library
#     (tests/inject/recorder.c; RECORDER, default build/tests/inject/recorder.so)
#     makes the library print the normal form of FILE.
# Then a truncated payload is rejected with exit 1 and an "offset N:" message.
cd "$(dirname "$0")" || exit 1
. ../lib.sh
RECORDER=${RECORDER:-$top/build/tests/inject/recorder.so}

# Without the NVTX headers, `nvtxtc replay` exits 2 and says it was built
# without them; then the replay tests are skipped.
have_replay=1
"$NVTXTC" --emit=payload -o "$T/probe" all-commands.nvtxt 2>/dev/null
if ! "$NVTXTC" replay "$T/probe" >/dev/null 2>"$T/err"; then
	grep -q 'without' "$T/err" && have_replay=0
fi

for f in "$top"/examples/*.nvtxt "$top"/../shared/corpus/*.nvtxt ./*.nvtxt; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .nvtxt)
	"$NVTXTC" --emit=nvtxt "$f" >"$T/src.nf" 2>/dev/null
	"$NVTXTC" --emit=payload -o "$T/p" "$f" 2>"$T/err"
	ok $? "$name: --emit=payload exits 0"
	"$NVTXTC" --emit=nvtxt "$T/p" >"$T/pl.nf" 2>"$T/err"
	ok $? "$name: --emit=nvtxt of the payload exits 0"
	same_file "$T/pl.nf" "$T/src.nf" "$name: normal form of the payload = normal form of the source"
	"$NVTXTC" dump "$T/p" >"$T/dump" 2>"$T/err"
	ok $? "$name: dump exits 0"
	if [ -f "$name.dump" ]; then
		same_file "$T/dump" "$name.dump" "$name: dump equals $name.dump"
	fi
	if [ $have_replay = 0 ]; then
		skip "$name: replay: nvtxtc was built without the NVTX headers"
	elif ! [ -f "$RECORDER" ]; then
		ok 1 "$name: replay: no recorder library at $RECORDER (make check builds it)"
	else
		rm -f "$T/rec"
		NVTX_INJECTION64_PATH=$RECORDER NVTXT_RECORDER_OUT=$T/rec "$NVTXTC" replay "$T/p" 2>"$T/err"
		ok $? "$name: replay exits 0"
		same_file "$T/rec" "$T/src.nf" "$name: the injection library receives the normal form"
		"$NVTXTC" replay "$T/p" 2>"$T/err"
		ok $? "$name: replay without a tool exits 0"
	fi
done

# A truncated payload: exit 1, one message naming the offset.
"$NVTXTC" --emit=payload -o "$T/p" all-commands.nvtxt 2>/dev/null
head -c 200 "$T/p" >"$T/short"
"$NVTXTC" dump "$T/short" >/dev/null 2>"$T/err"
is $? 1 "dump of a truncated payload exits 1"
grep -q 'offset [0-9]*:' "$T/err"
ok $? "the message names an offset: $(head -n 1 "$T/err")"
"$NVTXTC" --emit=nvtxt "$T/short" >/dev/null 2>&1
is $? 1 "--emit=nvtxt of a truncated payload exits 1"

# A source with errors leaves no payload file behind.
printf 'Marker, 1\n' >"$T/bad.nvtxt"
rm -f "$T/bad.p"
"$NVTXTC" --emit=payload -o "$T/bad.p" "$T/bad.nvtxt" 2>/dev/null
is $? 1 "--emit=payload of a file with errors exits 1"
[ ! -e "$T/bad.p" ]
ok $? "and writes no output file"

done_testing
