#!/usr/bin/env bash
# An engine's stderr travels with its failure: the record's case line
# holds what it wrote during that case (bounded: the first and last 32 KiB
# and a line saying how much was cut), summary.md and index.html show it,
# and the record holds to its schema.
set -euo pipefail
bin=$1 fake=$2 src=$3 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "engine_stderr: $*"; exit 1; }
for mode in exit stderrexit; do
  FAKE_ENGINE_COUNT="$work/count-$mode" "$bin" gate --engine "$fake $mode 3" --quiet \
    --report-dir "$work/$mode" "$src/cases/fab" > "$work/$mode.out" 2>&1 || true
  python3 "$src/ci/protocol/validate_report.py" "$work/$mode/run.jsonl" > "$work/v.out" 2>&1 \
    || { cat "$work/v.out"; fail "$mode: the record does not hold to its schema"; }
done
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def failing(mode):
    return [d for d in map(json.loads, open("%s/%s/run.jsonl" % (work, mode)))
            if d["type"] == "case" and d["status"] not in ("pass", "skip")]
ex = failing("exit")
assert ex and ex[0].get("stderr") == "fake_engine: exiting on purpose\n", ex[:1]
big = [d for d in failing("stderrexit") if "stderr" in d]
assert big, "no stderr kept for the 200 KiB writer"
s = big[0]["stderr"]
assert "bytes not kept" in s and len(s.encode()) <= 64 * 1024 + 64, (len(s), s[:80])
for mode, text in (("exit", "fake_engine: exiting on purpose"), ("stderrexit", "bytes not kept")):
    for f in ("summary.md", "index.html"):
        assert text in open("%s/%s/%s" % (work, mode, f)).read(), "%s/%s lacks the stderr" % (mode, f)
print("engine_stderr: kept with the failure (%d bytes of a 200 KiB flood), shown in both reports" % len(s.encode()))
PY
