#!/bin/sh
# The manual pages: mandoc -W style finds nothing in any page, man(1)
# renders nvtxtc(1), and nvtxtc(1)'s OPTIONS list exactly the options that
# `nvtxtc --help` prints (and the warnings it lists).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
if need mandoc "mandoc -T lint"; then
	for page in man/*.[0-9]; do
		mandoc -T lint -W style "$page" >"$T/lint" 2>&1
		st=$?
		[ -s "$T/lint" ] && st=1
		ok $st "mandoc -T lint -W style $page is silent"
		sed 's/^/# /' "$T/lint" | head -n 20
	done
fi
if need man "man -l man/nvtxtc.1"; then
	MANWIDTH=80 man -l man/nvtxtc.1 >"$T/man.txt" 2>"$T/man.err"
	st=$?
	[ -s "$T/man.err" ] && st=1
	ok $st "man -l man/nvtxtc.1 renders without complaint"
	grep -q "EXIT STATUS" "$T/man.txt"
	ok $? "the rendered nvtxtc(1) has an EXIT STATUS section"
fi

# The rendered page (issue 20: a missing .TP merged two entries, which mandoc -T lint
# and the source-level checks below did not see): in COMMANDS, each command of --help
# is an entry of its own (a line at the tag indent that starts with its name).
mandoc -T utf8 man/nvtxtc.1 2>/dev/null | sed 's/.\x08//g' >"$T/rendered"
"$NVTXTC" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p' | sort >"$T/help.cmds"
sed -n '/^COMMANDS/,/^OPTIONS/p' "$T/rendered" | sed -n 's/^       \([a-z][a-z0-9-]*\)\( .*\)\{0,1\}$/\1/p' | sort >"$T/man.cmds"
[ -s "$T/help.cmds" ]
ok $? "--help lists commands"
same_file "$T/man.cmds" "$T/help.cmds" "each command of --help is an entry of its own in the rendered COMMANDS of nvtxtc(1)"
# ... and in OPTIONS, each option of --help is the tag of a rendered entry.
"$NVTXTC" --help | grep '^  -' | sed 's/   .*//; s/,/ /g' | tr ' ' '\n' |
	sed 's/\[=WHEN\]$//; s/\(NAME\|FILE\|WHEN\|N\|RULE\|FORMAT\|UNIT\)$//' | grep . | sort -u >"$T/help.opts0"
sed -n '/^OPTIONS/,/^WARNINGS/p' "$T/rendered" | sed -n 's/^       \(-.*\)$/\1/p' | sed 's/   .*//; s/,/ /g' |
	tr ' ' '\n' | sed 's/\[=WHEN\]$//; s/\(NAME\|FILE\|WHEN\|N\|RULE\|FORMAT\|UNIT\)$//' | grep . | sort -u >"$T/man.tags"
comm -23 "$T/help.opts0" "$T/man.tags" >"$T/untagged"
[ ! -s "$T/untagged" ]
ok $? "each option of --help is the tag of an entry of the rendered OPTIONS of nvtxtc(1)"
sed 's/^/# not an entry: /' "$T/untagged"
# DESCRIPTION's list of the commands that must come first names every command.
tr '\n' ' ' <"$T/rendered" | sed 's/  */ /g' | grep -o 'The command ([^)]*), when given, must be the first argument' >"$T/first"
missing=""
for c in $(cat "$T/help.cmds"); do grep -q "[ (]$c[,) ]" "$T/first" || missing="$missing $c"; done
[ -s "$T/first" ] && [ -z "$missing" ]
ok $? "the commands that must come first are every command of --help (missing:$missing)"

# The options of --help, one per line, without their placeholders (NAME, FILE, N, WHEN, UNIT, ...).
"$NVTXTC" --help | grep '^  -' | sed 's/   .*//; s/,/ /g' | tr ' ' '\n' |
	sed 's/\[=WHEN\]$//; s/\(NAME\|FILE\|WHEN\|N\|RULE\|FORMAT\|UNIT\)$//' | grep . | sort -u >"$T/help.opts"
