#!/bin/sh
# The command line: exit statuses, standard input, output files written
# atomically, fmt --check and -i, option errors, and that several files on
# one command line share nothing.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
cd "$T" || exit 1

good='Marker, 1, "Qpc", 1, 2,,, "ok",'
printf '%s\n' "$good" >good.nvtxt
printf 'Marker, -1, Qpc, 1, 2,,, "bad",\n' >bad.nvtxt
printf 'RangePush, 1, Qpc, 1, 2,,,,\n' >warn.nvtxt

"$NVTXTC" lint good.nvtxt >out 2>err
is "$?:$(cat out err)" "0:" "a clean file: exit 0, no output at all"
"$NVTXTC" good.nvtxt >out 2>err
is "$?" 0 "lint is the default command"
"$NVTXTC" lint bad.nvtxt >out 2>err
is "$?" 1 "a file with an error: exit 1"
grep -q '^bad.nvtxt:1:9: error: ' err
ok $? "the error is in GCC's format FILE:LINE:COL: error:"
grep -q '^1 error generated.$' err
ok $? "a summary line ends the diagnostics"
"$NVTXTC" lint warn.nvtxt >out 2>err
is "$?" 0 "warnings alone: exit 0"
grep -q 'warning: .*\[-Wunclosed-range\]$' err
ok $? "a warning names its -W option"
"$NVTXTC" lint -Werror warn.nvtxt >out 2>err
is "$?" 1 "-Werror: a warning makes exit 1"
grep -q 'error: .*\[-Werror=unclosed-range\]$' err
ok $? "-Werror: the warning is printed as an error [-Werror=NAME]"
"$NVTXTC" lint -Werror -Wno-error=unclosed-range warn.nvtxt >out 2>err
is "$?" 0 "-Wno-error=NAME keeps one warning a warning"
"$NVTXTC" lint -Werror=unclosed-range warn.nvtxt >out 2>err
is "$?" 1 "-Werror=NAME"
"$NVTXTC" lint -Wno-unclosed-range warn.nvtxt >out 2>err
is "$?:$(cat err)" "0:" "-Wno-NAME silences the warning"
"$NVTXTC" lint -w warn.nvtxt >out 2>err
is "$?:$(cat err)" "0:" "-w silences every warning"
"$NVTXTC" lint -Wunclosed-ranges warn.nvtxt >out 2>err
is "$?" 2 "an unknown warning is a usage error"
grep -q "did you mean '-Wunclosed-range'" err
ok $? "an unknown warning gets a suggestion"

"$NVTXTC" lint - <bad.nvtxt >out 2>err
grep -q '^<stdin>:1:9: error' err
ok $? "'-' reads standard input, named <stdin>"
"$NVTXTC" lint --stdin-name=buffer.nvtxt - <bad.nvtxt >out 2>err
grep -q '^buffer.nvtxt:1:9: error' err
ok $? "--stdin-name names standard input in diagnostics"
grep -q 'Marker, -1' err
ok $? "standard input still gets source excerpts"

mkdir adir
"$NVTXTC" lint adir >out 2>err
is "$?" 2 "a directory as FILE: exit 2"
grep -q "adir.*directory" err
ok $? "a directory as FILE: the message says so"
"$NVTXTC" lint missing.nvtxt >out 2>err
is "$?" 2 "a missing file: exit 2"
grep -q "cannot open 'missing.nvtxt'" err
ok $? "a missing file: the message names it"
# (as root, as nobody: root reads anything)
printf '%s\n' "$good" >locked.nvtxt
chmod 000 locked.nvtxt
as_user "$NVTXTC" lint locked.nvtxt >out 2>err
is "$?:$(cat err)" "2:nvtxtc: error: cannot open 'locked.nvtxt': Permission denied [io-error]" \
	"an unreadable file: exit 2, the message names it and says why"
"$NVTXTC" lint good.nvtxt bad.nvtxt missing.nvtxt >out 2>err
is "$?" 2 "several files: the worst status wins"

