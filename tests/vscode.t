#!/bin/sh
# The VS Code extension (editors/vscode, issue 23 item 9), which VS Code's
# extension host would run (it cannot run here): editors/vscode/build.sh,
# which `make vsix` runs, packages it with @vscode/vsce; `vsce ls` and the
# .vsix list its files; tests/lsp/vscode-ext.js checks its manifest
# (language, grammar, configuration, activation) and drives `nvtxtc lsp`
# through vscode-languageserver-protocol's Node connection with exactly the
# initializationOptions and settings the extension sends (its settings.js).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

if need node_modules "the VS Code extension's packaging (@vscode/vsce)" && need unzip "the .vsix's listing"; then
	sh editors/vscode/build.sh "$T/vscode" "$T/nvtxt.vsix" >"$T/build.log" 2>&1
	ok $? "editors/vscode/build.sh (make vsix) packaged the extension with vsce"
	grep -i 'error' "$T/build.log" | sed 's/^/# /'
	(cd "$T/vscode" && "$top/node_modules/.bin/vsce" ls) >"$T/ls" 2>&1
	ok $? "vsce ls lists the package's files"
	for f in package.json extension.js settings.js language-configuration.json syntaxes/nvtxt.tmLanguage.json \
		README.md node_modules/vscode-languageclient/node.js; do
		grep -qx "$f" "$T/ls"
		ok $? "vsce ls: the package has $f"
		unzip -l "$T/nvtxt.vsix" | grep -q " extension/$f\$"
		ok $? "the .vsix holds extension/$f"
	done
	! grep -q '^node_modules/@vscode/vsce' "$T/ls"
	ok $? "the package has the extension's dependency, not the tree's test tools"
	cmp -s editors/textmate/nvtxt.tmLanguage.json "$T/vscode/syntaxes/nvtxt.tmLanguage.json"
	ok $? "its grammar is editors/textmate/nvtxt.tmLanguage.json"
	node tests/lsp/vscode-ext.js "$NVTXTC" "$T/vscode" tests/lsp/features.nvtxt >"$T/ext.out" 2>&1
	ok $? "the manifest, and nvtxtc lsp with the extension's initializationOptions and settings"
	grep -v '^ok\|^1\.\.' "$T/ext.out" | sed 's/^/# /'
fi
done_testing