# The options of the OPTIONS section of nvtxtc(1), the same way.
sed -n '/^\.SH OPTIONS/,/^\.SH /p' man/nvtxtc.1 | sed -n '/^\.TP/{n;p;}' |
	sed 's/^\.[A-Z]* //; s/\\-/-/g; s/"//g; s/,//g' | tr ' ' '\n' | grep '^-' |
	sed 's/\(NAME\|FILE\|WHEN\|N\|RULE\|FORMAT\|UNIT\)$//' | sort -u >"$T/man.opts"
[ -s "$T/help.opts" ]
ok $? "--help lists options"
same_file "$T/man.opts" "$T/help.opts" "nvtxtc(1) OPTIONS and --help list the same options"

"$NVTXTC" --help | sed -n '/^Warnings/,/^$/p' | awk '/^  [^ ]/ {print $1}' | sort >"$T/help.w"
sed -n '/^\.SH WARNINGS/,/^\.SH /p' man/nvtxtc.1 | sed -n '/^\.TP/{n;p;}' |
	sed 's/^\.B //; s/\\-/-/g' | sort >"$T/man.w"
same_file "$T/man.w" "$T/help.w" "nvtxtc(1) WARNINGS and --help list the same warnings"
# The Checks list of nvtxtc(1)'s DIAGNOSTICS and the registry (--list-checks) agree both ways.
"$NVTXTC" --list-checks | awk '{print $1}' | sort >"$T/reg.checks"
sed -n '/^\.SS Checks/,/^\.SH /p' man/nvtxtc.1 | sed -n '/^\.TP/{n;p;}' |
	sed 's/^\.B //; s/\\-/-/g' | sort >"$T/man.checks"
[ -s "$T/reg.checks" ]
ok $? "--list-checks lists checks"
same_file "$T/man.checks" "$T/reg.checks" "nvtxtc(1) Checks and --list-checks list the same checks"
# --list-checks as JSON (after or before the format option) names the same checks, in order.
"$NVTXTC" --list-checks --diagnostics-format=json >"$T/checks.json"
ok $? "--list-checks --diagnostics-format=json exits 0"
sed -n 's/^ *"name": "\(.*\)",$/\1/p' "$T/checks.json" >"$T/json.checks"
"$NVTXTC" --list-checks | awk '{print $1}' >"$T/text.checks"
same_file "$T/json.checks" "$T/text.checks" "--list-checks in JSON lists the checks of the text list"
grep -q '^  "version": 1,$' "$T/checks.json" && [ "$(grep -c '"fixable": \(true\|false\),$' "$T/checks.json")" = "$(wc -l <"$T/text.checks")" ]
ok $? "--list-checks in JSON has a version and every check's fixable flag"
"$NVTXTC" --diagnostics-format=json --list-checks | cmp -s - "$T/checks.json"
ok $? "--list-checks in JSON does not depend on the order of the options"
# Every check named in the suite's expected outputs is in the registry.
cat tests/lint/*.err tests/*.t | grep -o ' \[\(-W\(error=\)\?\)\?[a-z][a-z0-9-]*\]$' |
	sed 's/^ \[//; s/\]$//; s/^-Werror=//; s/^-W//' | sort -u >"$T/suite.checks"
comm -23 "$T/suite.checks" "$T/reg.checks" >"$T/unknown.checks"
[ -s "$T/suite.checks" ] && [ ! -s "$T/unknown.checks" ]
ok $? "every check the suite expects is in the registry"
sed 's/^/# not in the registry: /' "$T/unknown.checks"
# ...and the other way round: every check of the registry is expected somewhere in the suite.
missing=""
for c in $(cat "$T/reg.checks"); do
	cat tests/lint/*.err tests/*.t tests/*/*.t tests/*/*.js 2>/dev/null |
		grep -q -E "(\[|\")(-W(error=)?)?$c(\\\\?\]|\")" || missing="$missing $c"
done
[ -z "$missing" ]
ok $? "every check of the registry is expected by some test"
[ -n "$missing" ] && echo "# no test expects:$missing"
done_testing
