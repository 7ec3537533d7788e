#!/usr/bin/env bash
# Reports that tell the truth: what real runs write holds to the JSON
# Schemas of ci/protocol (run-record, badge, known-gaps; checked by
# validate_report.py): a suite run, a gate run against `zoneoracle serve`,
# and a gate run against fake_engine with a crash, a failure, a skip, a
# known gap, a stale entry that passes now and one naming no case, whose
# reason reaches run.jsonl, junit.xml, summary.md and index.html. Then
# the same files corrupted one field at a time: each must be found
# invalid, so the check can fail.
#   report_schemas.sh ZONEORACLE FAKE_ENGINE SOURCE_DIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 ZONEORACLE FAKE_ENGINE SOURCE_DIR" >&2; exit 2; }
bin=$1 fake=$2 src=$3 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "report_schemas: FAIL: $*"; [ -f "$work/out" ] && { echo "--- output:"; tail -12 "$work/out"; }; exit 1; }
cd "$src" || exit 2
python3 -c 'import jsonschema, yaml' 2>/dev/null || { echo "report_schemas: no python3 jsonschema/yaml: skipped"; exit 77; }
check="python3 ci/protocol/validate_report.py"

# valid FILE...: every file valid
valid() { $check "$@" > "$work/out" 2>&1 || fail "not valid: $*"; }
# invalid WHAT PATTERN FILE: the file is found invalid, with PATTERN in the output
invalid() {
  $check "$3" > "$work/v.out" 2>&1
  local rc=$?
  [ "$rc" -eq 1 ] && grep -q -- "$2" "$work/v.out" || { cat "$work/v.out"; fail "$1: exit $rc, not found invalid ('$2')"; }
  echo "corrupted, found invalid: $1"
}

$check --check > "$work/out" 2>&1 || fail "the schemas do not load"
python3 ci/protocol/validate.py --check > "$work/out" 2>&1 || fail "validate.py --check with the new schemas beside"

# --- a suite run, a gate run against serve ------------------------------
"$bin" run --quiet --report-dir "$work/run" cases > "$work/out" 2>&1 || fail "the suite run"
valid "$work/run/run.jsonl"
"$bin" gate --quiet --engine "$bin serve" --report-dir "$work/serve" cases > "$work/out" 2>&1 || fail "gate serve"
valid "$work/serve/run.jsonl" "$work/serve/badge.json"
echo "valid: the suite run's run.jsonl ($(wc -l < "$work/run/run.jsonl") lines), gate serve's run.jsonl and badge.json"

# --- gate against fake_engine: failures, skips, known gaps ---------------
mkdir "$work/cases"
cp cases/mtg/eras/*.yaml "$work/cases/"
cp oracle/tests/ruleset-file/my-game-case.yaml "$work/cases/" # its rule set is the user's: a skip
sed -e 's/^id: .*/id: mtg\/eras\/zz-wrong.mtg-2011/' -e '0,/outcome: new_object_in_place/s//outcome: moved/' \
  cases/mtg/eras/exile-to-exile.mtg-2011.yaml > "$work/cases/zz-wrong.mtg-2011.yaml" # fails on any engine
sed 's/zz-wrong/zz-wrong-too/' "$work/cases/zz-wrong.mtg-2011.yaml" > "$work/cases/zz-wrong-too.mtg-2011.yaml"
crashing=$(sed -n 's/^id: //p' "$(ls "$work"/cases/*.yaml | sed -n 3p)") # fake_engine exit 3: the 3rd setup
reason='the "exile" rewrite: a | pipe, <markup> & été'
{
  echo "# the engine's known gaps"
  echo "# - id: $crashing"
  echo "#   reason: commented out, so it excuses nothing"
  echo "- id: mtg/eras/zz-wrong.mtg-2011"
  echo "  reason: '$reason'"
  echo "- {id: mtg/eras/ante-zones.mtg-1999, ruleset: mtg-1999, reason: fixed since}"
  echo "- {id: mtg/eras/no-such-case, reason: a typo}"
} > "$work/gaps.yaml"
valid "$work/gaps.yaml"
FAKE_ENGINE_COUNT="$work/count" "$bin" gate --engine "$fake exit 3" --ruleset-file oracle/tests/ruleset-file/my-game.yaml \
  --expect-failures "$work/gaps.yaml" --report-dir "$work/fake" "$work/cases" > "$work/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "gate fake_engine: exit $rc, expected 1"
