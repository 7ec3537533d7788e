#!/usr/bin/env python3
"""Unit tests of the Python zcp/1 engine (stdlib unittest):
    python3 -m unittest discover -s ci/adapters/python
They talk to the engine in process, with the same JSON the gate sends, and to
the real program over a pipe once (the handshake and a malformed line)."""
import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine  # noqa: E402

ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "engine.py")


class Session:
    """One game through Server.handle, as the gate would drive it."""

    def __init__(self, cards, players=("alice", "bob")):
        self.server, self.id = engine.Server(), 0
        answer = self.call("setup", ruleset="mtg-current", players=list(players), cards=cards)
        assert answer["ok"], answer

    def call(self, op, **fields):
        self.id += 1
        # through JSON both ways, as on the wire
        return json.loads(json.dumps(self.server.handle(json.loads(json.dumps(
            {"op": op, "id": self.id, **fields})))))

    def step(self, name, **opts):
        answer = self.call("step", step={name: opts})
        assert answer["ok"], answer
        return answer["outcome"], answer["error"]

    def obj(self, handle):
        return self.call("observe")["objects"][handle]

    def observe(self):
        return self.call("observe")


class Rules(unittest.TestCase):
    def test_zone_change_makes_a_new_object_and_sets_no_controller(self):   # CR 400.7, 109.4
        s = Session({"bear": {"owner": "alice", "zone": "battlefield", "controller": "bob",
                              "types": ["creature"]}})
        before = s.obj("bear")["object"]
        self.assertEqual(s.step("move", card="bear", to="graveyard"), ("moved", None))
        o = s.obj("bear")
        self.assertEqual((o["zone"], o["controller"], o["position"]), ("alice.graveyard", None, 0))
        self.assertNotEqual(o["object"], before)

    def test_redirect_to_owners_graveyard(self):                              # CR 400.3
        s = Session({"x": {"owner": "bob", "zone": "battlefield", "types": ["creature"]}})
        self.assertEqual(s.step("move", card="x", to="alice.graveyard"), ("redirected", None))
        self.assertEqual(s.obj("x")["zone"], "bob.graveyard")

    def test_exile_to_exile_new_object_in_place_forgets_marks(self):          # CR 400.8
        s = Session({"x": {"owner": "alice", "zone": "exile", "types": ["creature"]}})
        s.step("mark", card="x", **{"as": "m", "kind": "effect"})
        s.step("remember", card="x", **{"as": "r"})
        self.assertEqual(s.step("move", card="x", to="exile"), ("new_object_in_place", None))
        self.assertEqual(s.obj("x")["marks"], [])
        self.assertFalse(s.observe()["refs"]["r"]["found"])

    def test_then_finds_object_only_in_public_zone(self):                    # CR 400.7j
        s = Session({"a": {"owner": "alice", "zone": "battlefield", "types": ["creature"]},
                     "b": {"owner": "alice", "zone": "battlefield", "types": ["creature"]}})
        s.step("move", card="a", to="exile", then={"mark": {"as": "ma", "kind": "effect"}})
        s.step("move", card="b", to="hand", then={"mark": {"as": "mb", "kind": "effect"}})
        self.assertEqual(s.obj("a")["marks"], ["ma"])
        self.assertEqual(s.obj("b")["marks"], [])

    def test_token_that_left_cannot_move_then_ceases(self):                  # CR 111.8, 704.5d
        s = Session({"t": {"owner": "alice", "zone": "battlefield", "kind": "token",
                           "types": ["creature"]}})
        s.step("move", card="t", to="graveyard")
        self.assertEqual(s.step("move", card="t", to="exile"), ("stayed", "token_left"))
        self.assertEqual(s.step("state_check"), ("ceased", None))
        self.assertFalse(s.obj("t")["exists"])

    def test_token_that_left_ceases_when_put_outside_the_game(self):         # CR 111.8, 400.11
        s = Session({"t": {"owner": "alice", "zone": "battlefield", "kind": "token",
                           "types": ["creature"]}})
        s.step("move", card="t", to="library")
        self.assertEqual(s.step("move", card="t", to="outside"), ("ceased", None))
        self.assertFalse(s.obj("t")["exists"])

    def test_phased_out_is_checked_before_already(self):                     # CR 702.26b
        s = Session({"x": {"owner": "alice", "zone": "battlefield", "types": ["creature"]}})
        s.step("phase", card="x", out=True)
        self.assertEqual(s.step("turn_face", card="x", face="up"), ("failed", "phased_out"))
        self.assertEqual(s.step("turn_face", card="x", face="down"), ("failed", "phased_out"))
        self.assertEqual(s.obj("x")["face"], "up")

    def test_phased_out_token_survives_and_nothing_triggers(self):           # CR 702.26d
        s = Session({"t": {"owner": "alice", "zone": "battlefield", "kind": "token",
                           "types": ["creature"]}})
        s.step("watch", card="t", **{"as": "w", "from": "battlefield"})
        self.assertEqual(s.step("phase", card="t", out=True), ("no_move", None))
        self.assertEqual(s.step("state_check"), ("no_move", None))
        self.assertEqual(s.step("move", card="t", to="graveyard"), ("failed", "phased_out"))
        self.assertFalse(s.observe()["triggers"]["w"]["fired"])

    def test_trigger_cannot_find_card_in_hand(self):                         # CR 400.7e
        s = Session({"x": {"owner": "alice", "zone": "battlefield", "types": ["creature"]}})
        s.step("watch", card="x", **{"as": "w", "from": "battlefield", "to": "any"})
        s.step("move", card="x", to="hand")
        self.assertEqual(s.step("resolve", trigger="w", do={"move": {"to": "graveyard"}}),
                         ("not_found", "not_found"))
        self.assertEqual(s.observe()["triggers"]["w"],
                         {"fired": True, "found": False, "controller": "alice"})

    def test_replacement_chooser_is_controller(self):                        # CR 616.1
        s = Session({"x": {"owner": "bob", "zone": "battlefield", "controller": "alice",
                           "types": ["creature"]}})
        s.step("replace", card="x", when={"to": "graveyard"}, instead={"to": "exile"},
               **{"as": "r"})
        self.assertEqual(s.step("choose_replacement", order=["r"], player="bob", card="x"),
                         ("rejected", "wrong_player"))
        self.assertEqual(s.step("move", card="x", to="graveyard"), ("replaced", None))
        self.assertEqual(s.obj("x")["zone"], "exile")

    def test_permanent_spell_keeps_characteristic_and_prevention(self):      # CR 400.7a, 400.7c
        s = Session({"g": {"owner": "alice", "zone": "stack", "types": ["creature"]}})
        for name, kind in (("ch", "characteristic"), ("pv", "prevention"), ("ct", "counter")):
            s.step("mark", card="g", **{"as": name, "kind": kind})
        s.step("move", card="g", to="battlefield")
        self.assertEqual(s.obj("g")["marks"], ["ch", "pv"])

    def test_visibility(self):                                               # CR 400.2, 402.3
        s = Session({"h": {"owner": "alice", "zone": "hand"},
                     "l": {"owner": "alice", "zone": "library"},
                     "f": {"owner": "bob", "zone": "battlefield", "face": "down"},
                     "e": {"owner": "bob", "zone": "exile", "face": "down"}})
        visible = s.observe()["visible"]
        self.assertEqual(sorted(visible["alice"]), ["h"])
        self.assertEqual(sorted(visible["bob"]), ["f"])

    def test_draw_from_empty_library_loses_at_state_check(self):            # CR 704.5b
        s = Session({})
        self.assertEqual(s.step("draw", player="alice"), ("no_move", None))
        self.assertFalse(s.observe()["players"]["alice"]["lost"])
        s.step("state_check")
        self.assertTrue(s.observe()["players"]["alice"]["lost"])

    def test_shuffle_is_repeatable(self):
        cards = {f"c{i}": {"owner": "alice", "zone": "library"} for i in range(6)}
        orders = []
        for _ in range(2):
            s = Session(cards)
            s.step("shuffle", zone="library", seed=7)
            objs = s.observe()["objects"]
            orders.append(sorted(objs, key=lambda h: objs[h]["position"]))
        self.assertEqual(orders[0], orders[1])


