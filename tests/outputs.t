#!/bin/sh
# Outputs that lose nothing (issue 10, points 10 to 18): write errors name
# the file that could not be written, SIGXFSZ, temporaries (unnamed, or
# named and removed when stale), owner, group, mode and hard links kept,
# fsync of the file and of its directory, --help and --version and
# standard error on a full device, FIFOs and pipes, -j with few file
# descriptors, a file that shrinks while it is read, the signal and
# commit-failure paths of atomic outputs, and the write-behind of -j 2.  The failures are injected with
# tests/inject/faults.c (LD_PRELOAD; $FAULTS, built by make check).
cd "$(dirname "$0")" || exit 1
. ./lib.sh
cd "$T" || exit 1

FAULTS=${FAULTS:-$top/build/tests/inject/faults.so}
# A sanitizer build accepts the library after its runtime only with
# verify_asan_link_order=0; where it cannot be preloaded, the injected cases are skipped.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS
if [ -f "$FAULTS" ] && LD_PRELOAD=$FAULTS "$NVTXTC" --version >/dev/null 2>&1; then
	have_faults=1
else
	have_faults=0
	echo "# $FAULTS cannot be preloaded into $NVTXTC: injected failures skipped"
fi
# with_faults SPEC CMD...: CMD under the fault library, NVTXT_FAULTS=SPEC, calls logged in $T/log.
with_faults() {
	spec=$1
	shift
	rm -f "$T/log"
	LD_PRELOAD=$FAULTS NVTXT_FAULTS=$spec NVTXT_FAULT_LOG=$T/log "$@"
}
temps() { find "$T" -name '.*.nvtxtc-*' -o -name '.*.tmp*'; }
host=$(uname -n | tr -- '-./' '___' | cut -c1-32)

good='Marker, 1, "Qpc", 1, 2,,, "ok",'
printf '%s\n' "$good" >good.nvtxt
printf 'Marker ,1,Qpc,1,2 ,,,"x",\n' >ugly.nvtxt
formatted='Marker, 1, Qpc, 1, 2,,, "x",'
awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "Marker, %d, Qpc, 1, 2,,, \"message %d\",\n", i, i }' >big.nvtxt

# --- 10. a write error names the file that could not be written -----------
# (ulimit -f counts blocks of 512 or 1024 bytes: 8 leaves room for the message)
(ulimit -f 8; exec "$NVTXTC" --emit=nvtxt -o out.nvtxt big.nvtxt) >out 2>err
st=$?
is "$st:$(head -n 1 err)" "2:nvtxtc: error: cannot write 'out.nvtxt': File too large [io-error]" \
	"10/11: past ulimit -f, -o fails with the output's name (SIGXFSZ ignored: exit 2, not killed)"
! grep -q big.nvtxt err
ok $? "10: the message does not blame the input"
[ ! -e out.nvtxt ] && [ -z "$(temps)" ]
ok $? "11: past ulimit -f, no output and no temporary is left"
"$NVTXTC" --emit=nvtxt big.nvtxt >/dev/full 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: cannot write standard output: No space left on device [io-error]" \
	"10: --emit=nvtxt >/dev/full names standard output"
"$NVTXTC" --emit=payload -o /dev/full good.nvtxt >out 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: cannot write '/dev/full': No space left on device [io-error]" \
	"10: -o /dev/full names /dev/full"
"$NVTXTC" fmt big.nvtxt >/dev/full 2>err
is "$?" 2 "10: fmt >/dev/full: exit 2"
grep -q 'standard output' err
ok $? "10: fmt >/dev/full names standard output"
"$NVTXTC" --emit=nvtxt -o out.nvtxt big.nvtxt >out 2>err
is "$?:$(cat err)" "0:" "10: a write that fits: exit 0, nothing said"

