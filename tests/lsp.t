#!/bin/sh
# nvtxtc lsp with real clients (issue 13):
#   - Neovim headless, its built-in LSP client (tests/lsp/nvim.lua): the
#     diagnostics it shows are nvtxtc lint's; a quick fix, hover, definition
#     and formatting change or show what they should;
#   - a Node client on vscode-languageserver-protocol (tests/lsp/client.js):
#     every advertised request, incremental edits, UTF-16 and UTF-8;
#   - transcripts (tests/lsp/*.transcript): the error paths, the shapes
#     clients send (shapes: params null, string ids, URI spellings, CRLF
#     formatting) and how the server stops (lifecycle-*: statuses, stderr).
# The Node parts need node and `npm ci` (node_modules/); Neovim needs nvim.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

# --- Neovim ----------------------------------------------------------------
# nvim_lua SCRIPT VAR=VALUE...: headless Neovim in $T with the tree's vim
# files, running tests/lsp/SCRIPT with the variables set; its output in $T/SCRIPT.log
nvim_lua() {
	script=$1
	shift
	(cd "$T" && env NVTXTC="$NVTXTC" "$@" timeout 120 nvim --headless --clean -u NONE -i NONE \
		--cmd "set rtp^=$top/editors/vim" --cmd 'filetype on' -c "luafile $top/tests/lsp/$script" \
		</dev/null >"$T/$script.log" 2>&1)
}
if need nvim "Neovim's LSP client"; then
	cp tests/lsp/sample.nvtxt "$T/sample.nvtxt"
	nvim_lua nvim.lua NVTXT_FILE="$T/sample.nvtxt" NVTXT_OUT="$T/nvim.out"
	ok $? "Neovim's LSP client ran against nvtxtc lsp"
	grep '^error' "$T/nvim.out" | sed 's/^/# /'
	# lint's diagnostics in the same form: LINE:COL: SEVERITY: MESSAGE [CHECK]
	(cd "$T" && "$NVTXTC" lint --color=never sample.nvtxt 2>&1) |
		sed -n 's/^sample\.nvtxt:\([0-9]*:[0-9]*: \(error\|warning\): .*\) \[\(-W\|-Werror=\)\{0,1\}\([a-z-]*\)\]$/diag \1 [\4]/p' |
		sort -t: -k1,1n -k2,2n >"$T/lint.diags"
	grep '^diag ' "$T/nvim.out" | sort -t: -k1,1n -k2,2n >"$T/nvim.diags"
	[ -s "$T/lint.diags" ]
	ok $? "nvtxtc lint reports diagnostics for the sample"
	same_file "$T/nvim.diags" "$T/lint.diags" "Neovim shows exactly nvtxtc lint's diagnostics (line, byte column, severity, message, check)"
	is "$(grep '^fixed ' "$T/nvim.out")" "fixed 8 Marker, 100, Qpc, \$Pid, 7,,,," "the quick fix replaced 'marker' with 'Marker' in the buffer"
	is "$(grep '^hover-value ' "$T/nvim.out")" "hover-value \`\$Pid\` = Integer 41237, assigned on line 5" "hover on \$Pid: its value and the line it came from"
	is "$(grep '^hover ' "$T/nvim.out")" "hover **ProcessId**: Integer, at least 0; the operating system's ID of the process." "hover on \$Pid: the argument it fills"
	is "$(grep '^definition ' "$T/nvim.out")" "definition 5" "definition of \$Pid: its assignment on line 5"
	sed 's/^marker/Marker/' tests/lsp/sample.nvtxt >"$T/fixed.nvtxt"
	"$NVTXTC" fmt "$T/fixed.nvtxt" >"$T/fmt.want"
	sed '1,/^buffer$/d' "$T/nvim.out" >"$T/buffer"
	same_file "$T/buffer" "$T/fmt.want" "after formatting, the buffer is nvtxtc fmt's output"
	# the editor features (issue 23): what Neovim shows is tests/lsp/features.expected
	cp tests/lsp/features.nvtxt "$T/features.nvtxt"
	nvim_lua nvim-features.lua NVTXT_FILE="$T/features.nvtxt" NVTXT_OUT="$T/nvim-features.out" \
		NVTXT_QUERIES="$top/tests/lsp/features.queries"
	ok $? "Neovim's LSP client asked nvtxtc lsp for hints, signature help, highlights, folds, colors, tokens, references and renames"
	grep '^error' "$T/nvim-features.out" | sed 's/^/# /'
	same_features "$T/nvim-features.out" Neovim
	# :compiler nvtxtc, :make: the quickfix list holds lint's errors, warnings and notes
	mkdir -p "$T/bin" && ln -sf "$NVTXTC" "$T/bin/nvtxtc"
	(cd "$T" && PATH=$T/bin:$PATH NVTXT_OUT=$T/qf.out timeout 60 nvim --headless --clean -u NONE -i NONE \
		--cmd "set rtp^=$top/editors/vim" --cmd 'filetype plugin on' -c 'edit sample.nvtxt' \
		-c "luafile $top/tests/lsp/compiler.lua" </dev/null >"$T/qf.log" 2>&1)
	ok $? ":compiler nvtxtc and :make ran in Neovim"
	is "$(sed -n 1p "$T/qf.out")" "makeprg nvtxtc lint --color=never %:S" ":compiler nvtxtc sets makeprg"
	(cd "$T" && "$NVTXTC" lint --color=never sample.nvtxt 2>&1) |
		sed -n 's/^sample\.nvtxt:\([0-9]*\):\([0-9]*\): \(.\)[a-z]*: \(.*\)$/\1:\2:\3: \4/p' >"$T/qf.want"
	sed 1d "$T/qf.out" >"$T/qf.got"
	grep -q ':n: first set here' "$T/qf.got"
	ok $? "the quickfix list has the notes"
	same_file "$T/qf.got" "$T/qf.want" "errorformat: the quickfix list is lint's diagnostics and notes, in order"