"$NVTXTC" --bogus good.nvtxt >out 2>err
is "$?" 2 "an unknown option: exit 2"
on_tty "'$NVTXTC' >out 2>err"
is "$?:$(head -n 1 err)" "2:nvtxtc: error: no input files [usage]" "no input files, standard input a terminal: exit 2"
"$NVTXTC" --max-errors=x good.nvtxt >out 2>err
is "$?" 2 "a bad --max-errors: exit 2"
"$NVTXTC" --color=sometimes good.nvtxt >out 2>err
is "$?" 2 "a bad --color: exit 2"
"$NVTXTC" --help >out 2>err
is "$?" 0 "--help exits 0"
grep -q '^Usage: nvtxtc' out
ok $? "--help prints the usage on standard output"
"$NVTXTC" --version >out 2>err
grep -q '^nvtxtc [0-9]' out
ok $? "--version prints the version"

"$NVTXTC" lint --color=always bad.nvtxt >out 2>err
grep -q "$(printf '\033')\[" err
ok $? "--color=always colors diagnostics"
"$NVTXTC" lint --color=never bad.nvtxt >out 2>err
! grep -q "$(printf '\033')" err
ok $? "--color=never does not"

# --max-errors caps what is printed and says how much was left out
for i in 1 2 3 4 5 6 7; do printf 'Marker, -%s, Qpc, 1, 2,,,,\n' "$i"; done >many.nvtxt
"$NVTXTC" lint --max-errors=2 many.nvtxt >out 2>err
is "$?:$(grep -c ': error: ' err)" "1:2" "--max-errors=2 shows two errors"
grep -q '^many.nvtxt: note: 5 more errors not shown (--max-errors=2)$' err
ok $? "--max-errors: the summary counts the rest"

# each file stands alone: a variable of the first is unknown in the second
printf 'TimeBase = Qpc\n' >defines.nvtxt
printf '@Marker, Time, ProcessId, ThreadId\nMarker, 1, 2, 3\n' >uses.nvtxt
"$NVTXTC" lint defines.nvtxt uses.nvtxt >out 2>err
is "$?" 1 "several files share no variables"
grep -q "^uses.nvtxt:2:1: error: missing value for TimeBase, a required argument of Marker" err
ok $? "the second file misses the first file's TimeBase"

# -j: files checked in parallel report exactly as one at a time, in order
for i in 1 2 3 4 5 6; do cp many.nvtxt "par$i.nvtxt"; cp warn.nvtxt "parw$i.nvtxt"; done
"$NVTXTC" lint -j 1 par1.nvtxt parw1.nvtxt par2.nvtxt missing.nvtxt parw2.nvtxt par3.nvtxt >out 2>serial
s1=$?
"$NVTXTC" lint -j 4 par1.nvtxt parw1.nvtxt par2.nvtxt missing.nvtxt parw2.nvtxt par3.nvtxt >out 2>parallel
is "$?" "$s1" "-j 4 exits like -j 1"
same_file parallel serial "-j 4 prints what -j 1 prints, in command-line order"
"$NVTXTC" lint -j 0 good.nvtxt >out 2>err
is "$?" 2 "-j 0 is a usage error"

# --emit=nvtxt -o: written only on success, atomically
"$NVTXTC" --emit=nvtxt -o out.nvtxt good.nvtxt >out 2>err
is "$?:$(cat out.nvtxt)" "0:$good" "--emit=nvtxt -o writes the normal form"
"$NVTXTC" --emit=nvtxt -o out.nvtxt bad.nvtxt >out 2>err
is "$?:$(cat out.nvtxt)" "1:$good" "an input with errors leaves the previous output untouched"
"$NVTXTC" --emit=nvtxt -o new.nvtxt bad.nvtxt >out 2>err
[ ! -e new.nvtxt ]
ok $? "an input with errors creates no output file"
is "$(ls -a | grep -c '\.tmp\|\.nvtxtc-')" 0 "no temporary file is left behind"
"$NVTXTC" --emit=nvtxt -o adir good.nvtxt >out 2>err
is "$?" 2 "-o naming a directory: exit 2"
"$NVTXTC" --emit=nvtxt good.nvtxt bad.nvtxt >out 2>err
is "$?" 2 "--emit=nvtxt takes one input"
"$NVTXTC" --emit=nvtxt - <good.nvtxt >out 2>err
is "$?:$(cat out)" "0:$good" "--emit=nvtxt reads standard input"

