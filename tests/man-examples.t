#!/bin/sh
# The examples of the manual pages are real: every example block that the
# page marks with a roff comment `.\" test: KIND ...` just before its `.EX`
# is checked against what nvtxtc does now.  KIND is one of
#   transcript      a shell session: lines "$ COMMAND" and their output,
#                   run in a new directory that holds the files of the
#                   page's `file` blocks so far.  The outputs of the `$ cat FILE` commands that come before
#                   the first other command are the input files; every
#                   command is then run (stdout and stderr together, as on a
#                   terminal) and the session must come out as printed.
#   file NAME       the block is the file NAME, kept for later blocks of the
#                   same page.
#   output COMMAND  COMMAND, run where the files of the page are, prints
#                   exactly the block (stdout and stderr together).
#   summary LINE    the block, linted as a file, ends its diagnostics with
#                   LINE ("1 error generated.") or, for LINE "clean", has no
#                   diagnostic at all and exit status 0.
# The block text is read back from the roff source (\e, \-, \&, \(aq, \(dq
# and \(ga undone).  The test fails if the binary's output changes, and if
# nvtxtc(1) loses its lint, fmt or --emit transcripts.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

mkdir "$T/bin"
ln -s "$NVTXTC" "$T/bin/nvtxtc"
PATH=$T/bin:$PATH
export PATH
unset NO_COLOR

# split_blocks PAGE DIR: DIR/N.kind holds the directive, DIR/N.txt the block.
split_blocks() {
	awk -v dir="$2" '
		/^\.\\" test: / { sub(/^\.\\" test: /, ""); want = $0; next }
		/^\.EX/ && want != "" { n++; kind = dir "/" n ".kind"; txt = dir "/" n ".txt";
			print want > kind; close(kind); printf "" > txt; inblk = 1; want = ""; next }
		/^\.EE/ && inblk { inblk = 0; close(txt); next }
		inblk { print > txt }
	' "$1"
	for f in "$2"/*.txt; do
		[ -f "$f" ] || continue
		sed -e 's/\\(aq/'"'"'/g' -e 's/\\(dq/"/g' -e 's/\\(ga/`/g' \
			-e 's/\\-/-/g' -e 's/\\&//g' -e 's/\\e/\\/g' "$f" >"$f.u" && mv "$f.u" "$f"
	done
}

# run_transcript BLOCK DIR: recreate the session of BLOCK in DIR into DIR/.got
run_transcript() {
	awk -v dir="$2" '
		function flush() { if (file != "") close(dir "/" file); file = "" }
		/^\$ / {
			flush(); cmd = substr($0, 3)
			if (!started && cmd ~ /^cat [^ ]+$/) { file = substr(cmd, 5); printf "" > (dir "/" file) }
			else started = 1
			q = cmd; gsub(/\047/, "\047\\\047\047", q)
			script = script "printf \047$ %s\\n\047 \047" q "\047\n(exit $st); { " cmd "\n} 2>&1; st=$?\n"
			next
		}
		file != "" { print > (dir "/" file) }
		END { flush(); print "st=0\n" script > (dir "/.script") }
	' "$1"
	(cd "$2" && sh ./.script >.got 2>&1)
}

tested_cmds=$T/cmds
: >"$tested_cmds"
for page in man/nvtxtc.1 man/nvtxt.5; do
	P=$T/$(basename "$page")
	mkdir "$P" "$P.blocks"
	split_blocks "$page" "$P.blocks"
	n=1
	while [ -f "$P.blocks/$n.kind" ]; do
		kind=$(cat "$P.blocks/$n.kind")
		blk=$P.blocks/$n.txt
		case $kind in
		transcript)
			d=$P.t$n
			mkdir "$d"
			cp "$P"/* "$d"/ 2>/dev/null
			run_transcript "$blk" "$d"
			first=$(grep '^\$ nvtxtc' "$blk" | head -n 1)
			[ "$page" = man/nvtxtc.1 ] && grep '^\$ ' "$blk" >>"$tested_cmds"
			same_file "$d/.got" "$blk" "$page: example $n is a real session (${first:-no nvtxtc command})"
			;;
		file\ *)
			cp "$blk" "$P/${kind#file }"
			;;
		output\ *)
			(cd "$P" && sh -c "${kind#output }" >"$P.got$n" 2>&1)
			same_file "$P.got$n" "$blk" "$page: example $n is the output of '${kind#output }'"
			;;
		summary\ *)
			want=${kind#summary }
			"$NVTXTC" lint --color=never "$blk" >"$P.out$n" 2>"$P.err$n"
			st=$?
			if [ "$want" = clean ]; then
				is "$st:$(cat "$P.err$n")" "0:" "$page: example $n lints clean"
			else
				is "$(tail -n 1 "$P.err$n")" "$want" "$page: example $n: $want"
			fi
			;;
		*)
			ok 1 "$page: example $n has an unknown test directive '$kind'"
			;;
		esac
		n=$((n + 1))
	done
	[ "$n" -gt 1 ]
	ok $? "$page has tested examples"
done

for cmd in 'nvtxtc lint ' 'nvtxtc fmt ' 'nvtxtc fmt --check ' 'nvtxtc --emit=nvtxt '; do
	grep -q "^\\\$ $cmd" "$tested_cmds"
	ok $? "nvtxtc(1) has a tested example of '$cmd...'"
done
done_testing
