#!/usr/bin/env bash
# Differential fuzzing end to end (oracle/src/gen/diff.h):
#  - gate --fuzz against `zoneoracle serve` finds no difference;
#  - against `serve --mutant M` it finds one, exits 1, and writes a
#    minimized case that `check` accepts, that passes on the oracle and
#    fails on the mutant;
#  - fuzz_diff on fuzz_moves' corpus against the plugin with ZO_MUTANT=M
#    aborts naming the difference, and replay --harness diff turns that
#    input into a case that does the same.
set -uo pipefail
bin=$1 fuzz_diff=$2 plugin=$3 src=$4 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
m=mtg-2011:new_object=leave_arena

out=$("$bin" gate --engine "$bin serve" --fuzz 2 --seed 3 --out "$work/same" 2>&1)
rc=$?
[ "$rc" -eq 0 ] || fail "serve against itself: exit $rc: $out"
grep -q ' 0 differed' <<<"$out" || fail "serve against itself: $out"
games=$(grep -o '[0-9]* run (' <<<"$out" | grep -o '^[0-9]*')
[ "${games:-0}" -gt 10 ] || fail "too few games: $out"
echo "gate --fuzz, serve vs oracle: $games games, no difference"

out=$("$bin" gate --engine "$bin serve --mutant $m" --fuzz 4 --seed 3 --out "$work/mut" 2>&1)
rc=$?
[ "$rc" -eq 1 ] || fail "mutant: exit $rc, expected 1: $out"
case=$(ls "$work"/mut/diff-mtg-2011-*.yaml 2>/dev/null | head -1)
[ -n "$case" ] || fail "mutant: no case written: $out"
"$bin" check "$case" >/dev/null || fail "check refuses $case"
"$bin" run --quiet --report-dir "$work/r1" "$case" >/dev/null || fail "the case fails on the oracle"
"$bin" run --quiet --mutant "$m" --report-dir "$work/r2" "$case" >/dev/null
[ $? -eq 1 ] || fail "the case passes on the mutant"
steps=$(grep -c '^  - ' "$case")
[ "$steps" -le 3 ] || fail "not minimized: $steps steps in $case"
# a one-object difference gives a one-card case (minimized over cards too)
cards=$(sed -n '/^cards:/,/^steps:/p' "$case" | grep -c '^  c[0-9]*:')
[ "$cards" -eq 1 ] || fail "not minimized: $cards cards in $case"
# its note says when (game, seconds, seed) and which step (number, kind, line)
grep -q '^title: "gate --fuzz finding (mtg-2011, CR 400.7), game [0-9]* at [0-9.]* s, seed 3: after step [0-9]* ([a-z_]*, line [0-9]*): ' "$case" ||
  fail "the note does not say when and where: $(sed -n 2p "$case")"
line=$(sed -n 's/^title: .*, line \([0-9]*\)).*/\1/p' "$case")
sed -n "${line}p" "$case" | grep -q '^  - ' || fail "line $line of $case is not the step"
echo "gate --fuzz, mutant $m: difference written as a $steps-step, one-card case that passes on the oracle, fails on the mutant"

found=""
for f in "$src"/corpus/fuzz_moves/*; do
  if ! ZO_MUTANT=$m ZO_DIFF_ENGINE=$plugin "$fuzz_diff" "$f" >"$work/fd.log" 2>&1; then found=$f; break; fi
done
[ -n "$found" ] || fail "fuzz_diff finds no difference with $m on the corpus"
grep -q 'zoneoracle fuzz_diff: difference' "$work/fd.log" || fail "fuzz_diff: $(tail -3 "$work/fd.log")"
ZO_MUTANT=$m "$bin" replay --harness diff --engine-plugin "$plugin" --id regressions/replayed-diff "$found" \
  >"$work/replayed.yaml" 2>"$work/replay.err"
[ $? -eq 1 ] || fail "replay --harness diff: expected exit 1: $(cat "$work/replay.err")"
"$bin" check "$work/replayed.yaml" >/dev/null || fail "check refuses the replayed case"
"$bin" run --quiet --report-dir "$work/r3" "$work/replayed.yaml" >/dev/null || fail "the replayed case fails on the oracle"
"$bin" run --quiet --mutant "$m" --report-dir "$work/r4" "$work/replayed.yaml" >/dev/null
[ $? -eq 1 ] || fail "the replayed case passes on the mutant"
echo "fuzz_diff + replay --harness diff: $(basename "$found") -> $(head -c 120 "$work/replay.err")"
# the same plugin without a mutant agrees on that input
ZO_DIFF_ENGINE=$plugin "$fuzz_diff" "$found" >/dev/null 2>&1 || fail "fuzz_diff differs without a mutant"
"$bin" gate --engine "$bin serve" --fuzz 1 --seed x --out "$work/bad" >/dev/null 2>&1
[ $? -eq 2 ] || fail "a seed that is not a number is not a usage error"
"$bin" run --mutant no-such-mutant cases >/dev/null 2>&1
[ $? -eq 2 ] || fail "an unknown mutant is not a usage error"
echo ok