# fmt: stdout, --check, -i
printf 'Marker ,1,Qpc,1,2 ,,,"x",\n' >ugly.nvtxt
cp ugly.nvtxt ugly.orig
"$NVTXTC" fmt ugly.nvtxt >out 2>err
is "$?:$(cat out)" '0:Marker, 1, Qpc, 1, 2,,, "x",' "fmt prints the formatted file"
"$NVTXTC" fmt --check ugly.nvtxt good.nvtxt >out 2>err
is "$?:$(cat out)" "1:ugly.nvtxt" "fmt --check lists the files that would change, exit 1"
"$NVTXTC" fmt --check good.nvtxt >out 2>err
is "$?:$(cat out)" "0:" "fmt --check on a formatted file: exit 0, no output"
chmod 640 ugly.nvtxt
"$NVTXTC" fmt -i ugly.nvtxt >out 2>err
is "$?:$(cat ugly.nvtxt)" '0:Marker, 1, Qpc, 1, 2,,, "x",' "fmt -i rewrites in place"
is "$(stat -c %a ugly.nvtxt)" 640 "fmt -i keeps the file's mode"
printf 'Marker, 1, "unterminated\n' >broken.nvtxt
cp broken.nvtxt broken.orig
"$NVTXTC" fmt -i broken.nvtxt >out 2>err
is "$?" 1 "fmt -i of a file with a syntax error: exit 1"
cmp -s broken.nvtxt broken.orig
ok $? "fmt -i leaves a file with syntax errors untouched"
is "$(ls -a | grep -c '\.tmp\|\.nvtxtc-')" 0 "fmt -i leaves no temporary file"
"$NVTXTC" fmt - <ugly.orig >out 2>err
is "$?:$(cat out)" '0:Marker, 1, Qpc, 1, 2,,, "x",' "fmt reads standard input"
"$NVTXTC" fmt --check --stdin-name=buf.nvtxt - <ugly.orig >out 2>err
is "$?:$(cat out)" "1:buf.nvtxt" "fmt --check on standard input names it"
"$NVTXTC" fmt -o x.nvtxt good.nvtxt >out 2>err
is "$?" 2 "fmt does not take -o"
"$NVTXTC" lint --check good.nvtxt >out 2>err
is "$?" 2 "--check belongs to fmt"

# point 6 of issue 10: -Wall and -Wextra (gcc-style flags), bare --color
for flag in -Wall -Wextra; do
	"$NVTXTC" lint $flag warn.nvtxt >out 2>err
	is "$?:$(grep -c 'warning: .*\[-Wunclosed-range\]$' err)" "0:1" "$flag is accepted and keeps every warning on"
	"$NVTXTC" lint -w -Wno-unclosed-range $flag warn.nvtxt >out 2>err
	is "$?:$(cat err)" "0:" "$flag enables nothing after -w (as in GCC)"
	"$NVTXTC" lint -Wno-unclosed-range $flag warn.nvtxt >out 2>err
	is "$?:$(cat err)" "0:" "$flag does not re-enable a warning that -Wno-NAME disabled, in any order"
	"$NVTXTC" lint $flag -Wno-unclosed-range warn.nvtxt >out 2>err
	is "$?:$(cat err)" "0:" "-Wno-NAME after $flag disables the warning"
	"$NVTXTC" lint -Werror $flag warn.nvtxt >out 2>err
	is "$?" 1 "-Werror $flag: the warnings are errors"
done
"$NVTXTC" lint -Wal warn.nvtxt >out 2>err
is "$?" 2 "-Wal (not a warning or group) is still a usage error"
"$NVTXTC" lint -Wall=x warn.nvtxt >out 2>err
is "$?" 2 "-Wall=x is a usage error"
"$NVTXTC" lint --color bad.nvtxt >out 2>err
grep -q "$(printf '\033')\[" err
ok $? "a bare --color means always"
"$NVTXTC" lint --color never bad.nvtxt >out 2>err
is "$?" 2 "--color takes its value only after '=' ('never' is a file, missing)"
"$NVTXTC" lint --color= bad.nvtxt >out 2>err
is "$?" 2 "--color= (empty) is a usage error"

