#!/bin/sh
# editors/vscode/build.sh DIR VSIX - the VS Code extension packaged as VSIX
# (make vsix; tests/vscode.t): its files and the TextMate grammar
# (editors/textmate/nvtxt.tmLanguage.json, as syntaxes/) are copied to DIR,
# its dependency (vscode-languageclient, pinned by its package-lock.json) is
# installed there with npm ci, and @vscode/vsce from the tree's node_modules
# (npm ci at the top) packages it.  Needs node and npm.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -eq 2 ] || { echo "usage: $0 DIR VSIX" >&2; exit 2; }
dir=$1
case $2 in /*) vsix=$2 ;; *) vsix=$(pwd)/$2 ;; esac
vsce=$top/node_modules/.bin/vsce
[ -x "$vsce" ] || { echo "$0: $vsce is missing: run 'npm ci' in $top (make check does)" >&2; exit 1; }
rm -rf "$dir"
mkdir -p "$dir/syntaxes"
for f in package.json package-lock.json extension.js settings.js language-configuration.json README.md; do
	cp "$top/editors/vscode/$f" "$dir/"
done
cp "$top/editors/textmate/nvtxt.tmLanguage.json" "$dir/syntaxes/"
(cd "$dir" && npm ci --omit=dev --no-audit --no-fund --prefer-offline >/dev/null)
(cd "$dir" && "$vsce" package --allow-missing-repository --skip-license --out "$vsix")
