#!/usr/bin/env bash
# Known gaps as data, and run records that are what they say:
#   - the --expect-failures file is YAML, checked like a case file: each
#     mistake is "FILE:LINE:COL: error: ..." and exit 2 before any engine
#     starts; comments excuse nothing; an entry may name one rule set;
#   - stale entries (a case that passes now, an id naming no case) are
#     listed; entries outside --filter or --shard are not called unknown;
#   - `known-gaps --update FILE RUN.jsonl` writes FILE from a run with
#     failures, a gate then passes with them as known gaps, and a second
#     --update leaves FILE byte for byte; reasons are kept, entries whose
#     case passes or is gone are dropped;
#   - `diff` (and known-gaps) refuse what is not a run record:
#     "FILE:LINE: not a run record: ...", exit 2.
#   known_gaps.sh ZONEORACLE SOURCE_DIR
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 ZONEORACLE SOURCE_DIR" >&2; exit 2; }
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "known_gaps: FAIL: $*"; [ -f "$work/out" ] && { echo "--- output:"; tail -12 "$work/out"; }; exit 1; }
cd "$src" || exit 2
# a fixed set of era scenarios: the counts and sizes below are theirs
. oracle/tests/fixed_eras.sh
eras=$work/eras
fixed_eras "$eras" || exit 2
mutant=mtg-2011:phasing=none # fails two cases of $eras on the oracle
serve="$bin serve --mutant $mutant"
# z CODE ARGS...: zoneoracle ARGS exits CODE (stdout and stderr in $work/out)
z() {
  local code=$1
  shift
  "$bin" "$@" > "$work/out" 2>&1
  rc=$?
  [ "$rc" -eq "$code" ] || fail "zoneoracle $*: exit $rc, expected $code"
}

# --- the file, checked before anything runs ------------------------------
# bad TEXT MESSAGE: gate with that file exits 2 with MESSAGE (FILE:LINE:COL:
# error: ...), and no report set was started
bad() {
  printf -- "$1" > "$work/bad.yaml"
  z 2 gate --engine "$work/no-such-engine" --expect-failures "$work/bad.yaml" --report-dir "$work/never" "$eras"
  grep -qF -- "$work/bad.yaml:$2" "$work/out" || fail "'$1': no '$2'"
  [ ! -e "$work/never" ] || fail "'$1': a report directory was made before the list was checked"
}
bad '- id: a\n  resaon: x\n' "2:3: error: unknown key 'resaon' in a known gap (did you mean 'reason'?"
bad '- id: a\n' "1:3: error: known gap 'a' has no reason"
bad '- id: a\n  reason: ""\n' "2:11: error: 'reason' is empty"
bad '- {id: a, reason: x}\n- {id: a, reason: y}\n' "2:3: error: known gap 'a' is listed already (line 1)"
bad '- {id: a, reason: x}\n- {id: a, ruleset: fab, reason: y}\n' "2:3: error: known gap 'a' [fab] is listed already (line 1, for every rule set)"
bad 'known_gaps:\n  - {id: a, reason: x}\n' "1:1: error: expected a list of known gaps"
bad '- a\n' "1:3: error: a known gap is a map"
bad '- {id: a, reason: [x]}\n' "1:19: error: 'reason' must be text, not a list"
bad '- {id: a, reason: x\n' "2:1: error: YAML syntax"
printf -- '- {id: a, reason: x}\n- {id: a, reason: y}\n' > "$work/bad.yaml"
z 2 known-gaps "$work/bad.yaml"
grep -q "bad.yaml:2:3: error: known gap 'a' is listed already" "$work/out" || fail "known-gaps FILE does not check it"
echo "invalid lists: FILE:LINE:COL: error and exit 2 before anything runs (9 mistakes); known-gaps FILE checks the same"

