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
# out_of_scope: `rules` shows the reason beside the rule and counts the rule
# apart, never as a seed rule without a case; the seed rule G 1, which the
# one case does not cite, still fails the command.
sed 's/^  - {id: "G 3", seed: true, text: "A card that changes zones is a new object."}$/&\n  - {id: "G 4", text: "Combat damage is dealt at once.", out_of_scope: "combat, not where objects are"}\n  - {id: "G 5", text: "A cast card remembers its cost.", language_gap: "no costs in the case language"}/' \
  "$dir/ruleset-file/my-game.yaml" > "$work/scope.yaml"
grep -q 'out_of_scope' "$work/scope.yaml"
set +e
"$bin" rules --ruleset-file "$work/scope.yaml" --ruleset my-game "$dir/ruleset-file/my-game-case.yaml" > "$work/rules.out"
rc=$?
set -e
cat "$work/rules.out"
[ "$rc" -eq 1 ] || { echo "exit $rc, expected 1 (G 1 has no case)"; exit 1; }
grep -Eq '^  G 4 +out  cases +0 .*  combat, not where objects are$' "$work/rules.out"
grep -Eq '^  G 1 +seed cases +0 .*NO CASE$' "$work/rules.out"
grep -q "rules out of the zone model's scope (each with its reason): 1" "$work/rules.out"
grep -Eq '^  G 5 +gap  cases +0 .*  no costs in the case language$' "$work/rules.out"
grep -q "zone rules the case language can't express yet (each with what it lacks): 1" "$work/rules.out"
grep -q '^1 seed rules without a case (of 3)$' "$work/rules.out"
json=$("$bin" rules --ruleset-file "$work/scope.yaml" --ruleset my-game --format json "$dir/ruleset-file/my-game-case.yaml" || true)
python3 -c 'import json,sys; d=json.loads(sys.argv[1])["rulesets"][0]; r={x["id"]: x for x in d["rules"]}
assert d["out_of_scope"] == 1 and r["G 4"]["out_of_scope"].startswith("combat") and r["G 1"]["out_of_scope"] is None, d
assert d["language_gap"] == 1 and r["G 5"]["language_gap"].startswith("no costs") and r["G 4"]["language_gap"] is None, d' "$json"

# the user's rule set gates an engine: serve --ruleset-file declares it, so
# its cases run (none skipped), and gate --fuzz plays its zones
F=$dir/ruleset-file/my-game.yaml
"$bin" gate --ruleset-file "$F" --engine "$bin serve --ruleset-file $F" --report-dir "$work/ug" \
  "$dir/ruleset-file/my-game-case.yaml" > "$work/ug.out" 2>&1 || { cat "$work/ug.out"; exit 1; }
grep -q '^1 passed, 0 failed, 0 skipped$' "$work/ug.out" || { cat "$work/ug.out"; exit 1; }
"$bin" gate --ruleset-file "$F" --engine "$bin serve --ruleset-file $F" --ruleset my-game --fuzz 1 \
  --out "$work/ugf" > "$work/ugf.out" 2>&1 || { cat "$work/ugf.out"; exit 1; }
grep -Eq 'seed 1: [1-9][0-9]* games .* 0 skipped .* \(100\.0%\).* 0 differed' "$work/ugf.out" || { cat "$work/ugf.out"; exit 1; }
echo "ruleset_file: gate and gate --fuzz against serve --ruleset-file: ok"

# issue 31: run --invariants with a rule set's own equip: word, which the
# case numbers differently from the rule set: no false can-hold
T=$dir/ruleset-file/tools.yaml
"$bin" run --invariants --ruleset-file "$T" --report-dir "$work/ti" "$dir/ruleset-file/tools-cases" \
  > "$work/ti.out" 2>&1 || { cat "$work/ti.out"; exit 1; }
grep -q ' 0 failed, 0 skipped$' "$work/ti.out" || { cat "$work/ti.out"; exit 1; }
echo "ruleset_file: run --invariants with a rule set's own equip: words: ok"
# a rule set that leaves token_leaves unwritten has no rule making tokens
# cease: a token off its arena at rest breaks no invariant (tokens-in-arena
# holds only where the rule set makes them cease)
"$bin" run --invariants --ruleset-file "$dir/ruleset-file/pile-game.yaml" --report-dir "$work/tk" \
  "$dir/ruleset-file/pile-token-cases" > "$work/tk.out" 2>&1 ||
  { cat "$work/tk.out"; echo "ruleset_file: a token in a game without a token rule broke an invariant"; exit 1; }
echo "ruleset_file: run --invariants, a token in a game without a token rule: ok"

# issue 31: a case naming a rule set that is not loaded says to load its
# file with --ruleset-file, at the rule set's position
set +e
err=$("$bin" run --report-dir "$work/nr" "$dir/ruleset-file/tools-cases/holds-types.yaml" 2>&1)
rc=$?
set -e
[ "$rc" -ne 0 ] || { echo "$err"; echo "a case of an unloaded rule set ran"; exit 1; }
grep -q "holds-types.yaml:5:12: error: unknown rule set 'tool-game'" <<<"$err" || { echo "$err"; exit 1; }
grep -q "note: a rule set of your own? load its file with --ruleset-file FILE" <<<"$err" || { echo "$err"; exit 1; }
echo "ruleset_file: an unknown rule set hints at --ruleset-file: ok"

# issue 31: a game of its own (game: stackers) with sub-cards: a top-card
# turned face down is a new object and its sub-card is cleared, as
# RULESETS.md says (it stayed under the new object before)
S=$dir/ruleset-file/stack-game.yaml
"$bin" run --invariants --ruleset-file "$S" --report-dir "$work/st" "$dir/ruleset-file/stack-cases" \
  > "$work/st.out" 2>&1 || { cat "$work/st.out"; exit 1; }
grep -q ' 0 failed, 0 skipped$' "$work/st.out" || { cat "$work/st.out"; exit 1; }
echo "ruleset_file: a flip that makes a new object clears its sub-cards: ok"

# issue 31: clear decides only a rule's move that a zone refuses (under
# cannot_hold: fail_or_clear); stack-game writes clear without it, so its
# table cites clear nowhere and shows no by-rule part, while its sub-card
# rows still cite sub_cards
"$bin" table --ruleset-file "$S" --ruleset stack-game > "$work/st-table.txt"
grep -q 'sub_cards' "$work/st-table.txt" || { echo "no sub_cards cell"; exit 1; }
if grep -nE 'clear[],]|by a rule' "$work/st-table.txt"; then echo "the table cites clear where it decides nothing"; exit 1; fi
echo "ruleset_file: table cites clear only where it decides: ok"
# ... and cites no FaB rule in a game that isn't FaB (it did for sub-cards)
if grep -n 'FaB' "$work/st-table.txt"; then echo "FaB cited in stack-game's table"; exit 1; fi
