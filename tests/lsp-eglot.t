#!/bin/sh
# nvtxtc lsp under Emacs' eglot (issue 20), in batch mode, beside the Neovim
# and VS Code clients of tests/lsp.t: editors/emacs/nvtxt-mode.el opens the
# sample and starts the server through its eglot-server-programs entry;
# tests/lsp/eglot-test.el drives diagnostics (Flymake), hover (eldoc),
# completion (eglot's capf and completion-at-point), a quick fix
# (eglot-code-actions), the outline (imenu), formatting (eglot-format-buffer)
# and eglot-shutdown, after which the server must have exited by itself
# with status 0, written nothing to standard error, and answered no
# request with an error.  Needs emacs with eglot (emacs-nox, elpa-eglot).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

# eglot_el SCRIPT VAR=VALUE...: Emacs in batch mode in $T, with eglot, nvtxt-mode and
# nvtxtc on PATH, loading tests/lsp/SCRIPT with the variables set; its output in $T/SCRIPT.log.
# -Q: no init file and no site-start; Debian's elpa packages by load-path.
eglot_el() {
	script=$1
	shift
	(cd "$T" && env HOME="$T" PATH="$T/bin:$PATH" "$@" timeout 180 emacs --batch -Q \
		--eval "(dolist (d (file-expand-wildcards \"/usr/share/emacs/site-lisp/elpa/*\")) (add-to-list 'load-path d))" \
		-L "$top/editors/emacs" -l "$top/tests/lsp/$script" </dev/null >"$T/$script.log" 2>&1)
}
if need eglot "Emacs' eglot client"; then
	cp editors/emacs/nvtxt-mode.el "$T/"
	(cd "$T" && HOME=$T emacs --batch -Q --eval '(setq byte-compile-error-on-warn t)' \
		-f batch-byte-compile nvtxt-mode.el) >"$T/bc.log" 2>&1
	ok $? "editors/emacs/nvtxt-mode.el byte-compiles without a warning"
	sed 's/^/# /' "$T/bc.log"
	cp tests/lsp/sample.nvtxt "$T/sample.nvtxt"
	mkdir -p "$T/bin" && ln -sf "$NVTXTC" "$T/bin/nvtxtc"
	eglot_el eglot-test.el NVTXT_FILE="$T/sample.nvtxt" NVTXT_OUT="$T/eglot.out"
	ok $? "Emacs' eglot ran against nvtxtc lsp"
	grep '^error ' "$T/eglot.out" | sed 's/^/# /'
	grep '^error ' "$T/eglot.out" >/dev/null && tail -n 20 "$T/eglot-test.el.log" | sed 's/^/# log: /'
	is "$(grep '^mode ' "$T/eglot.out")" "mode nvtxt-mode" "nvtxt-mode.el opens *.nvtxt files"
	printf '%s\n' 'face a file: font-lock-comment-face' 'face SetFileDisplayName: font-lock-keyword-face' \
		'face "Frame: font-lock-string-face' 'face 41237: font-lock-constant-face' \
		'face Pid =: font-lock-variable-name-face' 'face $Pid: font-lock-variable-name-face' \
		'face Qpc: font-lock-constant-face' 'face @RangePush: font-lock-preprocessor-face' \
		'face ProcessId: font-lock-type-face' >"$T/faces.want"
	grep '^face ' "$T/eglot.out" >"$T/faces.got"
	same_file "$T/faces.got" "$T/faces.want" "nvtxt-mode highlights comments, commands, strings, numbers, variables, time bases, definitions"
	# lint's diagnostics in the same form: LINE:COL: SEVERITY: MESSAGE [CHECK]
	(cd "$T" && "$NVTXTC" lint --color=never sample.nvtxt 2>&1) |
		sed -n 's/^sample\.nvtxt:\([0-9]*:[0-9]*: \(error\|warning\): .*\) \[\(-W\|-Werror=\)\{0,1\}\([a-z-]*\)\]$/diag \1 [\4]/p' |
		sort -t: -k1,1n -k2,2n >"$T/lint.diags"
	grep '^diag ' "$T/eglot.out" | sort -t: -k1,1n -k2,2n >"$T/eglot.diags"
	[ "$(wc -l <"$T/lint.diags")" -ge 5 ]
	ok $? "nvtxtc lint reports diagnostics for the sample"
	same_file "$T/eglot.diags" "$T/lint.diags" "Flymake shows exactly nvtxtc lint's diagnostics (line, byte column, severity, message, check)"
	is "$(grep '^hover ' "$T/eglot.out")" "hover **ProcessId**: Integer, at least 0; the operating system's ID of the process." "hover (eldoc) on \$Pid: the argument it fills"
	is "$(grep '^hover-value ' "$T/eglot.out")" "hover-value \`\$Pid\` = Integer 41237, assigned on line 5" "hover on \$Pid: its value and the line it came from"
	is "$(grep '^candidates ' "$T/eglot.out")" "candidates RangePop RangePush RangeStartEnd" "completion of 'Ra' at a line's start: the commands that begin so"
	is "$(grep '^completed ' "$T/eglot.out")" "completed RangeStartEnd" "completion-at-point completes 'RangeSt' to RangeStartEnd"
	is "$(grep '^fixed ' "$T/eglot.out")" "fixed 8 Marker, 100, Qpc, \$Pid, 7,,,," "the quick fix replaced 'marker' with 'Marker' in the buffer"
	printf '%s\n' 'imenu Pid' 'imenu Label' 'imenu TimeBase' 'imenu Frame timing é😀' 'imenu game.exe' \
		'imenu other.exe' 'imenu game.exe' 'imenu @RangePush, Time, ProcessId, ThreadId, Message' >"$T/imenu.want"
	grep '^imenu ' "$T/eglot.out" >"$T/imenu.got"
	same_file "$T/imenu.got" "$T/imenu.want" "imenu: the outline is the document's symbols (assignments, names, definitions)"
	sed 's/^marker/Marker/' tests/lsp/sample.nvtxt >"$T/fixed.nvtxt"
	"$NVTXTC" fmt "$T/fixed.nvtxt" >"$T/fmt.want"
	sed '1,/^buffer$/d' "$T/eglot.out" >"$T/buffer"
	same_file "$T/buffer" "$T/fmt.want" "after eglot-format-buffer, the buffer is nvtxtc fmt's output"
	is "$(grep '^exit ' "$T/eglot.out")" "exit exit 0" "after eglot-shutdown (shutdown and exit with params null) the server exited by itself, status 0"
	is "$(grep '^stderr' "$T/eglot.out")" "stderr-bytes 0" "the server wrote nothing to standard error"
	is "$(grep '^error-responses ' "$T/eglot.out")" "error-responses 0" "no request of the session was answered with an error"
	# the editor features (issue 23): what eglot shows is tests/lsp/features.expected
	cp tests/lsp/features.nvtxt "$T/features.nvtxt"
	eglot_el eglot-features.el NVTXT_FILE="$T/features.nvtxt" NVTXT_OUT="$T/eglot-features.out" \
		NVTXT_QUERIES="$top/tests/lsp/features.queries"
	ok $? "eglot asked nvtxtc lsp for hints, signature help, highlights, folds, colors, tokens, references and renames"
	grep '^error ' "$T/eglot-features.out" | sed 's/^/# /'
	same_features "$T/eglot-features.out" eglot
fi
done_testing