# --- comments, rule sets, stale entries ------------------------------------
failing=$("$bin" run --quiet --mutant "$mutant" --report-dir "$work/m" "$eras" | sed -n 's/^FAIL \([^ ]*\) .*/\1/p')
[ "$(wc -l <<<"$failing")" -eq 2 ] || fail "the mutant $mutant does not fail two cases of $eras: $failing"
one=$(head -1 <<<"$failing") two=$(tail -1 <<<"$failing")
{
  echo "- id: $one"
  echo "  reason: known"
  echo "# - id: $two"
  echo "- {id: $two, ruleset: mtg-1999, reason: the wrong rule set}"
  echo "- {id: mtg/eras/ante-zones.mtg-2004, reason: passes}"
  echo "- {id: mtg/eras/gone, reason: renamed}"
} > "$work/g.yaml"
z 1 gate --quiet --engine "$serve" --expect-failures "$work/g.yaml" --report-dir "$work/g1" "$eras"
grep -q "^FAIL $two \[mtg-2011\]" "$work/out" || fail "a commented-out entry or another rule set's excused $two"
grep -q "^known gaps $work/g.yaml: stale entries, take them off the list (zoneoracle known-gaps --update $work/g.yaml $work/g1/run.jsonl):$" "$work/out" \
  || fail "no stale entries listed"
grep -q "^  $work/g.yaml:5: mtg/eras/ante-zones.mtg-2004 \[mtg-2004\]: passes now (xpass)$" "$work/out" || fail "xpass not listed"
grep -q "^  $work/g.yaml:6: mtg/eras/gone: names no case of the run (unknown)$" "$work/out" || fail "unknown id not listed"
grep -q "^  $work/g.yaml:4: $two \[mtg-1999\]: names no case of the run (unknown)$" "$work/out" || fail "unknown rule set not listed"
grep -q '"type":"unknown_gap","id":"mtg/eras/gone","reason":"renamed","file":"'"$work"'/g.yaml","line":6}' "$work/g1/run.jsonl" \
  || fail "run.jsonl: no unknown_gap line"
grep -q '"unknown_gaps":2,' "$work/g1/run.jsonl" || fail "run.jsonl: the footer does not count 2 unknown gaps"
z 1 gate --quiet --engine "$serve" --expect-failures "$work/g.yaml" --filter 'mtg/eras/[ap]*' --report-dir "$work/g2" "$eras"
grep -q "mtg/eras/gone" "$work/out" && fail "--filter: an entry outside the filter called unknown"
"$bin" gate --quiet --engine "$serve" --expect-failures "$work/g.yaml" --shard 1/2 --report-dir "$work/g2" "$eras" \
  > "$work/out" 2>&1 # passes or fails by what this shard holds
grep -q "names no case" "$work/out" && fail "--shard: an entry called unknown"
echo "comments excuse nothing, ruleset: names one; stale entries listed (xpass, unknown id, unknown rule set), none outside --filter or --shard"

# --- known-gaps --update: a round trip -------------------------------------
kg="$work/known-gaps.yaml"
z 1 gate --quiet --engine "$serve" --report-dir "$work/r1" "$eras"
z 0 known-gaps --update "$kg" "$work/r1/run.jsonl"
grep -q "^$kg: written, 2 known gaps$" "$work/out" && grep -q "^$kg: 2 entries with the reason \"TODO: why does it fail?\"" "$work/out" \
  || fail "--update: not written, or the TODO reasons not pointed out"
grep -q "^$kg: new: $one \[mtg-2011\]" "$work/out" || fail "--update: the new entries are not listed"
[ "$(grep -c '^- id: ' "$kg")" -eq 2 ] && [ "$(grep -c '^  reason: "TODO: why does it fail?"$' "$kg")" -eq 2 ] \
  || fail "--update wrote: $(cat "$kg")"
z 0 run --quiet --engine "$serve" --expect-failures "$kg" --report-dir "$work/r2" "$eras"
grep -q "; 2 xfail, 0 xpass" "$work/out" || fail "run --engine with the written list: not 2 known gaps"
z 0 gate --quiet --engine "$serve" --expect-failures "$kg" --report-dir "$work/r2" "$eras"
cp "$kg" "$work/before.yaml"
z 0 known-gaps --update "$kg" "$work/r1/run.jsonl"
cmp -s "$kg" "$work/before.yaml" && grep -q "^$kg: up to date, 2 known gaps$" "$work/out" || fail "a second --update changed the file"
z 0 known-gaps --update "$kg" "$work/r2/run.jsonl"
cmp -s "$kg" "$work/before.yaml" || fail "--update from the run with the list changed the file"
z 0 known-gaps "$kg" "$work/r2/run.jsonl"
echo "--update: written from a run with 2 failures; gate and run --engine pass with them; --update again: byte-identical"

