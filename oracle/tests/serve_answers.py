#!/usr/bin/env python3
"""serve's answers, message by message (ci/protocol/PROTOCOL.md).

    serve_answers.py ZONEORACLE

Drives `ZONEORACLE serve` through a scripted session and asserts what it
answers, field by field:

- zcp/2 (the runner accepts it in hello): fields at their default are left
  out ("Defaults"): an object's position, layer, face, controller, marks,
  under, phased_out and came_from; a result's error and events; a delta's
  objects; exists, zone, object, visibility and owner are always there;
- zcp/1 (hello without accepts): every field, as before;
- a run whose steps introduce names (a watch, a remember) shows each
  trigger and reference from the step that introduced it, not before, in
  deltas and in whole observations alike (section 8: "so far"), although
  serve builds the game once for the whole run;
- a run with a step it cannot take is answered with that step's error,
  and the steps before it stay applied (7.5).

Exit 0 when every assertion holds, 1 (naming the first that failed) else.
"""

import json
import subprocess
import sys

DEFAULTS = {"position": None, "layer": None, "face": "up", "controller": None,
            "marks": [], "under": None, "phased_out": False, "came_from": None}
ALWAYS = ("exists", "zone", "object", "visibility", "owner")


def session(zoneoracle, requests):
    """The answers of serve to requests (a list of dicts, ids added)."""
    lines = "".join(json.dumps(dict(r, id=i + 1)) + "\n" for i, r in enumerate(requests))
    out = subprocess.run([zoneoracle, "serve"], input=lines, capture_output=True, text=True,
                         timeout=60, check=True).stdout
    answers = [json.loads(line) for line in out.splitlines()]
    if len(answers) != len(requests):
        fail(f"{len(requests)} requests got {len(answers)} answers")
    return answers


def fail(what):
    print(f"serve_answers: FAIL {what}")
    sys.exit(1)


def check(cond, what):
    if not cond:
        fail(what)


SETUP = {"op": "setup", "ruleset": "mtg-current", "players": ["alice", "bob"],
         "cards": {"a": {"owner": "alice", "zone": "hand"},
                   "b": {"owner": "bob", "zone": "library", "position": 0}}}


def main():
    zo = sys.argv[1]
    hello2 = {"op": "hello", "protocol": "zcp/1", "accepts": ["zcp/1", "zcp/2"]}
    steps = [{"move": {"card": "a", "to": "hand"}},                 # changes nothing
             {"watch": {"as": "w1", "card": "a", "to": "graveyard"}},
             {"move": {"card": "a", "to": "graveyard"}},
             {"remember": {"as": "r1", "card": "a"}}]
    a = session(zo, [hello2, SETUP, {"op": "observe"},
                     {"op": "run", "observe": "delta", "steps": steps},
                     {"op": "run", "observe": "each", "steps": [
                         {"watch": {"as": "w2", "card": "b", "to": "hand"}},
                         {"remember": {"as": "r2", "card": "b"}}]},
                     {"op": "run", "observe": "delta", "steps": [
                         {"move": {"card": "b", "to": "hand"}},
                         {"move": {"card": "nosuch", "to": "hand"}}]},
                     {"op": "observe"}])
    check(a[0].get("protocol") == "zcp/2", "hello: serve did not choose zcp/2")

    # the whole observation: defaults left out, the five always there
    objs = a[2]["objects"]
    check(set(objs["a"]) == set(ALWAYS), f"zcp/2 observe: a has {sorted(objs['a'])}")
    check(objs["b"].get("position") == 0 and set(objs["b"]) == set(ALWAYS) | {"position"},
          f"zcp/2 observe: b has {sorted(objs['b'])}")
    check(a[2]["triggers"] == {} and a[2]["refs"] == {}, "zcp/2 observe: triggers or refs not empty")

    # results: error and events only when there are some
    res, obs = a[3]["results"], a[3]["observations"]
    check(res[0] == {"outcome": "no_move", "events": [{"handle": "a", "outcome": "no_move"}]},
          f"zcp/2 run: result 1 is {res[0]}")
    check(res[1] == {"outcome": "no_move"}, f"zcp/2 run: result 2 (a watch) is {res[1]}")
    # deltas: nothing changed is {}; a trigger shows from its watch on
    check(obs[0] == {}, f"zcp/2 run: the delta of a step that changed nothing is {obs[0]}")
    check(obs[1] == {"triggers": {"w1": {"fired": False, "found": None, "controller": None}}},
          f"zcp/2 run: the delta of the watch is {obs[1]}")
    check(obs[2]["objects"]["a"]["zone"] == "alice.graveyard" and obs[2]["triggers"]["w1"]["fired"],
          f"zcp/2 run: the delta of the move is {obs[2]}")
    check("refs" not in obs[2] and obs[3].get("refs") == {"r1": {"found": True, "handle": "a"}},
          f"zcp/2 run: r1 shows before its remember, or not at it: {obs[2]}, {obs[3]}")

    # whole observations (each): names so far, defaults out
    each = a[4]["observations"]
    check(set(each[0]["triggers"]) == {"w1", "w2"} and set(each[0]["refs"]) == {"r1"},
          f"zcp/2 each: after the watch, triggers {sorted(each[0]['triggers'])} refs {sorted(each[0]['refs'])}")
    check(set(each[1]["refs"]) == {"r1", "r2"}, f"zcp/2 each: after the remember, refs {sorted(each[1]['refs'])}")
    check(not any(k in DEFAULTS and v == DEFAULTS[k] for o in each[1]["objects"].values() for k, v in o.items()),
          "zcp/2 each: a field at its default was written")

    # a step serve cannot take: the run's answer is its error; the step
    # before it stays applied
    check(a[5].get("ok") is False and a[5]["error"]["code"] == "bad_request", f"bad step: {a[5]}")
    check(a[6]["objects"]["b"]["zone"] == "bob.hand",
          f"bad step: the step before it was not applied: b in {a[6]['objects']['b']['zone']}")

    # zcp/1: every field, as always
    b = session(zo, [{"op": "hello", "protocol": "zcp/1"}, SETUP, {"op": "observe"},
                     {"op": "run", "observe": "each", "steps": steps[:2]}])
    check(b[0].get("protocol") == "zcp/1", "hello: serve did not stay on zcp/1")
    for h, o in b[2]["objects"].items():
        check(set(DEFAULTS) | set(ALWAYS) <= set(o), f"zcp/1 observe: {h} lacks {sorted(set(DEFAULTS) - set(o))}")
    check(b[3]["results"][1] == {"outcome": "no_move", "error": None, "events": []},
          f"zcp/1 run: result 2 is {b[3]['results'][1]}")
    check(b[3]["observations"][0]["triggers"] == {} and set(b[3]["observations"][1]["triggers"]) == {"w1"},
          "zcp/1 each: a trigger shows before its watch, or not at it")
    print("serve_answers: zcp/2 defaults left out, zcp/1 whole, names shown from their step on, "
          "a bad step answered with the steps before it applied")


if __name__ == "__main__":
    main()
