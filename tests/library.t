#!/bin/sh
# libnvtxt as its users see it (libnvtxt(3)): installed into a temporary
# DESTDIR, the example of the manual page is compiled with
# `pkg-config --cflags --libs nvtxt` (shared and static) and must print the
# output the page shows; the shared library exports only nvtxt_* symbols
# and imports no exit, abort, signal or sigaction; the static one keeps
# its internal symbols local, so a program with its own xmalloc links.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
# The library under test is the default build's, which users link without
# the sanitizers' runtime.  Under `make check-sanitize` the variables of the
# outer make (B=build/san, BIN=, the sanitizer CFLAGS and LDFLAGS) reach the
# makes below through MAKEFLAGS and, being set on its command line, through
# the environment: left there, they would rebuild the plain build's stale
# objects with the sanitizers, and the example could not link against them.
unset MAKEFLAGS MFLAGS MAKELEVEL CFLAGS LDFLAGS B BIN
make -s libs >"$T/log" 2>&1
ok $? "make libs"
so=build/libnvtxt.so.0

# --- symbols -----------------------------------------------------------
nm -D --defined-only "$so" | awk '$2 != "A" { print $3 }' | sed 's/@.*//' >"$T/exported"
bad=$(grep -v '^nvtxt_' "$T/exported" | head -n 5 | tr '\n' ' ')
is "$bad" "" "every symbol $so exports starts with nvtxt_"
grep -qx nvtxt_compile "$T/exported"
ok $? "$so exports nvtxt_compile"
nm -D --undefined-only "$so" | awk '{ print $2 }' | sed 's/@.*//' >"$T/imported"
bad=$(grep -xE 'exit|_exit|_Exit|abort|signal|sigaction|raise|__assert_fail' "$T/imported" | tr '\n' ' ')
is "$bad" "" "$so imports no exit, abort, signal, sigaction, raise or assert"
readelf -d "$so" | grep -q 'SONAME.*\[libnvtxt\.so\.0\]'
ok $? "$so has the soname libnvtxt.so.0"
nm build/libnvtxt.a | awk '$2 ~ /^[TDBRVWGS]$/ { print $3 }' >"$T/static"
bad=$(grep -v '^nvtxt_' "$T/static" | head -n 5 | tr '\n' ' ')
is "$bad" "" "every global symbol of libnvtxt.a starts with nvtxt_ (internal ones are local)"
cmp -s "$T/exported" /dev/null
[ $? -ne 0 ] && sort "$T/exported" | cmp -s - build/libnvtxt.exports
ok $? "the shared library exports exactly the functions of include/nvtxt/*.h"

# --- installed, used through pkg-config --------------------------------------
dest=$T/dest
make -s install DESTDIR="$dest" PREFIX=/opt/nvtxt >"$T/log" 2>&1
ok $? "make install DESTDIR=... PREFIX=/opt/nvtxt"
for f in lib/libnvtxt.so.0 lib/libnvtxt.so lib/libnvtxt.a lib/pkgconfig/nvtxt.pc \
	include/nvtxt/nvtxt.h share/man/man3/libnvtxt.3; do
	[ -e "$dest/opt/nvtxt/$f" ]
	ok $? "installed $f"
done