# --- 11. temporaries: unnamed, or named and removed when stale ------------
printf 'previous\n' >stale.out
: >".stale.out.nvtxtc-$host-4194305.AbCdEf"   # a PID above any pid_max: no such process
: >".stale.out.nvtxtc-$host-$$.GhIjKl"       # this shell's: alive
: >".stale.out.nvtxtc-otherhost-4194305.MnOpQr"
"$NVTXTC" --emit=nvtxt -o stale.out good.nvtxt >out 2>err
is "$?:$(cat stale.out)" "0:$good" "11: -o writes next to temporaries of other runs"
[ ! -e ".stale.out.nvtxtc-$host-4194305.AbCdEf" ]
ok $? "11: the temporary of a process that no longer runs is removed"
[ -e ".stale.out.nvtxtc-$host-$$.GhIjKl" ] && [ -e ".stale.out.nvtxtc-otherhost-4194305.MnOpQr" ]
ok $? "11: a running process's temporary, and another host's, are kept"
rm -f .stale.out.nvtxtc-*
# SIGKILL mid-run (nothing can clean up): the temporary is unnamed, so nothing is left.
rm -f in.fifo
mkfifo in.fifo
printf 'previous\n' >killed.out
exec 3<>in.fifo
"$NVTXTC" --emit=nvtxt -o killed.out in.fifo >/dev/null 2>&1 &
k_pid=$!
head -c 100000 big.nvtxt >&3
k_n=0
while ! ls -l "/proc/$k_pid/fd" 2>/dev/null | grep -q "$T/#\|$T/\.killed" && [ "$k_n" -lt 500 ]; do
	sleep 0.01
	k_n=$((k_n + 1))
done
kill -KILL "$k_pid"
{ wait "$k_pid"; } 2>/dev/null
exec 3>&-
is "$(cat killed.out):$(temps | wc -l)" "previous:0" "11/18: SIGKILL mid-run keeps the previous file and leaves no temporary"

# Where the file system has no unnamed temporaries (O_TMPFILE refused), the
# temporary is named .NAME.nvtxtc-HOST-PID.XXXXXX: SIGINT removes it, and
# after a SIGKILL the next run to the same target removes it.
if [ "$have_faults" = 1 ]; then
	printf 'previous\n' >named.out
	with_faults tmpfile=EOPNOTSUPP "$NVTXTC" --emit=nvtxt -o named.out good.nvtxt >out 2>err
	is "$?:$(cat named.out):$(temps | wc -l)" "0:$good:0" "11: without O_TMPFILE, -o writes through a named temporary"
	grep -q 'tmpfile refused' "$T/log" && grep -q '^rename$' "$T/log"
	ok $? "11: ... (O_TMPFILE was refused, the named temporary renamed)"
	for sig in INT KILL; do
		printf 'previous\n' >named.out
		rm -f in.fifo
		mkfifo in.fifo
		exec 3<>in.fifo
		LD_PRELOAD=$FAULTS NVTXT_FAULTS=tmpfile=EOPNOTSUPP perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' \
			"$NVTXTC" --emit=nvtxt -o named.out in.fifo >/dev/null 2>&1 &
		n_pid=$!
		head -c 100000 big.nvtxt >&3
		n_n=0
		while [ -z "$(temps)" ] && [ "$n_n" -lt 500 ]; do
			sleep 0.01
			n_n=$((n_n + 1))
		done
		n_seen=$(temps | wc -l)
		kill -"$sig" "$n_pid"
		{ wait "$n_pid"; } 2>/dev/null
		exec 3>&-
		case $sig in
		INT) is "$n_seen:$(cat named.out):$(temps | wc -l)" "1:previous:0" \
			"11/18: SIGINT mid-run removes the named temporary, keeps the previous file" ;;
		KILL) is "$n_seen:$(cat named.out):$(temps | wc -l)" "1:previous:1" \
			"11/18: SIGKILL mid-run leaves the named temporary (nothing can run) and the previous file"
			with_faults tmpfile=EOPNOTSUPP "$NVTXTC" --emit=nvtxt -o named.out good.nvtxt >out 2>err
			is "$?:$(cat named.out):$(temps | wc -l)" "0:$good:0" \
				"11: the next run to the same target removes the stale temporary" ;;
		esac
	done
else
	for i in 1 2 3 4 5; do skip "11: fault injection unavailable"; done
fi