# reasons kept, fixed and gone entries dropped, odd text quoted back as it was
sed -i "0,/TODO: why does it fail?/s//our \\\\\"phasing\\\\\": \\\\u00e9t\\\\u00e9 | <b> \\\\t tab/" "$kg"
echo '- {id: mtg/eras/gone, reason: renamed}' >> "$kg"
z 0 known-gaps "$kg"
z 1 known-gaps "$kg" "$work/r2/run.jsonl"
grep -q "^$kg: not up to date with the run: 1 entry to drop or add" "$work/out" || fail "check mode: $(cat "$work/out")"
z 0 gate --quiet --engine "$bin serve" --report-dir "$work/r3" "$eras"/phas* # one passes now
z 0 known-gaps --update "$kg" "$work/r1/run.jsonl" "$work/r3/run.jsonl" # a failure in any record keeps its entry
grep -q "^$kg:11: mtg/eras/gone: dropped, it names no case of the run$" "$work/out" || fail "the gone entry is not dropped"
[ "$(grep -c '^- id: ' "$kg")" -eq 2 ] || fail "two records: $(cat "$kg")"
z 0 known-gaps --update "$kg" "$work/r3/run.jsonl"
grep -q "^$kg:[0-9]*: $one \[mtg-2011\]: dropped, it passes now$" "$work/out" || fail "the fixed entry is not dropped"
[ "$(grep -c '^- id: ' "$kg")" -eq 0 ] && grep -q '^\[\]$' "$kg" || fail "after the fixes: $(cat "$kg")"
cp "$work/before.yaml" "$kg"
sed -i "0,/TODO: why does it fail?/s//our \\\\\"phasing\\\\\": \\\\u00e9t\\\\u00e9 | <b> \\\\t tab/" "$kg"
z 0 known-gaps --update "$kg" "$work/m/run.jsonl"
grep -q '^  reason: "our \\"phasing\\": été | <b> \\t tab"$' "$kg" || fail "the edited reason was not kept: $(cat "$kg")"
cp "$kg" "$work/before.yaml"
z 0 known-gaps --update "$kg" "$work/m/run.jsonl"
cmp -s "$kg" "$work/before.yaml" || fail "a reason with quotes, escapes and UTF-8 does not come back the same"
z 0 gate --quiet --engine "$serve" --expect-failures "$kg" --report-dir "$work/r4" "$eras"
grep -q '"reason":"our \\"phasing\\": été | <b> \\t tab"' "$work/r4/run.jsonl" || fail "the reason is not in run.jsonl as written"
echo "--update keeps edited reasons (quotes, escapes, UTF-8 round-trip), drops fixed and gone entries"

# --- what is not a run record --------------------------------------------
r="$work/r1/run.jsonl"
: > "$work/empty.jsonl"
tail -n +2 "$r" > "$work/noheader.jsonl"
sed '1s/"zoneoracle-run\/1"/"zoneoracle-run\/2"/' "$r" > "$work/format.jsonl"
sed '3s/"type":"case"/"type":"kase"/' "$r" > "$work/type.jsonl"
sed '$d' "$r" > "$work/nofooter.jsonl"
echo '{"dir":"request","op":"hello","message":{}}' > "$work/transcript.jsonl"
# refused FILE LINE WHY: diff and known-gaps say FILE:LINE: not a run record: WHY, exit 2
refused() {
  z 2 diff "$r" "$work/$1"
  grep -qxF "$work/$1:$2: not a run record: $3" "$work/out" || fail "diff $1: $(cat "$work/out")"
  z 2 diff "$work/$1" "$r"
  z 2 known-gaps --update "$work/kg-$1.yaml" "$work/$1"
  grep -qxF "$work/$1:$2: not a run record: $3" "$work/out" && [ ! -e "$work/kg-$1.yaml" ] || fail "known-gaps $1"
}
refused empty.jsonl 1 "the file is empty"
refused noheader.jsonl 1 "the first line is a 'case' line, not the header"
refused format.jsonl 1 "the header's format is 'zoneoracle-run/2', not zoneoracle-run/1"
refused type.jsonl 3 "a line of unknown type 'kase'"
refused nofooter.jsonl "$(wc -l < "$work/nofooter.jsonl")" "no footer line (the record is cut short)"
refused transcript.jsonl 1 'a line without a "type"'
z 0 diff "$r" "$work/r2/run.jsonl"
echo "diff and known-gaps refuse an empty file, no header, another format, an unknown line type, no footer, a transcript"
echo "known_gaps: all checks passed"
