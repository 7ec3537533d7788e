#!/usr/bin/env bash
# zoneoracle smoke: the oracle (serve and plugin) and the Python adapter pass
# every check; broken fake engines fail with the reason, within the time
# limit, never hanging; usage errors exit 2.
set -uo pipefail
bin=$1 fake=$2 plugin=$3 src=$4 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" # smoke needs no files of yours: its cases are installed data
fail() { echo "$1"; [ -f "$work/out" ] && tail -25 "$work/out"; exit 1; }

# smoke ENGINE-ARGS...: run it (60 s at most: it must never hang); rc in $rc
smoke() {
  timeout 60 "$bin" smoke "$@" > "$work/out" 2>&1
  rc=$?
  [ "$rc" -ne 124 ] || fail "smoke $*: still running after 60 s"
}

# a good engine: every check ok; one ok line per declared feature plus the
# handshake, the core case, the core case as one run, two games' requests
# written ahead, four malformed requests and bye
passes() { # name nfeatures smoke-args...
  local name=$1 nf=$2
  shift 2
  smoke "$@"
  [ "$rc" -eq 0 ] || fail "$name: exit $rc, expected 0"
  local n=$((nf + 9))
  grep -q "^$n checks: $n ok, 0 failed, 0 skipped in [0-9.]* s$" "$work/out" || fail "$name: not $n checks all ok"
  [ "$(grep -c '^ok   feature ' "$work/out")" -eq "$nf" ] || fail "$name: not one case per feature"
  [ "$(grep -c '^ok   malformed: ' "$work/out")" -eq 4 ] || fail "$name: not 4 malformed-request checks"
  grep -q '^ok   bye: answered ok: true' "$work/out" || fail "$name: no bye check"
  grep -q '^ok   run: case smoke/core .* as one run (observe: \(delta\|each\)' "$work/out" || fail "$name: no run check"
  grep -q '^ok   requests ahead: case smoke/core .* twice, six requests written' "$work/out" || fail "$name: no requests-ahead check"
  echo "$name: $n checks ok ($(tail -1 "$work/out"))"
}
passes serve 46 --engine "$bin serve"
passes plugin 46 --engine-plugin "$plugin"
passes python-adapter 41 --engine "python3 $src/ci/adapters/python/engine.py"

# broken engines: exit 1, the reason on the failing checks
smoke --engine "$fake garbage"   # every setup answered with a line that is not JSON
[ "$rc" -eq 1 ] || fail "garbage: exit $rc, expected 1"
grep -q '^FAIL core case: case smoke/core \[mtg-current\]: error: .*not a JSON object' "$work/out" \
  || fail "garbage: the core case's failure does not say why"
grep -q '^ok   handshake: ' "$work/out" || fail "garbage: its handshake is fine"
grep -q '^FAIL malformed: a setup without its ruleset' "$work/out" || fail "garbage: malformed checks not run"
grep -q '^[0-9]* checks: 2 ok, [0-9]* failed, 0 skipped' "$work/out" || fail "garbage: bad count"
echo "garbage: exit 1, $(grep -c '^FAIL' "$work/out") checks failed with the reason"

# an engine without run (the oracle behind a proxy that refuses it): the
# plain gate would pass it, smoke fails it and says which part
cat > "$work/norun.py" <<'PY'
import json, subprocess, sys
inner = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    try:
        req = json.loads(line)
    except ValueError:
        req = None
    if isinstance(req, dict) and req.get("op") == "run":
        print(json.dumps({"id": req.get("id"), "ok": False,
                          "error": {"code": "bad_request", "message": "unknown op run"}}), flush=True)
        continue
    inner.stdin.write(line)
    inner.stdin.flush()
    print(inner.stdout.readline(), end="", flush=True)
PY
smoke --engine "python3 $work/norun.py $bin serve"
[ "$rc" -eq 1 ] || fail "norun: exit $rc, expected 1"
grep -q '^FAIL run: case smoke/core \[mtg-current\]: a run of [0-9]* steps (observe: delta[^)]*) failed (PROTOCOL.md 7.5): .*unknown op run' "$work/out" \
  || fail "norun: the run check does not fail with the reason"
grep -q '^ok   core case: ' "$work/out" || fail "norun: its step-by-step core case is fine"
echo "norun: exit 1, the run check names PROTOCOL.md 7.5"

# an engine that takes one line per read() and drops what else the read
# brought: one request at a time it is fine, requests written ahead (as
# gate --fuzz writes the next game) are lost; smoke says so
cat > "$work/oneread.py" <<'PY'
import os, subprocess, sys, time
inner = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
while True:
    time.sleep(0.01)  # whatever was written meanwhile comes in one read
    chunk = os.read(0, 1 << 20)
    if not chunk:
        break
    inner.stdin.write(chunk.decode().split("\n")[0] + "\n")
    inner.stdin.flush()
    print(inner.stdout.readline(), end="", flush=True)
PY
smoke --timeout 1 --engine "python3 $work/oneread.py $bin serve"
[ "$rc" -eq 1 ] || fail "oneread: exit $rc, expected 1"
grep -q '^FAIL requests ahead: case smoke/core \[mtg-current\]: game 1 of 2, written before any answer was read: .*no answer within 1 s.*(PROTOCOL.md 2)' "$work/out" \
  || fail "oneread: the requests-ahead check does not fail with the reason"
grep -q '^ok   run: ' "$work/out" || fail "oneread: one request at a time it is fine"
echo "oneread: exit 1, the requests-ahead check names PROTOCOL.md 2"

smoke --timeout 0.3 --engine "$fake hang"   # never answers a setup
[ "$rc" -eq 1 ] || fail "hang: exit $rc, expected 1"
grep -q '^FAIL core case: .*timeout: .*no answer within 0.3 s' "$work/out" || fail "hang: no timeout reported"
echo "hang: exit 1 after $(tail -1 "$work/out" | sed 's/.* in //'), each check timed out"

smoke --engine "$fake nozcp"
[ "$rc" -eq 4 ] && grep -q '^FAIL handshake: no zcp/1 handshake' "$work/out" || fail "nozcp: exit $rc"
echo "nozcp: exit 4, the handshake fails"

smoke --engine "$fake lie"   # observes its first object in a zone that does not exist
[ "$rc" -eq 1 ] && grep -q "^FAIL core case: .*bear.zone: expected alice.graveyard, observed nowhere" "$work/out" \
  || fail "lie: exit $rc"
echo "lie: exit 1, expected vs observed shown"

smoke
[ "$rc" -eq 2 ] || fail "no engine: exit $rc, expected 2"
smoke --engine "$bin serve" --frobnicate
[ "$rc" -eq 2 ] || fail "unknown option: exit $rc, expected 2"
echo "usage errors: exit 2"
