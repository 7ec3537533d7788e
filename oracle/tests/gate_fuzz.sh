#!/usr/bin/env bash
# gate --fuzz fits the engine in front of it (oracle/cli/gate_fuzz.c,
# oracle/src/gen/diff.h), with engines that misbehave on purpose
# (fuzz_proxy.py: `serve` behind a proxy):
#  - an `unsupported` answer to a step is a skip, never a difference, and
#    an engine that answers `run` itself unsupported is driven step by step;
#  - a difference that does not fail the same way under plain gate (here:
#    one only in batch mode) is counted and not written;
#  - an engine crash is a finding at the step that caused it (its number,
#    kind and line in the case), and the case reproduces under gate;
#  - a known-differences file (--expect-failures) counts a difference as
#    known and writes nothing, exit 0; a bad file is a usage error naming
#    FILE:LINE;
#  - a deliberately partial engine (the Node adapter with half its
#    features, when node is installed) runs at least 95% of the games.
set -uo pipefail
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
proxy="python3 $src/oracle/tests/fuzz_proxy.py"
count() { grep -o "$1" <<<"$2" | grep -o '^[0-9]*' | head -1; }

out=$("$bin" gate --engine "$proxy unsupported $bin" --fuzz 3 --seed 2 --out "$work/u" 2>&1)
rc=$?
[ "$rc" -eq 0 ] || fail "unsupported: exit $rc: $out"
grep -q ' 0 differed' <<<"$out" || fail "unsupported answers counted as differences: $out"
[ "$(count '[0-9]* unsupported)' "$out")" -gt 0 ] || fail "no unsupported skip counted: $out"
echo "unsupported steps: skips, no difference"

out=$("$bin" gate --engine "$proxy no-run $bin" --fuzz 2 --seed 2 --out "$work/nr" 2>&1)
rc=$?
[ "$rc" -eq 0 ] || fail "no-run: exit $rc: $out"
grep -q ' 0 skipped.* 0 differed' <<<"$out" || fail "no-run: games skipped or differing: $out"
[ "$(count '[0-9]* steps compared' "$out")" -gt 100 ] || fail "no-run: too few steps compared: $out"
echo "an engine without run: driven step by step, nothing skipped"

out=$("$bin" gate --engine "$proxy batch-only $bin" --fuzz 3 --seed 2 --out "$work/b" 2>&1)
rc=$?
[ "$rc" -eq 0 ] || fail "batch-only: exit $rc, expected 0 (nothing reproduces): $out"
[ "$(count '[0-9]* not reproduced' "$out")" -gt 0 ] || fail "batch-only: nothing counted as not reproduced: $out"
grep -q 'under gate it is pass' <<<"$out" || fail "batch-only: no reason given: $out"
[ -z "$(ls "$work/b")" ] || fail "batch-only: a case was written: $(ls "$work/b")"
echo "a difference gate does not reproduce: counted, not written"

out=$("$bin" gate --engine "$proxy crash-mill $bin" --fuzz 2 --seed 2 --out "$work/c" --timeout 5 2>&1)
rc=$?
[ "$rc" -eq 1 ] || fail "crash-mill: exit $rc, expected 1: $out"
case=$(ls "$work"/c/diff-*.yaml | head -1)
grep -q '^title: ".*after step [0-9]* (mill, line [0-9]*): engine crash' "$case" ||
  fail "crash-mill: the note does not name the mill step: $(sed -n 2p "$case")"
line=$(sed -n 's/^title: .*, line \([0-9]*\)).*/\1/p' "$case")
sed -n "${line}p" "$case" | grep -q '^  - mill:' || fail "crash-mill: line $line is not the mill step"
[ "$(grep -c '^  - ' "$case")" -eq 1 ] || fail "crash-mill: not minimized to the mill: $(cat "$case")"
"$bin" gate --engine "$proxy crash-mill $bin" --quiet --report-dir "$work/r" "$case" >/dev/null 2>&1
[ $? -eq 1 ] || fail "crash-mill: the case passes under gate"
echo "an engine crash: found at its step ($(sed -n "${line}p" "$case" | cut -c5-40)...), reproduces under gate"

