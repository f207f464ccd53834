# tests/lib.sh - shared by the TAP scripts: sourced with the test's own
# directory as the working directory.  Provides NVTXTC (the binary under
# test, absolute), a scratch directory $T removed at exit, and TAP helpers.
set -u
LC_ALL=C
export LC_ALL
top=$PWD
while [ "$top" != / ] && ! [ -f "$top/Makefile" -a -d "$top/src" ]; do top=$(dirname "$top"); done
NVTXTC=${NVTXTC:-$top/nvtxtc}
case $NVTXTC in /*) ;; *) NVTXTC=$top/$NVTXTC ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/nvtxtc-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
tap_n=0
tap_failed=0

# ok COND-STATUS NAME: a test passed when the status is 0.
ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

# same_file GOT WANT NAME: compares two files and shows the difference.
same_file() {
	if cmp -s "$1" "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diff -u "$2" "$1" | head -n 40 | sed 's/^/# /'
	fi
}

# is GOT WANT NAME: compares two strings.
is() {
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '# got:  %s\n# want: %s\n' "$1" "$2"
	fi
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}
