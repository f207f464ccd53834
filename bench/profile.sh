#!/bin/sh
# bench/profile.sh - where nvtxtc lint spends its time on the 10 MB trace of
# make bench (see bench/README.md, "Where the time goes").  Run after
# `make bench` (it needs build/bench/gen).  Writes, in BENCH_DIR:
#   callgrind.lint.out      valgrind --tool=callgrind profile of nvtxtc lint
#   callgrind.lint.txt      callgrind_annotate: every function, by self cost
#   callgrind.lint.incl.txt callgrind_annotate --inclusive=yes
#   perf-stat.txt           perf stat (hardware counters when the machine has them)
# Environment: NVTXTC (./nvtxtc), BENCH_DIR (build/bench), GEN ($BENCH_DIR/gen),
# PROFILE_SIZE (10000000), PROFILE_CMD (lint; e.g. "--emit=nvtxt" or "fmt").
set -u
LC_ALL=C
export LC_ALL
NVTXTC=${NVTXTC:-./nvtxtc}
BENCH_DIR=${BENCH_DIR:-build/bench}
GEN=${GEN:-$BENCH_DIR/gen}
PROFILE_SIZE=${PROFILE_SIZE:-10000000}
PROFILE_CMD=${PROFILE_CMD:-lint}
tag=$(echo "$PROFILE_CMD" | tr -c 'A-Za-z0-9\n' '_' | sed 's/^_*//')

[ -x "$GEN" ] || { echo "profile: no $GEN (run make bench first)" >&2; exit 2; }
sh .ci/deps valgrind || exit 2
f=$BENCH_DIR/profile-$PROFILE_SIZE.nvtxt
"$GEN" "$PROFILE_SIZE" > "$f" || exit 2

echo "== perf stat -e instructions,cycles,task-clock $NVTXTC $PROFILE_CMD $f"
if command -v perf > /dev/null 2>&1; then
	perf stat -e instructions,cycles,task-clock "$NVTXTC" $PROFILE_CMD "$f" > /dev/null 2> "$BENCH_DIR/perf-stat.txt"
	grep -E 'instructions|cycles|task-clock|elapsed' "$BENCH_DIR/perf-stat.txt"
else
	echo "(perf is not installed)"
fi

out=$BENCH_DIR/callgrind.$tag.out
echo "== valgrind --tool=callgrind --callgrind-out-file=$out $NVTXTC $PROFILE_CMD $f"
valgrind --tool=callgrind --callgrind-out-file="$out" "$NVTXTC" $PROFILE_CMD "$f" > /dev/null 2> "$BENCH_DIR/callgrind.$tag.log" ||
	{ tail -n 20 "$BENCH_DIR/callgrind.$tag.log" >&2; exit 1; }
grep -E 'Collected|refs' "$BENCH_DIR/callgrind.$tag.log"
callgrind_annotate "$out" > "$BENCH_DIR/callgrind.$tag.txt"
callgrind_annotate --inclusive=yes "$out" > "$BENCH_DIR/callgrind.$tag.incl.txt"
echo "== callgrind_annotate $out | top 25 by self cost"
awk '/^-+$/ { d++; next } d >= 4 && NF && n < 26 { print; n++ }' "$BENCH_DIR/callgrind.$tag.txt"
echo "== callgrind_annotate --inclusive=yes $out | top 25"
awk '/^-+$/ { d++; next } d >= 4 && NF && n < 26 { print; n++ }' "$BENCH_DIR/callgrind.$tag.incl.txt"
rm -f "$f"
