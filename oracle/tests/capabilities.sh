#!/usr/bin/env bash
# Games that fit the engine (PROTOCOL.md 7.1, capabilities; 14, gate --fuzz):
#   - an engine declaring two players, six zones and two kinds of object
#     gets no case outside them (each skipped with what it lacks) and
#     fails none;
#   - gate --fuzz runs at least 95% of the games it generates for it, and
#     0 differ;
#   - the same engine without the declaration (zcp/1) refuses most
#     setups, and no refused setup is ever sent twice (games sent ahead
#     included);
#   - capabilities a zcp/1 engine sends, or that name no number of
#     players or no kind of object, fail the handshake naming the field.
#   capabilities.sh ZONEORACLE SOURCE_DIR WORK_DIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 ZONEORACLE SOURCE_DIR WORK_DIR" >&2; exit 2; }
bin=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 2
fail() { echo "capabilities: FAIL: $*"; [ -f "$work/out" ] && { echo "--- output:"; tail -12 "$work/out"; }; exit 1; }
cd "$src" || exit 2
engine="python3 oracle/tests/engines/capable_engine.py"

# the suite: 0 failures; skips say what the game lacks
"$bin" gate --engine "$engine" --quiet --ruleset mtg-current --report-dir "$work/suite" >"$work/out" 2>&1 ||
  fail "the suite against an engine declaring its capabilities did not pass"
for why in "players, a number the engine's game does not hold" "which the engine's game does not have" \
  "which the engine does not represent" "where the engine keeps none"; do
  grep -q "$why" "$work/suite/run.jsonl" || fail "no case skipped with \"$why\""
done

# gate --fuzz: >= 95% of the games run, none refused
rm -f "$work/refused"
ZO_CAPABLE_LOG=$work/refused "$bin" gate --engine "$engine" --fuzz 4 --seed 1 --out "$work/fz" >"$work/out" 2>&1 ||
  fail "gate --fuzz against the capable engine"
line=$(grep -E '^gate --fuzz .*, seed 1:' "$work/out") || fail "no summary line"
pct=$(sed -E 's/.* run \(([0-9.]+)%\).*/\1/' <<<"$line")
awk -v p="$pct" 'BEGIN { exit !(p >= 95) }' || fail "only $pct% of the generated games ran (want >= 95)"
grep -q ' 0 differed' <<<"$line" || fail "games differed: $line"
[ ! -s "$work/refused" ] || fail "$(wc -l <"$work/refused") setups outside the declared capabilities were sent"

# undeclared (zcp/1): refusals, each setup sent once
rm -f "$work/refused"
ZO_CAPABLE_ZCP1=1 ZO_CAPABLE_LOG=$work/refused "$bin" gate --engine "$engine" --fuzz 4 --seed 1 --out "$work/fz1" \
  >"$work/out" 2>&1 || fail "gate --fuzz against the engine without capabilities"
[ -s "$work/refused" ] || fail "the engine without capabilities refused no setup (the test proves nothing)"
total=$(wc -l <"$work/refused") distinct=$(sort -u "$work/refused" | wc -l)
[ "$total" -eq "$distinct" ] || fail "$((total - distinct)) of $total refused setups were sent again"

# malformed capabilities: the handshake fails naming the field
hello() { # hello ANSWER_FIELDS: an engine whose hello answer carries them
  printf '%s\n' "import json,sys" \
    "for l in sys.stdin:" \
    "  r=json.loads(l)" \
    "  a={'id':r['id'],'ok':True}" \
    "  if r['op']=='hello': a.update({'engine':'e','version':'1','rulesets':['mtg-current'],'features':[]}); a.update($1)" \
    "  print(json.dumps(a),flush=True)" >"$work/hello.py"
}
hello "{'protocol':'zcp/2','capabilities':{'players':[0]}}"
"$bin" gate --engine "python3 $work/hello.py" >"$work/out" 2>&1
[ $? -eq 4 ] || fail "capabilities.players [0] did not fail the handshake (exit 4)"
grep -q 'capabilities.players\[0\]' "$work/out" || fail "the handshake error does not name \$.capabilities.players[0]"
hello "{'protocol':'zcp/2','capabilities':{'objects':['spell']}}"
"$bin" gate --engine "python3 $work/hello.py" >"$work/out" 2>&1
[ $? -eq 4 ] || fail "capabilities.objects [spell] did not fail the handshake"
hello "{'capabilities':{'players':[2]}}"
"$bin" gate --engine "python3 $work/hello.py" >"$work/out" 2>&1
[ $? -eq 4 ] || fail "capabilities in a zcp/1 hello did not fail the handshake"
grep -q 'field "capabilities" that zcp/1 does not define' "$work/out" || fail "the zcp/1 hello error does not name the field"
echo "capabilities: ok ($pct% of generated games run; $total setups refused, each sent once)"