# --- 12. owner, group, mode and hard links --------------------------------
cp ugly.nvtxt mode.nvtxt
chmod 604 mode.nvtxt
"$NVTXTC" fmt -i mode.nvtxt >out 2>err
is "$?:$(stat -c %a mode.nvtxt):$(cat mode.nvtxt)" "0:604:$formatted" "12: fmt -i keeps the mode"
if [ "$(id -u)" = 0 ]; then
	cp ugly.nvtxt owned.nvtxt
	chown 1234:2345 owned.nvtxt
	chmod 640 owned.nvtxt
	"$NVTXTC" fmt -i owned.nvtxt >out 2>err
	is "$?:$(stat -c '%u:%g %a' owned.nvtxt)" "0:1234:2345 640" \
		"12: fmt -i as root keeps a user's owner, group and mode"
	printf 'old\n' >owned.out
	chown 1234:2345 owned.out
	chmod 600 owned.out
	"$NVTXTC" --emit=nvtxt -o owned.out good.nvtxt >out 2>err
	is "$?:$(stat -c '%u:%g %a' owned.out):$(cat owned.out)" "0:1234:2345 600:$good" \
		"12: -o over an existing file keeps its owner, group and mode"
else
	skip "12: owner and group: needs root to give a file to another user"
	skip "12: owner and group: needs root to give a file to another user"
fi
cp ugly.nvtxt linked.nvtxt
ln linked.nvtxt other-name.nvtxt
inode=$(stat -c %i linked.nvtxt)
"$NVTXTC" fmt -i linked.nvtxt >out 2>err
is "$?:$(cat other-name.nvtxt):$(stat -c '%i %h' linked.nvtxt)" "0:$formatted:$inode 2" \
	"12: fmt -i of a file with two hard links writes through: the other name sees the new text"
is "$(temps | wc -l)" 0 "12: writing through leaves no temporary"
if [ "$have_faults" = 1 ]; then
	cp ugly.nvtxt linked.nvtxt
	with_faults fallocate=ENOSPC "$NVTXTC" fmt -i linked.nvtxt >out 2>err
	is "$?:$(head -n 1 err)" "2:nvtxtc: error: cannot write 'linked.nvtxt': No space left on device [io-error]" \
		"12: a hard-linked file that cannot get the space is refused with the reason"
	cmp -s linked.nvtxt ugly.nvtxt && cmp -s other-name.nvtxt ugly.nvtxt
	ok $? "12: ... and both names keep the old text, whole"
else
	skip "12: fault injection unavailable"
	skip "12: fault injection unavailable"
fi
cp big.nvtxt biglink.nvtxt
sed 's/, /,/g' big.nvtxt >biglink.nvtxt
ln biglink.nvtxt biglink2.nvtxt
cp biglink.nvtxt biglink.orig
(ulimit -f 8; exec "$NVTXTC" fmt -i biglink.nvtxt) >out 2>err
is "$?" 2 "12: a hard-linked file past ulimit -f: exit 2"
cmp -s biglink2.nvtxt biglink.orig
ok $? "12: ... and it is left whole (the space is reserved before the first byte is written)"

# extended attributes and ACLs go with the text; what cannot be reproduced is written through
cp ugly.nvtxt xattr.nvtxt
if ! need setfattr "extended attributes" || ! need getfattr "extended attributes"; then
	:
elif setfattr -n user.origin -v tracer xattr.nvtxt 2>/dev/null; then
	"$NVTXTC" fmt -i xattr.nvtxt >out 2>err
	is "$?:$(getfattr --only-values -n user.origin xattr.nvtxt 2>&1):$(cat xattr.nvtxt)" "0:tracer:$formatted" \
		"12: fmt -i keeps the file's extended attributes"
else
	skip "12: extended attributes: the file system of $T has none"
fi
cp ugly.nvtxt acl.nvtxt
chmod 640 acl.nvtxt
if ! need setfacl "ACLs" || ! need getfacl "ACLs"; then
	:
elif setfacl -m u:1234:rw acl.nvtxt 2>/dev/null; then
	"$NVTXTC" --emit=nvtxt -o acl.nvtxt good.nvtxt >out 2>err
	is "$?:$(getfacl -c acl.nvtxt 2>/dev/null | grep '^user:1234'):$(stat -c %a acl.nvtxt):$(cat acl.nvtxt)" \
		"0:user:1234:rw-:660:$good" "12: -o over a file with an ACL keeps the ACL and the mode"
else
	skip "12: ACLs: the file system of $T has none"
fi
if [ "$(id -u)" != 0 ]; then
	skip "12: another user's file: needs root to run as another user"
	skip "12: another user's file: needs root to run as another user"