m=mtg-2011:new_object=leave_arena
printf -- '- {ruleset: mtg-2011, what: new_object, reason: the mutant makes no new object}\n' > "$work/known.yaml"
out=$("$bin" gate --engine "$bin serve --mutant $m" --fuzz 2 --seed 3 --out "$work/k" \
  --expect-failures "$work/known.yaml" 2>&1)
rc=$?
[ "$rc" -eq 0 ] || fail "known differences: exit $rc, expected 0: $out"
[ "$(count '[0-9]* known' "$out")" -gt 0 ] || fail "known differences: none counted: $out"
[ -z "$(ls "$work/k")" ] || fail "known differences: a case was written: $(ls "$work/k")"
printf -- '- {ruleset: mtg-2011, waht: zone, reason: x}\n' > "$work/bad.yaml"
out=$("$bin" gate --engine "$bin serve" --fuzz 1 --out "$work/k2" --expect-failures "$work/bad.yaml" 2>&1)
[ $? -eq 2 ] || fail "a bad known-differences file is not a usage error: $out"
grep -q "bad.yaml:1:.*unknown key 'waht'.*did you mean 'what'" <<<"$out" || fail "bad file message: $out"
echo "known differences: counted, not written, exit 0; a bad file: exit 2 naming its line"

# a finding cites the rule of the property that differed, from its own
# rule set's data: phasing (CR 702.26b) for a mutant that phases into a
# zone, sub-cards (FaB 3.0.14) for one without them; never the identity
# rule whatever differed, never a Magic number in a FaB game
for m in mtg-current:phasing=zone:'CR 702.26' fab:sub_cards=none:'FaB 3.0.14'; do
  mut=${m%:*} want=${m##*:} dir="$work/cite-${mut%%:*}"
  "$bin" gate --engine "$bin serve --mutant $mut" --fuzz 2 --seed 1 --out "$dir" >/dev/null 2>&1
  ls "$dir"/diff-*.yaml >/dev/null 2>&1 || fail "cite $mut: no finding"
  grep -l "^rules: \[\"$want" "$dir"/diff-*.yaml >/dev/null ||
    fail "cite $mut: no finding cites $want: $(grep -h '^rules:' "$dir"/diff-*.yaml)"
  for case in "$dir"/diff-*.yaml; do
    rule=$(sed -n 's/^rules: \["\(.*\)"\]$/\1/p' "$case")
    grep -q "^title: \"gate --fuzz finding ([a-z0-9-]*, $rule)" "$case" || fail "cite $mut: the title does not name $rule: $(sed -n 2p "$case")"
    case $mut in fab:*) [[ $rule == FaB* ]] || fail "cite $mut: a FaB finding cites $rule";; esac
  done
done
echo "a finding cites the rule of what differed (702.26, FaB 3.0.14)"

if command -v node >/dev/null; then
  out=$(ZO_NODE_FEATURES=triggers,phasing,visibility,reorder "$bin" gate \
    --engine "node $src/ci/adapters/node/engine.js" --fuzz 3 --out "$work/n" 2>&1)
  pct=$(grep -o 'run ([0-9.]*%)' <<<"$out" | grep -o '[0-9.]*' | head -1)
  awk -v p="$pct" 'BEGIN { exit !(p >= 95) }' || fail "the partial Node engine ran $pct% of the games: $out"
  for case in "$work"/n/*.yaml; do
    [ -e "$case" ] || continue
    ZO_NODE_FEATURES=triggers,phasing,visibility,reorder "$bin" gate --engine "node $src/ci/adapters/node/engine.js" \
      --quiet --report-dir "$work/rn" "$case" >/dev/null 2>&1
    [ $? -eq 1 ] || fail "$case passes under gate on the partial Node engine"
  done
  echo "partial Node engine: $pct% of the games run; every case written fails under gate"
else
  echo "node not found: the partial-engine check skipped"
fi
echo ok
