#!/usr/bin/env bash
# issue 31: an engine of a game zoneoracle has never heard of is gated with
# one rule set file and its cases. oracle/tests/engines/pile_engine.py plays
# the pile game of oracle/tests/ruleset-file/pile-game.yaml:
#  - every case of that file runs against it, none skipped, with --invariants
#    and --strict (each observation compared with the oracle's), and every
#    message valid by the schemas (--validate);
#  - it declares ruleset_zones: a rule set whose zones are not its game's
#    is refused, every case skipped with the zone that differs;
#  - it declares ruleset_digest, so each setup carries the digest of the
#    runner's file: given another file under the same id, it refuses, and
#    every case is skipped with its reason, never judged by the wrong file;
#  - a case of a rule set it does not declare is skipped with that reason.
set -euo pipefail
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dir=$src/oracle/tests/ruleset-file
P=$dir/pile-game.yaml
engine="python3 $src/oracle/tests/engines/pile_engine.py $P"
fail() { echo "$1"; [ -f "$work/out" ] && tail -20 "$work/out"; exit 1; }

"$bin" gate --invariants --strict --validate --ruleset-file "$P" --engine "$engine" --report-dir "$work/r" \
  "$dir/pile-cases" > "$work/out" 2>&1 || fail "gate failed"
grep -q '^3 passed, 0 failed, 0 skipped; [0-9]* protocol messages valid$' "$work/out" \
  || fail "not every case of the pile game passed, or a message was invalid"
# its setups carried the digest and the zones, as the schemas define them
grep -q '"op": *"setup".*"ruleset_digest": *"sha256:' "$work/r/protocol.jsonl" || fail "no digest sent"
grep -q '"op": *"setup".*"ruleset_zones": *{' "$work/r/protocol.jsonl" || fail "no zones sent"
echo "own game: 3 cases of pile-game.yaml pass against an engine of that game (invariants, strict)"

# the runner's file differs (one rule's text): same id, another digest
sed 's/Drawing from an empty deck does nothing./Drawing from an empty deck loses the game./' "$P" > "$work/pile-game.yaml"
cmp -s "$P" "$work/pile-game.yaml" && fail "the changed file is the same"
"$bin" gate --ruleset-file "$work/pile-game.yaml" --engine "$engine" --report-dir "$work/d" \
  "$dir/pile-cases" > "$work/out" 2>&1 || true
grep -q '^0 passed, 0 failed, 3 skipped$' "$work/out" || fail "another file's cases were not all skipped"
grep -q 'skipped: engine answered unsupported: rule set pile-game is another file here: digest sha256:[0-9a-f]\{64\}, the runner.s sha256:[0-9a-f]\{64\}' \
  "$work/out" || fail "the skip does not give the digests"
echo "own game: another file under the same id: every case skipped with the digests"

# a rule set the engine does not declare: skipped, with that reason
"$bin" gate --ruleset-file "$dir/tools.yaml" --engine "$engine" --report-dir "$work/t" \
  "$dir/tools-cases" > "$work/out" 2>&1 || true
grep -q '^0 passed, 0 failed, 2 skipped$' "$work/out" || fail "a foreign rule set's cases were not skipped"
grep -q "does not declare rule set tool-game" "$work/out" || fail "the skip does not say why"
echo "own game: a rule set it does not declare: skipped with the reason"

# ruleset_zones: the runner's file under the same id gives the table an
# order: the engine sees the zones are not its game's and refuses, with why
sed 's/^    arena: {value: true, rule: "PG 2"}$/&\n    ordered: {value: true, rule: "PG 2"}/' "$P" > "$work/pile-game.yaml"
grep -q 'ordered: {value: true, rule: "PG 2"}' "$work/pile-game.yaml" || fail "the zone was not changed"
"$bin" gate --ruleset-file "$work/pile-game.yaml" --engine "$engine" --report-dir "$work/z" \
  "$dir/pile-cases" > "$work/out" 2>&1 || true
grep -q '^0 passed, 0 failed, 3 skipped$' "$work/out" || fail "cases of other zones were not all skipped"
grep -q "rule set pile-game is not the pile game here: zone table: ordered is True, not False" "$work/out" \
  || fail "the skip does not say which zone differs"
echo "own game: the zones it is sent (ruleset_zones) tell it the rule set is not its game"

# smoke with the game's file and its cases: the core case is the user's,
# the run checks play it, and the malformed requests' valid setups carry
# the digest and zones the engine asks for (11 checks, none skipped)
"$bin" smoke --ruleset-file "$P" --engine "$engine" "$dir"/pile-cases/*.yaml > "$work/out" 2>&1 \
  || fail "smoke of the own game: exit $? ($(tail -1 "$work/out"))"
grep -q '^11 checks: 11 ok, 0 failed, 0 skipped' "$work/out" || fail "smoke of the own game: $(tail -1 "$work/out")"
grep -q '^ok   core case: case pile-game/' "$work/out" || fail "smoke's core case is not the user's"
# a CASE that does not load is the user's error, before any engine starts
printf 'id: x\n' > "$work/broken.yaml"
rc=0
"$bin" smoke --ruleset-file "$P" --engine "$engine" "$work/broken.yaml" > "$work/out" 2>&1 || rc=$?
[ "$rc" -eq 3 ] || fail "smoke with a broken CASE: exit $rc, expected 3"
grep -q "broken.yaml:1:1: error" "$work/out" || fail "smoke with a broken CASE does not say where ($(head -1 "$work/out"))"
echo "own game: smoke --ruleset-file with its cases: 11 checks ok; a broken CASE is exit 3 at FILE:LINE:COL"