elif need setpriv "another user's file"; then
	# another user's file, writable through its group: the owner cannot be given to the new
	# file, so the file is written through (owner, group, mode and inode kept)
	# (a directory of its own: $T is private to root)
	shared=$(mktemp -d "${TMPDIR:-/tmp}/nvtxtc-shared.XXXXXX") && chmod 777 "$shared"
	cp ugly.nvtxt "$shared/theirs.nvtxt"
	chown 1234:2345 "$shared/theirs.nvtxt"
	chmod 664 "$shared/theirs.nvtxt"
	inode=$(stat -c %i "$shared/theirs.nvtxt")
	anyone=$(any_user_nvtxtc)
	(cd "$shared" && exec setpriv --reuid=4321 --regid=2345 --clear-groups "$anyone" fmt -i theirs.nvtxt) >out 2>err
	is "$?:$(stat -c '%u:%g %a %i' "$shared/theirs.nvtxt"):$(cat "$shared/theirs.nvtxt"):$(cat err)" \
		"0:1234:2345 664 $inode:$formatted:" \
		"12: fmt -i of another user's group-writable file keeps its owner: written through"
	is "$(ls -A "$shared")" "theirs.nvtxt" "12: ... and leaves no temporary"
	rm -rf "$shared"
fi

# --- 13. the commit is durable: fsync the file, rename, fsync the directory
if [ "$have_faults" = 1 ]; then
	with_faults "" "$NVTXTC" --emit=nvtxt -o durable.out good.nvtxt >out 2>err
	tr '\n' ' ' <"$T/log" >seq
	case $(cat seq) in
	"fsync file linkat renameat fsync dir "|"fsync file rename fsync dir ") r=0 ;;
	*) r=1 ;;
	esac
	ok $r "13: -o: fsync of the file, then the rename, then fsync of the directory ($(cat seq))"
	cp ugly.nvtxt d.nvtxt
	with_faults "" "$NVTXTC" fmt -i d.nvtxt >out 2>err
	grep -q "fsync file" "$T/log" && grep -q "fsync dir" "$T/log"
	ok $? "13: fmt -i: the file and its directory are fsync'ed"
	# 18. commit failures: the previous file stays, no temporary, the output is named
	for fault in fsync=EIO rename=EXDEV; do
		printf 'previous\n' >commit.out
		with_faults "$fault" "$NVTXTC" --emit=nvtxt -o commit.out good.nvtxt >out 2>err
		st=$?
		is "$st:$(cat commit.out):$(temps | wc -l)" "2:previous:0" \
			"18: -o when the commit fails ($fault): exit 2, the previous file kept, no temporary"
		grep -q "cannot write 'commit.out'" err
		ok $? "18: ... and the message names the output ($fault)"
	done
	cp ugly.nvtxt c.nvtxt
	with_faults fsync=EIO "$NVTXTC" fmt -i c.nvtxt >out 2>err
	is "$?:$(cat c.nvtxt)" "2:$(cat ugly.nvtxt)" "18: fmt -i when fsync fails: exit 2, the file untouched"
	with_faults fsync-dir=EIO "$NVTXTC" --emit=nvtxt -o dir.out good.nvtxt >out 2>err
	is "$?:$(cat dir.out)" "2:$good" "18: when only the directory's fsync fails: exit 2, the new file in place"
else
	for i in 1 2 3 4 5 6 7 8; do skip "13/18: fault injection unavailable"; done
fi

# --- 14. --help, --version and diagnostics on a full device --------------
for opt in --help --version --list-checks help; do
	"$NVTXTC" $opt >/dev/full 2>err
	is "$?" 2 "14: nvtxtc $opt >/dev/full: exit 2"
	grep -q 'standard output' err
	ok $? "14: nvtxtc $opt >/dev/full says standard output could not be written"
done
"$NVTXTC" --help >out 2>err
is "$?" 0 "14: nvtxtc --help to a file: exit 0"
printf 'Marker, -1, Qpc, 1, 2,,,,\n' >bad.nvtxt
"$NVTXTC" lint bad.nvtxt 2>/dev/full
is "$?" 2 "14: diagnostics that cannot be written to standard error: exit 2"
"$NVTXTC" lint good.nvtxt 2>/dev/full
is "$?" 0 "14: nothing to say, standard error full: exit 0"

