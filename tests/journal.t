#!/bin/sh
# No torn file, hard links included (issue 20, item 6; nvtxtc(1), FILES
# WRITTEN).  A kill loop: `fmt -i` is killed (SIGKILL, from the fault
# library tests/inject/faults.c, kill=N) at each of its writing steps in
# turn -- every pwrite (cut in half), fsync, ftruncate, fallocate, unlink,
# rename and link -- on a file with two hard links (written through, with
# a rollback journal) and on an ordinary file (a temporary renamed over
# it).  After each kill the file, through both names, holds its old or
# its new text, whole, or a journal is beside it and `fmt --recover`
# puts the old text back exactly (and the next `fmt -i` recovers, then
# formats).  Then the journal's refusals: a journal for another inode, a
# damaged one; the leftovers that lint and fmt report; and the error of
# `fmt -i` past `ulimit -f`.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
cd "$T" || exit 1

FAULTS=${FAULTS:-$top/build/tests/inject/faults.so}
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS
if ! [ -f "$FAULTS" ] || ! LD_PRELOAD=$FAULTS "$NVTXTC" --version >/dev/null 2>&1; then
	ok 1 "the fault library $FAULTS cannot be preloaded into $NVTXTC: build it with 'make check' (or 'make $FAULTS')"
	done_testing
	exit 1
fi
# killed SPEC CMD...: CMD under the fault library (NVTXT_FAULTS=SPEC), its steps logged in $T/log;
# the exit status is CMD's (137 when killed), its standard error in $T/kerr.
killed() {
	spec=$1
	shift
	rm -f "$T/log"
	# (waited for in the background, so that the shell does not report the kill)
	LD_PRELOAD=$FAULTS NVTXT_FAULTS=$spec NVTXT_FAULT_LOG=$T/log "$@" >/dev/null 2>"$T/kerr" &
	{ wait $!; } 2>/dev/null
}
journal=.f.nvtxt.nvtxtc-journal
host=$(uname -n | tr -- '-./' '___' | cut -c1-32)
# state: old, new or mixed (through both names, which must agree)
state() {
	if ! cmp -s f.nvtxt g.nvtxt; then echo names-differ
	elif cmp -s f.nvtxt old; then echo old
	elif cmp -s f.nvtxt new; then echo new
	else echo mixed
	fi
}
# linked OLD: f.nvtxt (and g.nvtxt, a second hard link) with the text of OLD, nothing else there
linked() {
	rm -f f.nvtxt g.nvtxt .f.nvtxt.* && cp "$1" f.nvtxt && ln f.nvtxt g.nvtxt
}

# Old texts: one that formatting lengthens (the file grows), one it shortens.
awk 'BEGIN { for (i = 1; i <= 6000; i++) printf "Marker,%d,Qpc,1,2,,,\"message %d\",\n", i, i }' >grows.src
awk 'BEGIN { for (i = 1; i <= 6000; i++) printf "Marker ,   %d ,  Qpc , 1 ,  2 ,,,   \"message %d\"  ,\n", i, i }' >shrinks.src

