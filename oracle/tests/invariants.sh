#!/usr/bin/env bash
# zoneoracle gate --invariants: INVARIANTS.md checked on an engine's
# observations. The oracle over zcp/1 (serve) and the Python adapter never
# break one on the whole suite; fake engines that lie in ways no case's
# expectations look at pass without --invariants and fail with it, each
# case naming the invariant, its rule, the object and the step.
#   invariants.sh ZONEORACLE FAKE_ENGINE SOURCE_DIR
set -uo pipefail
bin=$1 fake=$2 src=$3 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data="$src/oracle/tests/invariants"
cd "$src" || exit 1
die() { echo "$*"; exit 1; }

# (a) the oracle over zcp/1 and the Python adapter: no invariant broken
"$bin" gate --invariants --engine "$bin serve" --quiet --report-dir "$work/serve" cases > "$work/serve.txt" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { tail -5 "$work/serve.txt"; die "serve --invariants: exit $rc, expected 0"; }
echo "serve: every case passes with --invariants ($(tail -1 "$work/serve.txt"))"
"$bin" run --invariants --quiet --report-dir "$work/run" cases > "$work/run.txt" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { tail -5 "$work/run.txt"; die "run --invariants: exit $rc, expected 0"; }
echo "run: the oracle's own observations break no invariant"
if command -v python3 >/dev/null; then
  "$bin" gate --invariants --engine "python3 ci/adapters/python/engine.py" --quiet \
    --report-dir "$work/python" cases > "$work/python.txt" 2>&1
  n=$(grep -c '"what":"invariant ' "$work/python/run.jsonl")
  [ "$n" -eq 0 ] || { grep '"what":"invariant ' "$work/python/run.jsonl" | head -3; die "python adapter: $n invariant failures"; }
  echo "python adapter: no invariant failures ($(tail -1 "$work/python.txt"))"
fi

# (b) lying engines: invisible to the cases' expectations, caught by --invariants
expect_caught() { # mode invariant how-many detail-pattern
  "$bin" gate --engine "$fake $1" --quiet --report-dir "$work/$1-plain" "$data" > "$work/$1-plain.txt" 2>&1
  rc=$?
  [ "$rc" -eq 0 ] || { cat "$work/$1-plain.txt"; die "$1 without --invariants: exit $rc, expected 0"; }
  ! grep -q '"what":"invariant ' "$work/$1-plain/run.jsonl" || die "$1: an invariant failure without --invariants"
  "$bin" gate --invariants --engine "$fake $1" --quiet --report-dir "$work/$1" "$data" > "$work/$1.txt" 2>&1
  rc=$?
  [ "$rc" -eq 1 ] || { cat "$work/$1.txt"; die "$1 with --invariants: exit $rc, expected 1"; }
  n=$(grep -c "\"status\":\"fail\".*\"what\":\"invariant $2\"" "$work/$1/run.jsonl")
  [ "$n" -eq "$3" ] || { cat "$work/$1.txt"; die "$1: $n cases fail with invariant $2, expected $3"; }
  grep -q "invariant $2 (.*) broken after step [0-9]* (.*): $4" "$work/$1.txt" \
    || { cat "$work/$1.txt"; die "$1: the message lacks the rule, step or object"; }
  grep -q "<failure message=\"[^\"]*invariant $2" "$work/$1/junit.xml" || die "$1: junit.xml lacks the failure"
  echo "$1: passes without --invariants; with it, $n case(s) fail with 'invariant $2'"
}
expect_caught lyingtoken tokens-in-arena 2 "goblin: a token in alice.graveyard at rest"
expect_caught sameid identity-rule 1 "bear: moved (battlefield -> alice.graveyard) and stayed the same object"

# an object reported in a zone that does not exist (the `lie` engine of
# gate.sh): in-a-zone, with the step and the zone named, citing only the
# Magic rule (the rule sets are mtg ones: FaB 3.0.1 is dropped, issue 31)
"$bin" gate --invariants --engine "$fake lie" --quiet --report-dir "$work/lie" cases/mtg/eras > "$work/lie.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -q "invariant in-a-zone (CR 400.1) broken after step 1 (.*): .*in 'nowhere', not a zone of rule set" "$work/lie.txt" \
  || { head -5 "$work/lie.txt"; die "lie: exit $rc, or no in-a-zone failure"; }
echo "lie: an object in no zone of the rule set is 'invariant in-a-zone'"