# --- 15. FIFOs and pipes ---------------------------------------------------
"$NVTXTC" --emit=payload -o p.payload good.nvtxt >out 2>err
rm -f f.fifo
mkfifo f.fifo
"$NVTXTC" fmt -i f.fifo >out 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: -i cannot rewrite 'f.fifo': it is not a regular file (a FIFO) [io-error]" \
	"15: fmt -i of a FIFO: one clear error, at once (no writer needed)"
cat ugly.nvtxt >f.fifo &
"$NVTXTC" fmt f.fifo >out 2>err
is "$?:$(cat out)" "0:$formatted" "15: fmt of a FIFO prints it"
wait
cat ugly.nvtxt >f.fifo &
"$NVTXTC" fmt -d f.fifo >out 2>err
is "$?:$(grep -c '^[-+]Marker' out)" "1:2" "15: fmt -d of a FIFO"
wait
cat p.payload | "$NVTXTC" --emit=nvtxt - >out 2>err
is "$?:$(cat out)" "0:$good" "15: a payload file on a pipe is recognised and decompiled"
cat p.payload >f.fifo &
"$NVTXTC" lint f.fifo >out 2>err
is "$?:$(cat err)" "0:" "15: a payload file from a FIFO is recognised and checked"
wait
cat good.nvtxt | "$NVTXTC" --emit=nvtxt - >out 2>err
is "$?:$(cat out)" "0:$good" "15: NVTXT on a pipe still reads as NVTXT"
printf 'Mar' | "$NVTXTC" lint - >out 2>err
is "$?" 1 "15: a pipe shorter than the payload magic reads as NVTXT"
head -c 100 p.payload | "$NVTXTC" lint - >out 2>err
is "$?" 1 "15: a truncated payload on a pipe: an error of its format"
grep -q 'payload-format' err
ok $? "15: ... named payload-format"
cat p.payload >f.fifo &
"$NVTXTC" dump f.fifo >out 2>err
is "$?:$(head -c 13 out)" "0:header: nvtxt" "15: dump of a FIFO works"
wait
cat p.payload | "$NVTXTC" dump - >out 2>err
is "$?:$(head -c 13 out)" "0:header: nvtxt" "15: dump of a pipe works"

# --- 16. -j with few free file descriptors ---------------------------------
i=0
while [ $i -lt 30 ]; do
	cp ugly.nvtxt "j$i.nvtxt"
	i=$((i + 1))
done
printf 'Marker, -1, Qpc, 1, 2,,,,\n' >j7.nvtxt
"$NVTXTC" lint -j 1 j*.nvtxt >out 2>serial
s1=$?
(ulimit -n 20; exec "$NVTXTC" lint -j 16 j*.nvtxt) >out 2>few
is "$?" "$s1" "16: lint -j 16 under ulimit -n 20 exits as -j 1"
same_file few serial "16: ... and reports every file as -j 1 does"
"$NVTXTC" fmt -l -j 1 j*.nvtxt >serial.l 2>&1
(ulimit -n 20; exec "$NVTXTC" fmt -l -j 16 j*.nvtxt) >few.l 2>&1
same_file few.l serial.l "16: fmt -l -j 16 under ulimit -n 20 lists as -j 1 does"

# --- 17. a file that shrinks while it is read -----------------------------
if [ "$have_faults" = 1 ]; then
	cp big.nvtxt shrink.nvtxt
	with_faults shrink=1000 "$NVTXTC" lint shrink.nvtxt >out 2>err
	is "$?" 2 "17: a file truncated while it is read: exit 2"
	grep -q '^shrink.nvtxt: error: the file shrank from [0-9]* to 1000 bytes while it was read' err
	ok $? "17: ... reported as such"
	! grep -q '^shrink.nvtxt:[0-9]*:[0-9]*: error' err
	ok $? "17: ... and not as errors on lines that are gone"
	cp big.nvtxt shrink.nvtxt
	with_faults shrink=100000000 "$NVTXTC" lint shrink.nvtxt >out 2>err
	is "$?:$(cat err)" "0:" "17: a file that does not shrink: nothing said"
else
	for i in 1 2 3 4; do skip "17: fault injection unavailable"; done
fi

