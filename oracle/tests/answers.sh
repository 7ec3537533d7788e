#!/usr/bin/env bash
# Every answer is read against what the protocol defines (PROTOCOL.md 8,
# "How the runner reads an answer"), with or without --validate: a field
# the engine's version does not define, a required field left out, or a
# value of another JSON type is an engine error naming the field and its
# JSON path; never a silent read of an object as absent.
#   answers.sh ZONEORACLE SOURCE_DIR WORK_DIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 ZONEORACLE SOURCE_DIR WORK_DIR" >&2; exit 2; }
bin=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 2
fail() { echo "answers: FAIL: $*"; [ -f "$work/out" ] && { echo "--- output:"; tail -8 "$work/out"; }; exit 1; }
cd "$src" || exit 2
# a proxy in front of `zoneoracle serve` that spoils one kind of answer
cat >"$work/proxy.py" <<'PY'
import json, subprocess, sys
mode, serve = sys.argv[1], sys.argv[2:]
child = subprocess.Popen(serve, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    req = json.loads(line)
    child.stdin.write(line); child.stdin.flush()
    ans = json.loads(child.stdout.readline())
    op = req.get("op")
    if op == "observe" and mode == "Zone":
        for o in ans["objects"].values():
            o["Zone"] = o.pop("zone")
    if op == "observe" and mode == "exists":
        for o in ans["objects"].values():
            o["exists"] = "yes"
    if op == "step" and mode == "outcome":
        ans.pop("outcome", None)
    if op == "run" and mode == "delta":
        for d in ans.get("observations", []):
            d["extra"] = 1
    print(json.dumps(ans), flush=True)
PY
case=cases/mtg/120.1-draw-takes-the-top-card.yaml

check() { # check MODE EXPECTED-TEXT
  "$bin" gate --engine "python3 $work/proxy.py $1 $bin serve" --ruleset mtg-current --report-dir "$work/r" "$case" >"$work/out" 2>&1
  [ $? -eq 1 ] || fail "$1: the gate did not fail"
  grep -qF "$2" "$work/out" || fail "$1: the error does not say: $2"
}
check Zone 'has no field "zone", which is required (it has "Zone")'
check exists 'exists must be a boolean'
check outcome '$ has no field "outcome", which is required'
# the same in gate --fuzz (run answers with deltas)
"$bin" gate --engine "python3 $work/proxy.py delta $bin serve" --fuzz 2 --out "$work/fz" >"$work/out" 2>&1
grep -qF '$.observations[0] has a field "extra" that zcp/2 does not define' "$work/out" ||
  grep -rqF '$.observations[0] has a field "extra"' "$work/fz" || fail "delta: the error does not name \$.observations[0].extra"
echo "answers: ok"
