#!/usr/bin/env bash
# issue 31, point 2: zone capabilities of other card games as rule-set data
# (oracle/tests/ruleset-file/limits-game.yaml, duel-game.yaml): limits: per
# kind of card in a zone or among what is attached to one object; displace:
# (a move into a full zone puts the object there into its owner's zone of a
# named type); instead: (the game's own replacements of moves into a zone). Its cases pass with the invariants checked; a bad value is a
# file:line:column error; the table shows both; gate --fuzz plays its
# zones; ruleset_zones gives limits and displace only to an engine that
# declares zone_rules, and a case a limit decides needs that feature.
# seats-game.yaml: zone types only some players have (seats:); and the
# built-in pokemon and yugioh's wrong_owner, follows_control, at_index and
# face_up_only, each mutant killed by their cases.
set -euo pipefail
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dir=$src/oracle/tests/ruleset-file
F=$dir/limits-game.yaml
fail() { echo "$1"; [ -f "$work/out" ] && tail -20 "$work/out"; exit 1; }

"$bin" run --invariants --ruleset-file "$F" --report-dir "$work/r" "$dir/limits-cases" > "$work/out" 2>&1 \
  || fail "the limits cases failed"
grep -q '^8 passed, 0 failed, 0 skipped$' "$work/out" || fail "not every limits case passed"
"$bin" rules --ruleset-file "$F" --ruleset limits-game "$dir/limits-cases" > "$work/out" 2>&1 \
  || fail "a seed rule of limits-game has no case"
echo "zone rules: 8 cases pass with the invariants; every seed rule has a case"

# a bad value names its file:line:column
bad() { # sed expression, expected message (a grep pattern)
  sed "$1" "$F" > "$work/bad.yaml"
  cmp -s "$F" "$work/bad.yaml" && fail "the sed did not change the file: $1"
  set +e
  "$bin" rulesets --ruleset-file "$work/bad.yaml" > "$work/out" 2>&1
  local rc=$?
  set -e
  [ "$rc" -eq 3 ] || fail "exit $rc for $1, expected 3"
  grep -q "bad.yaml:$2" "$work/out" || fail "no message bad.yaml:$2"
}
bad 's/displace: {value: discard, rule: "LG 4"}/displace: {value: discrad, rule: "LG 4"}/' \
  "50:23: error: unknown zone type 'discrad' (did you mean 'discard'?"
bad 's/displace: {value: discard, rule: "LG 4"}/displace: {value: stadium, rule: "LG 4"}/' \
  "50:23: error: zone stadium displaces into itself"
bad 's/    capacity: {value: 1, rule: "LG 4"}//' "50:23: error: zone stadium has displace but can't be full"
bad 's/among: attached}, {types: \[aura\]/among: host}, {types: [aura]/' "44:55: error: unknown among 'host'"
bad 's/count: 2, among: zone/count: 2, among: attached/' \
  "67:22: error: a limit among: attached is for the battlefield-role zone"
bad 's/count: 2, among: zone/count: 65, among: zone/' "67:49: error: expected a whole number 0..64"
bad 's/{types: \[artifact\], count: 2, among: zone}/{count: 2}/' "67:22: error: missing 'types' in a limit"
# a chain of instead: entries that can bring an object back where it was bound
bad 's/instead: {value: \[{from: \[hand, deck\], face: down}\], rule: "LG 7"}/instead: {value: [{types: [stadium], to: removed}], rule: "LG 7"}/' \
  "37:46: error: this instead: entry of zone discard sends the object to zone removed, whose instead: entries (followed as a chain) can send it back to zone discard"
# ceases_empty needs zone_lifecycle: yes and a per-player zone type
n=$(grep -n 'ceases_empty: {value: true' "$F" | cut -d: -f1)
bad 's/  zone_lifecycle: {value: "yes", rule: "LG 9"}//' "$n:19: error: zone server has ceases_empty, which only a zone made by zone_create can do"
# a limit among sub-cards needs new_object: every_move
bad 's/count: 2, among: zone/count: 2, among: under/; s/new_object: {value: every_move/new_object: {value: leave_arena/' \
  "67:22: error: a limit among: under (zone vault) needs new_object: every_move"
