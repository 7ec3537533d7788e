#!/usr/bin/env bash
# zoneoracle gate against hostile engines: fake_engine's misbehaving modes
# (process engines, one exec'd directly and one through /bin/sh) and a
# misbehaving plugin in its forked worker. For each, on 4 cases with
# --timeout 0.5, the gate must
#   - finish within cases x timeout (+ slack; `timeout` is only a safety net,
#     and failing if it fires),
#   - exit 1 (or 0 for an engine whose misbehaviour must not matter, 4 when
#     the engine cannot even start: then the reason is on stderr),
#   - account for every case in run.jsonl (one valid JSON line each: the
#     messages are valid UTF-8), with the expected status and message,
#   - leave no process behind: none with the behaviour's unique marker in
#     `ps` afterwards, where there was none before,
#   - leave no stderr capture directory behind (TMPDIR is the test's own).
#   hostile.sh ZONEORACLE FAKE_ENGINE HOSTILE_PLUGIN|"" SOURCE_DIR
set -uo pipefail
bin=$1 fake=$2 plugin=$3 src=$4 work=$(mktemp -d "${TMPDIR:-/tmp}/zo-hostile.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tmp"
cases=("$src/cases/mtg/401.2-library-position-bottom.yaml"
       "$src/cases/mtg/401.2-library-position-top-default.yaml"
       "$src/cases/mtg/401.8-library-position-index.yaml"
       "$src/cases/mtg/609.3-mill-more-than-library-moves-what-there-is.yaml")
n=${#cases[@]} to=0.5 slack=3
limit=$(awk -v n="$n" -v t="$to" -v s="$slack" 'BEGIN { print n * t + s }')
failures=0 tried=0
bad() { echo "FAIL $name: $*"; failures=$((failures + 1)); }

# leftover MARKER: processes whose command line holds MARKER (zombies have
# none), after up to 1 s for killed ones to be gone
leftover() {
  local k
  for k in 1 2 3 4 5 6 7 8 9 10; do
    ps -eo pid=,pgid=,stat=,args= | grep -F -- "$1" | grep -v -e ' grep ' -e "^ *[0-9]* *[0-9]* Z" > "$work/ps" || true
    [ -s "$work/ps" ] || { echo 0; return; }
    sleep 0.1
  done
  wc -l < "$work/ps"
}

# check NAME RC STATUS PATTERN KIND ENGINE: run the gate against ENGINE
# (KIND: --engine or --engine-plugin) and check it as said above; STATUS
# ("-" none) must be the status of at least one case, PATTERN ("" none) an
# extended regex found in run.jsonl (or in the output when RC is 4).
check() {
  name=$1
  local rc_want=$2 status=$3 pattern=$4 kind=$5 engine=$6 marker=$7
  tried=$((tried + 1))
  local before after rc t0 t1 dir="$work/$marker"
  before=$(leftover "$marker")
  rm -f "$work/count"
  t0=$(date +%s.%N)
  FAKE_ENGINE_COUNT="$work/count" HOSTILE_COUNT="$work/count" TMPDIR="$work/tmp" \
    timeout -k 2 30 "$bin" gate "$kind" "$engine" --timeout "$to" --quiet --report-dir "$dir" "${cases[@]}" \
    > "$work/out" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  local took
  took=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  after=$(leftover "$marker")
  local accounted=-
  [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || { bad "still running after 30 s"; return; }
  awk -v a="$took" -v l="$limit" 'BEGIN { exit !(a <= l) }' || bad "took $took s, more than $limit s"
  [ "$rc" -eq "$rc_want" ] || { bad "exit $rc, expected $rc_want"; tail -3 "$work/out"; }
  if [ "$rc_want" -eq 4 ]; then
    grep -q "could not be started or driven" "$work/out" || bad "no reason given for exit 4"
    [ -z "$pattern" ] || grep -Eq -- "$pattern" "$work/out" || { bad "output lacks /$pattern/"; tail -3 "$work/out"; }
  else
    accounted=$(grep -c '"type":"case"' "$dir/run.jsonl" 2>/dev/null)
    [ "${accounted:-0}" -eq "$n" ] || bad "${accounted:-0} cases in run.jsonl, expected $n"
    echo "$dir/run.jsonl" >> "$work/reports"   # checked as JSON at the end, in one go
    [ "$status" = "-" ] || grep -q "\"status\":\"$status\"" "$dir/run.jsonl" || bad "no case with status $status"
    [ -z "$pattern" ] || grep -Eq -- "$pattern" "$dir/run.jsonl" || { bad "run.jsonl lacks /$pattern/"; grep -o '"message":"[^"]*' "$dir/run.jsonl" | head -3; }
  fi
  [ "$after" -eq "$before" ] || { bad "$after processes left behind (before: $before)"; cat "$work/ps"; }
  printf '%-15s %5s s  exit %s  cases %s/%s  left %s\n' "$name" "$took" "$rc" "$accounted" "$n" "$after"
}

# process NAME RC STATUS PATTERN MODE [N]: fake_engine MODE N MARKER
process() {
  local marker="hostile-$1-$$"
  check "$1" "$2" "$3" "$4" --engine "$fake $5 ${6:-0} $marker" "$marker"
}

# plugin NAME RC STATUS PATTERN MODE: the hostile plugin in HOSTILE_PLUGIN
# mode MODE at the 2nd setup (the marker is in the runner's, and so the
# worker's, --report-dir)
plugin() {
  [ -n "$plugin" ] || return 0
  local marker="hostile-$1-$$"
  HOSTILE_PLUGIN=$5 HOSTILE_AT=2 check "$1" "$2" "$3" "$4" --engine-plugin "$plugin" "$marker"
}

process closeout      1 crash   'closed its output and kept running' closeout 2
process closeoutexit  1 crash   'exited \(status 5\).*closed stdout, now exiting' closeoutexit 2
process hellohang     4 -       'no answer within 0.5 s' hellohang 1
process hang          1 timeout 'no answer within 0.5 s' hang 2
process stephang      1 timeout 'no answer within' stephang 2
process slow          1 timeout 'no answer within' slow 2
process flood         1 error   'over 16 MiB' flood 2
process longline      1 error   'over 16 MiB' longline 2
process stderrflood   1 timeout 'no answer within.*noise line [0-9]+ \| fake_engine: noise line' stderrflood 2
process stderrexit    1 crash   'exited \(status 9\).*log line 5999 of a long story \| fake_engine: the last words' stderrexit 2
process segv          1 crash   'died \(signal 11' segv 2
process abort         1 crash   'died \(signal 6' abort 2
process exitstep      1 crash   'exited \(status 0\)' exitstep 2
process exit7         1 crash   'exited \(status 7\)' exit7 2
process exit3         1 crash   'exited \(status 3\).*exiting on purpose' exit 2
process garbage       1 error   'not a JSON object' garbage 2
process wrongid       1 error   "another request's id \\(10" wrongid 2
process bigid         1 error   "another request's id \\(429496[0-9]{4}, expected" bigid 2
process emptyline     1 error   'an empty line' emptyline 2
process nonobject     1 error   'not an object' nonobject 2
process partial       1 timeout 'a partial line of [0-9]+ bytes' partial 2
process twice         1 error   "another request's id" twice 2
process grandchild    1 timeout 'no answer within' grandchild 2
process ignoreterm    0 -       '' ignoreterm
process closein       1 crash   'closed its input' closein 2
process hugepos       1 error   'position 42949672[0-9]+, outside 0\.\.2147483647' hugepos
process negpos        1 error   'position -1, outside 0\.\.' negpos
process badutf8       1 error   'not a JSON object.*stderr: fake_engine: bad bytes \\\\xFF\\\\xFE' badutf8 2
process utf8name      1 error   'engine answered internal: (ü)+' utf8name 1
process banner        4 -       'not a JSON object' banner
process slowstart     4 -       'no answer within 0.5 s' slowstart
process stop          1 timeout 'no answer within' stop 2
process wrongop       1 error   'no field [^a-z]*outcome' wrongop 2
process noobjects     1 error   'no objects' noobjects 2
process nozcp         4 -       '' nozcp
process fdcheck       0 -       '' fdcheck
marker="hostile-missing-$$"
check missing 4 - 'cannot run /nonexistent' --engine "/nonexistent/engine $marker" "$marker"
# a command with a pipe runs under /bin/sh: the whole group goes
marker="hostile-shellpipe-$$"
check shellpipe 1 timeout 'no answer within' --engine "$fake hang 2 $marker | cat" "$marker"

plugin plugin-crash     1 crash   'died \(signal 11' crash
plugin plugin-abort     1 crash   'died \(signal 6' abort
plugin plugin-exit7     1 crash   'exited \(status 7\)' exit7
plugin plugin-exit0     1 crash   'exited \(status 0\)' exit0
plugin plugin-loop      1 timeout 'no answer within 0.5 s' loop
plugin plugin-hellofail 4 -       'refuses to shake hands' hellofail
plugin plugin-openfail  4 -       'open\(\) failed' openfail
plugin plugin-abi       4 -       'abi_version is not 1' abi
plugin plugin-ctor      4 -       'died \(signal 11' ctor
plugin plugin-null      1 error   'returned NULL' null
plugin plugin-garbage   1 error   'not a JSON object' garbage
plugin plugin-stdout    0 -       '' stdout
plugin plugin-fork      0 -       '' fork
plugin plugin-setsid    0 -       '' setsid
plugin plugin-setsidcrash 1 crash 'died \(signal 11' setsidcrash
plugin plugin-hugepos   1 error   'position 42949672[0-9]+, outside' hugepos
plugin plugin-newlines  0 -       '' newlines
plugin plugin-fdcheck   0 -       '' fdcheck

# the runner's own end: SIGTERM while a shell's engine and its grandchild
# run (the whole group goes, the capture too), then SIGKILL (the engine,
# its direct child, still goes)
for sig in TERM KILL; do
  name=sig$sig marker="hostile-sig$sig-$$"
  tried=$((tried + 1))
  rm -f "$work/count"
  if [ "$sig" = TERM ]; then engine="$fake grandchild 1 $marker | cat"; else engine="$fake hang 1 $marker"; fi
  mkdir -p "$work/tmp-$sig" # before the gate starts: its stderr capture goes there
  FAKE_ENGINE_COUNT="$work/count" TMPDIR="$work/tmp-$sig" "$bin" gate --engine "$engine" --timeout 30 --quiet \
    --report-dir "$work/$marker" "${cases[@]}" > "$work/out" 2>&1 &
  gate=$!
  for k in $(seq 50); do
    [ -s "$work/count" ] && ps -eo args= | grep -F -- "$marker" | grep -qv -e '^/[^ ]*zoneoracle ' -e ' grep ' && break
    sleep 0.1
  done
  sleep 0.2
  kill -"$sig" "$gate"
  wait "$gate" 2>/dev/null
  rc=$?
  after=$(leftover "$marker")
  [ "$after" -eq 0 ] || { bad "$after processes left behind after SIG$sig"; cat "$work/ps"; }
  [ "$sig" = KILL ] || [ -z "$(ls -A "$work/tmp-$sig")" ] || bad "the stderr capture is left after SIGTERM"
  printf '%-15s exit %s  left %s\n' "$name" "$rc" "$after"
done
# what the SIGKILLed runner could not remove, the next run does
[ -n "$(ls -A "$work/tmp-KILL")" ] || bad "no stderr capture left after SIGKILL (the test tests nothing)"
TMPDIR="$work/tmp-KILL" "$bin" gate --engine "$bin serve" --quiet --report-dir "$work/r-sweep" "${cases[0]}" > "$work/out" 2>&1
[ -z "$(ls -A "$work/tmp-KILL")" ] || bad "the next run leaves the killed run's capture: $(ls -A "$work/tmp-KILL")"

# every run.jsonl: valid UTF-8, one JSON value a line
python3 - "$work/reports" <<'PY' || failures=$((failures + 1))
import json, sys
bad = 0
for path in open(sys.argv[1]).read().split():
    try:
        for line in open(path, encoding="utf-8"):
            json.loads(line)
    except (OSError, ValueError) as e:
        print(f"FAIL {path}: not valid UTF-8 JSON lines: {e}")
        bad += 1
sys.exit(1 if bad else 0)
PY

left=$(ls -A "$work/tmp")
[ -z "$left" ] || { echo "FAIL: stderr captures left in TMPDIR: $left"; failures=$((failures + 1)); }
echo "$tried hostile engines, $failures failures"
[ "$failures" -eq 0 ]
