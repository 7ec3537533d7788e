#!/usr/bin/env bash
# zoneoracle table: real cells of the transition tables against the rules
# (each read from the JSON the command prints, so the cell is the model's),
# every format of every rule set, the usage errors, and the tables in the
# HTML report of a run.
set -euo pipefail
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for rs in $("$bin" rulesets | awk '{print $1}'); do
  "$bin" table --ruleset "$rs" --format json > "$work/$rs.json"
  "$bin" table --ruleset "$rs" > "$work/$rs.txt"
  "$bin" table --ruleset "$rs" --format markdown > "$work/$rs.md"
  grep -q "^Transition table of $rs" "$work/$rs.txt" || { echo "$rs: no text table"; exit 1; }
  grep -q "^| from | to |" "$work/$rs.md" || { echo "$rs: no Markdown table"; exit 1; }
done
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
bad = []

def cell(rs, obj, frm, to):
    """The row of object obj (following same_as) whose origins hold frm and destinations to."""
    t = json.load(open("%s/%s.json" % (work, rs)))
    objs = {o["object"]: o for o in t["objects"]}
    o = objs[obj]
    while "same_as" in o:
        o = objs[o["same_as"]]
    for r in o["rows"]:
        if frm in r["from"] and to in r["to"]:
            return r
    raise SystemExit("%s: no cell %s from %s to %s" % (rs, obj, frm, to))

def expect(rs, obj, frm, to, **want):
    r = cell(rs, obj, frm, to)
    for k, v in want.items():
        if k == "rules":
            missing = [x for x in v if x not in r["rules"]]
            if missing:
                bad.append("%s %s %s->%s: rules %s lack %s" % (rs, obj, frm, to, r["rules"], missing))
        elif k == "by_rule":
            br = r.get("by_rule") or {}
            for bk, bv in v.items():
                got = br.get(bk)
                if (bk == "rules" and any(x not in (got or []) for x in bv)) or (bk != "rules" and got != bv):
                    bad.append("%s %s %s->%s: by a rule %s=%r, expected %r" % (rs, obj, frm, to, bk, got, bv))
        elif r.get(k) != v:
            bad.append("%s %s %s->%s: %s=%r, expected %r" % (rs, obj, frm, to, k, r.get(k), v))

# CR 400.7: a card that changes zones is a new object
expect("mtg-current", "card (creature)", "battlefield", "owner.graveyard", outcome="moved",
       new_object=True, ends_in="there", sees="all", controller="none", keeps=["sticker"],
       rules=["CR 400.7"])
# CR 123.5, 400.7m: a sticker goes with a card put into a hidden zone
expect("mtg-current", "card (creature)", "battlefield", "owner.hand", keeps=[])
# CR 400.3: another player's graveyard means its owner's
expect("mtg-current", "card (creature)", "battlefield", "other.graveyard", outcome="redirected",
       ends_in="the owner's instead", rules=["CR 400.3"])
# CR 707.13: a copy of a card is made outside the game (the only way there)
# and cast from it; 704.5e ends it anywhere but the stack or battlefield
expect("mtg-current", "copy of a spell (instant)", "outside (created there)", "stack", outcome="moved",
       new_object=True, controller="owner")
expect("mtg-current", "copy of a spell (instant)", "outside (created there)", "owner.hand",
       outcome="moved", state_check="ceased", rules=["CR 704.5e"])
# no older text makes a copy outside the game: no such origin there
if any("created there" in f for o in json.load(open("%s/mtg-2011.json" % work))["objects"]
       for r in o.get("rows", ()) for f in r["from"]):
    bad.append("mtg-2011: a copy created outside the game, which only today's 707.13 has")
# CR 402.3 / 400.2: a hand is seen by its owner only; a library by nobody
expect("mtg-current", "card (creature)", "battlefield", "owner.hand", sees="owner")
expect("mtg-current", "card (creature)", "battlefield", "owner.library", sees="nobody")
# CR 400.8: exiling what is in exile makes a new object where it is
expect("mtg-current", "card (creature)", "exile", "its own zone", outcome="new_object_in_place",
       new_object=True, ends_in="where it was", rules=["CR 400.8"])
