# bash completion for nvtxtc(1): subcommands, options, warning names,
# --emit= back ends, --color= values and the values of --format=, --report=
# and --timeunit=.  The lists are read from
# `nvtxtc --help` of the nvtxtc being completed (once a shell session), and
# the options of each command from `nvtxtc help COMMAND` (only those the
# command accepts), so they always agree with it.  Installed by `make install` where
# bash-completion looks for it (pkg-config --variable=completionsdir
# bash-completion, else PREFIX/share/bash-completion/completions); or
# source this file from ~/.bashrc.

# _nvtxtc_parse_options HELP: the options of the Options section of HELP, one a word:
# "-o FILE" -> -o, "--stdin-name=NAME" -> --stdin-name=, "--color[=WHEN]" -> --color --color=,
# "-fdiagnostics-color=WHEN" -> -fdiagnostics-color=, "-h, --help" -> -h --help; the -W
# forms with a placeholder come from the warnings
_nvtxtc_parse_options()
{
	sed -n '/^Options:/,/^$/s/^  \(-[^ ].*\)$/\1/p' <<<"$1" |
		sed 's/   .*//; s/, / /g' | tr ' ' '\n' |
		sed -n '/^-W[A-Z]/d; /^-Wno-[A-Z]/d; /^-W[a-z-]*=[A-Z]/d;
			s/^\(--[a-z-]*\)\[=[A-Z]*\]$/\1\n\1=/p; t;
			s/^\(--\?[a-z-]*=\)[a-z]*$/\1/p; t; s/^\(--\?[a-z-]*=\)[A-Z]*$/\1/p; t;
			s/^\(-[a-zA-Z-]*\)$/\1/p' | awk '!seen[$0]++'
}

_nvtxtc_lists()
{
	local help v
	[[ -n ${_nvtxtc_cached:-} && $_nvtxtc_cached == "$1" ]] && return 0
	help=$("$1" --help 2>/dev/null) || return 1
	_nvtxtc_help=$help
	_nvtxtc_subcommands=$(sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p' <<<"$help")
	_nvtxtc_emits=$(sed -n 's/^  --emit=\([a-z0-9-]*\) .*/\1/p' <<<"$help")
	_nvtxtc_warnings=$(sed -n '/^Warnings/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p' <<<"$help")
	for v in ${!_nvtxtc_opts_@}; do unset "$v"; done
	_nvtxtc_cached=$1
}

# _nvtxtc_options_for NVTXTC COMMAND: the options that COMMAND accepts, read once from
# `nvtxtc help COMMAND` (the same table as the parser's), in $_nvtxtc_options
_nvtxtc_options_for()
{
	local var=_nvtxtc_opts_${2//[^a-z0-9]/_}
	[[ -n ${!var+set} ]] || printf -v "$var" '%s' "$(_nvtxtc_parse_options "$("$1" help "$2" 2>/dev/null)")"
	_nvtxtc_options=${!var}
}

# _nvtxtc_values OPTION SUBCOMMAND: the values --help lists for OPTION=: the
# words of its help text ("stats: column (default), table, ..."); where the
# text has a part for "stats:", that part for stats and the rest otherwise
_nvtxtc_values()
{
	local text
	text=$(awk -v o="  $1=" 'index($0, o) == 1 { p = 1; print; next }
		p && /^                       [^ ]/ { print; next } { p = 0 }' <<<"$_nvtxtc_help" |
		sed 's/^  --[a-z-]*=[A-Z]* *//' | tr '\n' ' ')
	if [[ $text == *"stats:"* ]]; then
		if [[ $2 == stats ]]; then text=${text#*stats:}; else text=${text%%stats:*}; fi
	fi
	tr -cs 'a-z0-9_' '\n' <<<"$text" | grep -vxE 'info|stats|print|times|in|or|default|the|'
}

_nvtxtc()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev= prev2= cmd=${COMP_WORDS[0]} w words=
	((COMP_CWORD >= 1)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	((COMP_CWORD >= 2)) && prev2=${COMP_WORDS[COMP_CWORD - 2]}
	COMPREPLY=()
	_nvtxtc_lists "$cmd" || return 0
	# the command: the first word when it names one, else lint (the default)
	local sub=lint
	((COMP_CWORD >= 2)) && [[ " "${_nvtxtc_subcommands//$'\n'/ }" " == *" ${COMP_WORDS[1]} "* ]] &&
		sub=${COMP_WORDS[1]}
	_nvtxtc_options_for "$cmd" "$sub"

	# OPTION=VALUE, typed as one word or split at '=' by COMP_WORDBREAKS
	local opt= val=
	if [[ $cur == -*=* ]]; then
		opt=${cur%%=*} val=${cur#*=}
	elif [[ $cur == = ]]; then
		opt=$prev val=
	elif [[ $prev == = ]]; then
		opt=$prev2 val=$cur
	fi
	case $opt in
	--emit) words=$_nvtxtc_emits ;;
	--color | -fdiagnostics-color) words="auto always never" ;;
	-fdiagnostics-format) words="text json sarif" ;;
	--format | --report | --timeunit) words=$(_nvtxtc_values "$opt" "$sub") ;;
	-Werror | -Wno-error) words=$_nvtxtc_warnings ;;
	--stdin-name | --max-errors) return 0 ;;
	esac
	if [[ -n $opt && -n $words ]]; then
		COMPREPLY=($(compgen -W "$words" -- "$val"))
		# a whole word (not split at '='): complete it with its option
		[[ $cur == -*=* ]] && COMPREPLY=("${COMPREPLY[@]/#/$opt=}")
		return 0
	fi

	case $prev in
	-o) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
	-j) return 0 ;;
	esac
	if [[ $cur == -W* && " "${_nvtxtc_options//$'\n'/ }" " == *" -Wall "* ]]; then
		words="-Wall -Wextra -Werror -Werror= -Wno-error="
		for w in $_nvtxtc_warnings; do words+=" -W$w -Wno-$w"; done
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		[[ ${COMPREPLY[*]} == *= ]] && compopt -o nospace 2>/dev/null
		return 0
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$_nvtxtc_options" -- "$cur"))
		[[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return 0
	fi
	# the subcommand comes first; then files: *.nvtxt and directories; after help, a command
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "$_nvtxtc_subcommands" -- "$cur"))
	elif [[ $sub == help ]]; then
		((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "$_nvtxtc_subcommands" -- "$cur"))
		return 0
	fi
	COMPREPLY+=($(compgen -f -X '!*.nvtxt' -- "$cur") $(compgen -d -- "$cur"))
	return 0
}
complete -o filenames -F _nvtxtc nvtxtc
