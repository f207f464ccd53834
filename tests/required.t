#!/bin/sh
# Which arguments each command requires, audited against nvtxt(5) COMMANDS
# (written out here independently of src/lang/lang.c): CategoryId, Color,
# Message and Payload may be absent in Marker, RangePush and RangeStartEnd
# only; every other argument of every command is required, CategoryId of
# NameCategory and AddChildCategory included.  For every argument of every
# default definition, a call that leaves just that value empty must lint
# clean when the argument is optional, and be one missing-argument error at
# that value when it is required.  The same holds for a static argument.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

# command: its arguments in default order with a valid value each
while read -r cmd args; do
	n=$(echo "$args" | tr ',' '\n' | wc -l)
	i=1
	while [ "$i" -le "$n" ]; do
		arg=$(echo "$args" | cut -d, -f"$i" | cut -d= -f1)
		line=$cmd
		j=1
		while [ "$j" -le "$n" ]; do
			v=$(echo "$args" | cut -d, -f"$j" | cut -d= -f2-)
			[ "$j" = "$i" ] && v=
			line="$line, $v"
			j=$((j + 1))
		done
		case "$cmd:$arg" in
		Marker:CategoryId | Marker:Color | Marker:Message | Marker:Payload | \
		RangePush:CategoryId | RangePush:Color | RangePush:Message | RangePush:Payload | \
		RangeStartEnd:CategoryId | RangeStartEnd:Color | RangeStartEnd:Message | RangeStartEnd:Payload)
			want=optional ;;
		*) want=required ;;
		esac
		# a RangePop needs its push; the push is complete in every case
		pre=""
		[ "$cmd" = RangePop ] && pre='RangePush, 1, Qpc, 1, 2, , , ,'
		printf '%s\n%s\n' "$pre" "$line" >"$T/in.nvtxt"
		"$NVTXTC" lint --color=never -Wno-unclosed-range "$T/in.nvtxt" >/dev/null 2>"$T/err"
		st=$?
		if [ $want = optional ]; then
			[ $st = 0 ] && [ ! -s "$T/err" ]
			ok $? "$cmd: an empty $arg is an absent optional argument"
		else
			[ $st = 1 ] && grep -q "error: missing value for $arg, a required argument of $cmd \[missing-argument\]" "$T/err" &&
				[ "$(grep -c ': error: ' "$T/err")" = 1 ]
			ok $? "$cmd: an empty $arg is a missing required argument"
		fi
		i=$((i + 1))
	done
done <<'TABLE'
Marker Time=1,TimeBase=Qpc,ProcessId=1,ThreadId=2,CategoryId=3,Color=Blue,Message="m",Payload=5
RangePush Time=1,TimeBase=Qpc,ProcessId=1,ThreadId=2,CategoryId=3,Color=Blue,Message="m",Payload=5
RangePop Time=2,TimeBase=Qpc,ProcessId=1,ThreadId=2
RangeStartEnd Start=1,End=2,TimeBase=Qpc,ProcessId=1,ThreadId=2,CategoryId=3,Color=Blue,Message="m",Payload=5
NameCategory CategoryId=3,Name="render"
AddChildCategory ParentCategoryId=3,CategoryId=4
NameOsThread ProcessId=1,ThreadId=2,Name="main"
NameProcess ProcessId=1,Name="app"
SetFileDisplayName Name="trace"
TABLE

# A static CategoryId: required by NameCategory and AddChildCategory, optional in Marker.
printf '@NameCategory, Name\nNameCategory, "x"\n' >"$T/s.nvtxt"
"$NVTXTC" lint --color=never "$T/s.nvtxt" 2>"$T/err"
[ $? = 1 ] && grep -q "missing value for CategoryId, a required argument of NameCategory: the definition of NameCategory does not list it" "$T/err"
ok $? "NameCategory: a static CategoryId with no variable is a missing required argument"
printf '@AddChildCategory, ParentCategoryId\nAddChildCategory, 1\n' >"$T/s.nvtxt"
"$NVTXTC" lint --color=never "$T/s.nvtxt" 2>"$T/err"
[ $? = 1 ] && grep -q "missing value for CategoryId, a required argument of AddChildCategory" "$T/err"
ok $? "AddChildCategory: a static CategoryId with no variable is a missing required argument"
printf 'TimeBase = Qpc\nProcessId = 1\nThreadId = 1\n@Marker, Time\nMarker, 5\n' >"$T/s.nvtxt"
"$NVTXTC" lint --color=never "$T/s.nvtxt" 2>"$T/err"
[ $? = 0 ] && [ ! -s "$T/err" ]
ok $? "Marker: a static CategoryId with no variable is absent, which is allowed"
# The normal form never prints an absent required argument: the file has no normal form.
printf 'NameCategory, , "x"\n' >"$T/e.nvtxt"
"$NVTXTC" --emit=nvtxt "$T/e.nvtxt" >"$T/out" 2>/dev/null
[ $? = 1 ] && [ ! -s "$T/out" ]
ok $? "--emit=nvtxt prints nothing for a NameCategory without CategoryId"
done_testing