class Protocol(unittest.TestCase):
    def test_bad_requests_are_answered(self):
        s = Session({"x": {"owner": "alice", "zone": "hand"}})
        for step in (None, {}, {"fly": {}}, {"move": {"card": "nobody", "to": "exile"}},
                     {"move": {"card": "x", "to": "narnia"}}, {"move": {"card": "x"}}):
            answer = s.call("step", step=step)
            self.assertEqual(answer["error"]["code"], "bad_request", step)
        self.assertEqual(s.obj("x")["zone"], "alice.hand")
        self.assertEqual(s.call("setup", ruleset="fab", players=["a"], cards={})["error"]["code"],
                         "unsupported")

    def test_process_handshake_and_garbage(self):
        lines = ['{"op":"hello","id":1,"protocol":"zcp/1"}', "not json", '{"op":"bye","id":2}']
        out = subprocess.run([sys.executable, ENGINE], input="\n".join(lines) + "\n",
                             capture_output=True, text=True, timeout=30).stdout.splitlines()
        answers = [json.loads(line) for line in out]
        self.assertEqual(answers[0]["rulesets"], ["mtg-current"])
        self.assertEqual(answers[1]["error"]["code"], "bad_request")
        self.assertEqual(answers[2], {"id": 2, "ok": True})


if __name__ == "__main__":
    unittest.main()
