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

# An output longer than fmt's 64 KiB buffer: the file is read once, its
# text spooled to an unnamed temporary file in $TMPDIR and printed at the end.
awk 'BEGIN { for (i = 0; i < 30000; i++) print "X=" i }' > "$T/big.nvtxt"
awk 'BEGIN { for (i = 0; i < 30000; i++) print "X = " i }' > "$T/big.fmt"
"$NVTXTC" fmt "$T/big.nvtxt" > "$T/out" 2> "$T/err"
ok $? "fmt of a file whose output passes 64 KiB exits 0"
same_file "$T/out" "$T/big.fmt" "fmt of a file whose output passes 64 KiB"
"$NVTXTC" fmt - < "$T/big.nvtxt" > "$T/out" 2> "$T/err"
same_file "$T/out" "$T/big.fmt" "fmt of standard input whose output passes 64 KiB"
cat "$T/big.nvtxt" | "$NVTXTC" fmt - > "$T/out" 2> "$T/err"
same_file "$T/out" "$T/big.fmt" "fmt of a pipe whose output passes 64 KiB"
{ cat "$T/big.nvtxt"; echo "X ="; } > "$T/bad.nvtxt"
"$NVTXTC" fmt --color=never "$T/bad.nvtxt" > "$T/out" 2> "$T/err"
is "$?" 1 "fmt of a long file with a syntax error on its last line exits 1"
is "$(wc -c < "$T/out" | tr -d ' ')" 0 "... and prints nothing on standard output"
grep -q "not formatted: it has syntax errors" "$T/err"
ok $? "... and says why"

# Standard output a regular file that fmt alone writes at its end: the
# text goes there as it is made and is taken back (truncated) after an
# error, so the file holds the text of the good inputs only.
awk 'BEGIN { for (i = 0; i < 20000; i++) print "Y=" i }' > "$T/big2.nvtxt"
awk 'BEGIN { for (i = 0; i < 20000; i++) print "Y = " i }' > "$T/big2.fmt"
cat "$T/big.fmt" "$T/big2.fmt" > "$T/both.fmt"
"$NVTXTC" fmt --color=never "$T/big.nvtxt" "$T/bad.nvtxt" "$T/big2.nvtxt" > "$T/out" 2> "$T/err"
is "$?" 1 "fmt GOOD BAD GOOD > FILE exits 1"
same_file "$T/out" "$T/both.fmt" "... FILE holds the text of the good files, none of the bad one's"
echo "# kept" > "$T/appended"
cp "$T/appended" "$T/want.appended"
cat "$T/big.fmt" >> "$T/want.appended"
"$NVTXTC" fmt "$T/bad.nvtxt" "$T/big.nvtxt" >> "$T/appended" 2> "$T/err"
same_file "$T/appended" "$T/want.appended" "fmt BAD GOOD >> FILE: what FILE held, then the good file's text"
# a file written from its start (1<>FILE: its offset is not its size) is not taken back: held as for a pipe
cp "$T/big.nvtxt" "$T/rw"
"$NVTXTC" fmt "$T/bad.nvtxt" 1<> "$T/rw" 2> "$T/err"
cmp -s "$T/rw" "$T/big.nvtxt"
ok $? "fmt BAD 1<>FILE leaves FILE as it was"
# standard error in the same file: the diagnostics stay, no formatted text
"$NVTXTC" fmt --color=never "$T/bad.nvtxt" > "$T/out" 2>&1
is "$?:$(grep -c '^X = ' "$T/out")" "1:0" "fmt BAD > FILE 2>&1: no formatted text in FILE"
grep -q "not formatted: it has syntax errors" "$T/out"
ok $? "... and its diagnostics are"
"$NVTXTC" fmt "$T/bad.nvtxt" > /dev/null 2> "$T/err"
is "$?" 1 "fmt BAD > /dev/null exits 1"
# ... and it makes no temporary file: the fault library logs every unnamed
# temporary asked for (tmpfile=EOPNOTSUPP refuses O_TMPFILE, and the
# named fallback serves); to a pipe the long text is held in one
FAULTS=${FAULTS:-$(cd ../.. && pwd)/build/tests/inject/faults.so}
# a sanitizer build takes the library after its runtime only with verify_asan_link_order=0
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS
LD_PRELOAD=$FAULTS "$NVTXTC" --version >/dev/null 2>&1
ok $? "$FAULTS can be preloaded (make check builds it: make build/tests/inject/faults.so)"
: > "$T/log"
LD_PRELOAD=$FAULTS NVTXT_FAULTS=tmpfile=EOPNOTSUPP NVTXT_FAULT_LOG=$T/log "$NVTXTC" fmt "$T/big.nvtxt" > "$T/out" 2> "$T/err"
is "$?:$(cat "$T/err")" "0:" "fmt LONG > FILE under the fault library: exit 0, no error"
same_file "$T/out" "$T/big.fmt" "... the text"
is "$(grep -c 'tmpfile refused' "$T/log")" 0 "... and no temporary file asked for"
LD_PRELOAD=$FAULTS NVTXT_FAULTS=tmpfile=EOPNOTSUPP NVTXT_FAULT_LOG=$T/log "$NVTXTC" fmt "$T/big.nvtxt" 2> "$T/err" | cat > "$T/out"
same_file "$T/out" "$T/big.fmt" "fmt LONG | cat under the fault library: the text"
is "$(grep -c 'tmpfile refused' "$T/log")" 1 "... held in a temporary file"

