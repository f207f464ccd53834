#!/bin/sh
# Bash completion (completion/nvtxtc.bash): subcommands, options, warning
# names and --emit= values, read from the --help of the nvtxtc under test;
# and `make install` puts it where bash-completion looks.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
if ! need bash "bash completion"; then
	done_testing
	exit
fi
mkdir "$T/bin" "$T/work" "$T/work/traces"
ln -s "$NVTXTC" "$T/bin/nvtxtc"
: >"$T/work/run.nvtxt"
: >"$T/work/readme.txt"
script=$PWD/completion/nvtxtc.bash

# comp WORD...: the completions bash offers for the command line WORD... (the last one is completed)
comp() {
	(cd "$T/work" && PATH=$T/bin:$PATH bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_nvtxtc
		[ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' sh "$script" "$@")
}

got=$(comp nvtxtc '')
r=0
for w in lint fmt dump replay help run.nvtxt traces; do
	case " $got" in *" $w "*) ;; *) r=1 ;; esac
done
ok $r "the first word: the subcommands, *.nvtxt files and directories ($got)"
case $got in *readme.txt*) r=1 ;; *) r=0 ;; esac
ok $r "other files are not offered"
is "$(comp nvtxtc f)" "fmt " "a subcommand by its prefix"
is "$(comp nvtxtc lint r)" "run.nvtxt " "after the subcommand, files only"
is "$(comp nvtxtc --em)" "--emit= " "--em completes to --emit="
emits=$("$NVTXTC" --help | sed -n 's/^  --emit=\([a-z0-9-]*\) .*/\1/p' | sort | tr '\n' ' ')
case $emits in *"nvtxt payload "*) r=0 ;; *) r=1 ;; esac
ok $r "--help lists the back ends nvtxt and payload ($emits)"
is "$(comp nvtxtc --emit = '')" "$emits" "--emit= (split at '='): the back ends of --help"
is "$(comp nvtxtc --emit=p)" "--emit=payload " "--emit=p (one word): payload"
is "$(comp nvtxtc --color = a)" "always auto " "--color= values"
is "$(comp nvtxtc -Wno-uncl)" "-Wno-unclosed-range " "-Wno- and a warning name"
is "$(comp nvtxtc -Wa)" "-Wall " "-Wall"
is "$(comp nvtxtc -Werror = dup)" "duplicate-parent " "-Werror=NAME: warning names"
is "$(comp nvtxtc lint -Wcolor)" "-Wcolor-alpha " "-Wcolor-alpha, the warning of 0xRRGGBB colors (issue 20)"
case $(comp nvtxtc fmt -) in *"-d "*"-i "*"-l "*"-w "*) r=0 ;; *) r=1 ;; esac
ok $r "fmt's -d, -i, -l and -w are offered"
is "$(comp nvtxtc fmt --rec)" "--recover " "fmt --recover is offered"
case $(comp nvtxtc lint --) in *"--recover"*) r=1 ;; *) r=0 ;; esac
ok $r "lint is not offered --recover (an option of fmt only)"
# issue 20: after a command, only the options it accepts (read from `nvtxtc help COMMAND`)
got=$(comp nvtxtc fmt -)
r=0
for o in --emit= --fix --stdio -o -Wall -Werror --format= --time-conversion=; do
	case " $got" in *" $o "*) r=1; echo "# fmt offers $o" ;; esac
done
ok $r "fmt is not offered --emit=, --fix, --stdio, -o, -W... or the options of info"
is "$(comp nvtxtc fmt -W)" "" "fmt: no -W forms"
is "$(comp nvtxtc dump -)" "$(comp nvtxtc replay -)" "dump and replay take the same options"
case $(comp nvtxtc -) in *"--emit= "*"--fix "*"-o "*) r=0 ;; *) r=1 ;; esac
ok $r "without a command (lint): --emit=, -o and --fix are offered"
is "$(comp nvtxtc help f)" "fmt " "help COMMAND: the commands"
is "$(comp nvtxtc -fdiagnostics-color = n)" "never " "-fdiagnostics-color= values"
# every option offered after a command is one the command accepts
r=0
for c in $("$NVTXTC" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p'); do
	for o in $(comp nvtxtc "$c" -); do
		case $o in -h | --help | -V | --version | --list-checks) continue ;; *=) o=${o}x ;; esac
		"$NVTXTC" "$c" "$o" x y </dev/null 2>&1 | grep -q "is not an option of" && { r=1; echo "# $c rejects $o"; }
	done
done
ok $r "every option that completion offers after a command is accepted by that command"
# every option of --help is offered, every warning, every back end
"$NVTXTC" --help | sed -n '/^Warnings/,/^$/s/^  \([a-z-]*\) .*/-W\1/p' | sort | tr '\n' ' ' >"$T/want"
comp nvtxtc -W | tr ' ' '\n' | grep -v '^-W\(no-\|all$\|extra$\|error\)' | grep . | sort | tr '\n' ' ' >"$T/got"
same_file "$T/got" "$T/want" "-W offers every warning of --help"
is "$(comp nvtxtc --bogus)" "" "an unknown option: nothing"
is "$(comp nvtxtc -Wno-zz)" "" "an unknown warning: nothing"
is "$(comp nvtxtc --emit = zz)" "" "an unknown back end: nothing"

dest=$T/dest
make -s install DESTDIR="$dest" PREFIX=/opt/nvtxtc >"$T/log" 2>&1
ok $? "make install"
dir=$(pkg-config --define-variable=prefix=/opt/nvtxtc --variable=completionsdir bash-completion 2>/dev/null)
[ -n "$dir" ] || dir=/opt/nvtxtc/share/bash-completion/completions
[ -f "$dest$dir/nvtxtc" ]
ok $? "make install puts the completion in $dir/nvtxtc"
cmp -s "$dest$dir/nvtxtc" "$script"
ok $? "the installed completion is completion/nvtxtc.bash"
make -s uninstall DESTDIR="$dest" PREFIX=/opt/nvtxtc >"$T/log" 2>&1
[ ! -e "$dest$dir/nvtxtc" ]
ok $? "make uninstall removes it"
# the values of --format=, --report= and --timeunit=, from --help, by subcommand
is "$(comp nvtxtc stats --format=)" "--format=column --format=csv --format=html --format=json --format=table --format=tsv " \
	"stats --format= offers stats's formats"
is "$(comp nvtxtc info --format=)" "--format=json --format=text " "info --format= offers info's formats"
is "$(comp nvtxtc stats --report=nvtx_p)" "--report=nvtx_pushpop_sum --report=nvtx_pushpop_trace " "--report= offers the reports"
is "$(comp nvtxtc stats --timeunit=)" "--timeunit=msec --timeunit=nsec --timeunit=sec --timeunit=usec " \
	"--timeunit= offers the units"
done_testing