# --- 18. signals: SIGXFSZ above; SIGINT and SIGTERM in tests/hostile.t -----
# A signal during fmt -i of a hard-linked file: the write-through holds
# SIGINT until it is done, so the file is old or new, never a mix.
sed 's/, /,/g' big.nvtxt >held.nvtxt
ln held.nvtxt held2.nvtxt
cp held.nvtxt held.orig
"$NVTXTC" fmt held.orig >held.fmt
perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die "exec: $!"' "$NVTXTC" fmt -i held.nvtxt >/dev/null 2>&1 &
h_pid=$!
sleep 0.05
kill -INT "$h_pid" 2>/dev/null
{ wait "$h_pid"; } 2>/dev/null
if cmp -s held2.nvtxt held.orig || cmp -s held2.nvtxt held.fmt; then r=0; else r=1; fi
ok $r "18: SIGINT during fmt -i of a hard-linked file leaves it old or new, whole"

# --- issue 20: '-o -' is standard output; an output that is the input is refused
printf 'Marker, 1, Manual, 1, 2,,, "ok",\n' >manual.nvtxt
for e in nvtxt chrome; do
	"$NVTXTC" --emit=$e manual.nvtxt >want.$e 2>err
	"$NVTXTC" --emit=$e -o - manual.nvtxt >out 2>err
	st=$?
	cmp -s out want.$e && [ ! -e ./- ]
	is "$st:$?" "0:0" "20: --emit=$e -o - writes standard output (as gcc), no file named '-'"
done
"$NVTXTC" --emit=payload -o p.payload good.nvtxt 2>err
"$NVTXTC" --emit=payload -o - good.nvtxt >p2.payload 2>err
st=$?
cmp -s p.payload p2.payload
is "$st:$?" "0:0" "20: --emit=payload -o - > FILE writes the payload to the regular file of standard output"
# the shell's '>' emptied the file before nvtxtc ran: no atomic replacement is possible, so after
# an error the file is left empty, as gcc and dtc leave theirs, never with a part of a payload
printf '%s\nMarker, 1, "Qpc", 2, 2,,, "late",\nBogus, 1\n' "$good" >late-error.nvtxt
"$NVTXTC" --emit=payload -o - late-error.nvtxt >p3.payload 2>err
is "$?:$(wc -c <p3.payload)" "1:0" "--emit=payload -o - > FILE with an error in the input: exit 1, the file empty"
printf '%s\nMarker, 9223372037, Qpc, 1, 2,,, "overflows at 1 Hz",\n' "$good" >overflow.nvtxt
"$NVTXTC" --emit=payload --time-conversion=Qpc:lin:0,0,1 -o - overflow.nvtxt >p4.payload 2>err
st=$?
"$NVTXTC" --emit=payload --time-conversion=Qpc:lin:0,0,1 -o p5.payload overflow.nvtxt 2>/dev/null
is "$st:$(wc -c <p4.payload):$([ -e p5.payload ] && echo kept)" "1:0:" \
	"... and with a time the back end cannot convert, as -o FILE writes nothing then"
"$NVTXTC" --emit=payload -o - good.nvtxt 2>err | cat >out
is "$(head -n 1 err):$(wc -c <out)" "nvtxtc: error: --emit=payload -o -: standard output is not a seekable file (a pipe or a terminal), and a payload's header is written last, at offset 0: give a file with -o FILE [usage]:0" \
	"20: --emit=payload -o - to a pipe is refused with the reason"
"$NVTXTC" --emit=payload -o - good.nvtxt >>p2.payload 2>err
is "$?" 2 "20: --emit=payload -o - >> FILE (append mode) is refused too"
printf '%s\n' "$good" >same.nvtxt
cp same.nvtxt same.orig
ln -s same.nvtxt same.link
ln same.nvtxt same.hard
for e in nvtxt payload chrome; do
	for o in same.nvtxt same.link same.hard ./same.nvtxt; do
		"$NVTXTC" --emit=$e -o $o same.nvtxt >out 2>err
		st=$?
		cmp -s same.nvtxt same.orig
		is "$st:$?:$(head -n 1 err)" "2:0:nvtxtc: error: output is the input: -o '$o' is the same file as the input 'same.nvtxt'; nothing written [io-error]" \
			"20: --emit=$e -o $o same.nvtxt is refused, the input intact"
	done
