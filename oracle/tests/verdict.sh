#!/usr/bin/env bash
# Honest verdicts: a run where no case ran (all skipped, none matched) is
# not a pass (exit 1, a line saying why, a grey badge) unless
# --allow-empty; the badge never counts expected failures as passes
# ("62 passed · 1 known gap · 1 failing", green only when something
# passed and nothing failed); the exit code is the runner's own, 3 invalid
# case files over 2 an I/O error over 1 failures (a report that cannot be
# written is exit 2 even when cases failed, and the previous report set
# stays).
#   verdict.sh ZONEORACLE SOURCE_DIR
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 ZONEORACLE SOURCE_DIR" >&2; exit 2; }
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "verdict: FAIL: $*"; [ -f "$work/out" ] && { echo "--- output:"; tail -8 "$work/out"; }; exit 1; }
cd "$src" || exit 2
# a fixed set of era scenarios: the counts and sizes below are theirs
. oracle/tests/fixed_eras.sh
eras=$work/eras
fixed_eras "$eras" || exit 2
mutant=mtg-2011:phasing=none # fails two or more cases of $eras on the oracle
# badge DIR MESSAGE COLOR: badge.json says so
badge() {
  python3 - "$1/badge.json" "$2" "$3" <<'EOF' || fail "badge $(cat "$1/badge.json" 2>/dev/null), expected '$2' $3"
import json, sys
b = json.load(open(sys.argv[1], encoding='utf-8'))
sys.exit(0 if b['schemaVersion'] == 1 and b['message'] == sys.argv[2] and b['color'] == sys.argv[3] else 1)
EOF
}
# z CODE ARGS...: zoneoracle ARGS exits CODE (output in $work/out)
z() {
  local code=$1
  shift
  "$bin" "$@" > "$work/out" 2>&1
  rc=$?
  [ "$rc" -eq "$code" ] || fail "zoneoracle $*: exit $rc, expected $code"
}

# --- no case ran --------------------------------------------------------
z 1 run --quiet --filter 'no-such-case*' --report-dir "$work/r1" "$eras"
grep -qx 'no case ran: no case file matched (check the PATHs, --filter and --ruleset)' "$work/out" || fail "no reason given"
z 0 run --quiet --allow-empty --filter 'no-such-case*' --report-dir "$work/r1" "$eras"
grep -q '^no case ran: .*(--allow-empty: not a failure)$' "$work/out" || fail "--allow-empty: no line"
if command -v python3 >/dev/null; then
  py="python3 ci/adapters/python/engine.py" # declares mtg-current only
  n=$(ls cases/fab/*.yaml | wc -l)
  z 1 gate --quiet --engine "$py" --report-dir "$work/g1" cases/fab
  grep -qE "^no case ran: [0-9]+ skipped \(the engine does not declare rule set fab: [0-9]+\)$" "$work/out" \
    || fail "all skipped: no line naming the reason"
  skipped=$(sed -n 's/^no case ran: \([0-9]*\) skipped.*/\1/p' "$work/out")
  # the skips under a rule set the engine doesn't declare: named apart
  badge "$work/g1" "0 run · $skipped cases under 1 undeclared rule set" lightgrey
  z 0 gate --quiet --allow-empty --engine "$py" --report-dir "$work/g1" cases/fab
  badge "$work/g1" "0 run · $skipped cases under 1 undeclared rule set" lightgrey # still not green
  echo "no case ran: exit 1 with the reason, grey badge '0 run · $skipped cases under 1 undeclared rule set'; --allow-empty: exit 0, still grey"
fi

# --- known gaps are not passes ------------------------------------------
failing=$("$bin" run --quiet --mutant "$mutant" --report-dir "$work/m" "$eras" | sed -n 's/^FAIL \([^ ]*\) .*/\1/p')
nfail=$(wc -l <<<"$failing")
[ "$nfail" -ge 2 ] || fail "the mutant $mutant does not fail two cases of $eras: $failing"
# every case x rule set of $eras, and those the mutant leaves passing
total=$("$bin" run --quiet --report-dir "$work/m0" "$eras" | sed -n 's/^\([0-9]*\) passed, 0 failed.*/\1/p')
[ -n "$total" ] || fail "the oracle does not pass every case of $eras"
rest=$((total - nfail))
printf -- '- {id: %s, reason: "known gap"}\n' $(head -1 <<<"$failing") > "$work/one.yaml"
printf -- '- {id: %s, reason: "known gap"}\n' $failing > "$work/both.yaml"
serve="$bin serve --mutant $mutant"
z 1 gate --quiet --engine "$serve" --expect-failures "$work/one.yaml" --report-dir "$work/g2" "$eras"
badge "$work/g2" "$rest passed · 1 known gap · $((nfail - 1)) failing" red
z 0 gate --quiet --engine "$serve" --expect-failures "$work/both.yaml" --report-dir "$work/g2" "$eras"
badge "$work/g2" "$rest passed · $nfail known gaps" brightgreen
z 0 gate --quiet --engine "$bin serve" --report-dir "$work/g2" "$eras"
badge "$work/g2" "$total passed" brightgreen
echo "badge: '$rest passed · 1 known gap · $((nfail - 1)) failing' red, '$rest passed · $nfail known gaps' green, '$total passed' green"

# --- the exit code: 3 invalid > 2 I/O > 1 failures ----------------------
# a report that cannot be written (a file size limit of 300 KiB, above
# run.jsonl of the era cases and below index.html: index.html is the
# largest) while cases fail: exit 2, and the previous set stays whole
z 0 run --quiet --report-dir "$work/io" "$eras"
before=$(head -1 "$work/io/run.jsonl")
(trap '' XFSZ; ulimit -f 300; exec "$bin" run --quiet --mutant "$mutant" --report-dir "$work/io" "$eras") > "$work/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "failures and a report I/O error: exit $rc, expected 2"
grep -q "^zoneoracle: $work/io/index.html: write failed: File too large$" "$work/out" || fail "the I/O error does not name REPORT_DIR/index.html"
[ "$(head -1 "$work/io/run.jsonl")" = "$before" ] || fail "the report directory does not hold the previous set"
(trap '' XFSZ; ulimit -f 300; exec "$bin" gate --quiet --engine "$serve" --report-dir "$work/io" "$eras") > "$work/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "gate: failures and a report I/O error: exit $rc, expected 2"
# invalid case files win over the I/O error
mkdir -p "$work/bad"
cp "$eras"/*.yaml "$work/bad/"
printf 'id: [\n' > "$work/bad/zz-broken.yaml"
(trap '' XFSZ; ulimit -f 300; exec "$bin" run --quiet --mutant "$mutant" --report-dir "$work/io" "$work/bad") > "$work/out" 2>&1
rc=$?
[ "$rc" -eq 3 ] || fail "invalid files, failures and an I/O error: exit $rc, expected 3"
echo "exit codes: failures + report I/O error 2 (run and gate; previous set kept), + invalid case files 3"
echo "verdict: all checks passed"
