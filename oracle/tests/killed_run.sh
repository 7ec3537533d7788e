#!/usr/bin/env bash
# One report set per run, never mixed (report.h): runs and gates writing to
# one report directory are killed with SIGKILL at random moments, 20 times;
# after each kill the directory holds either the previous complete set or
# the new complete set: run.jsonl with its header and footer naming one
# run id, junit.xml, summary.md and index.html naming the same run, and
# exactly the files of that kind of run (badge.json from a gate only,
# protocol.jsonl from gate --validate only), never a file of another run.
# The next complete run leaves no temporary file or directory behind, and
# what else the directory holds (a README, a folder) survives every kill.
# A second run on a directory in use exits 2 naming the first one's pid.
#   killed_run.sh ZONEORACLE SOURCE_DIR [KILLS]
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 ZONEORACLE SOURCE_DIR [KILLS]" >&2; exit 2; }
bin=$1 src=$2 kills=${3:-20} work=$(mktemp -d)
bg=""
trap '[ -n "$bg" ] && kill -9 "$bg" 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "killed_run: FAIL: $*"; exit 1; }
command -v python3 >/dev/null || fail "python3 is needed"

# a slowed suite: three copies of the case suite under their own ids
for i in 1 2 3; do
  mkdir -p "$work/suite/c$i"
  cp -r "$src/cases/." "$work/suite/c$i/"
  find "$work/suite/c$i" -name '*.yaml' -exec sed -i "s|^id: |id: c$i/|" {} +
done
dir="$work/r"
mkdir -p "$dir/fuzz-diff"
echo "not a report" > "$dir/README.md"
echo "keep me" > "$dir/fuzz-diff/keep.yaml"
# many foreign entries widen the commit: files hard-linked before the
# exchange, folders moved back after it; kills land there too
nfiles=800 ndirs=100
for i in $(seq 1 "$nfiles"); do echo "$i" > "$dir/note-$i.txt"; done
for i in $(seq 1 "$ndirs"); do mkdir "$dir/keep-$i" && echo "$i" > "$dir/keep-$i/x"; done

validate=0
python3 -c 'import jsonschema' 2>/dev/null && validate=1
# the three kinds of run, told apart by their number of cases
kind_args() { # kind -> the command's arguments
  case $1 in
    run) echo "run --quiet --report-dir $dir $work/suite" ;;
    gate) echo "gate --quiet --engine \"$bin serve\" --report-dir $dir $work/suite/c1 $work/suite/c2" ;;
    validate) echo "gate --quiet --validate --engine \"$bin serve\" --report-dir $dir $work/suite/c1/mtg/eras" ;;
  esac
}
z() { eval "\"$bin\" $(kind_args "$1")"; }
# the same in the background, zoneoracle itself the job ($! its pid)
zbg() { (eval "exec \"$bin\" $(kind_args "$1")") & }