# CR 400.4a: an instant bound for the battlefield stays where it was
expect("mtg-current", "instant card", "owner.hand", "battlefield", outcome="stayed",
       error="cannot_hold", ends_in="where it was", rules=["CR 400.4a"])
# CR 400.7a, 400.7c, 400.7d: a permanent spell keeps its characteristic and
# prevention marks and what it was cast with; a sticker stays too (400.7m)
expect("mtg-current", "card (creature)", "stack", "battlefield", outcome="moved",
       keeps=["characteristic", "prevention", "sticker", "spell_info"], controller="other",
       rules=["CR 400.7a", "CR 400.7c"])
# 2011's 400.7 has no stickers, but 400.7c keeps what the spell was cast with
expect("mtg-2011", "card (creature)", "stack", "battlefield", outcome="moved",
       keeps=["characteristic", "prevention", "spell_info"])
# CR 111.7, 704.5d: a token off the battlefield ceases at the state check
expect("mtg-current", "token", "battlefield", "owner.hand", outcome="moved",
       state_check="ceased", new_object=True, rules=["CR 111.7", "CR 704.5d"])
# CR 111.8: a token that left the battlefield can't move again, whatever the zone
expect("mtg-current", "token", "owner.graveyard (via battlefield)", "exile", outcome="stayed",
       error="token_left", state_check="ceased", rules=["CR 111.8"])
# mtg-2011 (110.5g): it only can't come back to the battlefield
expect("mtg-2011", "token", "owner.graveyard (via battlefield)", "exile", outcome="moved")
expect("mtg-2011", "token", "owner.graveyard (via battlefield)", "battlefield", outcome="stayed",
       error="token_left", rules=["CR 110.5g"])
# CR 702.26b: a phased-out permanent can't be moved; 702.26d: phasing is no zone change
expect("mtg-current", "phased-out permanent", "battlefield", "owner.hand", outcome="failed",
       error="phased_out", keeps=["all marks", "phased out"], rules=["CR 702.26b"])
# CR 217.1a (2004): an instant bound for in play stays; 216.3, 217.7a: a token that
# left play can't come back
expect("mtg-2004", "instant card", "owner.graveyard", "in_play", outcome="stayed", rules=["CR 217.1a"])
expect("mtg-2004", "token", "removed (via in_play)", "in_play", outcome="stayed", error="token_left",
       rules=["CR 216.3"])
# CR 217.1f (2008): removed to removed is a new object; 2004 is silent (no move)
expect("mtg-2008", "card (creature)", "removed", "its own zone", outcome="new_object_in_place",
       rules=["CR 217.1f"])
expect("mtg-2004", "card (creature)", "removed", "its own zone", outcome="no_move", new_object=False)
# Z.1.5: 1999's ante is per player and a card goes to its owner's
expect("mtg-1999", "card (creature)", "owner.hand", "other.ante", outcome="redirected", rules=["Z.1.5"])
# FaB 8.1.8a: a token that leaves the arena ceases
expect("fab", "token", "permanent", "owner.graveyard", outcome="ceased", ends_in="", rules=["FaB 8.1.8a"])
# FaB 3.0.11, 3.0.12a: an effect can't equip a token to arms; a rule clears it, and it ceases
expect("fab", "token", "permanent", "owner.arms", outcome="failed", error="cannot_hold",
       rules=["FaB 3.0.11"], by_rule={"outcome": "ceased", "rules": ["FaB 3.0.12", "FaB 3.0.12a"]})
# FaB 3.0.11, 3.0.12: into another player's graveyard an effect fails, a rule clears to the owner's
expect("fab", "deck-card (action)", "owner.hand", "other.graveyard", outcome="failed",
       error="cannot_hold", by_rule={"outcome": "cleared", "ends_in": "the owner's instead",
                                     "rules": ["FaB 3.0.12"]})
# FaB 3.0.9: entering the stack or the arena is no new object; leaving for the graveyard is
expect("fab", "deck-card (action)", "owner.hand", "stack", outcome="moved", new_object=False)
expect("fab", "deck-card (action)", "combat_chain", "owner.graveyard", outcome="moved", new_object=True,
       keeps=["history"], rules=["FaB 3.0.9", "FaB 3.0.9c"])