fi

# --- Node ------------------------------------------------------------------
if need node "the transcripts and the Node client"; then
	for t in tests/lsp/*.transcript; do
		node tests/lsp/transcript.js "$NVTXTC" "$t" >"$T/tr.out" 2>&1
		ok $? "transcript $(basename "$t")"
		grep -v '^ok\|^1\.\.' "$T/tr.out" | sed 's/^/# /'
	done
	if need node_modules "the vscode-languageserver-protocol client"; then
		node tests/lsp/client.js "$NVTXTC" tests/lsp/sample.nvtxt >"$T/client.out" 2>&1
		ok $? "the vscode-languageserver-protocol client: every advertised request answered correctly"
		grep -v '^ok\|^1\.\.' "$T/client.out" | sed 's/^/# /'
		grep -c '^ok' "$T/client.out" | sed 's/^/# checks passed: /'
		for enc in utf-16 utf-8; do
			node tests/lsp/features.js "$NVTXTC" tests/lsp/features.nvtxt tests/lsp/features.queries $enc \
				>"$T/vsc-features.out" 2>"$T/vsc-features.err"
			ok $? "the vscode-languageserver-protocol client asked for the editor features ($enc positions)"
			sed 's/^/# /' "$T/vsc-features.err"
			same_file "$T/vsc-features.out" tests/lsp/features.expected \
				"the VS Code client library gets tests/lsp/features.expected: hints, signatures, highlights, folds, colors, tokens, references, renames ($enc)"
		done
		node tests/lsp/types.js "$NVTXTC" tests/lsp/features.nvtxt tests/lsp/sample.nvtxt >"$T/types.out" 2>&1
		ok $? "every reply has LSP 3.17's shape (vscode-languageserver-types guards), every advertised capability tested"
		grep -v '^ok\|^1\.\.' "$T/types.out" | sed 's/^/# /'
		node tests/lsp/textmate.js "$NVTXTC" $(find tests examples -name '*.nvtxt' | sort) >"$T/tm.out" 2>&1
		ok $? "the TextMate grammar gives the suite's files the right scopes (vscode-textmate)"
		grep -v '^1\.\.' "$T/tm.out" | sed 's/^/# /'
	fi
fi
done_testing