# the examples of libnvtxt(3) and the output the page shows for each
unroff() { sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\(dq/"/g' -e 's/\\e/\\/g' "$1"; }
extract() { # extract NAME FILE: the .EX block after the page's '.\" test: NAME' line
	sed -n "/^\.\\\\\" test: $1\$/,/^\.EE/p" man/libnvtxt.3 | sed '1,2d;$d' >"$T/$1.roff"
	unroff "$T/$1.roff" >"$2"
}
for ex in example outline; do
	extract "libnvtxt-$ex" "$T/$ex.c"
	extract "libnvtxt-$ex-output" "$T/$ex.want"
	[ -s "$T/$ex.c" ] && [ -s "$T/$ex.want" ]
	ok $? "the manual page has its $ex program and its output"
done

PKG_CONFIG_PATH=$dest/opt/nvtxt/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
flags=$(pkg-config --cflags --libs nvtxt)
ok $? "pkg-config --cflags --libs nvtxt: $flags"
# Every prototype of libnvtxt(3)'s SYNOPSIS is one of the installed headers,
# with the same type: compiled after <nvtxt/nvtxt.h>, a prototype that differs
# is an error (conflicting types), and -Wredundant-decls says, for each one,
# that the header declared it already (a function the header lacks gets no
# such warning).
sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' man/libnvtxt.3 | sed -n 's/^\.BI //p' | tr -d '"' >"$T/synopsis.roff"
unroff "$T/synopsis.roff" >"$T/synopsis.h"
nproto=$(grep -c ';' "$T/synopsis.h")
{ echo '#include <nvtxt/nvtxt.h>'; cat "$T/synopsis.h"; } >"$T/synopsis.c"
${CC:-cc} -std=c11 -fsyntax-only -Wredundant-decls $(pkg-config --cflags nvtxt) "$T/synopsis.c" >"$T/cc.log" 2>&1
st=$?
redundant=$(grep -c 'redundant redeclaration' "$T/cc.log")
[ "$st" = 0 ] && [ "$nproto" -gt 10 ] && [ "$redundant" = "$nproto" ]
ok $? "the $nproto prototypes of libnvtxt(3)'s SYNOPSIS are those of the installed header ($redundant found there)"
grep -v 'redundant redeclaration\|previous declaration\|^ \|^In file\|note:' "$T/cc.log" | sed 's/^/# /' | head -n 20
for ex in example outline; do
	# no -I of the source tree: only what pkg-config gives
	${CC:-cc} -std=c11 -Wall -Wextra -Werror -o "$T/$ex" "$T/$ex.c" $flags >"$T/cc.log" 2>&1
	st=$?
	ok $st "the $ex program compiles against the installed library"
	[ $st -ne 0 ] && sed 's/^/# /' "$T/cc.log" | head -n 20
	LD_LIBRARY_PATH=$dest/opt/nvtxt/lib "$T/$ex" >"$T/got" 2>&1
	is $? 0 "the $ex program runs (shared library)"
	same_file "$T/got" "$T/$ex.want" "the $ex program prints what libnvtxt(3) shows"
done
ldd "$T/example" 2>/dev/null | grep -q "$dest/opt/nvtxt/lib/libnvtxt.so.0" 2>/dev/null ||
	LD_LIBRARY_PATH=$dest/opt/nvtxt/lib ldd "$T/example" | grep -q 'libnvtxt.so.0 =>'
ok $? "the example is linked with libnvtxt.so.0"

# static: with a function of the program's own named like an internal one
cat >>"$T/example.c" <<'EOC'
/* names the library uses internally: they must not clash */
void *xmalloc(size_t n);
void *xmalloc(size_t n) { (void)n; return NULL; }
int buf_add;
EOC
${CC:-cc} -std=c11 -Wall -Wextra -o "$T/example-static" "$T/example.c" \
	$(pkg-config --cflags nvtxt) "$dest/opt/nvtxt/lib/libnvtxt.a" $(pkg-config --static --libs-only-l nvtxt | sed 's/-lnvtxt//') >"$T/cc.log" 2>&1
st=$?
ok $st "a program defining xmalloc and buf_add links with libnvtxt.a"
[ $st -ne 0 ] && sed 's/^/# /' "$T/cc.log" | head -n 20
"$T/example-static" >"$T/got" 2>&1
same_file "$T/got" "$T/example.want" "the static example prints the same"

make -s uninstall DESTDIR="$dest" PREFIX=/opt/nvtxt >"$T/log" 2>&1
left=$(find "$dest" -type f | grep -c -e /lib/ -e /include/ -e man3)
is "$left" 0 "make uninstall removes the library, its headers, nvtxt.pc and libnvtxt(3)"
done_testing