# point 7: directories for lint and fmt, walked in sorted order for *.nvtxt,
# hidden directories and files skipped, symbolic links to directories not followed
mkdir -p tree/sub tree/.hidden outside
printf 'Marker, -1, Qpc, 1, 2,,,,\n' >tree/b.nvtxt
printf 'Marker, -2, Qpc, 1, 2,,,,\n' >tree/a.nvtxt
printf 'Marker, -3, Qpc, 1, 2,,,,\n' >tree/sub/c.nvtxt
printf 'Marker, -4, Qpc, 1, 2,,,,\n' >tree/.hidden/h.nvtxt
printf 'Marker, -5, Qpc, 1, 2,,,,\n' >tree/.dot.nvtxt
printf 'Marker, -6, Qpc, 1, 2,,,,\n' >tree/notes.txt
printf 'Marker, -7, Qpc, 1, 2,,,,\n' >outside/x.nvtxt
printf 'Marker, -8, Qpc, 1, 2,,,,\n' >outside/linked.nvtxt
ln -s ../outside tree/dirlink
ln -s ../outside/linked.nvtxt tree/filelink.nvtxt
"$NVTXTC" lint --color=never tree >out 2>err
is "$?" 1 "7: lint DIR checks the *.nvtxt files under it"
is "$(grep -o '^[^:]*:1:9' err | tr '\n' ' ')" "tree/a.nvtxt:1:9 tree/b.nvtxt:1:9 tree/filelink.nvtxt:1:9 tree/sub/c.nvtxt:1:9 " \
	"7: in sorted order, into subdirectories, a symbolic link to a file included"
! grep -q 'hidden\|dot\|notes\|x.nvtxt' err
ok $? "7: hidden directories and files, other names and symbolic links to directories are skipped"
"$NVTXTC" lint -j 4 --color=never tree >out 2>err4
same_file err4 err "7: -j applies to the files of a directory, output in the same order"
"$NVTXTC" lint --color=never tree/dirlink >out 2>err
is "$?:$(grep -c ': error: ' err)" "1:2" "7: a symbolic link to a directory named on the command line is followed"
mkdir empty
"$NVTXTC" lint empty >out 2>err
is "$?" 2 "7: a directory without any *.nvtxt file: exit 2"
grep -q "'empty' is a directory without any \*.nvtxt file" err
ok $? "7: ... and the message says so"
"$NVTXTC" dump tree >out 2>err
is "$?" 2 "7: dump does not walk directories"
"$NVTXTC" --emit=nvtxt tree >out 2>err
is "$?" 2 "7: --emit does not walk directories"
mkdir ftree ftree/.git
printf 'Marker ,1,Qpc,1,2,,,,\n' >ftree/z.nvtxt
printf 'Marker, 1, Qpc, 1, 2,,,,\n' >ftree/y.nvtxt
printf 'Marker ,1,Qpc,1,2,,,,\n' >ftree/x.nvtxt
printf 'Marker ,1,Qpc,1,2,,,,\n' >ftree/.git/g.nvtxt
"$NVTXTC" fmt -l ftree >out 2>err
is "$?:$(cat out | tr '\n' ' ')" "1:ftree/x.nvtxt ftree/z.nvtxt " "7/8: fmt -l DIR lists the files that would change, in order"
"$NVTXTC" fmt -l -j 3 ftree >out3 2>err
same_file out3 out "7: fmt -l -j 3 DIR lists the same"
"$NVTXTC" fmt ftree >out 2>err
is "$?:$(wc -l <out)" "0:3" "7: fmt DIR prints every file"
"$NVTXTC" fmt -i ftree >out 2>err
"$NVTXTC" fmt -l ftree >out 2>err
is "$?:$(cat out)" "0:" "7: fmt -i DIR formats every file under it"
is "$(cat ftree/.git/g.nvtxt)" "Marker ,1,Qpc,1,2,,,," "7: fmt -i DIR leaves hidden directories alone"

