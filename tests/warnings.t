#!/bin/sh
# The -W options have one parser (nvtxt_warning_option, src/diag/
# warning_options.c), which the command line and the language server's
# "warnings" setting both call: each spelling below is accepted by both or
# refused by both, and a sequence of them leaves the warning rename at the
# same level in both (off, warning, error): `nvtxtc lint -W...` against
# `nvtxtc lsp` with the same list as its setting (pull diagnostics).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

printf 'NameProcess, 1, "a"\nNameProcess, 1, "b"\n' >"$T/r.nvtxt"
DOC='NameProcess, 1, \"a\"\nNameProcess, 1, \"b\"\n'

# frame JSON: one LSP message (Content-Length counts bytes: LC_ALL=C)
frame() {
	printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1"
}

# lsp_with JSON-LIST: the server's output for a session whose settings'
# "warnings" is JSON-LIST, with a pull of r.nvtxt's diagnostics
lsp_with() {
	{
		frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"initializationOptions":{"warnings":'"$1"'}}}'
		frame '{"jsonrpc":"2.0","method":"initialized","params":{}}'
		frame '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///r.nvtxt","languageId":"nvtxt","version":1,"text":"'"$DOC"'"}}}'
		frame '{"jsonrpc":"2.0","id":2,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"file:///r.nvtxt"}}}'
		frame '{"jsonrpc":"2.0","id":3,"method":"shutdown"}'
		frame '{"jsonrpc":"2.0","method":"exit"}'
	} | "$NVTXTC" lsp 2>&1
}

# --- accepted or refused alike ----------------------------------------------
# WORD EXPECTED (ok: accepted; no: refused).  The setting's "w" is -w, not
# a -W option (a list of -W options without the -W has no other way to say
# -w): it is in the sequences below.
while read -r word want; do
	[ "$word" = '""' ] && word=
	"$NVTXTC" lint -W "$word" "$T/r.nvtxt" >/dev/null 2>"$T/err"
	st=$?
	if [ $st = 2 ]; then driver=no; else driver=ok; fi
	lsp_with "[\"$word\"]" >"$T/lsp.out"
	if grep -q 'setting \\"warnings\\"' "$T/lsp.out"; then server=no; else server=ok; fi
	is "$driver $server" "$want $want" "-W'$word': the command line and the language server both say $want"
done <<'LIST'
rename ok
no-rename ok
error ok
error=rename ok
no-error=rename ok
all ok
extra ok
color-alpha ok
no-such-check no
error=no-such-check no
no-error=no-such-check no
no-error no
no-all no
error=all no
error= no
no- no
"" no
Rename no
RENAME no
-rename no
rename= no
unknown-command no
no-unknown-command no
error=unknown-command no
no-error=syntax no
LIST

# an error check is refused for that reason by both
"$NVTXTC" lint -Wno-syntax "$T/r.nvtxt" 2>"$T/err"
grep -q "names an error check" "$T/err"
ok $? "-Wno-syntax: the command line says it names an error check"
lsp_with '["no-syntax"]' | grep -q 'no-syntax names an error check'
ok $? "and so does the language server"

# --- the same level after a sequence -----------------------------------------
# lint_level ARGS: off, warning or error for rename under lint ARGS
lint_level() {
	"$NVTXTC" lint --color=never "$@" "$T/r.nvtxt" 2>&1 |
		sed -n 's/^.*r\.nvtxt:2:1: \(warning\|error\): .*/\1/p' | head -n 1 | grep . || echo off
}
# lsp_level JSON-LIST: the same from the server's pulled diagnostics
lsp_level() {
	out=$(lsp_with "$1" | tr -d '\r' | grep -o '"id":2,"result":{.*' | head -c 4000)
	case $out in
	*'"severity":1,'*'"code":"rename"'*) echo error ;;
	*'"severity":2,'*'"code":"rename"'*) echo warning ;;
	*'"items":[]'*) echo off ;;
	*) echo "none: $out" ;;
	esac
}
# ARGS|JSON-LIST|LEVEL ("w" in the list is -w on the command line)
while IFS='|' read -r args list want; do
	# shellcheck disable=SC2086
	got_lint=$(lint_level $args)
	got_lsp=$(lsp_level "$list")
	is "$got_lint $got_lsp" "$want $want" "'$args' on the command line and $list as the setting: rename is $want"
done <<'LIST'
|[]|warning
-Wno-rename|["no-rename"]|off
-Werror|["error"]|error
-Werror -Wno-error=rename|["error","no-error=rename"]|warning
-Wno-rename -Wall|["no-rename","all"]|off
-Wall -Wno-rename|["all","no-rename"]|off
-w -Wall|["w","all"]|off
-w -Wextra -Wrename|["w","extra","rename"]|warning
-Wno-rename -Werror -Wrename|["no-rename","error","rename"]|error
-Wno-rename -Werror -Wall|["no-rename","error","all"]|off
-Werror=rename|["error=rename"]|error
-Wno-rename -Werror=rename -Wno-error=rename|["no-rename","error=rename","no-error=rename"]|warning
LIST

# the settings continue the command line's -W options
out=$(printf '%s' "$(frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"initializationOptions":{"warnings":["rename"]}}}')$(frame '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///r.nvtxt","languageId":"nvtxt","version":1,"text":"'"$DOC"'"}}}')$(frame '{"jsonrpc":"2.0","id":2,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"file:///r.nvtxt"}}}')$(frame '{"jsonrpc":"2.0","id":3,"method":"shutdown"}')$(frame '{"jsonrpc":"2.0","method":"exit"}')" |
	"$NVTXTC" lsp -Werror 2>&1 | tr -d '\r' | grep -o '"id":2,"result":{.*')
case $out in *'"severity":1,'*'"code":"rename"'*) st=0 ;; *) st=1 ;; esac
ok $st "nvtxtc lsp -Werror with the setting [\"rename\"]: rename is an error, as under lint -Werror -Wrename"
is "$(lint_level -Werror -Wrename)" error "(and lint -Werror -Wrename makes it an error)"

done_testing
