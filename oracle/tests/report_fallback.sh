#!/usr/bin/env bash
# The report set's commit where directories cannot be exchanged in one
# step (no renameat2: macOS, the BSDs, WebAssembly; forced here with
# ZO_REPORT_NO_EXCHANGE=1, report/report.h): the old DIR moved aside, the
# new set renamed in.
#  - two runs in a row: the second's set whole in DIR (every file names
#    its run id), the foreign file and folder of DIR kept, nothing left
#    beside DIR;
#  - a run killed between the two renames (DIR absent, the old one
#    aside, whole): the next run (which makes DIR again) brings back
#    the foreign entries and leaves nothing aside.
set -uo pipefail
bin=$1 src=$2 top=$(mktemp -d) work=$top/w
trap 'rm -rf "$top"' EXIT
mkdir "$work"
log=$top/log
fail() { echo "report_fallback: FAIL: $*"; exit 1; }
export ZO_REPORT_NO_EXCHANGE=1
r=$work/reports
mkdir -p "$r/keep"
echo mine > "$r/README"
echo deep > "$r/keep/notes"
run() { "$bin" run --report-dir "$r" --filter 'mtg/400.3*' "$src/cases" > "$log" 2>&1; }
run || fail "first run: exit $?: $(tail -3 "$log")"
id1=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["run_id"])' "$r/run.jsonl")
run || fail "second run: exit $?: $(tail -3 "$log")"
id2=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["run_id"])' "$r/run.jsonl")
[ "$id1" != "$id2" ] || fail "the second run's record is not in place"
for f in junit.xml summary.md index.html; do
  grep -qF "$id2" "$r/$f" || fail "$f does not name the second run ($id2): a mixed set"
done
! grep -q "file by file" "$log" || fail "the set was installed file by file: $(cat "$log")"
[ "$(cat "$r/README")" = mine ] && [ "$(cat "$r/keep/notes")" = deep ] || fail "DIR's own files were lost"
left=$(ls -A "$work" | grep -v '^reports$' || true)
[ -z "$left" ] || fail "left beside DIR: $left"
echo "two runs through the fallback: set whole ($id2), DIR's own files kept"

# a kill between the two renames, as the fallback leaves it
mv "$r" "$work/.reports.zoneoracle-old.20260101T000000Z-killed"
run || fail "run after the kill: exit $?: $(tail -3 "$log")"
[ "$(cat "$r/README")" = mine ] && [ "$(cat "$r/keep/notes")" = deep ] || fail "DIR's own files not recovered after a kill"
left=$(ls -A "$work" | grep -v '^reports$' || true)
[ -z "$left" ] || fail "left beside DIR after recovery: $left"
grep -qF "$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["run_id"])' "$r/run.jsonl")" "$r/index.html" ||
  fail "the set after the kill is not whole"
echo "a kill between the renames: the next run recovers DIR's own files, nothing left aside"
