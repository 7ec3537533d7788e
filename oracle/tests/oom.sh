#!/usr/bin/env bash
# Out of memory is a clean error, never a verdict (util.h): with
# ZO_FAIL_MALLOC_AFTER=N (debug builds) the allocation after the first N
# fails. For N across the whole of a run (and of check), zoneoracle exits
# 2 with exactly one line "zoneoracle: out of memory while <what it was
# doing>" on stderr, reports no case invalid, failed or errored, and
# leaves the report directory holding one whole set (the previous one, or
# the new one when the failure came after its commit). The next run
# removes what the failed ones left. Exit 77 (skipped) for a build without
# the injection (NDEBUG).
#   oom.sh ZONEORACLE SOURCE_DIR
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 ZONEORACLE SOURCE_DIR" >&2; exit 2; }
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "oom: FAIL: $*"; [ -f "$work/err" ] && { echo "--- stderr:"; head -5 "$work/err"; }; exit 1; }
cases="$src/cases/mtg/eras"
dir="$work/r"

ZO_FAIL_MALLOC_AFTER=0 "$bin" check "$cases" > /dev/null 2>&1
if [ $? -ne 2 ]; then echo "oom: skipped: this build has no ZO_FAIL_MALLOC_AFTER (NDEBUG)"; exit 77; fi

"$bin" run --quiet --report-dir "$dir" "$cases" > "$work/out" 2>&1 || { cat "$work/out"; fail "the run without injection"; }
total=$(grep -c '"type":"case"' "$dir/run.jsonl")

# the run id of the whole set in $dir (fails on a mix or a partial set)
set_id() {
  local id
  id=$(head -1 "$dir/run.jsonl" | sed -n 's/.*"run_id":"\([^"]*\)".*/\1/p')
  [ -n "$id" ] && tail -1 "$dir/run.jsonl" | grep -q "\"type\":\"footer\",\"run_id\":\"$id\"" \
    && grep -q "zoneoracle run $id" "$dir/junit.xml" && grep -q "zoneoracle run $id" "$dir/summary.md" \
    && grep -q "content=\"$id\"" "$dir/index.html" || return 1
  echo "$id"
}

# one_line: stderr is exactly one out-of-memory line (its activity in $what)
one_line() {
  [ "$(wc -l < "$work/err")" -eq 1 ] || return 1
  what=$(sed -n 's/^zoneoracle: out of memory while \(..*\)$/\1/p' "$work/err")
  [ -n "$what" ]
}

# N: small ones, then spread over the whole run (deterministic), until a run succeeds
ns="0 1 2 3 5 8 13 21 34 55 89 144 233 377 610 987"
x=1597
# (a run also computes the report's transition tables: thousands of games)
while [ "$x" -lt 4000000 ]; do ns="$ns $x $((x + x / 3))"; x=$((x * 2)); done
declare -A seen
ooms=0
prev=$(set_id) || fail "the first set is not whole"
for n in $ns; do
  ZO_FAIL_MALLOC_AFTER=$n "$bin" run --quiet --report-dir "$dir" "$cases" > "$work/out" 2> "$work/err"
  rc=$?
  if [ "$rc" -eq 0 ]; then
    [ ! -s "$work/err" ] || fail "N=$n: exit 0 with a message"
    break # past the run's last allocation
  fi
  [ "$rc" -eq 2 ] || fail "N=$n: exit $rc, expected 2"
  one_line || fail "N=$n: not one 'zoneoracle: out of memory while ...' line"
  ! grep -qE '^(FAIL|ERROR|CRASH|TIMEOUT) |error:' "$work/out" || fail "N=$n: a case reported as failing"
  id=$(set_id) || fail "N=$n ($what): the report directory is not one whole set"
  if [ "$id" != "$prev" ]; then # committed before the failure: the new set is the run's
    n_cases=$(grep -c '"type":"case"' "$dir/run.jsonl")
    [ "$n_cases" -eq "$total" ] && ! grep -q '"type":"invalid"' "$dir/run.jsonl" \
      && grep -q "\"passed\":$total," "$dir/run.jsonl" || fail "N=$n: a committed set with wrong verdicts"
    prev=$id
  fi
  seen[$what]=1
  ooms=$((ooms + 1))
done
[ "$rc" -eq 0 ] || fail "every N ran out of memory: raise the range"
[ "$ooms" -ge 20 ] || fail "only $ooms runs out of memory"
echo "run: $ooms runs out of memory, each exit 2 with one line, no verdict; while: $(printf '%s; ' "${!seen[@]}")"

# check: out of memory is exit 2, never 3 (invalid case files)
checks=0
for n in 0 1 10 100 300 1000 3000 10000 30000; do
  ZO_FAIL_MALLOC_AFTER=$n "$bin" check "$cases" > "$work/out" 2> "$work/err"
  rc=$?
  [ "$rc" -eq 0 ] && break
  [ "$rc" -eq 2 ] || fail "check N=$n: exit $rc, expected 2"
  one_line || fail "check N=$n: not one out-of-memory line"
  checks=$((checks + 1))
done
echo "check: $checks times out of memory, each exit 2 with one line ('$what'), never an invalid file"

# the next run removes what the failed ones left
"$bin" run --quiet --report-dir "$dir" "$cases" > "$work/out" 2>&1 || { cat "$work/out"; fail "the run after"; }
set_id > /dev/null || fail "the run after: not one whole set"
left=$( { ls -A "$work" | grep -E '^\.r\.zoneoracle-tmp\.'; ls -A "$dir" | grep -E '^\.zoneoracle-tmp\.|\.tmp\.[0-9]+$'; } )
[ -z "$left" ] || fail "left behind: $left"
echo "oom: all checks passed"
