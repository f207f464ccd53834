#!/bin/sh
# make install / make uninstall into a temporary DESTDIR: the installed
# binary runs, man(1) renders the installed pages, uninstall removes them.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
dest=$T/dest
make -s install DESTDIR="$dest" PREFIX=/opt/nvtxtc >"$T/log" 2>&1
ok $? "make install DESTDIR=... PREFIX=/opt/nvtxtc"
for f in bin/nvtxtc share/man/man1/nvtxtc.1 share/man/man5/nvtxt.5 \
	share/vim/vimfiles/ftdetect/nvtxt.vim share/vim/vimfiles/syntax/nvtxt.vim \
	share/vim/vimfiles/compiler/nvtxtc.vim share/vim/vimfiles/ftplugin/nvtxt.vim \
	share/nvim/site/ftdetect/nvtxt.vim share/nvim/site/compiler/nvtxtc.vim \
	share/nvtxtc/nvtxt.tmLanguage.json share/emacs/site-lisp/nvtxt-mode.el; do
	[ -f "$dest/opt/nvtxtc/$f" ]
	ok $? "installed $f"
done
"$dest/opt/nvtxtc/bin/nvtxtc" --version >"$T/v" 2>&1
grep -q '^nvtxtc ' "$T/v"
ok $? "the installed binary runs"
"$dest/opt/nvtxtc/bin/nvtxtc" lint examples/vse-example.nvtxt >"$T/out" 2>&1
ok $? "the installed binary lints an example"
if need man "man(1) renders the installed pages"; then
	for page in nvtxtc.1 nvtxt.5; do
		sec=${page##*.}
		MANPATH=$dest/opt/nvtxtc/share/man MANWIDTH=80 man "$sec" "${page%.*}" >"$T/page" 2>"$T/err"
		st=$?
		[ -s "$T/err" ] && st=1
		ok $st "man $sec ${page%.*} renders the installed page"
	done
fi
make -s uninstall DESTDIR="$dest" PREFIX=/opt/nvtxtc >"$T/log" 2>&1
ok $? "make uninstall"
left=$(find "$dest" -type f | wc -l)
is "$left" 0 "uninstall removes every installed file"
done_testing
