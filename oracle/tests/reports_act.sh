#!/usr/bin/env bash
# Reports an engine developer acts on (oracle/src/report/, oracle/cli/
# progress.c), with an engine that declares mtg-current alone, prints a
# banner of 9 lines on stderr at every start and crashes on a mill
# (fuzz_proxy.py banner+crash-mill+one-ruleset, restarted after each crash):
#  - the cases under the rule sets it doesn't declare are one line in
#    stdout, summary.md, index.html, junit.xml and the badge, never a row
#    each; the totals still count them (footer, last line);
#  - each failure shows the rules its case cites, its title and one
#    command that reruns it alone; that command, run, runs that one case
#    and fails it again;
#  - the banner's lines, quoted by every crash, are shown once in stdout
#    and in each report;
#  - the record and the badge hold to their schemas.
set -uo pipefail
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "reports_act: FAIL: $*"; exit 1; }
engine="python3 $src/oracle/tests/fuzz_proxy.py banner+crash-mill+one-ruleset $bin"
"$bin" gate --engine "$engine" --report-dir "$work/r" "$src/cases" > "$work/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "gate: exit $rc, expected 1: $(tail -5 "$work/out")"
r=$work/r
python3 "$src/ci/protocol/validate_report.py" "$r/run.jsonl" "$r/badge.json" > "$work/v" 2>&1 ||
  fail "the record or the badge does not hold to its schema: $(cat "$work/v")"

# --- undeclared rule sets: one line -------------------------------------
read -r nund nrs < <(python3 - "$r/run.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
h = lines[0]
und = h.get("undeclared_rulesets", [])
cases = [c for c in lines if c["type"] == "case" and c["ruleset"] in und]
assert cases and all(c["status"] == "skip" for c in cases), "undeclared cases not all skips"
print(len(cases), len({c["ruleset"] for c in cases}))
PY
) || fail "the record names no undeclared rule set"
[ "$nrs" -eq 7 ] || fail "expected 7 undeclared rule sets (the 8 built-in but mtg-current), the record has $nrs"
line="$nund cases under $nrs rule sets this engine doesn't declare: fab ("
[ "$(grep -cF "$line" "$work/out")" -eq 1 ] || fail "stdout: not one line '$line...'"
! grep -q "does not declare rule set" "$work/out" || fail "stdout lists undeclared skips one by one"
# the cases the crashing engine fails: those of mtg-current with a mill
nfail=$(grep '"type":"case"' "$r/run.jsonl" | grep -vc '"status":"\(pass\|skip\|xfail\)"')
[ "$nfail" -ge 1 ] || fail "no case failed"
grep -qE "^[0-9]+ passed, $nfail failed, [0-9]+ skipped$" "$work/out" || fail "stdout: no totals line"
skipped=$(sed -n 's/^[0-9]* passed, [0-9]* failed, \([0-9]*\) skipped$/\1/p' "$work/out")
[ "$skipped" -ge "$nund" ] || fail "the skipped total ($skipped) leaves out the $nund undeclared"
n=$(wc -l < "$work/out")
ran=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, [0-9]* skipped$/\1 \2/p' "$work/out" | awk '{print $1 + $2}')
# a line per case run, a few per failure and the head and tail; never one
# per case skipped (the undeclared rule sets' are more than twice as many)
[ "$n" -le $((ran + 8 * nfail + 60)) ] ||
  fail "stdout has $n lines (at most $((ran + 8 * nfail + 60)) expected for $ran cases run: a line per case run, not per case skipped)"
for f in summary.md index.html junit.xml; do
  grep -qF "$line" "$r/$f" || fail "$f: no line '$line...'"
  ! grep -q "does not declare rule set" "$r/$f" || fail "$f lists undeclared skips one by one"
done
! grep -q 'classname="fab"' "$r/junit.xml" || fail "junit.xml: a testcase under fab"
grep -q '<testsuite name="undeclared rule sets" tests="1"' "$r/junit.xml" || fail "junit.xml: no undeclared testsuite"
! grep -q 'id="c-fab-' "$r/index.html" || fail "index.html: a row for a fab case"
grep -q "\"message\":\"[0-9]* passed · $nfail failing · .*$nund cases under $nrs undeclared rule sets\"" "$r/badge.json" ||
  fail "badge: $(cat "$r/badge.json")"
echo "undeclared rule sets: one line ($nund cases, $nrs rule sets) in stdout ($n lines for $ran cases run, $nfail failing) and every report"

# --- each failure: rules, title, one rerun command ---------------------------
python3 - "$r" "$work/out" <<'PY' > "$work/reruns" || fail "rules, title or rerun missing"
import html, json, re, sys
r, out = sys.argv[1:]
lines = [json.loads(l) for l in open(r + "/run.jsonl")]
prefix = lines[0]["rerun"]
failing = [c for c in lines if c["type"] == "case" and c["status"] not in ("pass", "skip", "xfail")]
assert failing
summary = open(r + "/summary.md").read().splitlines()
page = open(r + "/index.html").read()
page = html.unescape(re.sub(r"<[^>]*>", "", page[page.index('<table id="failures">'):]))
stdout = open(out).read()
for c in failing:
    cmd = "%s --ruleset %s %s" % (prefix, c["ruleset"], c["file"])
    row = [l for l in summary[:30] if l.startswith("| `%s` |" % c["id"])]
    assert row, "summary.md: %s not in the first 30 lines" % c["id"]
    for part in (", ".join(c["rules"]), c["title"].replace("|", "\\|"), cmd):
        assert part in row[0], "summary.md row of %s lacks %r" % (c["id"], part)
    for part in (", ".join(c["rules"]), c["title"], "rerun: " + cmd):
        assert part in page, "index.html lacks %r" % part
    assert "  rerun: " + cmd + "\n" in stdout, "stdout lacks the rerun of %s" % c["id"]
    assert "  cites %s: %s\n" % (", ".join(c["rules"]), c["title"]) in stdout, "stdout lacks the rules of %s" % c["id"]
    print(cmd)
PY
cmd=$(head -1 "$work/reruns")
mkdir "$work/path" && ln -s "$bin" "$work/path/zoneoracle" # the command names zoneoracle
(cd "$work" && PATH="$work/path:$PATH" eval "$cmd --report-dir $work/again" > "$work/again.out" 2>&1)
rc=$?
[ "$rc" -eq 1 ] || fail "the rerun command exits $rc, expected 1: $cmd"
grep -q '^0 passed, 1 failed, 0 skipped$' "$work/again.out" ||
  fail "the rerun command did not run one case: $(tail -3 "$work/again.out")"
echo "each failure: rules, title and a rerun command that runs it alone ($(wc -l < "$work/reruns") failures)"

# --- the banner: once ----------------------------------------------------
for f in "$work/out" "$r/summary.md" "$r/index.html" "$r/junit.xml"; do
  k=$(grep -o "banner line 5 of 9" "$f" | wc -l)
  [ "$k" -eq 1 ] || fail "$(basename "$f"): the banner's line 5 shown $k times, expected once"
done
[ "$(grep -c 'exits on a mill' "$work/out")" -eq "$nfail" ] || fail "stdout: each crash's own line not kept"
grep -q "more lines of stderr shown once above" "$r/summary.md" || fail "summary.md: no note of the lines left out"
echo "the engine's banner: once in stdout and every report, each crash's own line kept"
echo ok