# --- the kill loop, written through (two hard links) -----------------------
for kind in grows shrinks; do
	cp "$kind.src" old
	"$NVTXTC" fmt old >new
	linked old
	killed "" "$NVTXTC" fmt -i f.nvtxt
	st=$?
	steps=$(grep -vc '^tmpfile refused$' "$T/log")
	is "$st:$(state):$(ls -A | grep -c nvtxtc-)" "0:new:0" "$kind: fmt -i of a file with two hard links, not killed: new text through both names, nothing left"
	grep -q '^pwrite journal$' "$T/log" && grep -q '^fallocate$' "$T/log"
	ok $? "$kind: ... its previous text went to a journal first ($steps steps)"
	bad=0 mixed=0 torn=0 ready=0 trials=0
	k=1
	while [ "$k" -le "$steps" ]; do
		for then in recover format; do
			linked old
			killed "kill=$k" "$NVTXTC" fmt -i f.nvtxt
			st=$?
			s=$(state)
			trials=$((trials + 1))
			if [ "$st" != 137 ]; then
				bad=$((bad + 1)); echo "# step $k: not killed (exit $st)"; continue
			fi
			if ! [ -e "$journal" ]; then
				# no journal: the file is whole, old or new
				case $s in old|new) ;; *) bad=$((bad + 1)); echo "# step $k: $s without a journal" ;; esac
				continue
			fi
			[ "$s" = mixed ] && [ "$then" = recover ] && mixed=$((mixed + 1))
			"$NVTXTC" lint f.nvtxt >out 2>err
			if ! grep -q "'$journal' is the journal of an interrupted write of 'f.nvtxt', which may be half-written: 'nvtxtc fmt --recover f.nvtxt' puts its previous text back" err; then
				bad=$((bad + 1)); echo "# step $k: lint does not name the journal"; sed 's/^/#   /' err | head -n 3
			fi
			if [ "$then" = recover ]; then
				"$NVTXTC" fmt --recover f.nvtxt >out 2>err
				rst=$?
				grep -q "removed the journal '$journal', which an interrupted run left unfinished" err && torn=$((torn + 1))
				grep -q "its previous text ([0-9]* bytes) was put back from the journal '$journal'" err && ready=$((ready + 1))
				want=old
			else
				"$NVTXTC" fmt -i f.nvtxt >out 2>err
				rst=$?
				want=new
			fi
			if [ "$rst:$(state):$(ls -A | grep -c nvtxtc-)" != "0:$want:0" ]; then
				bad=$((bad + 1))
				echo "# step $k ($s, then $then): exit $rst, $(state), $(ls -A | grep -c nvtxtc-) leftovers; want $want"
				sed 's/^/#   /' err | head -n 3
			fi
		done
		k=$((k + 1))
	done
	is "$bad" 0 "$kind: killed at each of the $steps steps of fmt -i (twice): old or new text through both names, or a journal that lint names and that fmt --recover (old text, exactly) or the next fmt -i (new text) applies ($trials trials)"
	[ "$mixed" -gt 0 ] && [ "$torn" -gt 0 ] && [ "$ready" -gt 0 ]
	ok $? "$kind: ... the loop met half-written files ($mixed, each put back), torn journals ($torn, removed) and complete ones ($ready)"
done

# --- the kill loop, replaced (an ordinary file) -----------------------------
cp grows.src old
"$NVTXTC" fmt old >new
for tmpfile in "" "tmpfile=EOPNOTSUPP,"; do
	name=${tmpfile:+"without O_TMPFILE"}
	name=${name:-"with O_TMPFILE"}
	rm -f f.nvtxt g.nvtxt .f.nvtxt.*
	cp old f.nvtxt
	killed "$tmpfile" "$NVTXTC" fmt -i f.nvtxt
	steps=$(grep -vc '^tmpfile refused$' "$T/log")
	bad=0 left=0 k=1
	while [ "$k" -le "$steps" ]; do
		rm -f f.nvtxt .f.nvtxt.*
		cp old f.nvtxt
		killed "${tmpfile}kill=$k" "$NVTXTC" fmt -i f.nvtxt
		st=$?
		if [ "$st" != 137 ]; then bad=$((bad + 1)); echo "# step $k: not killed (exit $st)"; fi
		if cmp -s f.nvtxt old || cmp -s f.nvtxt new; then :; else bad=$((bad + 1)); echo "# step $k: mixed"; fi
		[ -e "$journal" ] && { bad=$((bad + 1)); echo "# step $k: a journal for a replaced file"; }
		n=$(ls -A | grep -c '^\.f\.nvtxt\.nvtxtc-')
		if [ "$n" -gt 0 ]; then
			left=$((left + 1))
			t=$(ls -A | grep '^\.f\.nvtxt\.nvtxtc-' | head -n 1)
			"$NVTXTC" lint f.nvtxt >out 2>err
			grep -q "warning: '$t' is a temporary that nvtxtc process [0-9]* left when it was killed while writing 'f.nvtxt', which it did not change" err ||
				{ bad=$((bad + 1)); echo "# step $k: lint does not name the temporary $t"; }
			"$NVTXTC" fmt -l . >out 2>err
			grep -q "warning: './$t' is a temporary" err ||
				{ bad=$((bad + 1)); echo "# step $k: fmt -l . does not name the temporary $t"; }
			cp old f.nvtxt
			mkdir -p d && mv f.nvtxt "$t" d/
			"$NVTXTC" fmt -i d >out 2>err
			if [ "$?:$(ls -A d | grep -c '^\.f\.nvtxt\.nvtxtc-')" != 0:0 ] || ! grep -q "note: removed 'd/$t', a temporary" err; then
				bad=$((bad + 1)); echo "# step $k: fmt -i d does not remove $t"; sed 's/^/#   /' err | head -n 3
			fi
			rm -rf d
		fi
		k=$((k + 1))
	done
	is "$bad" 0 "an ordinary file $name, killed at each of the $steps steps of fmt -i: old or new text, no journal; a temporary left is named by lint and fmt, removed by fmt -i"
	case $tmpfile in
	"") [ "$left" -le 1 ]
		ok $? "... with O_TMPFILE, only a kill between the link and the rename leaves a temporary ($left)" ;;
	*) [ "$left" -gt 0 ]; ok $? "... without O_TMPFILE, some kills leave a named temporary ($left)" ;;
	esac
