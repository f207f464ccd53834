# tests/lib.sh - shared by the TAP scripts: sourced with the test's own
# directory as the working directory.  Provides NVTXTC (the binary under
# test, absolute), a scratch directory $T removed at exit, TAP helpers,
# need (a test's tool, from .ci/deps) and as_user (run as an unprivileged
# user, also when the suite runs as root).
#
# Environment: NVTXTC_OFFLINE=1 (make check OFFLINE=1) turns the failure of
# a missing tool into a skip.
set -u
LC_ALL=C
export LC_ALL
top=$PWD
while [ "$top" != / ] && ! [ -f "$top/Makefile" -a -d "$top/src" ]; do top=$(dirname "$top"); done
NVTXTC=${NVTXTC:-$top/nvtxtc}
case $NVTXTC in /*) ;; *) NVTXTC=$top/$NVTXTC ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/nvtxtc-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
# as root, $T can be entered by as_user's unprivileged user
[ "$(id -u)" = 0 ] && chmod 755 "$T"
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

# same_features OUT CLIENT: the lines of each kind (hint, signature, ...) of
# tests/lsp/features.expected, the editor features (issue 23), are OUT's lines
# of that kind, in order: what CLIENT (Neovim, eglot) showed.
same_features() {
	for k in hint signature highlight fold color presentation token delta references rename renamed; do
		grep "^$k " "$top/tests/lsp/features.expected" >"$T/want.$k"
		grep "^$k " "$1" >"$T/got.$k"
		same_file "$T/got.$k" "$T/want.$k" "$2 shows the expected ${k}s (tests/lsp/features.expected)"
	done
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

# spooled_in PID DIR: "yes" once process PID has a descriptor open on an
# unnamed (deleted) file in DIR, within 5 seconds; else "no"
spooled_in() {
	for _i in $(seq 1 100); do
		if ls -l "/proc/$1/fd" 2>/dev/null | grep -q "$2/.*(deleted)"; then
			echo yes
			return
		fi
		sleep 0.05
	done
	echo no
}

# on_tty SHELL-COMMAND: runs the command with standard input a terminal (a pty of
# util-linux's script, part of every Debian system); its exit status.
on_tty() {
	script -qec "$1" /dev/null </dev/null >/dev/null
}

# skip REASON: a skipped test.  Only for what cannot be had on this machine
# (a tool that can be installed is need's).
# relay_tap FILE PREFIX: the TAP lines ("ok N - NAME", "not ok N - NAME") that
# a helper script wrote to FILE, renumbered into this test's plan with PREFIX
# before each name; other lines (comments) are passed on as they are.
relay_tap() {
	while IFS= read -r relay_line; do
		case $relay_line in
		"ok "*) ok 0 "$2${relay_line#* - }" ;;
		"not ok "*) ok 1 "$2${relay_line#* - }" ;;
		*) echo "$relay_line" ;;
		esac
	done <"$1"
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}

# need TOOL [WHAT]: exit 0 when TOOL is there: a command, or a name that
# .ci/deps knows (node_modules, chromium, eglot, jansson, ...).  Otherwise
# one failed test that names TOOL and the command that installs it (make
# check installs it, as root; .ci/deps has the list), or under
# NVTXTC_OFFLINE=1 one skipped test; and exit 1.  WHAT says which tests
# need it.  Use: if need nvim "Neovim's LSP client"; then ...; fi
need() {
	sh "$top/.ci/deps" --have "$1" && return 0
	need_how=$(sh "$top/.ci/deps" --how "$1")
	if [ "${NVTXTC_OFFLINE:-}" = 1 ]; then
		skip "${2:+$2: }$1 is missing (offline; to install it: $need_how)"
	else
		ok 1 "${2:+$2: }$1 is missing: install it with '$need_how' (as make check does)"
	fi
	return 1
}

# any_user_nvtxtc: prints the path of an nvtxtc that every user can run:
# NVTXTC, or (as root, when nobody cannot execute NVTXTC: a tree under
# /root) a copy of it in $T.
any_user_nvtxtc() {
	if [ "$(id -u)" != 0 ] || setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$NVTXTC"; then
		echo "$NVTXTC"
		return
	fi
	[ -x "$T/.any-user/nvtxtc" ] || { mkdir -p "$T/.any-user" && chmod 755 "$T/.any-user" &&
		cp "$NVTXTC" "$T/.any-user/nvtxtc"; } || return 1
	echo "$T/.any-user/nvtxtc"
}

# as_user CMD [ARG...]: CMD as a user without privileges, for the tests of
# permissions (an unreadable file, a read-only directory).  When the suite
# runs as root, CMD runs as nobody:nogroup without supplementary groups
# (setpriv, util-linux), NVTXTC as any_user_nvtxtc; otherwise as it is.
# What CMD opens must be reachable by nobody: files under $T (mode 755 as
# root) are.  Exit status: CMD's.
as_user() {
	if [ "$(id -u)" != 0 ]; then
		"$@"
		return
	fi
	if [ "$1" = "$NVTXTC" ]; then
		shift
		set -- "$(any_user_nvtxtc)" "$@"
	fi
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}