r="$work/fake/run.jsonl"
for want in '"status":"crash"' '"status":"fail"' '"status":"xfail"' '"status":"xpass"' '"status":"skip"' '"type":"unknown_gap","id":"mtg/eras/no-such-case"'; do
  grep -q "$want" "$r" || fail "fake run: no $want in run.jsonl"
done
grep -q "\"id\":\"$crashing\",.*\"status\":\"crash\"" "$r" || fail "the commented-out entry excused $crashing"
python3 - "$r" "$reason" <<'EOF' || fail "the xfail line does not carry the reason"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1], encoding='utf-8')]
x = [l for l in lines if l.get('status') == 'xfail']
sys.exit(0 if len(x) == 1 and x[0]['reason'] == sys.argv[2] else 1)
EOF
grep -q '<skipped message="known gap: the &quot;exile&quot; rewrite: a | pipe, &lt;markup&gt; &amp; été">' "$work/fake/junit.xml" \
  || fail "junit.xml: no <skipped message=\"known gap: REASON\">"
grep -q '^| `mtg/eras/zz-wrong.mtg-2011` | mtg-2011 | the "exile" rewrite: a \\| pipe, &lt;markup> &amp; été |' "$work/fake/summary.md" \
  || fail "summary.md: the known gaps table lacks the reason"
grep -q '^## Stale known gaps (2)' "$work/fake/summary.md" || fail "summary.md: no stale entries"
grep -q '<p class="reason">known gap: the &quot;exile&quot; rewrite' "$work/fake/index.html" || fail "index.html: no reason"
grep -q 'names no case of the run' "$work/fake/index.html" || fail "index.html: no stale entry"
grep -q "^  $work/gaps.yaml:7: mtg/eras/no-such-case: names no case of the run (unknown)$" "$work/out" \
  || fail "the output does not list the unknown entry"
grep -q "^  $work/gaps.yaml:6: mtg/eras/ante-zones.mtg-1999 \[mtg-1999\]: passes now (xpass)$" "$work/out" \
  || fail "the output does not list the entry that passes now"
valid "$r" "$work/fake/badge.json"
echo "valid: gate fake_engine (crash, fail, skip, xfail with its reason in every report, xpass, unknown entry) and its badge"

# --- corrupted, one field at a time --------------------------------------
sed '/"status":"xfail"/s/"reason":/"reasons":/' "$r" > "$work/c1.jsonl"
invalid "an xfail line without its reason" "'reason' is a required property" "$work/c1.jsonl"
sed '/"type":"footer"/s/"passed":\([0-9]*\)/"passed":1\1/' "$r" > "$work/c2.jsonl"
invalid "the footer's passed total" "footer passed is" "$work/c2.jsonl"
sed '0,/"status":"pass"/s//"status":"passed"/' "$r" > "$work/c3.jsonl"
invalid "a case status" "at \$.status: 'passed' is not one of" "$work/c3.jsonl"
sed '/"type":"header"/s/"zoneoracle-run\/1"/"zoneoracle-run\/2"/' "$r" > "$work/c4.jsonl"
invalid "the header's format" "at \$.format" "$work/c4.jsonl"
sed '$d' "$r" > "$work/c5.jsonl"
invalid "no footer" "the last line, and only it, must be the footer" "$work/c5.jsonl"
sed '/"type":"unknown_gap"/s/"line":[0-9]*/"line":"7"/' "$r" > "$work/c6.jsonl"
invalid "an unknown_gap's line" "at \$.line: '7' is not of type 'integer'" "$work/c6.jsonl"
sed 's/"color":"red"/"color":"green"/' "$work/fake/badge.json" > "$work/c7.json"
invalid "the badge's colour" "at \$.color: 'green' is not one of" "$work/c7.json"
sed 's/"message":"/"message":"about /' "$work/fake/badge.json" > "$work/c8.json"
invalid "the badge's message" "at \$.message: 'about " "$work/c8.json"
sed 's/reason: a typo/reasons: a typo/' "$work/gaps.yaml" > "$work/c9.yaml"
invalid "a known gap's key" "'reasons' was unexpected" "$work/c9.yaml"
echo "report_schemas: all checks passed"