done

# --- refusals: another file's journal, a damaged journal -------------------
# a complete journal, the file untouched: killed at the fallocate, the step after the journal is synced
cp grows.src old
"$NVTXTC" fmt old >new
linked old
killed "" "$NVTXTC" fmt -i f.nvtxt
at=$(grep -n '^fallocate$' "$T/log" | cut -d: -f1)
ready_journal() {
	linked old
	killed "kill=$at" "$NVTXTC" fmt -i f.nvtxt
	[ -e "$journal" ] && cp "$journal" journal.saved
}
ready_journal
ok $? "a kill at the step after the journal is synced leaves a complete journal"
# the file replaced since (a new inode, as an editor's save): the journal is not applied
cp new replacement && mv replacement f.nvtxt
"$NVTXTC" fmt --recover f.nvtxt >out 2>err
is "$?:$(cmp -s f.nvtxt new && echo new):$(cmp -s "$journal" journal.saved && echo kept)" "2:new:kept" \
	"a journal for another inode: fmt --recover refuses (exit 2), the file and the journal left as they are"
grep -q "^f.nvtxt: error: the journal '$journal' was written for another file (device [0-9]*, inode [0-9]*), not this one (device [0-9]*, inode [0-9]*): the file was replaced since that write was interrupted, so the journal is not applied; remove it if the file holds what it should \[io-error\]" err
ok $? "... and says why and what to do"
cp old f.nvtxt
"$NVTXTC" fmt -i f.nvtxt >out 2>err
is "$?:$(cmp -s f.nvtxt old && echo untouched):$(grep -c 'written for another file' err):$(grep -c 'f.nvtxt: note: not formatted' err)" "2:untouched:1:1" \
	"... fmt -i refuses to format the file until the journal is dealt with"
cp old f.nvtxt
"$NVTXTC" lint --fix f.nvtxt >out 2>err
is "$?:$(cmp -s f.nvtxt old && echo untouched):$(grep -c 'written for another file' err)" "2:untouched:1" "... so does --fix"

# damaged journals: the text, the header, the length
for damage in text header length; do
	ready_journal
	cp f.nvtxt before
	case $damage in
	text) printf 'X' | dd of="$journal" bs=1 seek=1000 conv=notrunc 2>/dev/null
		why="its text does not match its checksum" ;;
	header) sed -i '1,4s/^size \([0-9]\)/size 9\1/' "$journal"
		why="its header does not match the header's checksum" ;;
	length) truncate -s -100 "$journal"
		why="it is not as long as its header says (cut short or grown)" ;;
	esac
	cp "$journal" damaged
	"$NVTXTC" fmt --recover f.nvtxt >out 2>err
	is "$?:$(cmp -s f.nvtxt before && echo untouched):$(cmp -s "$journal" damaged && echo kept)" "2:untouched:kept" \
		"a damaged journal ($damage): fmt --recover refuses (exit 2), nothing changed"
	grep -qF "f.nvtxt: error: the journal '$journal' of an interrupted write of this file is damaged ($why): it is not applied, and the file may be half-written; check the file, then remove the journal [io-error]" err
	ok $? "... with a clear message ($why)"
done
"$NVTXTC" fmt -i f.nvtxt >out 2>err
is "$?:$(cmp -s f.nvtxt before && echo untouched):$(grep -c 'is damaged' err)" "2:untouched:1" "... and fmt -i refuses too"

# a torn journal (killed while the journal was written) is removed: the file was not touched yet
linked old
killed "kill=1" "$NVTXTC" fmt -i f.nvtxt
"$NVTXTC" fmt --recover f.nvtxt >out 2>err
is "$?:$(state):$(ls -A | grep -c nvtxtc-)" "0:old:0" "a torn journal: fmt --recover removes it (exit 0), the file as it was"
is "$(cat err)" "f.nvtxt: note: removed the journal '$journal', which an interrupted run left unfinished: it stopped before it changed this file" \
	"... and says so"