# check_set: the report set in $dir is whole and of one run; prints
# "RUNID KIND CASES" (or "none" when there is no set yet)
check_set() {
  python3 - "$dir" "$n_run" "$n_gate" "$n_validate" <<'EOF'
import json, os, sys
d, counts = sys.argv[1], {int(sys.argv[2]): 'run', int(sys.argv[3]): 'gate', int(sys.argv[4]): 'validate'}
names = ['run.jsonl', 'junit.xml', 'summary.md', 'index.html', 'badge.json', 'protocol.jsonl']
have = {n for n in names if os.path.lexists(os.path.join(d, n))}
def bad(msg):
    sys.exit(f"{msg} (present: {sorted(have)})")
if 'run.jsonl' not in have:
    if have:
        bad('a set without run.jsonl')
    print('none'); sys.exit(0)
lines = open(os.path.join(d, 'run.jsonl'), encoding='utf-8').read().splitlines()
try:
    head, foot = json.loads(lines[0]), json.loads(lines[-1])
except Exception as e:
    bad(f'run.jsonl is not whole: {e}')
if head.get('type') != 'header' or foot.get('type') != 'footer':
    bad('run.jsonl lacks its header or footer')
rid = head.get('run_id')
if not rid or foot.get('run_id') != rid:
    bad(f'run.jsonl: header run {rid}, footer run {foot.get("run_id")}')
cases = sum(1 for l in lines if '"type":"case"' in l)
if cases != foot['passed'] + foot['failed'] + foot['errors'] + foot['skipped']:
    bad(f'run.jsonl: {cases} case lines, the footer counts otherwise')
kind = counts.get(cases)
if not kind:
    bad(f'run.jsonl: {cases} cases, of no known run')
want = {'run.jsonl', 'junit.xml', 'summary.md', 'index.html'}
if kind != 'run': want.add('badge.json')
if kind == 'validate': want.add('protocol.jsonl')
if have != want:
    bad(f'a {kind} set with files {sorted(have)}, expected {sorted(want)}')
for n, mark in (('junit.xml', f'<!-- zoneoracle run {rid} -->'), ('summary.md', f'<!-- zoneoracle run {rid} -->'),
                ('index.html', f'<meta name="zoneoracle-run" content="{rid}">')):
    if mark not in open(os.path.join(d, n), encoding='utf-8').read():
        bad(f'{n} is not from run {rid}')
if 'badge.json' in want:
    b = json.load(open(os.path.join(d, 'badge.json')))
    if b.get('schemaVersion') != 1 or f'{foot["passed"]} passed' not in b.get('message', ''):
        bad(f'badge.json is not the badge of run {rid}: {b}')
if 'protocol.jsonl' in want:
    for l in open(os.path.join(d, 'protocol.jsonl'), encoding='utf-8'):
        json.loads(l)
print(rid, kind, cases)
EOF
}

# leftovers: temporary directories beside or in $dir, temporary files in it
stale() {
  { ls -A "$work" | grep -E '^\.r\.zoneoracle-tmp\.'
    ls -A "$dir" | grep -E '^\.zoneoracle-tmp\.|\.tmp\.[0-9]+$'; } 2>/dev/null
}
foreign_ok() {
  [ "$(cat "$dir/README.md" 2>/dev/null)" = "not a report" ] &&
    [ "$(cat "$dir/fuzz-diff/keep.yaml" 2>/dev/null)" = "keep me" ] &&
    [ "$(cat "$dir"/note-*.txt | wc -l)" -eq "$nfiles" ] && [ "$(cat "$dir"/keep-*/x | wc -l)" -eq "$ndirs" ]
}

# the full length of each kind, and a first set
kinds="run gate"
[ "$validate" -eq 1 ] && kinds="$kinds validate"
declare -A dur
n_run=0 n_gate=0 n_validate=0
for k in $kinds; do
  t0=$(date +%s%N)
  z "$k" > "$work/out" 2>&1 || { tail -5 "$work/out"; fail "a complete $k: exit $?"; }
  dur[$k]=$(( ($(date +%s%N) - t0) / 1000000 ))
  n=$(grep -c '"type":"case"' "$dir/run.jsonl")
  eval "n_$k=$n"
done
[ "$validate" -eq 1 ] || n_validate=-1
prev=$(check_set) || fail "after complete runs: $prev"
echo "complete: run ${dur[run]} ms ($n_run cases), gate ${dur[gate]} ms ($n_gate)${dur[validate]:+, gate --validate ${dur[validate]} ms ($n_validate)}; set $prev"
[ -z "$(stale)" ] || fail "complete runs left: $(stale | tr '\n' ' ')"
foreign_ok || fail "a complete run lost README.md or fuzz-diff/"