# The spool is in $TMPDIR: while fmt waits to write the end of a long
# text to a FIFO that nobody reads yet, one of its descriptors is an
# unnamed (deleted) file in that directory.
mkdir "$T/tmpd" && mkfifo "$T/fifo"
TMPDIR=$T/tmpd "$NVTXTC" fmt "$T/big.nvtxt" > "$T/fifo" 2> "$T/err" &
pid=$!
exec 3< "$T/fifo"
spooled=$(spooled_in $pid "$T/tmpd")
cat <&3 > "$T/out"
exec 3<&-
wait $pid
is "$?" 0 "fmt to a FIFO read late exits 0"
is "$spooled" yes "fmt spools a text over 64 KiB in \$TMPDIR (an unnamed file there while it prints)"
same_file "$T/out" "$T/big.fmt" "... and prints it whole"
ls -A "$T/tmpd" > "$T/left"
is "$(cat "$T/left")" "" "... and leaves nothing in \$TMPDIR"

# A file that is not text, or a payload file: one error and the count, as gcc and gofmt
# say it, without the note "not formatted: it has syntax errors"; nothing printed, exit 1,
# the file left alone by every mode.
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\003\000>\000' > "$T/prog"
printf '%s\n' "$T/prog: error: not a text file: NUL byte at offset 7 (with other control characters in its first 8 KiB); not checked further [encoding]" \
	"1 error generated." > "$T/want.bin"
printf 'Marker, 1, Manual, 1, 2, , , "m", \n' > "$T/m.nvtxt"
"$NVTXTC" --emit=payload -o "$T/m.payload" "$T/m.nvtxt"
printf '%s\n' "$T/m.payload: error: a payload file (nvtxt-payload(5)), not NVTXT text: fmt lays out text; nvtxtc --emit=nvtxt FILE prints a payload's events as text [encoding]" \
	"1 error generated." > "$T/want.payload"
cp "$T/prog" "$T/prog.orig"
cp "$T/m.payload" "$T/m.payload.orig"
for f in prog m.payload; do
	case $f in prog) want=$T/want.bin ;; *) want=$T/want.payload ;; esac
	for mode in "" --check -l -d -i; do
		# shellcheck disable=SC2086
		"$NVTXTC" fmt --color=never $mode "$T/$f" > "$T/out" 2> "$T/err"
		is "$?:$(wc -c < "$T/out" | tr -d ' ')" "1:0" "fmt${mode:+ $mode} of $f: exit 1, nothing printed"
		same_file "$T/err" "$want" "fmt${mode:+ $mode} of $f: its one error and the count, no 'not formatted' note"
	done
	cmp -s "$T/$f" "$T/$f.orig"
	ok $? "fmt -i leaves $f as it was"
	sed "s|^$T/$f:|<stdin>:|" "$want" > "$T/want.stdin"
	"$NVTXTC" fmt --color=never - < "$T/$f" > "$T/out" 2> "$T/err"
	is "$?:$(wc -c < "$T/out" | tr -d ' ')" "1:0" "fmt of $f on standard input: exit 1, nothing printed"
	same_file "$T/err" "$T/want.stdin" "fmt of $f on standard input: the same one error"
done
# the error's suggestion, followed, gives text that fmt formats
"$NVTXTC" --emit=nvtxt "$T/m.payload" > "$T/m.text" && "$NVTXTC" fmt "$T/m.text" > "$T/out" 2> "$T/err"
is "$?:$(cat "$T/err")" "0:" "nvtxtc --emit=nvtxt FILE of the payload prints text that fmt formats"
grep -q '^Marker, 1, ' "$T/out"
ok $? "... with the payload's marker"
done_testing