# --- fmt --recover: its operands and options --------------------------------
"$NVTXTC" fmt --recover f.nvtxt >out 2>err
is "$?:$(cat out err)" "0:" "fmt --recover of a file without a journal: exit 0, nothing said, nothing changed"
ready_journal
mkdir -p sub && ln f.nvtxt sub/x.nvtxt
"$NVTXTC" fmt --recover . >out 2>err
is "$?:$(state):$(ls -A | grep -c nvtxtc-)" "0:old:0" "fmt --recover DIR: the journals of the *.nvtxt files under it are applied"
rm -rf sub
"$NVTXTC" fmt --recover -i f.nvtxt >out 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: fmt --recover only puts files back from their journals: it takes no --check, -l, -d or -i [usage]" \
	"fmt --recover -i: a usage error"
"$NVTXTC" fmt --recover - <old >out 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: --recover puts a file back from its journal: it takes no standard input [usage]" \
	"fmt --recover -: an error"
"$NVTXTC" lint --recover f.nvtxt >out 2>err
is "$?" 2 "--recover is an option of fmt only"

# --- -o to a hard-linked file is journaled too -----------------------------
printf 'Marker, 1, Qpc, 1, 2,,, "x",\n' >one.nvtxt
cp old f.nvtxt && rm -f g.nvtxt && ln f.nvtxt g.nvtxt
killed "" "$NVTXTC" --emit=nvtxt -o f.nvtxt one.nvtxt
is "$?:$(grep -c '^pwrite journal$' "$T/log" | sed 's/^[1-9][0-9]*$/some/'):$(cmp -s g.nvtxt f.nvtxt && echo same):$(cat f.nvtxt)" "0:some:same:$("$NVTXTC" --emit=nvtxt one.nvtxt)" \
	"-o over a file with two hard links: journaled, then written through"

# --- a journal that cannot be written leaves the file untouched, named -----
# (the limit in bytes of ulimit -f 8, whose blocks are 512 or 1024 bytes; an old text within 512
# bytes under it, lines that formatting shortens: the new text fits, the journal does not)
(trap '' XFSZ; ulimit -f 8; exec head -c 100000 /dev/zero >probe) 2>/dev/null
limit=$(wc -c <probe)
awk -v n=$(((limit - 200) / 40)) 'BEGIN { for (i = 1; i <= n; i++) printf "Marker ,   %05d ,  Qpc , 1 ,  2,,, \"m\",\n", i }' >small.src
rm -f f.nvtxt g.nvtxt && cp small.src f.nvtxt && ln f.nvtxt g.nvtxt
[ "$(wc -c <f.nvtxt)" -le "$limit" ] && [ "$(($(wc -c <f.nvtxt) + 512))" -gt "$limit" ] && [ "$("$NVTXTC" fmt f.nvtxt | wc -c)" -le "$limit" ]
ok $? "(the sizes of this case: old <= $limit bytes < old + 512, new <= $limit)"
(ulimit -f 8; exec "$NVTXTC" fmt -i f.nvtxt) >out 2>err
is "$?:$(cmp -s g.nvtxt small.src && echo untouched):$(ls -A | grep -c nvtxtc-)" "2:untouched:0" \
	"past ulimit -f, a journal that cannot be written: exit 2, the file untouched, no journal left"
is "$(head -n 1 err)" "nvtxtc: error: cannot write 'f.nvtxt': File too large; its journal '$journal' could not be written, so the file is untouched [io-error]" \
	"... and the message names the file and its journal"

# --- fmt -i past ulimit -f: the temporary's error names the file -----------
awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "Marker,%d,Qpc,1,2,,,\"message %d\",\n", i, i }' >big.nvtxt
(ulimit -f 8; exec "$NVTXTC" fmt -i big.nvtxt) >out 2>err
st=$?
tmpdir=${TMPDIR:-/tmp}
[ -d "$tmpdir" ] && [ -w "$tmpdir" ] || tmpdir=/tmp
is "$st:$(head -n 1 err)" "2:nvtxtc: error: cannot write the formatted text of 'big.nvtxt' to a temporary file (unnamed, in '$tmpdir'): File too large [io-error]" \
	"fmt -i past ulimit -f: the error names the file being formatted and where its temporary is"

done_testing
