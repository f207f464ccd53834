#!/bin/sh
# The progress line (nvtxtc(1), --progress; issue 22, item 3): after about a
# second on a file, when standard error is a terminal, one line on standard
# error ("NAME: X MB of Y MB (P%), R MB/s, H:MM:SS left"), redrawn with a
# carriage return and erased at the end; never when standard error is not a
# terminal, never with --no-progress or JSON/SARIF diagnostics;
# --progress shows it anyway.  The terminal is a pty of util-linux's script;
# the slow input is a regular file whose every read() sleeps 60 ms
# (tests/inject/faults.c, slow-read=60, LD_PRELOAD); 200 ms for the payload
# (4 MB, read 256 KiB at a time).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

FAULTS=${FAULTS:-$(pwd)/build/tests/inject/faults.so}
# a sanitizer build takes the library after its runtime with verify_asan_link_order=0 (as outputs.t)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS
if ! need script "the pseudo-terminal of the progress tests"; then
	done_testing
	exit 0
fi
if ! [ -f "$FAULTS" ] || ! LD_PRELOAD=$FAULTS "$NVTXTC" --version >/dev/null 2>&1; then
	skip "$FAULTS cannot be preloaded into $NVTXTC (build it with make check)"
	done_testing
	exit 0
fi

# 60000 markers (1.9 MB, 15 reads of 128 KiB), an error at the start, the middle and the end
awk 'BEGIN { for (i = 1; i <= 60000; i++) {
	t = (i == 2 || i == 30000 || i == 59999) ? -1 : i
	printf "Marker, %d, Qpc, 1, 2,,, \"tick %d\",\n", t, i } }' >"$T/slow.nvtxt"
sed 's/, -1,/, 1,/' "$T/slow.nvtxt" >"$T/clean.nvtxt"
"$NVTXTC" --emit=payload -o "$T/clean.payload" "$T/clean.nvtxt"
ok $? "the payload of the clean trace is written"

# tty CMD: CMD (a shell command; its standard output is discarded) on a pty,
# every read of a regular file slowed down; what the pty showed in $T/tty
# (standard error, with its carriage returns), the exit status in $st.
tty() {
	script -qec "LD_PRELOAD='$FAULTS' NVTXT_FAULTS=slow-read=${SLOW:-60} $1 >/dev/null; echo \"status \$?\" >'$T/st'" \
		/dev/null </dev/null >"$T/tty" 2>&1
	st=$(sed -n 's/^status //p' "$T/st")
}
# shown NAME: the pty showed a progress line of $T/NAME, and erased it
cr=$(printf '\r')
LINE_RE='(MB of [0-9.]+ MB \([0-9]+%\), [0-9.]+ MB/s, [0-9]+:[0-9][0-9]:[0-9][0-9] left)'
shown() {
	tr '\r' '\n' <"$T/tty" | grep -Eq "^[^ ]*$1: [0-9.]+ $LINE_RE" &&
		# the last line drawn is blanked: a carriage return, blanks only, a carriage return
		tr '\n' '\r' <"$T/tty" | grep -Eq "left *$cr +$cr"
}

tty "'$NVTXTC' lint --color=never -j 1 '$T/slow.nvtxt'"
is "$st" 1 "lint -j 1 of a slow file on a terminal: exit 1 (its three errors)"
shown slow.nvtxt
ok $? "lint -j 1 of a slow file on a terminal shows the progress line and erases it"
# every diagnostic starts a line of its own: none follows a progress line on it
tr '\r' '\n' <"$T/tty" | grep -a 'error:' >"$T/errs"
[ "$(grep -c '^[^ ]*slow.nvtxt:[0-9]*:9: error: expected an Integer timestamp' "$T/errs")" -eq 3 ] &&
	! grep -q 'left.*error:' "$T/errs"
ok $? "the three diagnostics are whole lines, the progress line erased before each"
grep -q '^3 errors generated' "$T/tty" || tr '\r' '\n' <"$T/tty" | grep -q '^3 errors generated'
ok $? "the summary follows on a line of its own"

tty "'$NVTXTC' lint '$T/clean.nvtxt'"
is "$st" 0 "lint (two threads) of a slow clean file: exit 0"
shown clean.nvtxt
ok $? "lint (two threads): the progress line is shown and erased"

for cmd in "--emit=nvtxt" "--emit=payload -o '$T/out.payload'" "fmt" "fmt -i" "info" "dump" "lint"; do
	f=clean.nvtxt
	case $cmd in dump|lint) [ "$cmd" = lint ] && cmd="lint -j 1"; f=clean.payload ;; esac
	[ "$cmd" = "fmt -i" ] && cp "$T/clean.nvtxt" "$T/fmt-i.nvtxt" && f=fmt-i.nvtxt
	SLOW=60
	[ "$f" = clean.payload ] && SLOW=200
	tty "'$NVTXTC' $cmd '$T/$f'"
	SLOW=60
	is "$st" 0 "$cmd of a slow $f on a terminal: exit 0"
	shown "$f"
	ok $? "$cmd of a slow $f: the progress line is shown and erased"
done

tty "'$NVTXTC' lint --no-progress '$T/clean.nvtxt'"
! grep -q 'MB/s' "$T/tty"
ok $? "--no-progress: no progress line on a terminal"
tty "'$NVTXTC' lint --diagnostics-format=json '$T/slow.nvtxt'"
! grep -q 'MB/s' "$T/tty"
ok $? "--diagnostics-format=json: no progress line on a terminal"
tty "'$NVTXTC' lint --diagnostics-format=sarif '$T/slow.nvtxt'"
! grep -q 'MB/s' "$T/tty"
ok $? "--diagnostics-format=sarif: no progress line on a terminal"
script -qec "'$NVTXTC' lint '$T/clean.nvtxt'" /dev/null </dev/null >"$T/tty" 2>&1
! grep -q 'MB/s' "$T/tty"
ok $? "a run under a second (no slow reads) shows no progress line"

# standard error not a terminal: nothing, unless --progress
LD_PRELOAD=$FAULTS NVTXT_FAULTS=slow-read=60 "$NVTXTC" lint "$T/clean.nvtxt" >/dev/null 2>"$T/err"
ok $? "lint of a slow file, standard error to a file: exit 0"
[ ! -s "$T/err" ]
ok $? "standard error not a terminal: nothing written"
LD_PRELOAD=$FAULTS NVTXT_FAULTS=slow-read=60 "$NVTXTC" lint --progress "$T/clean.nvtxt" >/dev/null 2>"$T/err"
cp "$T/err" "$T/tty"
shown clean.nvtxt
ok $? "--progress: the line is written to standard error that is not a terminal, and erased"

# the language server never shows it (it takes no --progress either)
"$NVTXTC" lsp --progress </dev/null >/dev/null 2>"$T/err"
is "$?" 2 "lsp --progress is a usage error"
grep -q "progress" "$T/err"
ok $? "lsp --progress: the error names the option"

done_testing
