#!/bin/sh
# The include arrows between the folders of src/ (docs/ARCHITECTURE.md,
# "What may include what"): tests/tools/arrows.py finds no include the table
# does not allow, no cycle between folders and no two headers of one name in
# this tree; and it does find each of them in small trees made to have one.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
if ! need python3 "the include check (tests/tools/arrows.py)"; then
	done_testing
	exit
fi
ARROWS="python3 $top/tests/tools/arrows.py"

$ARROWS "$top" >"$T/out" 2>&1
ok $? "the tree's includes follow docs/ARCHITECTURE.md's table"
is "$(cat "$T/out")" "" "and nothing is reported"

# the calls between the objects of the build that made NVTXTC (build/san under make check-sanitize)
objdir=$(dirname "$NVTXTC")
[ -f "$objdir/libnvtxt-internal.a" ] || objdir=$top/build
if need nm "the arrows at link time"; then
	[ -f "$objdir/pipeline/compile.o" ]
	ok $? "the build's objects are there ($objdir)"
	$ARROWS "$top" "$objdir" >"$T/out" 2>&1
	ok $? "the calls between the folders' objects follow the table too (no arrow up at link time)"
	sed 's/^/# /' "$T/out"
fi

# a small tree: low <- high, as the table allows
mk() {
	rm -rf "$T/t" && mkdir -p "$T/t/docs" "$T/t/low" "$T/t/high"
	printf '| Folder | May include |\n|---|---|\n| `low` | |\n| `high` | `low` |\n' >"$T/t/docs/ARCHITECTURE.md"
	printf '#include "low.h"\n' >"$T/t/high/high.c"
	printf '/* low */\n' >"$T/t/low/low.h"
	printf '#include "low.h"\n' >"$T/t/low/low.c"
}
mk
$ARROWS "$T/t" >"$T/out" 2>&1
ok $? "a tree that keeps its table passes"

mk
printf '#include "high.h"\n' >"$T/t/low/up.c"
printf '/* high */\n' >"$T/t/high/high.h"
$ARROWS "$T/t" >"$T/out" 2>&1
is "$?" 1 "an include up the table fails"
grep -q '^low/up.c:1: low -> high (high.h), which the table does not allow$' "$T/out"
ok $? "and names the file, the line and the arrow"
grep -q '^the includes make a cycle: high -> low -> high$' "$T/out"
ok $? "and the cycle between the folders"

mk
printf '/* another */\n' >"$T/t/high/low.h"
$ARROWS "$T/t" >"$T/out" 2>&1
is "$?" 1 "two headers of one name fail"
grep -q '^two headers named low.h: high/low.h and low/low.h$' "$T/out"
ok $? "and both are named"

mk
printf '| `low` | `high` |\n' >>"$T/t/docs/ARCHITECTURE.md"
$ARROWS "$T/t" >"$T/out" 2>&1
grep -q '^the table has a cycle' "$T/out"
ok $? "a table with a cycle fails"

mk
printf '#include "nowhere.h"\n' >"$T/t/high/x.c"
$ARROWS "$T/t" >"$T/out" 2>&1
grep -q '^high/x.c:1: nowhere.h is in no folder of the table$' "$T/out"
ok $? "an include of a header in no folder of the table fails"

# a call up the table, through no include: found in the objects
if need cc "the link-time check's small tree"; then
	mk
	printf 'int high_fn(void) { return 1; }\n' >"$T/t/high/high.c"
	printf 'int high_fn(void);\nint low_fn(void) { return high_fn(); }\n' >"$T/t/low/low.c"
	mkdir -p "$T/obj/low" "$T/obj/high"
	cc -c -o "$T/obj/low/low.o" "$T/t/low/low.c" && cc -c -o "$T/obj/high/high.o" "$T/t/high/high.c"
	ok $? "the small tree compiles"
	# the table's folders of the small tree are not under src/: name them so
	mkdir -p "$T/t/src" && mv "$T/t/low" "$T/t/high" "$T/t/src/"
	sed -i 's/`low`/`src\/low`/g; s/`high`/`src\/high`/g' "$T/t/docs/ARCHITECTURE.md"
	$ARROWS "$T/t" "$T/obj" >"$T/out" 2>&1
	is "$?" 1 "a call up the table found in the objects fails"
	grep -q '^low/low.o: src/low -> src/high (high_fn), which the table does not allow$' "$T/out"
	ok $? "and names the object, the arrow and the function"
	$ARROWS "$T/t" >"$T/out" 2>&1
	ok $? "(without an object directory, only the includes are checked)"
fi

mk
mkdir -p "$T/t/include/nvtxt"
printf '| `include/nvtxt` | |\n' >>"$T/t/docs/ARCHITECTURE.md"
sed -i 's/^| `low` | |$/| `low` | `include\/nvtxt` |/' "$T/t/docs/ARCHITECTURE.md"
printf '/* public */\n' >"$T/t/include/nvtxt/pub.h"
printf '#include "nvtxt/pub.h"\n' >"$T/t/low/a.c"
$ARROWS "$T/t" >"$T/out" 2>&1
ok $? "a public header included as nvtxt/NAME.h passes"
printf '#include "pub.h"\n' >"$T/t/low/b.c"
$ARROWS "$T/t" >"$T/out" 2>&1
grep -q '^low/b.c:1: the public header pub.h is included as "nvtxt/pub.h", as an installed user includes it$' "$T/out"
ok $? "one included by its bare name fails, with the spelling to use"

done_testing