echo "zone rules: bad limits: and displace: values are file:line:column errors"

# limits among sub-cards (pokemon: one Pokemon Tool per Pokemon): alike on
# the zone types of a group, and the set-up may not break one
F=$work/pk.yaml
sed 's/^id: pokemon$/id: pk_copy/' "$src/oracle/rulesets/pokemon.yaml" > "$F"
n=$(grep -n 'among: under' "$F" | head -1 | cut -d: -f1)
bad '/^  bench:/,/^  prizes:/{/among: under/d}' "$n:22: error: zone types active and bench are of one group (in_play)"
cat > "$work/tools.yaml" <<'YAML'
id: pk/two-tools
title: two Tools under one Pokemon
rulesets: [pk_copy]
rules: ["PTCG 10 Tool"]
players: [alice, bob]
cards:
  act: {owner: alice, zone: active, types: [pokemon]}
  belt: {owner: alice, under: act, types: [trainer], subtypes: [pokemon_tool]}
  cape: {owner: alice, under: act, types: [trainer], subtypes: [pokemon_tool]}
steps:
  - look: {player: alice, card: act}
YAML
set +e
"$bin" run --ruleset-file "$F" --report-dir "$work/pk" "$work/tools.yaml" > "$work/out" 2>&1
rc=$?
set -e
[ "$rc" -eq 3 ] || fail "a set-up past a limit among sub-cards: exit $rc, expected 3"
grep -q "tools.yaml:9:31: error: card 'cape' can't be under 'act'" "$work/out" || fail "no set-up error for a limit among sub-cards"
n=$(grep -n 'clears: {value: \[effect\]' "$F" | cut -d: -f1)
bad 's/clears: {value: \[effect\]/clears: {value: [efect]/' "$n:22: error: unknown mark kind 'efect' (did you mean 'effect'?"
bad 's/clears: {value: \[effect\]/clears: {value: [effect, effect]/' "$n:30: error: mark kind 'effect' is listed twice"
F=$dir/limits-game.yaml
echo "zone rules: limits among sub-cards: alike in a group, and the set-up may not break one; bad clears: values"

# a create into a zone at its limit fails; a set-up past it is an error
cat > "$work/over.yaml" <<'YAML'
id: limits/over
title: a vault at its limit
rulesets: [limits-game]
rules: ["LG 6"]
players: [alice, bob]
cards:
  cup: {owner: alice, zone: vault, types: [artifact]}
  ring: {owner: alice, zone: vault, types: [artifact]}
steps:
  - create: {as: t1, owner: alice, zone: alice.vault, kind: token, types: [artifact]}
    expect: {outcome: failed, error: capacity, t1: {exists: false}}
YAML
"$bin" run --ruleset-file "$F" --report-dir "$work/ov" "$work/over.yaml" > "$work/out" 2>&1 || fail "create at a limit"
sed -i 's/^  ring: .*$/&\n  orb: {owner: alice, zone: vault, types: [artifact]}/' "$work/over.yaml"
set +e
"$bin" run --ruleset-file "$F" --report-dir "$work/ov" "$work/over.yaml" > "$work/out" 2>&1
rc=$?
set -e
[ "$rc" -eq 3 ] || fail "a set-up past a limit: exit $rc, expected 3"
grep -q "over.yaml:9:3: error: 'orb' can't start in alice.vault: the zone is full (capacity, or its limits: for this kind of card)" \
  "$work/out" || fail "no set-up error for a limit"
echo "zone rules: a create at a limit fails, a set-up past it is an error"

# the transition table cites them where they decide a move
"$bin" table --ruleset-file "$F" --ruleset limits-game > "$work/table.txt"
grep -q 'stadium.capacity, stadium.displace' "$work/table.txt" || fail "no displacement in the table"
grep -q '\[vault.limits\]' "$work/table.txt" || fail "no limit in the table"
grep -q '^== artifact card' "$work/table.txt" || fail "no row of a limit's word"
grep -q 'discard.instead, removed.instead' "$work/table.txt" || fail "no chain of instead: entries in the table"
"$bin" table --ruleset pokemon > "$work/ptable.txt"
grep -q 'bench.group, bench.clears' "$work/ptable.txt" || fail "no clears: in the pokemon table"
echo "zone rules: the table shows displacement and limits"