# point 8: fmt -l and fmt -d (gofmt's flags)
"$NVTXTC" fmt -l ugly.orig good.nvtxt >out 2>err
is "$?:$(cat out)" "1:ugly.orig" "8: fmt -l lists the files that would change, exit 1"
"$NVTXTC" fmt -l good.nvtxt >out 2>err
is "$?:$(cat out)" "0:" "8: fmt -l of formatted files: exit 0, nothing listed"
"$NVTXTC" fmt -d ugly.orig good.nvtxt >out 2>err
is "$?" 1 "8: fmt -d of a file that would change: exit 1"
printf -- '--- ugly.orig.orig\n+++ ugly.orig\n@@ -1 +1 @@\n-Marker ,1,Qpc,1,2 ,,,"x",\n+Marker, 1, Qpc, 1, 2,,, "x",\n' >want.diff
same_file out want.diff "8: fmt -d prints a unified diff, labelled FILE.orig and FILE"
"$NVTXTC" fmt -d good.nvtxt >out 2>err
is "$?:$(cat out)" "0:" "8: fmt -d of formatted files: exit 0, no diff"
"$NVTXTC" fmt -d broken.orig >out 2>err
is "$?:$(cat out)" "1:" "8: fmt -d of a file with syntax errors: exit 1, no diff"
"$NVTXTC" fmt -l -d ugly.orig >out 2>err
is "$?:$(head -n 1 out)" "1:ugly.orig" "8: fmt -l -d lists the name, then the diff"
cp ugly.orig ugly2.nvtxt
"$NVTXTC" fmt -l -i ugly2.nvtxt good.nvtxt >out 2>err
is "$?:$(cat out):$(cat ugly2.nvtxt)" '0:ugly2.nvtxt:Marker, 1, Qpc, 1, 2,,, "x",' "8: fmt -l -i lists the files it rewrites, exit 0"
"$NVTXTC" fmt -d -i ugly2.nvtxt >out 2>err
is "$?" 2 "8: fmt -d -i is a usage error"
"$NVTXTC" lint -l good.nvtxt >out 2>err
is "$?" 2 "8: -l is an option of fmt only"

# the subcommand table: help, and options that belong to another command
"$NVTXTC" help >out 2>err
is "$?:$(head -n 1 out)" "0:Usage: nvtxtc [lint] [--fix] [OPTION]... FILE..." "nvtxtc help prints the help"
"$NVTXTC" --help >help.out 2>&1
same_file out help.out "nvtxtc help prints what --help prints"
"$NVTXTC" help extra >out 2>err
is "$?" 2 "nvtxtc help takes no operand"
"$NVTXTC" lint -i good.nvtxt >out 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: '-i' is not an option of 'nvtxtc lint' [usage]" \
	"an option of another command is a usage error that names the command"
grep -q "^nvtxtc: note: try 'nvtxtc --help' for more information$" err
ok $? "a usage error ends with a note that points at --help"
"$NVTXTC" dump -j 2 good.nvtxt >out 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: '-j' is not an option of 'nvtxtc dump' [usage]" "dump takes no -j"
for o in "-j 2" "--stdin-name=x.nvtxt" "-j2"; do
	# shellcheck disable=SC2086
	"$NVTXTC" lsp $o </dev/null >out 2>err
	is "$?:$(wc -c <out):$(head -n 1 err)" "2:0:nvtxtc: error: '${o%%[ =2]*}' is not an option of 'nvtxtc lsp': it checks the documents its client sends, not files [usage]" \
		"lsp $o: a usage error that says why (lsp reads no files), and nothing on standard output"
done
"$NVTXTC" lsp -Wno-rename --max-errors=3 --stdio </dev/null >out 2>err
is "$?" 1 "lsp still takes -W and --max-errors (the input ends before shutdown: status 1)"
"$NVTXTC" dump >out 2>err
is "$?" 2 "dump without a file: exit 2"
"$NVTXTC" --emit=svg good.nvtxt >out 2>err
grep -q "unknown --emit format 'svg': expected nvtxt, payload, chrome or none" err
ok $? "an unknown --emit format lists the back ends of the table"
"$NVTXTC" --help | grep -c '^  --emit=' >out
is "$(cat out)" 4 "--help lists one line per back end (none included)"
# A payload file that breaks its format is one payload-format error, not NVTXT syntax errors.
"$NVTXTC" --emit=payload -o v.payload "$top/examples/vse-example.nvtxt" &&
	head -c 100 v.payload >trunc.payload
