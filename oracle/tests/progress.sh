#!/usr/bin/env bash
# What run prints as it goes (oracle/cli/progress.c):
#  - into a pipe: a line per result in run order, no escape codes;
#  - on a terminal (script(1) gives one): the statuses in colour and a live
#    counter, and no colour at all with NO_COLOR=1;
#  - --max-fail N: stops after N failing results, says how many case files
#    were not run, exits 1, and the record's footer counts them;
#  - --max-fail 0 or a non-number is a usage error.
set -euo pipefail
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "progress: $*"; exit 1; }
"$bin" run --report-dir "$work/r1" "$src/cases/fab" > "$work/pipe.out"
n=$(grep -c '^PASS ' "$work/pipe.out")
want=$(grep -c '"status":"pass"' "$work/r1/run.jsonl")
[ "$n" -eq "$want" ] || fail "a pipe got $n PASS lines, the record has $want passes"
! grep -q $'\033' "$work/pipe.out" || fail "escape codes in piped output"
# the PASS lines come in the record's order
grep '^PASS ' "$work/pipe.out" | sed 's/^PASS \([^ ]*\) \[\(.*\)\]$/\1 \2/' > "$work/order.out"
python3 -c '
import json,sys
for l in open(sys.argv[1]):
    d=json.loads(l)
    if d["type"]=="case" and d["status"]=="pass": print(d["id"], d["ruleset"])' "$work/r1/run.jsonl" > "$work/order.rec"
cmp -s "$work/order.out" "$work/order.rec" || fail "PASS lines not in run order"
command -v script >/dev/null || fail "script(1) is missing (util-linux / bsdutils)"
script -qec "'$bin' run --quiet --mutant fab:look=hand_owner --report-dir '$work/r2' '$src/cases/fab'" /dev/null > "$work/tty.out" || true
grep -q $'\033\\[31mFAIL\033\\[0m' "$work/tty.out" || fail "no red FAIL on a terminal"
grep -q 'files\] [0-9]* passed · 4 failing' "$work/tty.out" || fail "no live counter on a terminal"
NO_COLOR=1 script -qec "'$bin' run --quiet --mutant fab:look=hand_owner --report-dir '$work/r3' '$src/cases/fab'" /dev/null > "$work/nocolor.out" || true
! grep -q $'\033\\[3[123]m' "$work/nocolor.out" || fail "colour despite NO_COLOR"
grep -q '^FAIL ' <(tr '\r' '\n' < "$work/nocolor.out" | sed 's/^\x1b\[K//') || fail "no FAIL line with NO_COLOR"
rc=0
"$bin" run --quiet --max-fail 2 --mutant fab:clear=none --report-dir "$work/r4" "$src/cases" > "$work/max.out" || rc=$?
[ "$rc" -eq 1 ] || fail "--max-fail 2: exit $rc, expected 1"
[ "$(grep -c '^FAIL ' "$work/max.out")" -eq 2 ] || fail "--max-fail 2 printed $(grep -c '^FAIL ' "$work/max.out") failures"
grep -q '^stopped after 2 failing results (--max-fail 2): [0-9]* case files not run$' "$work/max.out" || fail "no stop line"
tail -1 "$work/r4/run.jsonl" | grep -q '"not_run":[1-9]' || fail "footer lacks not_run"
python3 "$src/ci/protocol/validate_report.py" "$work/r4/run.jsonl" > "$work/valid.out" 2>&1 \
  || { cat "$work/valid.out"; fail "a --max-fail record does not hold to run-record.schema.json"; }
for bad in 0 x -1; do
  rc=0
  "$bin" run --max-fail "$bad" --report-dir "$work/r5" "$src/cases/fab" > /dev/null 2>&1 || rc=$?
  [ "$rc" -eq 2 ] || fail "--max-fail $bad: exit $rc, expected 2"
done
echo "progress: pipe lines in run order, colour and counter on a terminal, NO_COLOR, --max-fail"