# serve --ruleset-file declares zone_rules (a rule set it serves has zone rules): every case runs against it
"$bin" gate --invariants --ruleset-file "$F" --engine "$bin serve --ruleset-file $F" --report-dir "$work/gs" \
  "$dir/limits-cases" > "$work/out" 2>&1 || fail "gate against serve failed"
grep -q '^8 passed, 0 failed, 0 skipped$' "$work/out" || fail "not every limits case passed against serve"
"$bin" smoke --ruleset-file "$F" --engine "$bin serve --ruleset-file $F" "$dir"/limits-cases/*.yaml > "$work/out" 2>&1 \
  || fail "smoke against serve failed"
grep -q '^ok   feature zone_rules: ' "$work/out" || fail "smoke did not check zone_rules"
echo "zone rules: gate and smoke against serve --ruleset-file: every case runs"

# generated games in its zones (a limit on palette words, a capacity)
"$bin" gate --ruleset-file "$F" --engine "$bin serve --ruleset-file $F" --ruleset limits-game --fuzz 2 \
  --out "$work/fz" > "$work/out" 2>&1 || fail "gate --fuzz failed"
grep -Eq 'seed 1: [1-9][0-9]* games .* 0 skipped .* \(100\.0%\).* 0 differed' "$work/out" || fail "gate --fuzz differed"
echo "zone rules: gate --fuzz against serve: no difference"

# ruleset_zones: without zone_rules, no limits and no displace are sent, and
# a case a limit decides is skipped for the feature; with it, both are sent
engine="python3 $src/oracle/tests/engines/pile_engine.py $F limits-game"
"$bin" gate --validate --ruleset-file "$F" --engine "$engine" --report-dir "$work/g1" "$dir/limits-cases" \
  > "$work/out" 2>&1 || true
grep -q ' protocol messages valid$' "$work/out" || fail "invalid protocol messages"
grep -q "needs feature 'zone_rules', which the engine does not declare" "$work/out" || fail "no skip for zone_rules"
python3 - "$work/g1/protocol.jsonl" <<'PY' || fail "limits sent to an engine that does not declare zone_rules"
import json, sys
setups = [m["message"] for m in map(json.loads, open(sys.argv[1]))
          if m.get("dir") == "request" and m["message"].get("op") == "setup"]
assert setups, "no setup"
for s in setups:
    for name, z in s["ruleset_zones"].items():
        assert not {"limits", "displace", "instead", "group", "clears", "ceases_empty"} & set(z), (name, z)
PY
"$bin" gate --validate --ruleset-file "$F" --engine "$engine zone_rules" --report-dir "$work/g2" "$dir/limits-cases" \
  > "$work/out" 2>&1 || true
grep -q ' protocol messages valid$' "$work/out" || fail "invalid protocol messages (zone_rules)"
python3 - "$work/g2/protocol.jsonl" <<'PY' || fail "limits or displace not sent with zone_rules"
import json, sys
setups = [m["message"] for m in map(json.loads, open(sys.argv[1]))
          if m.get("dir") == "request" and m["message"].get("op") == "setup"]
assert setups, "no setup"
for s in setups:
    z = s["ruleset_zones"]
    assert z["stadium"]["displace"] == "discard" and z["deck"]["displace"] is None, z["stadium"]
    assert z["server"]["limits"] == [{"types": ["asset", "agenda"], "count": 1, "among": "zone"}], z["server"]
    assert z["play"]["limits"][0] == {"types": ["tool"], "count": 1, "among": "attached"}, z["play"]
    assert z["discard"]["instead"] == [{"types": [], "from": ["deck", "hand"], "to": "discard", "face": "down"}], z["discard"]
    assert z["hand"]["instead"] == [] and z["stadium"]["limits"] == [] and z["hand"]["group"] is None, z["hand"]
    assert z["hand"]["clears"] == [] and z["server"]["ceases_empty"] is True and z["hand"]["ceases_empty"] is False, z["server"]
PY
echo "zone rules: ruleset_zones gives limits, displace and instead only with zone_rules"

# instead: the duel game's own replacements (duel-game.yaml)
D=$dir/duel-game.yaml
"$bin" run --invariants --ruleset-file "$D" --report-dir "$work/d" "$dir/duel-cases" > "$work/out" 2>&1 \
  || fail "the duel cases failed"
grep -q '^4 passed, 0 failed, 0 skipped$' "$work/out" || fail "not every duel case passed"
"$bin" rules --ruleset-file "$D" --ruleset duel-game "$dir/duel-cases" > "$work/out" 2>&1 \
  || fail "a seed rule of duel-game has no case"
F=$D
bad 's/group: {value: monster_zones, rule: "DG 6"}/group: {value: Monster-Zones, rule: "DG 6"}/' \
  "52:20: error: a group is named by a word of lower-case letters"
bad 's/to: extra_deck, face: up}/to: extra_dek, face: up}/' "39:81: error: unknown zone type 'extra_dek' (did you mean 'extra_deck'?"
bad 's/from: \[monster_zone, spell_zone\]/from: [monster_zone, spel_zone]/' "39:64: error: unknown zone type 'spel_zone'"
bad 's/to: extra_deck, face: up}/face: sideways}/' "39:83: error: unknown face 'sideways' (expected one of: up, down)"
bad 's/to: extra_deck, face: up}/to: graveyard}/' "39:81: error: this instead: entry of zone graveyard sends the object to the zone it is bound for"
bad 's/, to: extra_deck, face: up}/}/' "39:23: error: an instead: entry of zone graveyard, instead says neither to: nor face:"
bad 's/to: extra_deck, face: up}/to: extra_deck, when: up}/' "39:93: error: unknown key 'when' in an instead: entry"
echo "zone rules: bad instead: and group: values are file:line:column errors"
"$bin" table --ruleset-file "$D" --ruleset duel-game > "$work/table.txt"
grep -q 'graveyard.instead' "$work/table.txt" || fail "no instead in the table"
grep -q '^== pendulum card' "$work/table.txt" || fail "no row of an instead word"
grep -q 'extra_monster_zone.group' "$work/table.txt" || fail "no group in the table"
"$bin" gate --ruleset-file "$D" --engine "$bin serve --ruleset-file $D" --ruleset duel-game --fuzz 2 \
  --out "$work/fz2" > "$work/out" 2>&1 || fail "gate --fuzz failed (duel)"
grep -Eq 'seed 1: [1-9][0-9]* games .* 0 skipped .* \(100\.0%\).* 0 differed' "$work/out" || fail "gate --fuzz differed (duel)"
echo "zone rules: the duel game's own replacements: cases, table, gate --fuzz"

# group: ruleset_zones gives the group's word with zone_rules
engine="python3 $src/oracle/tests/engines/pile_engine.py $D duel-game zone_rules"
"$bin" gate --validate --ruleset-file "$D" --engine "$engine" --report-dir "$work/g3" "$dir/duel-cases" \
  > "$work/out" 2>&1 || true
grep -q ' protocol messages valid$' "$work/out" || fail "invalid protocol messages (duel)"
python3 - "$work/g3/protocol.jsonl" <<'PY' || fail "group not sent with zone_rules"
import json, sys
setups = [m["message"] for m in map(json.loads, open(sys.argv[1]))
          if m.get("dir") == "request" and m["message"].get("op") == "setup"]
assert setups, "no setup"
for s in setups:
    z = s["ruleset_zones"]
    assert z["monster_zone"]["group"] == z["extra_monster_zone"]["group"] == "monster_zones", z["monster_zone"]
    assert z["spell_zone"]["group"] is None, z["spell_zone"]
    assert z["graveyard"]["instead"][0]["to"] == "extra_deck", z["graveyard"]
PY
echo "zone rules: ruleset_zones gives group: and instead: with zone_rules"

# zoneoracle mutants turns each cited limits:, displace:, instead: and
# group: off in turn: a case of the game kills each
for g in limits duel; do
  "$bin" mutants --ruleset-file "$dir/$g-game.yaml" "$dir/$g-cases" > "$work/mut.out" 2>&1 || true
  n=$(grep -cE "^$g-game:[a-z_]+\.(limits|displace|instead|group|clears|ceases_empty) " "$work/mut.out" || true)
  [ "$n" -ge 4 ] || fail "$g-game: only $n zone-rule mutants"
  if grep -E "^$g-game:[a-z_]+\.(limits|displace|instead|group|clears|ceases_empty) +SURVIVED" "$work/mut.out"; then
    fail "$g-game: a zone-rule mutant survived its cases"
  fi
done
echo "zone rules: every limits/displace/instead/group mutant is killed by the games' cases"

# seats: zone types only some players have (seats-game.yaml, Netrunner's
# Corp and Runner): cases with the invariants, a seat that lacks a zone,
# the table, gate --fuzz, and each seats mutant killed
S=$dir/seats-game.yaml
"$bin" run --invariants --ruleset-file "$S" --report-dir "$work/s" "$dir/seats-cases" > "$work/out" 2>&1 \
  || fail "the seats cases failed"
grep -q '^2 passed, 0 failed, 0 skipped$' "$work/out" || fail "not every seats case passed"
"$bin" rules --ruleset-file "$S" --ruleset seats-game "$dir/seats-cases" > "$work/out" 2>&1 \
  || fail "a seed rule of seats-game has no case"
F=$S
bad 's/seats: {value: \[1\], rule: "SG 2"}/seats: {value: [9], rule: "SG 2"}/' "34:21: error: a seat is 1..8"
bad 's/    per_player: {value: true, rule: "SG 4"}//' "61:12: error: seats of zone rig names the players"
bad 's/    seats: {value: \[2\], rule: "SG 3"}/    seats: {value: [1, 2], rule: "SG 3"}/' \
  "40:11: error: role hand is given to zone types hq and grip"
cat > "$work/seat.yaml" <<'YAML'
id: seats/setup
title: a runner's card in an HQ
rulesets: [seats-game]
rules: ["SG 1"]
players: [corp, runner]
cards:
  x: {owner: runner, zone: runner.hq}
steps: []
YAML
set +e
"$bin" run --ruleset-file "$S" --report-dir "$work/se" "$work/seat.yaml" > "$work/out" 2>&1
rc=$?
set -e
[ "$rc" -eq 3 ] || fail "a set-up in a zone a seat lacks: exit $rc, expected 3"
grep -q "seat.yaml:7:3: error: card 'x': no such zone" "$work/out" || fail "no set-up error for a seat"
"$bin" table --ruleset-file "$S" --ruleset seats-game > "$work/table.txt"
grep -q '\[grip.seats\]' "$work/table.txt" || fail "no seats in the table"
"$bin" gate --ruleset-file "$S" --engine "$bin serve --ruleset-file $S" --ruleset seats-game --fuzz 2 \
  --out "$work/fz3" > "$work/out" 2>&1 || fail "gate --fuzz failed (seats)"
grep -Eq 'seed 1: [1-9][0-9]* games .* 0 skipped .* \(100\.0%\).* 0 differed' "$work/out" || fail "gate --fuzz differed (seats)"
"$bin" mutants --ruleset-file "$S" "$dir/seats-cases" > "$work/mut.out" 2>&1 || true
n=$(grep -cE "^seats-game:[a-z_]+\.seats " "$work/mut.out" || true)
[ "$n" -eq 8 ] || fail "seats-game: $n seats mutants, expected 8"
if grep -E "^seats-game:[a-z_]+\.seats +SURVIVED" "$work/mut.out"; then fail "a seats mutant survived"; fi
echo "zone rules: seats: cases, errors, table, gate --fuzz, mutants"

# the built-in games' own: wrong_owner (pokemon's Bench), follows_control,
# at_index and face_up_only (yugioh): each mutant killed by the suite's cases
"$bin" mutants "$src/cases/pokemon" "$src/cases/yugioh" > "$work/mut.out" 2>&1 || true
for m in pokemon:bench.wrong_owner yugioh:monster.follows_control yugioh:extra_monster.follows_control \
         yugioh:spell_trap.at_index yugioh:monster.face_up_only; do
  grep -Eq "^$m +[a-z]" "$work/mut.out" || fail "no mutant $m"
  if grep -E "^$m +SURVIVED" "$work/mut.out"; then fail "mutant $m survived"; fi
done
echo "zone rules: wrong_owner, follows_control, at_index and face_up_only mutants killed"