"$NVTXTC" lint --color=never trunc.payload 2>err
st=$?
[ $st = 1 ] && grep -q "^trunc.payload: error: offset 24: expected a file of [0-9]* bytes (the header's size), found 100 bytes (truncated) \[payload-format\]$" err
ok $? "a truncated payload file: one payload-format error"
# --- issue 20, item 5: the traps of the first hour -----------------------
# fmt -w is gofmt's -w (in place); the options fmt does not take are usage errors
cp ugly.orig trap-w.nvtxt
"$NVTXTC" fmt -w trap-w.nvtxt >out 2>err
is "$?:$(cat out):$(cat trap-w.nvtxt)" '0::Marker, 1, Qpc, 1, 2,,, "x",' "20: fmt -w rewrites in place, as gofmt -w (and prints nothing)"
"$NVTXTC" fmt -w -d good.nvtxt >out 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: fmt takes -d or -i (-w), not both [usage]" "20: fmt -w -d: -w is -i"
for o in -Wall -Werror -Wno-rename --emit=nvtxt --fix --stdio --format=json; do
	"$NVTXTC" fmt $o good.nvtxt >out 2>err
	st=$?
	grep -q "is not an option of 'nvtxtc fmt'" err
	is "$st:$?" "2:0" "20: fmt $o is a usage error that names fmt"
done
"$NVTXTC" fmt -Wall good.nvtxt >out 2>err
is "$(head -n 1 err)" "nvtxtc: error: '-Wall' is not an option of 'nvtxtc fmt': it reports syntax errors only, which no warning option changes [usage]" \
	"20: fmt -Wall says why"
"$NVTXTC" fmt --max-errors=1 -j 2 --stdin-name=x --color=never good.nvtxt >out 2>err
is "$?" 0 "20: fmt takes the options about its syntax errors (--max-errors, -j, --stdin-name, --color)"
"$NVTXTC" lint -w warn.nvtxt >out 2>err
is "$?:$(cat err)" "0:" "20: -w still silences warnings outside fmt"
"$NVTXTC" dump -w x >out 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: '-w' is not an option of 'nvtxtc dump' [usage]" "20: dump -w is a usage error"

# misspelt commands, options and warnings: a suggestion spelt as it must be typed
"$NVTXTC" lnt good.nvtxt >out 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: unknown command 'lnt' (and no file of that name); did you mean 'lint'? [usage]" \
	"20: nvtxtc lnt FILE: did you mean 'lint'?"
printf '%s\n' "$good" >lnt
"$NVTXTC" lnt >out 2>err
is "$?:$(cat err)" "0:" "20: ... but an existing file of that name is linted"
"$NVTXTC" fmtx good.nvtxt >out 2>err
grep -q "did you mean 'fmt'" err
ok $? "20: nvtxtc fmtx: did you mean 'fmt'?"
"$NVTXTC" --emit-nvtxt good.nvtxt >out 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: unknown option '--emit-nvtxt'; did you mean '--emit=nvtxt'? [usage]" \
	"20: --emit-nvtxt: did you mean '--emit=nvtxt'?"
"$NVTXTC" --colour=never good.nvtxt >out 2>err
grep -q "did you mean '--color=never'?" err
ok $? "20: --colour=never: did you mean '--color=never'? (the value kept)"
"$NVTXTC" --emit=nvtx good.nvtxt >out 2>err
grep -q "did you mean 'nvtxt'?" err
ok $? "20: --emit=nvtx: did you mean 'nvtxt'?"
"$NVTXTC" -Wrenam good.nvtxt >out 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: unknown warning '-Wrenam'; did you mean '-Wrename'? [usage]" \
	"20: -Wrenam: did you mean '-Wrename'? (the option, not the bare name)"