# --- kill -9 at random moments ---------------------------------------------
RANDOM=4242
set -- $kinds
nk=$#
replaced=0 caught=0
for i in $(seq 1 "$kills"); do
  eval "k=\${$(( (i - 1) % nk + 1 ))}"
  # anywhere from the start to just past the usual end; every other kill
  # in the last 40% (the reports and their commit)
  if [ $((i % 2)) -eq 0 ]; then at=$(( RANDOM % (dur[$k] * 11 / 10 + 1) ))
  else at=$(( dur[$k] * 7 / 10 + RANDOM % (dur[$k] * 4 / 10 + 1) )); fi
  zbg "$k" > "$work/out-$i" 2>&1
  bg=$!
  sleep "$(printf '%d.%03d' $((at / 1000)) $((at % 1000)))"
  kill -9 "$bg" 2>/dev/null
  wait "$bg" 2>/dev/null
  rc=$?
  bg=""
  now=$(check_set) || fail "kill $i ($k at $at ms): the report directory is not one whole set: $now"
  [ "$now" = "$prev" ] || replaced=$((replaced + 1))
  # caught between the exchange and the move back: folders in the old set
  between=""
  for t in "$work"/.r.zoneoracle-tmp.*; do
    [ -d "$t" ] && ls "$t" | grep -q '^keep-' && between=" (caught between the exchange and the folders' move back)" && caught=$((caught + 1))
  done
  echo "kill $i: $k at $at ms (exit $rc): $([ "$now" = "$prev" ] && echo "the previous set" || echo "a new set") ($now)$between"
  prev=$now
done

# --- the next complete run cleans up ----------------------------------------
# besides what the kills left, the leftovers of a kill at each point: an
# old set caught between the exchange and the move back of a folder, a
# staging directory of the file-by-file fallback, temporary files of a
# dead process (in the report directory and in a staging directory)
sh -c 'exit 0' &
dead=$!
wait "$dead"
mkdir -p "$work/.r.zoneoracle-tmp.20000101T000000Z-killed/late-folder" "$dir/.zoneoracle-tmp.20000101T000000Z-killed"
echo late > "$work/.r.zoneoracle-tmp.20000101T000000Z-killed/late-folder/x"
echo old > "$work/.r.zoneoracle-tmp.20000101T000000Z-killed/run.jsonl"
echo tmp > "$work/.r.zoneoracle-tmp.20000101T000000Z-killed/index.html.tmp.$dead"
echo half > "$dir/.zoneoracle-tmp.20000101T000000Z-killed/junit.xml"
echo half > "$dir/junit.xml.tmp.$dead"
z run > "$work/out" 2>&1 || { tail -5 "$work/out"; fail "the run after the kills: exit $?"; }
final=$(check_set) || fail "after the kills, a complete run: $final"
[ -z "$(stale)" ] || fail "the run after the kills left: $(stale | tr '\n' ' ')"
foreign_ok || fail "README.md or fuzz-diff/ lost"
[ "$(cat "$dir/late-folder/x" 2>/dev/null)" = late ] || fail "a folder caught between the exchange and its move back was not moved back"
rm -r "$dir/late-folder"
echo "$kills kills: every time one whole set ($replaced times a new one, $caught times with folders to move back); the next run left nothing stale and every foreign file and folder in place"

# --- two runs on one directory: the second exits 2 naming the first -------
zbg run > "$work/out-first" 2>&1
bg=$!
for _ in $(seq 1 200); do # until the first holds the lock (its staging directory exists)
  ls -A "$work" | grep -q '^\.r\.zoneoracle-tmp\.' && break
  sleep 0.01
done
"$bin" run --quiet --report-dir "$dir" "$work/suite/c1" > "$work/out" 2>&1
rc=$?
wait "$bg"
rc1=$?
bg=""
[ "$rc" -eq 2 ] && grep -q "report directory $dir is in use by another zoneoracle run (pid [0-9]*)" "$work/out" \
  || { cat "$work/out"; fail "a second run on a directory in use: exit $rc"; }
[ "$rc1" -eq 0 ] || fail "the first run: exit $rc1"
check_set > /dev/null || fail "after two runs"
echo "a second run on a directory in use: exit 2, '$(tail -1 "$work/out")'"

# --- the current directory as report directory: file by file, whole files ----
(cd "$dir" && z run > "$work/out" 2>&1) || fail "a run from inside the report directory: exit $?"
grep -q 'replaced file by file, not as a whole (it is or contains the current directory)' "$work/out" \
  || { cat "$work/out"; fail "no note on the file-by-file fallback"; }
check_set > /dev/null || fail "after the file-by-file fallback"
[ -z "$(stale)" ] || fail "the file-by-file fallback left: $(stale | tr '\n' ' ')"
[ ! -e "$dir/badge.json" ] || fail "a run's set keeps a gate's badge.json"
echo "the current directory as report directory: replaced file by file, with a note"
echo "killed_run: all checks passed"
