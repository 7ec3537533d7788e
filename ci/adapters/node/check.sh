#!/usr/bin/env bash
# ci/adapters/node/check.sh: the checks of the Node adapter, one per call, as
# CTest runs them (oracle/tests/CMakeLists.txt); also usable by hand:
#
#   ci/adapters/node/check.sh ZONEORACLE SOURCE_DIR REPORT_DIR CHECK
#
# CHECK is one of
#   smoke    zoneoracle smoke: every check ok, one case per declared feature
#   gate     gate --strict --validate --ruleset mtg-current over cases/: all pass
#   unit     the node:test unit tests (test_engine.js)
#   partial  the same gate with ZO_NODE_FEATURES naming about half the
#            features: it passes, and every case skipped needs a feature
#            that was left out
# Exit 0 when the check passed, 1 when it failed, 77 (CTest: skipped) when
# Node.js 18 or later is not installed.
set -uo pipefail
if [ $# -ne 4 ]; then
  echo "usage: $0 ZONEORACLE SOURCE_DIR REPORT_DIR smoke|gate|unit|partial" >&2
  exit 2
fi
bin=$1 src=$2 reports=$3 check=$4
engine='node ci/adapters/node/engine.js'
# the features the partial engine declares: 4 of its 26
partial_features=triggers,phasing,visibility,reorder

if ! command -v node >/dev/null 2>&1; then
  echo "skipped: node is not installed (Debian: apt-get install nodejs)"
  exit 77
fi
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 18 ]; then
  echo "skipped: node $(node --version 2>/dev/null) is older than 18"
  exit 77
fi
cd "$src" || exit 1
mkdir -p "$reports" || exit 1
out="$reports/$check.out"
fail() { echo "FAIL node adapter $check: $1"; [ -f "$out" ] && tail -25 "$out"; exit 1; }

# summary LINE: the gate's closing "N passed, N failed, N skipped..." line
summary() { grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$out" | tail -1; }

case $check in
  smoke)
    timeout 120 "$bin" smoke --engine "$engine" > "$out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || fail "exit $rc, expected 0"
    # the handshake, the core case, the core case as one run, two games'
    # requests written ahead, 41 features, 4 malformed requests, bye
    grep -q '^50 checks: 50 ok, 0 failed, 0 skipped' "$out" || fail "not 50 checks all ok"
    echo "node adapter smoke: $(tail -1 "$out")"
    ;;
  gate)
    "$bin" gate --engine "$engine" --strict --validate --ruleset mtg-current --quiet \
      --report-dir "$reports/gate" cases > "$out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || fail "exit $rc, expected 0"
    summary | grep -qE '^[1-9][0-9]* passed, 0 failed, 0 skipped; [0-9]+ protocol messages valid$' \
      || fail "not every mtg-current case passed with every message valid"
    echo "node adapter gate --strict --validate: $(summary)"
    ;;
  unit)
    node --test ci/adapters/node/test_engine.js > "$out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || fail "node --test: exit $rc"
    grep -q '^# fail 0$' "$out" && ! grep -q '^# tests 0$' "$out" || fail "no test ran, or one failed"
    echo "node adapter unit tests: $(grep '^# pass' "$out")"
    ;;
  partial)
    ZO_NODE_FEATURES=$partial_features "$bin" gate --engine "$engine" --strict --validate \
      --ruleset mtg-current --report-dir "$reports/partial" cases > "$out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || fail "exit $rc, expected 0"
    # every skip names a feature left out; some cases pass, some are skipped,
    # before any message (the engine's own unsupported answer stays a fallback)
    node - "$reports/partial/run.jsonl" "$partial_features" <<'EOF' >> "$out" 2>&1 || fail "wrong skips"
const fs = require('node:fs');
const [file, declared] = process.argv.slice(2);
const kept = declared.split(',');
const cases = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((r) => r.type === 'case');
const count = (status) => cases.filter((c) => c.status === status).length;
let bad = 0;
for (const c of cases.filter((r) => r.status === 'skip')) {
  // a part ("marks.effect") is missing when its whole ("marks") was left out
  const m = /needs feature '([a-z_]+)(?:\.[a-z_]+)?', which (?:the|this) engine does not declare/.exec(c.message);
  if (!m || kept.includes(m[1])) { console.log(`skipped for another reason: ${c.id}: ${c.message}`); bad++; }
}
const byEngine = cases.filter((c) => c.status === 'skip' && /engine answered unsupported/.test(c.message)).length;
console.log(`${count('pass')} passed, ${count('skip')} skipped (${byEngine} by the engine's unsupported answer)`);
// the runner derives every feature a case uses (parts included), so the
// engine's own unsupported answer is a fallback this run need not reach
process.exit(bad || count('pass') === 0 || count('skip') === 0 ? 1 : 0);
EOF
    echo "node adapter with ZO_NODE_FEATURES=$partial_features: $(tail -1 "$out")"
    ;;
  *)
    echo "$0: unknown check '$check' (smoke, gate, unit, partial)" >&2
    exit 2
    ;;
esac