"$NVTXTC" -Werror=renam good.nvtxt >out 2>err
grep -q "did you mean '-Werror=rename'?" err
ok $? "20: -Werror=renam: did you mean '-Werror=rename'?"
"$NVTXTC" -Wal good.nvtxt >out 2>err
grep -q "did you mean '-Wall'?" err
ok $? "20: -Wal: did you mean '-Wall'?"
# gcc's spellings
"$NVTXTC" -fdiagnostics-color=always bad.nvtxt >out 2>err
grep -q "$(printf '\033')\[" err
ok $? "20: -fdiagnostics-color=always colors (gcc's spelling of --color)"
"$NVTXTC" -fdiagnostics-color=never --color=always bad.nvtxt >out 2>err
grep -q "$(printf '\033')\[" err
ok $? "20: the last of --color and -fdiagnostics-color wins"
"$NVTXTC" -fno-diagnostics-color bad.nvtxt >out 2>err
! grep -q "$(printf '\033')" err
ok $? "20: -fno-diagnostics-color"
"$NVTXTC" -fdiagnostics-color=sometimes bad.nvtxt >out 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: -fdiagnostics-color expects auto, always or never, found 'sometimes' [usage]" \
	"20: a bad -fdiagnostics-color"
for f in json sarif; do
	"$NVTXTC" -fdiagnostics-format=$f bad.nvtxt >out 2>err
	is "$?:$(cat out):$(head -c 1 err)" "1::{" "20: -fdiagnostics-format=$f: the document on standard error, as GCC"
done
"$NVTXTC" -fdiagnostics-format=text bad.nvtxt >out 2>err
grep -q '^bad.nvtxt:1:9: error' err
ok $? "20: -fdiagnostics-format=text"

