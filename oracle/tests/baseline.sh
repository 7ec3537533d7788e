#!/usr/bin/env bash
# --baseline RUN.jsonl: a run with one mutant, then a run with another
# compared with it; summary.md and index.html list the cases failing now
# that passed there and the cases fixed since, each case line of the
# record says what it was, the record holds to its schema, and a baseline
# that is not a run record is FILE:LINE and exit 2 before anything runs.
set -euo pipefail
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "baseline: $*"; exit 1; }
"$bin" run --quiet --mutant fab:look=hand_owner --report-dir "$work/a" "$src/cases/fab" > /dev/null || true
"$bin" run --quiet --mutant fab:draw_empty=lose_at_state_check --baseline "$work/a/run.jsonl" \
  --report-dir "$work/b" "$src/cases/fab" > /dev/null || true
python3 - "$work/a/run.jsonl" "$work/b/run.jsonl" "$work/b/summary.md" "$work/b/index.html" <<'PY'
import json, sys
a, b, md, html = sys.argv[1:]
def cases(p):
    return {(d["id"], d["ruleset"]): d for d in map(json.loads, open(p)) if d["type"] == "case"}
A, B = cases(a), cases(b)
bad = lambda s: s in ("fail", "error", "crash", "timeout", "xpass")
new = sorted(k for k in B if bad(B[k]["status"]) and not bad(A[k]["status"]))
fixed = sorted(k for k in B if B[k]["status"] == "pass" and bad(A[k]["status"]))
assert new and fixed, "the two mutants should differ both ways: new %s fixed %s" % (new, fixed)
for k, d in B.items():
    assert d.get("was") == A[k]["status"], "%s: was %r, baseline says %r" % (k, d.get("was"), A[k]["status"])
text, page = open(md).read(), open(html).read()
assert "%d newly failing, %d fixed" % (len(new), len(fixed)) in text, "summary.md lacks the counts"
for k in new + fixed:
    assert "`%s`" % k[0] in text, "summary.md lacks %s" % k[0]
    assert k[0] in page, "index.html lacks %s" % k[0]
assert '<table id="newly-failing">' in page and '<table id="fixed">' in page
print("baseline: %d newly failing, %d fixed, in the record and both reports" % (len(new), len(fixed)))
PY
python3 "$src/ci/protocol/validate_report.py" "$work/b/run.jsonl" > "$work/v.out" 2>&1 || { cat "$work/v.out"; fail "schema"; }
rc=0
"$bin" run --baseline "$src/README.md" --report-dir "$work/c" "$src/cases/fab" > "$work/out" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "a README as baseline: exit $rc, expected 2"
grep -q "README.md:1: not a run record" "$work/out" || { cat "$work/out"; fail "no FILE:LINE message"; }
[ ! -e "$work/c/run.jsonl" ] || fail "a run happened despite the bad baseline"
