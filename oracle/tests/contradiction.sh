#!/usr/bin/env bash
# A case the rule set contradicts must fail at the line of the expectation,
# showing expected vs observed. Copies one real case, flips one expectation,
# runs it and reads the output.
set -euo pipefail
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src/cases/mtg/400.3-aven-fisher-goes-to-owner-graveyard.yaml" "$work/case.yaml"
line=$(grep -n 'zone: bob.graveyard' "$work/case.yaml" | head -1 | cut -d: -f1)
[ -n "$line" ] || { echo "no 'zone: bob.graveyard' expectation to flip"; exit 1; }
sed -i "${line}s/zone: bob.graveyard/zone: alice.graveyard/" "$work/case.yaml"
set +e
out=$("$bin" run --report-dir "$work/reports" "$work/case.yaml" 2>&1)
rc=$?
set -e
echo "$out"
[ "$rc" -eq 1 ] || { echo "exit code $rc, expected 1"; exit 1; }
grep -q "case.yaml:${line}: fisher.zone: expected alice.graveyard, observed bob.graveyard" <<<"$out" \
  || { echo "failure does not point at line $line with expected vs observed"; exit 1; }
grep -q '^0 passed, 1 failed, 0 skipped$' <<<"$out" || { echo "bad summary line"; exit 1; }
grep -q '"status":"fail"' "$work/reports/run.jsonl"
grep -q '<failure' "$work/reports/junit.xml"
echo "contradiction reported at line $line"
