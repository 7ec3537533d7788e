#!/usr/bin/env bash
# Descendants that leave the engine's process group die with the engine.
# The engine here (written below) relays to `zoneoracle serve`; at each
# start it first starts a sleeper that leaves the group with setsid(), in
# one of two ways (a child that calls setsid; a double fork + setsid
# daemon whose middle process exits at once), and records its pid. The gate
# is then run
#   - end:     to a normal end (bye),
#   - timeout: the first process stops answering at its 3rd request,
#   - crash:   the first process exits at its 3rd request,
#   - sigterm: the gate itself gets SIGTERM while the first process hangs
#              at its 3rd request,
# and afterwards every recorded sleeper must be gone (kill -0 fails). For
# timeout and crash, the second process also checks, at its start, that the
# first one's sleeper is already gone: a restarted engine's escapees go with
# it, not only at the end of the run.
#   escaped.sh ZONEORACLE SOURCE_DIR
set -uo pipefail
bin=$1 src=$2 work=$(mktemp -d "${TMPDIR:-/tmp}/zo-escaped.XXXXXX")
cleanup() {
  # whatever a failing run left, so that the test leaves nothing itself
  cat "$work"/*/pids 2>/dev/null | while read -r p; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
cases=("$src/cases/mtg/401.2-library-position-bottom.yaml"
       "$src/cases/mtg/401.2-library-position-top-default.yaml"
       "$src/cases/mtg/401.8-library-position-index.yaml")
failures=0 tried=0
bad() { echo "FAIL $name: $*"; failures=$((failures + 1)); }

cat > "$work/engine.py" <<'PY'
# engine.py WAY MODE DIR ZONEORACLE: see escaped.sh
import os, subprocess, sys, time
way, mode, d, zo = sys.argv[1:5]
pids = os.path.join(d, "pids")
starts = sum(1 for _ in open(os.path.join(d, "starts"))) if os.path.exists(os.path.join(d, "starts")) else 0
starts += 1
with open(os.path.join(d, "starts"), "a") as f:
    f.write("start\n")
if os.path.exists(pids):  # the sleepers of the processes before this one
    for line in open(pids):
        try:
            os.kill(int(line), 0)
            with open(os.path.join(d, "alive"), "a") as f:
                f.write(f"start {starts}: sleeper {line.strip()} still alive\n")
        except ProcessLookupError:
            pass
had = sum(1 for _ in open(pids)) if os.path.exists(pids) else 0
if os.fork() == 0:
    if way == "daemon" and os.fork():
        os._exit(0)  # the middle process: the sleeper is orphaned at once
    os.setsid()
    if way == "daemon" and os.fork():
        os._exit(0)
    fd = os.open(os.devnull, os.O_RDWR)
    for k in (0, 1, 2):
        os.dup2(fd, k)
    with open(pids, "a") as f:
        f.write(f"{os.getpid()}\n")
    time.sleep(120)
    os._exit(0)
for _ in range(400):  # until the sleeper has written its pid
    if os.path.exists(pids) and sum(1 for _ in open(pids)) > had:
        break
    time.sleep(0.005)
serve = subprocess.Popen([zo, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for n, line in enumerate(sys.stdin):
    if starts == 1 and n == 2 and mode != "end":
        if mode == "crash":
            os._exit(3)
        open(os.path.join(d, "hung"), "w").close()
        time.sleep(120)
    serve.stdin.write(line)
    serve.stdin.flush()
    sys.stdout.write(serve.stdout.readline())
    sys.stdout.flush()
PY

# alive DIR: how many of DIR's sleepers are still alive, after up to 1 s
alive() {
  local k p n
  for k in $(seq 10); do
    n=0
    while read -r p; do kill -0 "$p" 2>/dev/null && n=$((n + 1)); done < "$1/pids"
    [ "$n" -eq 0 ] && break
    sleep 0.1
  done
  echo "$n"
}

for way in child daemon; do
  for mode in end timeout crash sigterm; do
    name=$way-$mode
    tried=$((tried + 1))
    d="$work/$name"
    mkdir -p "$d"
    engine="python3 $work/engine.py $way $mode $d $bin"
    if [ "$mode" = sigterm ]; then
      "$bin" gate --engine "$engine" --timeout 30 --quiet --report-dir "$d/r" "${cases[@]}" > "$d/out" 2>&1 &
      gate=$!
      # stop it once the sleeper runs and the engine hangs at its 3rd request
      for k in $(seq 200); do [ -e "$d/hung" ] && break; sleep 0.05; done
      kill -TERM "$gate"
      wait "$gate"
      rc=$?
      want=143
    else
      timeout -k 2 60 "$bin" gate --engine "$engine" --timeout 2 --quiet --report-dir "$d/r" "${cases[@]}" \
        > "$d/out" 2>&1
      rc=$?
      want=0
      [ "$mode" = end ] || want=1
    fi
    [ "$rc" -eq "$want" ] || { bad "exit $rc, expected $want"; tail -3 "$d/out"; }
    [ -s "$d/pids" ] || { bad "no sleeper was started"; continue; }
    starts=$(wc -l < "$d/starts")
    case $mode in
      timeout|crash) [ "$starts" -ge 2 ] || bad "the engine was started $starts times, expected a restart" ;;
    esac
    [ ! -s "$d/alive" ] || bad "an earlier process's sleeper outlived its restart: $(cat "$d/alive")"
    n=$(alive "$d")
    [ "$n" -eq 0 ] || bad "$n of $(wc -l < "$d/pids") sleepers outlived the gate"
    printf '%-15s exit %s  starts %s  sleepers %s  left %s\n' "$name" "$rc" "$starts" "$(wc -l < "$d/pids")" "$n"
  done
done
echo "$tried engines with escaping descendants, $failures failures"
[ "$failures" -eq 0 ]
