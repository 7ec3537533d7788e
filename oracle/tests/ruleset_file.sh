#!/usr/bin/env bash
# zoneoracle run --ruleset-file: a user's rule set loads and its case runs;
# a misspelt key is a file:line:column error naming the expected key.
set -euo pipefail
bin=$1 dir=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$("$bin" run --ruleset-file "$dir/ruleset-file/my-game.yaml" --report-dir "$work/r" "$dir/ruleset-file/my-game-case.yaml")
echo "$out"
grep -q '^1 passed, 0 failed, 0 skipped$' <<<"$out"
sed 's/    ordered: {value: true/    ordred: {value: true/' "$dir/ruleset-file/my-game.yaml" > "$work/typo.yaml"
set +e
err=$("$bin" run --ruleset-file "$work/typo.yaml" --report-dir "$work/r" "$dir/ruleset-file/my-game-case.yaml" 2>&1)
rc=$?
set -e
echo "$err"
[ "$rc" -eq 3 ] || { echo "exit $rc, expected 3"; exit 1; }
grep -q "typo.yaml:11:5: error: unknown key 'ordred' in a zone (did you mean 'ordered'?" <<<"$err"
