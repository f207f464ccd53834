# bash completion for nvtxtc(1): subcommands, options, warning names,
# --emit= back ends and --color= values.  The lists are read from
# `nvtxtc --help` of the nvtxtc being completed (once a shell session), so
# they always agree with it.  Installed by `make install` where
# bash-completion looks for it (pkg-config --variable=completionsdir
# bash-completion, else PREFIX/share/bash-completion/completions); or
# source this file from ~/.bashrc.

_nvtxtc_lists()
{
	local help
	[[ -n ${_nvtxtc_cached:-} && $_nvtxtc_cached == "$1" ]] && return 0
	help=$("$1" --help 2>/dev/null) || return 1
	_nvtxtc_subcommands=$(sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p' <<<"$help")
	_nvtxtc_emits=$(sed -n 's/^  --emit=\([a-z0-9-]*\) .*/\1/p' <<<"$help")
	_nvtxtc_warnings=$(sed -n '/^Warnings/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p' <<<"$help")
	# "-o FILE" -> -o, "--stdin-name=NAME" -> --stdin-name=, "--color[=WHEN]" -> --color --color=,
	# "-h, --help" -> -h --help; the -W forms come from the warnings
	_nvtxtc_options=$(sed -n '/^Options:/,/^$/s/^  \(-[^ ].*\)$/\1/p' <<<"$help" |
		sed 's/   .*//; s/, / /g' | tr ' ' '\n' |
		sed -n '/^-W[A-Z]/d; /^-Wno-[A-Z]/d; /^-W[a-z-]*=[A-Z]/d;
			s/^\(--[a-z-]*\)\[=[A-Z]*\]$/\1\n\1=/p; t;
			s/^\(--[a-z-]*=\)[a-z]*$/\1/p; t; s/^\(--[a-z-]*=\)[A-Z]*$/\1/p; t;
			s/^\(-[a-zA-Z-]*\)$/\1/p' | awk '!seen[$0]++')
	_nvtxtc_cached=$1
}

_nvtxtc()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev= prev2= cmd=${COMP_WORDS[0]} w words=
	((COMP_CWORD >= 1)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	((COMP_CWORD >= 2)) && prev2=${COMP_WORDS[COMP_CWORD - 2]}
	COMPREPLY=()
	_nvtxtc_lists "$cmd" || return 0

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
	--color) words="auto always never" ;;
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
	if [[ $cur == -W* ]]; then
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
	# the subcommand comes first; then files: *.nvtxt and directories
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "$_nvtxtc_subcommands" -- "$cur"))
	fi
	COMPREPLY+=($(compgen -f -X '!*.nvtxt' -- "$cur") $(compgen -d -- "$cur"))
	return 0
}
complete -o filenames -F _nvtxtc nvtxtc