done
"$NVTXTC" --emit=nvtxt -o same.nvtxt - <same.nvtxt >out 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: output is the input: -o 'same.nvtxt' is the same file as the input 'standard input'; nothing written [io-error]" "20: -o naming the file on standard input is refused"
cmp -s same.nvtxt same.orig
ok $? "20: ... and the input is intact"
for f in json sarif; do
	"$NVTXTC" --diagnostics-format=$f --diagnostics-output=same.hard same.nvtxt >out 2>err
	st=$?
	cmp -s same.nvtxt same.orig
	is "$st:$?" "2:0" "20: --diagnostics-output=$f naming an input (a hard link) is refused, the input intact"
	grep -q "output is the input: --diagnostics-output 'same.hard' is the same file as the input 'same.nvtxt'" out
	ok $? "20: ... and the document, on standard output, says why"
done
"$NVTXTC" lint --diagnostics-format=json --diagnostics-output=same.link bad.nvtxt same.nvtxt >out 2>err
cmp -s same.nvtxt same.orig
is "$?" 0 "20: an input that is not the first is compared too"
# a file found under a directory operand is an input too
mkdir -p tree/sub
cp same.nvtxt tree/sub/in.nvtxt
for f in json sarif; do
	"$NVTXTC" lint --diagnostics-format=$f --diagnostics-output=tree/sub/in.nvtxt tree >out 2>err
	st=$?
	cmp -s tree/sub/in.nvtxt same.orig
	is "$st:$?" "2:0" "--diagnostics-output=$f naming a file under a directory operand is refused, the file intact"
	grep -q "output is the input: --diagnostics-output 'tree/sub/in.nvtxt' is the same file as the input 'tree/sub/in.nvtxt' (under the directory 'tree')" out
	ok $? "... and the document says which input and under which directory"
done
"$NVTXTC" fmt --diagnostics-format=json --diagnostics-output=tree/sub/in.nvtxt good.nvtxt tree/ >out 2>err
st=$?
cmp -s tree/sub/in.nvtxt same.orig
is "$st:$?" "2:0" "fmt: the same, the directory operand not the first"
"$NVTXTC" lint --diagnostics-format=json --diagnostics-output=tree/report.json tree >out 2>err
is "$?:$(wc -c <out)" "0:0" "a document written into a directory operand, not one of its *.nvtxt inputs, is allowed"
grep -q '"schema_version"' tree/report.json
ok $? "... and written there"

# --- 19. write-behind (src/driver/output_stream.c) --------------------------
# With a processor to spare (-j 2), pieces of 256 KiB of the temporary are
# written by a second thread, at most 8 of them in flight: the same bytes as
# -j 1 (which writes them itself), and a write that fails in that thread
# is the command's error as it is with -j 1.
awk 'BEGIN { for (i = 1; i <= 60000; i++) printf "Marker, %d, ClockMonotonicRaw, 1, 2,,, \"message %d\",\n", i, i }' >wb.nvtxt
for emit in payload nvtxt chrome; do
	"$NVTXTC" -j 1 --emit=$emit -o wb1.$emit wb.nvtxt 2>err && "$NVTXTC" -j 2 --emit=$emit -o wb2.$emit wb.nvtxt 2>err &&
		[ "$(wc -c <wb2.$emit)" -gt 2200000 ] && cmp -s wb1.$emit wb2.$emit
	ok $? "19: --emit=$emit -o of over 2 MiB: the same bytes with -j 2 (written behind) as with -j 1"
done
for j in 1 2; do
	(ulimit -f 1024; exec "$NVTXTC" -j $j --emit=payload -o wbu.payload wb.nvtxt) >out 2>err
	is "$?:$(head -n 1 err)" "2:nvtxtc: error: cannot write 'wbu.payload': File too large [io-error]" \
		"19: -j $j, past ulimit -f after a few pieces: the output's error"
	[ ! -e wbu.payload ] && [ -z "$(temps)" ]
	ok $? "19: -j $j, past ulimit -f: no output and no temporary is left"
done
if [ "$have_faults" = 1 ]; then
	for j in 1 2; do
		with_faults tmpwrite=ENOSPC "$NVTXTC" -j $j --emit=payload -o wbf.payload wb.nvtxt >out 2>err
		is "$?:$(head -n 1 err)" "2:nvtxtc: error: cannot write 'wbf.payload': No space left on device [io-error]" \
			"19: -j $j, every write of the temporary fails: the output's error"
		[ ! -e wbf.payload ] && [ -z "$(temps)" ]
		ok $? "19: -j $j, the writes failed: no output and no temporary is left"
	done
fi

done_testing
