# editors: the packaged editor extensions (read by the Makefile)

# vsix: the VS Code extension (editors/vscode: language, the TextMate grammar,
# a vscode-languageclient client of `nvtxtc lsp`, settings) packaged by
# @vscode/vsce from npm (npm ci at the top first) as build/nvtxt-vscode.vsix;
# install it with `code --install-extension build/nvtxt-vscode.vsix`.
vsix: $(B)/nvtxt-vscode.vsix
$(B)/nvtxt-vscode.vsix: $(wildcard editors/vscode/*) editors/textmate/nvtxt.tmLanguage.json
	sh editors/vscode/build.sh $(B)/vscode $@

.PHONY: vsix