# FaB 3.0.7b: a move to where it is does not happen
expect("fab", "deck-card (action)", "owner.graveyard", "its own zone", outcome="no_move", rules=["FaB 3.0.7b"])
# FaB 3.0.3a, 3.7.4: a card in a deck is seen by nobody, in a hand by its owner
expect("fab", "deck-card (action)", "owner.graveyard", "owner.deck", sees="nobody", keeps=["face down", "history"])
expect("fab", "deck-card (action)", "owner.graveyard", "owner.hand", sees="owner")
# FaB 1.5.3: a macro that leaves the arena ceases
expect("fab", "macro", "permanent", "owner.banished", outcome="ceased", rules=["FaB 1.5.3"])
# the games of issue 31: a card in the Lost Zone stays there (keeps);
# attached cards follow their Pokémon between Active Spot and Bench
# (sub-cards, leave_arena); a Yu-Gi-Oh! Token leaving the field ceases at
# once; an Xyz Monster leaving the field sends its materials to the
# Graveyard; a card goes to its owner's Graveyard
expect("pokemon", "pokemon card", "owner.lost_zone", "owner.hand", outcome="stayed", error="cannot_hold",
       rules=["PTCG G Lost Zone"])
expect("pokemon", "top-card with a sub-card", "owner.active", "owner.bench", outcome="moved",
       new_object=False, rules=["PTCG 10 Attach"])
expect("yugioh", "token", "owner.monster.1", "owner.graveyard", outcome="ceased", ends_in="",
       rules=["YGO 49 Tokens"])
expect("yugioh", "top-card with a sub-card", "owner.monster.1", "owner.graveyard", outcome="moved",
       new_object=True, rules=["YGO 18 Xyz Materials"])
expect("yugioh", "card (creature)", "owner.monster.1", "other.graveyard", outcome="redirected",
       rules=["YGO 49 Owner"])
# issue 31's zone rules in the two games: a Stadium played while another is
# in play goes in (the old one is displaced to its owner's discard pile); a
# new Field Spell likewise (to the Graveyard); a Pendulum Monster leaving
# the field for the Graveyard goes to the Extra Deck instead, and so does a
# Fusion Monster returned to the hand
expect("pokemon", "stadium card", "owner.hand", "stadium", outcome="moved",
       rules=["PTCG 10 Stadium"])
expect("yugioh", "field_spell card", "owner.hand", "owner.field", outcome="moved",
       rules=["YGO 4 Field Zone"])
expect("yugioh", "pendulum card", "owner.monster.1", "owner.graveyard", outcome="replaced",
       ends_in="owner.extra_deck", rules=["YGO 16 Pendulum to Extra Deck"])
expect("yugioh", "fusion card", "owner.monster.1", "owner.hand", outcome="replaced",
       ends_in="owner.extra_deck", rules=["YGO 22 Extra Deck Monster to Hand"])
if bad:
    print("\n".join(bad))
    sys.exit(1)
print("table cells as the rules say")
PY
# usage errors: exit 2 with a message naming what is wrong
rc=0; "$bin" table --ruleset no-such-set > /dev/null 2> "$work/err" || rc=$?
[ "$rc" -eq 2 ] || { echo "unknown rule set: exit $rc, expected 2"; exit 1; }
grep -q "unknown rule set 'no-such-set'" "$work/err" || { echo "unknown rule set: message"; cat "$work/err"; exit 1; }
rc=0; "$bin" table > /dev/null 2> "$work/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "needs --ruleset" "$work/err" || { echo "no --ruleset: exit $rc"; exit 1; }
rc=0; "$bin" table --ruleset fab --format yaml > /dev/null 2> "$work/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "expected text, markdown or json" "$work/err" || { echo "bad --format: exit $rc"; exit 1; }
# the HTML report of a run: one collapsed table per rule set, with its rows
"$bin" run --quiet --ruleset mtg-current --report-dir "$work/r" "$src/cases/mtg/current" > /dev/null
grep -q '<details class="ttable" id="table-mtg-current">' "$work/r/index.html" \
  || { echo "index.html: no transition table of mtg-current"; exit 1; }
grep -q '<table class="transitions">' "$work/r/index.html" || { echo "index.html: no table rows"; exit 1; }
! grep -q 'id="table-fab"' "$work/r/index.html" || { echo "index.html: a table of a rule set not in the run"; exit 1; }
echo "table: cells, formats, usage errors and the report section checked"