# help COMMAND: the command's usage and only its options
"$NVTXTC" help fmt >out 2>err
is "$?:$(head -n 1 out)" "0:Usage: nvtxtc fmt [--check|-l] [-d] [-i|-w|--recover] [OPTION]... FILE..." "20: nvtxtc help fmt prints fmt's help"
! grep -q -- '--emit\|--fix\|--stdio\|-Wall\|-o FILE' out
ok $? "20: ... without the options fmt does not take"
"$NVTXTC" fmt --help >out2 2>err
same_file out2 out "20: nvtxtc fmt --help prints the same"
"$NVTXTC" help fnt >out 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: unknown command 'fnt'; did you mean 'fmt'? [usage]" "20: help of an unknown command"
for c in $("$NVTXTC" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p'); do
	"$NVTXTC" help "$c" >out 2>err
	is "$?:$(head -n 1 out | cut -c 1-14)" "0:Usage: nvtxtc " "20: nvtxtc help $c"
done

# no FILE: standard input when it is not a terminal
"$NVTXTC" <bad.nvtxt >out 2>err
is "$?:$(head -n 1 err | cut -c 1-26)" "1:<stdin>:1:9: error: expect" "20: nvtxtc < FILE lints standard input"
"$NVTXTC" fmt <ugly.orig >out 2>err
is "$?:$(cat out)" '0:Marker, 1, Qpc, 1, 2,,, "x",' "20: nvtxtc fmt < FILE formats standard input"
"$NVTXTC" lint --stdin-name=s.nvtxt <bad.nvtxt >out 2>err
grep -q '^s.nvtxt:1:9: error' err
ok $? "20: nvtxtc lint < FILE, --stdin-name names it"
"$NVTXTC" --emit=nvtxt <good.nvtxt >out 2>err
is "$?:$(cat out)" "0:$good" "20: --emit=nvtxt < FILE"
on_tty "'$NVTXTC' fmt 2>err"
is "$?:$(head -n 1 err)" "2:nvtxtc: error: no input files [usage]" "20: fmt on a terminal: no input files"
"$NVTXTC" fmt -i <ugly.orig >out 2>err
is "$?:$(head -n 1 err)" "2:nvtxtc: error: -i cannot rewrite standard input [usage]" "20: fmt -i < FILE: standard input cannot be rewritten"

# a file that is not text: one error
printf '\177ELF\002\001\001\000\000\000\003\000>\000' >bin.nvtxt
head -c 20000 /dev/zero >>bin.nvtxt
"$NVTXTC" bin.nvtxt >out 2>err
is "$?:$(cat err)" "1:bin.nvtxt: error: not a text file: NUL byte at offset 7 (with other control characters in its first 8 KiB); not checked further [encoding]
1 error generated." "20: an executable: one error, not a text file, NUL byte at offset N"
cat bin.nvtxt | "$NVTXTC" lint - >out 2>err
is "$?:$(head -n 1 err)" "1:<stdin>: error: not a text file: NUL byte at offset 7 (with other control characters in its first 8 KiB); not checked further [encoding]" \
	"20: ... the same from a pipe"
"$NVTXTC" fmt bin.nvtxt >out 2>err
is "$?:$(grep -c 'error:' err):$(wc -c <out)" "1:1:0" "20: fmt of a file that is not text: one error, nothing printed"
cp bin.nvtxt bin2.nvtxt
"$NVTXTC" --fix bin2.nvtxt >out 2>err
cmp -s bin.nvtxt bin2.nvtxt
is "$?:$(grep -c 'error:' err)" "0:1" "20: --fix leaves a file that is not text as it is"
printf 'Marker, 1, Qpc, 1, 2,,, "a\000b",\n' >stray.nvtxt
"$NVTXTC" stray.nvtxt >out 2>err
grep -q '^stray.nvtxt:1:27: error: NUL byte' err
ok $? "20: a text file with a stray NUL byte keeps its located error"

# dump of a text file: how to make a payload
"$NVTXTC" dump good.nvtxt >out 2>err
is "$?:$(sed -n 2p err)" "1:good.nvtxt: note: it looks like NVTXT text, not a payload file: make one with 'nvtxtc --emit=payload -o FILE.payload good.nvtxt'" \
	"20: dump of an NVTXT file points to --emit=payload -o"
# replay says when no NVTX tool is attached, and fails when the one named cannot be loaded
"$NVTXTC" --emit=payload -o r.payload good.nvtxt 2>err
env -u NVTX_INJECTION64_PATH "$NVTXTC" replay r.payload >out 2>err
st=$?
if grep -q 'built without the NVTX headers' err; then
	# a build without the NVTX headers (make says so) has no replay
	is "$st:$(cat err)" "2:nvtxtc: error: replay: nvtxtc was built without the NVTX headers (configure --with-nvtx=DIR) [usage]" \
		"20: replay in a build without the NVTX headers says so, exit 2"
	skip "20: replay's NVTX tool: nvtxtc was built without the NVTX headers"
else
	is "$st:$(cat err)" "0:nvtxtc: warning: replay: no NVTX tool is attached (NVTX_INJECTION64_PATH is not set): the events are submitted to NVTX and go nowhere [usage]" \
		"20: replay without NVTX_INJECTION64_PATH: a warning, exit 0"
	NVTX_INJECTION64_PATH=$PWD/missing.so "$NVTXTC" replay r.payload >out 2>err
	is "$?:$(cat err)" "2:nvtxtc: error: replay: cannot load the NVTX tool of NVTX_INJECTION64_PATH: $PWD/missing.so: cannot open shared object file: No such file or directory [io-error]" \
		"20: replay with a missing tool: an error with dlopen's message, exit 2"
	printf 'not a library\n' >bad.so
	NVTX_INJECTION64_PATH=$PWD/bad.so "$NVTXTC" replay r.payload >out 2>err
	is "$?:$(grep -c 'cannot load the NVTX tool' err)" "2:1" "20: replay with a file that is no library: exit 2"
	libc=$(ldd "$NVTXTC" | sed -n 's/^.*libc\.so\.6 => \([^ ]*\) .*/\1/p')
	NVTX_INJECTION64_PATH=$libc "$NVTXTC" replay r.payload >out 2>err
	is "$?:$(head -n 1 err)" "2:nvtxtc: error: replay: '$libc' (NVTX_INJECTION64_PATH) is not an NVTX tool: it has no function InitializeInjectionNvtx2 [io-error]" \
		"20: replay with a library that is no NVTX tool: exit 2"
fi
done_testing
