#!/usr/bin/env python3
"""Unit tests of the Python zcp/2 engine (stdlib unittest):
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


def dump(x, seen=None):
    """The whole state under x, canonical: each Tracked object once (then a
    back-reference), dicts and lists in order, sets sorted."""
    seen = {} if seen is None else seen
    if isinstance(x, engine.Tracked):
        if id(x) in seen:
            return ("@", seen[id(x)])
        seen[id(x)] = len(seen)
        return (type(x).__name__, tuple((k, dump(v, seen)) for k, v in sorted(vars(x).items())))
    if isinstance(x, dict):
        return (type(x).__name__, tuple((repr(k), dump(v, seen)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(dump(v, seen) for v in x))
    if isinstance(x, (set, frozenset)):
        return (type(x).__name__, tuple(sorted(repr(v) for v in x)))
    return repr(x)


class Session:
    """One game through Server.handle, as the gate would drive it. Each step
    is first run and rolled back from the undo log, which must leave the
    game exactly as it was (every write a step makes is logged)."""

    def __init__(self, cards, players=("alice", "bob")):
        self.server, self.id = engine.Server(), 0
        answer = self.call("setup", ruleset="mtg-current", players=list(players), cards=cards)
        assert answer["ok"], answer

    def call(self, op, **fields):
        if op == "step" and self.server.game is not None:
            self.undone(fields)
        self.id += 1
        # through JSON both ways, as on the wire
        return json.loads(json.dumps(self.server.handle(json.loads(json.dumps(
            {"op": op, "id": self.id, **fields})))))

    def undone(self, fields):
        game = self.server.game
        before = dump(game)
        mark = engine.Journal.start()
        try:
            self.server.handle(json.loads(json.dumps({"op": "step", "id": 0, **fields})))
        finally:
            engine.Journal.rollback(mark)
        assert self.server.game is game and dump(game) == before, f"not undone: {fields}"

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
        self.assertIsNone(o["came_from"])            # Magic keeps no zone history

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
        self.assertEqual(s.observe()["refs"]["r"], {"found": False, "handle": None})

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

    def test_then_after_no_move_acts_on_the_object_still_there(self):     # model decision
        s = Session({"x": {"owner": "alice", "zone": "battlefield", "types": ["creature"]}})
        self.assertEqual(s.step("move", card="x", to="battlefield",
                                then={"mark": {"as": "m", "kind": "effect"}}), ("no_move", None))
        self.assertEqual(s.obj("x")["marks"], ["m"])

    def test_cannot_hold_comes_before_token_left(self):                    # CR 400.4b, 111.8
        s = Session({"t": {"owner": "alice", "zone": "battlefield", "kind": "token",
                           "types": ["plane"]}})
        s.step("move", card="t", to="command")
        self.assertEqual(s.step("move", card="t", to="exile"), ("stayed", "cannot_hold"))

    def test_a_copy_on_the_battlefield_is_a_token(self):                   # CR 111.13, 111.8
        s = Session({"c": {"owner": "alice", "zone": "battlefield", "kind": "copy",
                           "types": ["artifact"]}})
        s.step("move", card="c", to="library")
        self.assertEqual(s.step("draw", player="alice"), ("stayed", "token_left"))

    def test_a_copy_of_a_spell_is_no_token_for_111_8(self):                # CR 111.8, 704.5e
        s = Session({"c": {"owner": "alice", "zone": "stack", "kind": "copy",
                           "types": ["instant"]}})
        self.assertEqual(s.step("move", card="c", to="exile"), ("moved", None))

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

    def test_mill_of_an_object_that_ceases_is_no_empty_mill(self):      # CR 701.17b, 400.11
        s = Session({"c2": {"owner": "bob", "zone": "stack", "kind": "copy"}})
        s.step("move", card="c2", to="library")
        s.step("replace", card="any", category="self", when={"to": "any"}, instead={"to": "outside"},
               **{"as": "p2"})
        # it took the copy (which ceased) and then found the library empty
        answer = s.call("step", step={"mill": {"player": "bob", "count": 2}})
        self.assertEqual((answer["outcome"], answer["error"], answer["events"]),
                         ("ceased", None, [{"handle": "c2", "outcome": "ceased"}]))
        self.assertFalse(s.obj("c2")["exists"])
        # nothing at all taken: failed (empty); nothing asked: no_move
        self.assertEqual(s.step("mill", player="bob", count=2), ("failed", "empty"))
        self.assertEqual(s.step("mill", player="bob", count=0), ("no_move", None))
        s = Session({"x": {"owner": "alice", "zone": "library"}})
        self.assertEqual(s.step("mill", player="alice", count=0), ("no_move", None))
        self.assertEqual(s.step("mill", player="alice", count=2), ("moved", None))

    def library(self, s):
        objs = s.observe()["objects"]
        return sorted((h for h in objs if objs[h]["position"] is not None and
                       objs[h]["zone"] == "alice.library"), key=lambda h: objs[h]["position"])

    def test_shuffle_takes_the_order_the_step_gives(self):
        s = Session({h: {"owner": "alice", "zone": "library", "position": i}
                     for i, h in enumerate("abc")})
        self.assertEqual(s.step("shuffle", zone="library", order=["c", "a", "b"], seed=9),
                         ("no_move", None))
        self.assertEqual(self.library(s), ["c", "a", "b"])
        for wrong in (["c", "a"], ["c", "a", "a"], ["c", "a", "b", "b"]):
            self.assertEqual(s.step("shuffle", zone="library", order=wrong), ("failed", "not_in_zone"))
        self.assertEqual(self.library(s), ["c", "a", "b"])
        self.assertEqual(s.call("step", step={"shuffle": {"zone": "library", "order": ["zz"]}})
                         ["error"]["code"], "bad_request")

    def test_shuffle_without_order_is_repeatable(self):
        cards = {f"c{i}": {"owner": "alice", "zone": "library", "position": i} for i in range(6)}
        orders = []
        for _ in range(2):
            s = Session(cards)
            s.step("shuffle", zone="library", seed=7)
            orders.append(self.library(s))
        self.assertEqual(orders[0], orders[1])
        self.assertEqual(sorted(orders[0]), sorted(cards))

    def test_setup_order_comes_from_positions_not_key_order(self):   # CR 400.5
        s = Session({"c": {"owner": "alice", "zone": "library", "position": 2},
                     "b": {"owner": "alice", "zone": "library", "position": 1},
                     "a": {"owner": "alice", "zone": "library", "position": 0}})
        self.assertEqual(self.library(s), ["a", "b", "c"])
        # an older runner: cards without a position fill the places left
        s = Session({"x": {"owner": "alice", "zone": "library"},
                     "y": {"owner": "alice", "zone": "library", "position": 0},
                     "z": {"owner": "alice", "zone": "library"}})
        self.assertEqual(self.library(s), ["y", "x", "z"])


class Attachments(unittest.TestCase):
    def test_attachment_ends_with_zone_change_aura_goes_equipment_stays(self):
        # CR 303.4, 400.7, 704.5m, 704.5n; indirect phasing, 702.26g
        creature = {"owner": "alice", "zone": "battlefield", "types": ["creature"]}
        s = Session({"bear": dict(creature), "wolf": dict(creature),
                     "rancor": {"owner": "bob", "zone": "battlefield", "types": ["enchantment"],
                                "subtypes": ["aura"]},
                     "sword": {"owner": "alice", "zone": "battlefield", "types": ["artifact"],
                               "subtypes": ["equipment"]}})
        self.assertEqual(s.step("attach", card="rancor", to="rancor"), ("failed", "cannot_hold"))
        self.assertEqual(s.step("attach", card="rancor", to="wolf"), ("no_move", None))
        self.assertEqual(s.step("attach", card="sword", to="wolf"), ("no_move", None))
        self.assertEqual(s.obj("rancor")["attached_to"], "wolf")
        self.assertNotIn("attached_to", s.obj("wolf"))
        s.step("phase", card="wolf", out=True)
        self.assertEqual((s.obj("rancor")["phased_out"], s.obj("sword")["attached_to"]), (True, "wolf"))
        self.assertEqual(s.step("state_check"), ("no_move", None))
        s.step("phase", card="wolf", out=False)
        self.assertEqual((s.obj("rancor")["phased_out"], s.obj("rancor")["attached_to"]), (False, "wolf"))
        before = s.observe()
        s.step("move", card="wolf", to="graveyard")
        after = s.observe()
        self.assertNotIn("attached_to", after["objects"]["rancor"])
        self.assertIsNone(engine.delta(before, after)["objects"]["rancor"]["attached_to"])
        self.assertEqual(s.step("state_check"), ("moved", None))
        self.assertEqual((s.obj("rancor")["zone"], s.obj("sword")["zone"]), ("bob.graveyard", "battlefield"))

    def test_aura_attached_to_a_player_until_that_player_leaves(self):
        # feature attach_player: CR 303.4b, 701.3a, 701.3b, 303.4c, 704.5m
        s = Session({"curse": {"owner": "alice", "zone": "battlefield", "types": ["enchantment"],
                               "subtypes": ["aura"]},
                     "sword": {"owner": "alice", "zone": "battlefield", "types": ["artifact"],
                               "subtypes": ["equipment"]}}, players=("alice", "bob", "carol"))
        self.assertEqual(s.step("attach", card="sword", to_player="bob"), ("failed", "cannot_hold"))
        self.assertNotIn("attached_to_player", s.obj("sword"))
        self.assertEqual(s.step("attach", card="curse", to_player="bob"), ("no_move", None))
        self.assertEqual(s.step("attach", card="curse", to_player="bob"), ("no_move", None))
        self.assertEqual(s.obj("curse")["attached_to_player"], "bob")
        before = s.observe()
        self.assertEqual(s.step("leave_game", player="bob"), ("no_move", None))
        after = s.observe()
        self.assertNotIn("attached_to_player", after["objects"]["curse"])
        self.assertIsNone(engine.delta(before, after)["objects"]["curse"]["attached_to_player"])
        self.assertEqual(s.step("attach", card="curse", to_player="bob"), ("rejected", "wrong_player"))
        self.assertEqual(s.step("state_check"), ("moved", None))
        self.assertEqual(s.obj("curse")["zone"], "alice.graveyard")
        answer = s.call("step", step={"attach": {"card": "sword", "to": "curse", "to_player": "carol"}})
        self.assertFalse(answer["ok"])

    def test_aura_put_onto_the_battlefield_attached_to_a_player(self):
        # feature attach_player: CR 303.4f, 303.4h
        s = Session({"curse": {"owner": "alice", "zone": "graveyard", "types": ["enchantment"],
                               "subtypes": ["aura"]},
                     "sword": {"owner": "alice", "zone": "graveyard", "types": ["artifact"],
                               "subtypes": ["equipment"]}})
        self.assertEqual(s.step("move", card="curse", to="battlefield", attached_to_player="bob"),
                         ("moved", None))
        self.assertEqual(s.obj("curse")["attached_to_player"], "bob")
        self.assertEqual(s.step("move", card="sword", to="battlefield", attached_to_player="bob"),
                         ("moved", None))
        self.assertNotIn("attached_to_player", s.obj("sword"))
        self.assertEqual(s.step("state_check"), ("no_move", None))


class Cant(unittest.TestCase):
    """"Can't" effects on moves (feature cant, CR 614.17)."""

    def test_forbidden_move_leaves_the_same_object_where_it_is(self):         # CR 614.17, 400.7
        s = Session({"ghoul": {"owner": "alice", "zone": "graveyard", "types": ["creature"]},
                     "forest": {"owner": "alice", "zone": "graveyard", "types": ["land"]}})
        self.assertEqual(s.step("cant", card="any", when={"from": "graveyard", "to": "battlefield"},
                                types=["creature"]), ("no_move", None))
        s.step("watch", card="ghoul", **{"as": "w", "to": "battlefield"})
        before = s.obj("ghoul")["object"]
        answer = s.call("step", step={"move": {"card": "ghoul", "from": "graveyard", "to": "battlefield",
                                               "then": {"mark": {"as": "m", "kind": "counter"}}}})
        self.assertEqual((answer["outcome"], answer["error"], answer["events"]), ("failed", "forbidden", []))
        o = s.obj("ghoul")
        self.assertEqual((o["zone"], o["object"], o["marks"]), ("alice.graveyard", before, []))
        self.assertFalse(s.observe()["triggers"]["w"]["fired"])
        self.assertEqual(s.step("move", card="forest", to="battlefield"), ("moved", None))
        self.assertEqual(s.step("move", card="ghoul", to="hand"), ("moved", None))

    def test_forbidden_comes_before_stays_and_same_zone(self):               # CR 614.17, 400.4a, 400.8
        s = Session({"bolt": {"owner": "alice", "zone": "hand", "types": ["instant"]},
                     "relic": {"owner": "alice", "zone": "exile"},
                     "bear": {"owner": "alice", "zone": "battlefield", "types": ["creature"]},
                     "x": {"owner": "alice", "zone": "library", "position": 0}})
        s.step("cant", card="any")
        self.assertEqual(s.step("move", card="bolt", to="battlefield"), ("failed", "forbidden"))
        self.assertEqual(s.step("move", card="relic", to="exile"), ("failed", "forbidden"))
        self.assertEqual(s.step("move", card="bear", to="battlefield"), ("no_move", None))
        self.assertEqual(s.step("move", card="bear", to="graveyard", **{"from": "hand"}),
                         ("failed", "not_in_zone"))            # the leave checks come first
        answer = s.call("step", step={"draw": {"player": "alice"}})
        self.assertEqual((answer["outcome"], answer["events"]),
                         ("failed", [{"handle": "x", "outcome": "failed"}]))
        self.assertEqual(s.obj("x")["zone"], "alice.library")

    def test_not_retroactive_and_follows_the_card(self):                     # CR 614.17a
        s = Session({"ghoul": {"owner": "alice", "zone": "graveyard", "types": ["creature"]},
                     "imp": {"owner": "bob", "zone": "hand", "types": ["creature"]}})
        s.step("move", card="ghoul", to="battlefield")
        before = s.obj("ghoul")["object"]
        s.step("cant", card="any", when={"from": "graveyard", "to": "battlefield"})
        self.assertEqual((s.obj("ghoul")["zone"], s.obj("ghoul")["object"]), ("battlefield", before))
        s.step("cant", card="imp", when={"to": "graveyard", "cause": "discard"})
        self.assertEqual(s.step("move", card="imp", to="graveyard", cause="discard"), ("failed", "forbidden"))
        self.assertEqual(s.step("move", card="imp", to="graveyard", cause="destroy"), ("moved", None))
        self.assertEqual(s.step("move", card="ghoul", to="graveyard"), ("moved", None))
        self.assertEqual(s.step("move", card="ghoul", to="battlefield"), ("failed", "forbidden"))

    def test_only_a_self_replacement_replaces_what_cant_happen(self):        # CR 614.17c, 614.15
        s = Session({**{h: {"owner": "alice", "zone": "graveyard", "types": ["creature"]}
                        for h in ("ghoul", "zombie", "spirit")},
                     "wisp": {"owner": "alice", "zone": "hand", "types": ["creature"]}})
        s.step("replace", card="any", when={"to": "battlefield"}, instead={"to": "exile"},
               **{"as": "other"})
        self.assertEqual(s.step("move", card="ghoul", to="battlefield"), ("replaced", None))
        s.step("cant", card="any", when={"from": "graveyard", "to": "battlefield"})
        self.assertEqual(s.step("move", card="zombie", to="battlefield"), ("failed", "forbidden"))
        self.assertEqual(s.obj("zombie")["zone"], "alice.graveyard")
        s.step("replace", card="spirit", category="self", when={"to": "battlefield"},
               instead={"to": "hand"}, **{"as": "own"})
        self.assertEqual(s.step("move", card="spirit", to="battlefield"), ("replaced", None))
        self.assertEqual(s.obj("spirit")["zone"], "alice.hand")
        # a replacement that makes it an event an effect forbids: failed, nothing moves
        s.step("cant", card="any", when={"to": "exile"})
        self.assertEqual(s.step("move", card="wisp", to="battlefield"), ("failed", "forbidden"))
        self.assertEqual(s.obj("wisp")["zone"], "alice.hand")

    def test_judged_as_it_would_be_on_the_battlefield(self):                # CR 614.17d, 708.2a
        s = Session({"forest": {"owner": "alice", "zone": "library", "types": ["land"]},
                     "island": {"owner": "alice", "zone": "hand", "types": ["land"]},
                     "hidden": {"owner": "alice", "zone": "battlefield", "face": "down",
                                "types": ["land"]},
                     "plain": {"owner": "alice", "zone": "battlefield", "types": ["land"]}})
        s.step("cant", card="any", when={"to": "battlefield"}, types=["creature"])
        self.assertEqual(s.step("move", card="forest", to="battlefield", face="down"),
                         ("failed", "forbidden"))
        self.assertEqual(s.step("move", card="island", to="battlefield"), ("moved", None))
        # leaving, it is judged as it is: face down on the battlefield, a creature only
        s.step("cant", card="any", when={"to": "graveyard"}, types=["creature"])
        self.assertEqual(s.step("move", card="hidden", to="graveyard"), ("failed", "forbidden"))
        self.assertEqual(s.step("move", card="plain", to="graveyard"), ("moved", None))
        s.step("cant", card="any", when={"to": "exile"}, types=["land"])
        self.assertEqual(s.step("move", card="hidden", to="exile"), ("moved", None))

    def test_bad_cant_steps_are_bad_requests(self):
        s = Session({"x": {"owner": "alice", "zone": "hand"}})
        self.assertIn("cant", engine.FEATURES)
        for step in ({"cant": {}}, {"cant": {"card": "nobody"}}, {"cant": {"card": "any", "when": {"by": "rule"}}},
                     {"cant": {"card": "any", "when": {"to": "narnia"}}}, {"cant": {"card": "any", "types": "creature"}},
                     {"cant": {"card": "any", "until": "end_of_turn"}},
                     {"move": {"card": "x", "to": "exile", "then": {"cant": {"card": "any"}}}}):
            self.assertEqual(s.call("step", step=step)["error"]["code"], "bad_request", step)
        self.assertEqual(s.obj("x")["zone"], "alice.hand")
        self.assertEqual(s.step("move", card="x", to="exile"), ("moved", None))


class DrawReplacement(unittest.TestCase):
    """Draw replacements (feature draw_replacement, replace_draw; draw then:),
    CR 614.11, 614.11a, 614.11b, 614.5."""

    @staticmethod
    def library(n, player="alice"):
        return {f"c{i}": {"owner": player, "zone": "library", "position": i} for i in range(n)}

    def draw(self, s, **opts):
        answer = s.call("step", step={"draw": {"player": "alice", **opts}})
        self.assertTrue(answer["ok"], answer)
        return answer

    def test_replaces_a_draw_from_an_empty_library_once(self):              # CR 614.11, 704.5b
        s = Session({"troll": {"owner": "alice", "zone": "graveyard", "types": ["creature"]}})
        self.assertEqual(s.step("replace_draw", player="alice", once=True, **{"as": "dredge"},
                                instead=[{"move": {"card": "troll", "from": "graveyard", "to": "hand"}}]),
                         ("no_move", None))
        answer = self.draw(s)
        self.assertEqual((answer["outcome"], answer["error"], answer["events"]),
                         ("replaced", None, [{"handle": "troll", "outcome": "moved"}]))
        self.assertEqual(s.obj("troll")["zone"], "alice.hand")
        s.step("state_check")
        self.assertFalse(s.observe()["players"]["alice"]["lost"])   # no draw from an empty library
        # once: used up, so this one is a draw from the empty library
        self.assertEqual(self.draw(s)["outcome"], "no_move")
        s.step("state_check")
        self.assertTrue(s.observe()["players"]["alice"]["lost"])

    def test_without_once_every_draw_is_replaced_one_at_a_time(self):      # CR 614.11, 121.2
        s = Session({**self.library(2), "g1": {"owner": "alice", "zone": "graveyard"},
                     "g2": {"owner": "alice", "zone": "graveyard"}})
        s.step("replace_draw", player="alice", instead=[{"mill": {"player": "alice"}}], **{"as": "r"})
        answer = self.draw(s, count=3)
        # two draws each mill one card; the third mills from an empty library
        self.assertEqual((answer["outcome"], answer["events"]),
                         ("replaced", [{"handle": "c0", "outcome": "moved"},
                                       {"handle": "c1", "outcome": "moved"}]))
        self.assertEqual((s.obj("c0")["zone"], s.obj("c1")["zone"]), ("alice.graveyard",) * 2)
        s.step("state_check")
        self.assertFalse(s.observe()["players"]["alice"]["lost"])
        # bob's draws are his own
        self.assertEqual(s.call("step", step={"draw": {"player": "bob"}})["outcome"], "no_move")
        # replaced by nothing at all: still replaced, nothing happens
        s2 = Session(self.library(1))
        s2.step("replace_draw", player="alice", instead=[], **{"as": "skip"})
        answer = self.draw(s2, count=2)
        self.assertEqual((answer["outcome"], answer["events"]), ("replaced", []))
        self.assertEqual(s2.obj("c0")["zone"], "alice.library")

    def test_its_steps_are_done_before_the_next_draw(self):                 # CR 614.11a
        s = Session({**self.library(2), "kept": {"owner": "alice", "zone": "hand"}})
        s.step("replace_draw", player="alice", once=True, **{"as": "put_back"},
               instead=[{"move": {"card": "kept", "from": "hand", "to": "library"}}])
        answer = self.draw(s, count=2)
        self.assertEqual(answer["outcome"], "moved")
        self.assertEqual(answer["events"], [{"handle": "kept", "outcome": "moved"},
                                            {"handle": "kept", "outcome": "moved"}])
        self.assertEqual((s.obj("kept")["zone"], s.obj("c0")["position"], s.obj("c1")["position"]),
                         ("alice.hand", 0, 1))

    def test_then_follows_only_the_cards_the_draw_itself_drew(self):        # CR 614.11b
        s = Session(self.library(5))
        answer = self.draw(s, count=2, then={"reveal": {}})
        self.assertEqual(answer["outcome"], "moved")
        self.assertEqual([s.obj(h)["visibility"] for h in ("c0", "c1")], ["public", "public"])
        s.step("replace_draw", player="alice", once=True, **{"as": "twice"},
               instead=[{"draw": {"player": "alice", "count": 2}}])
        answer = self.draw(s, count=2, then={"reveal": {}})
        # the first draw is replaced (c2, c3 drawn by it, not revealed); the
        # second is the instruction's own (c4, revealed)
        self.assertEqual(answer["outcome"], "moved")
        self.assertEqual([s.obj(h)["zone"] for h in ("c2", "c3", "c4")], ["alice.hand"] * 3)
        self.assertEqual([s.obj(h)["visibility"] for h in ("c2", "c3", "c4")],
                         ["private", "private", "public"])
        self.assertEqual(sorted(s.observe()["visible"]["bob"]), ["c0", "c1", "c4"])

    def test_then_events_follow_each_card_and_skip_one_not_in_the_hand(self):   # CR 614.11b
        s = Session({**self.library(2), "bolt": {"owner": "alice", "zone": "graveyard"}})
        answer = self.draw(s, count=2, then={"move": {"to": "exile"}})
        self.assertEqual(answer["events"], [{"handle": "c0", "outcome": "moved"},
                                            {"handle": "c0", "outcome": "moved"},
                                            {"handle": "c1", "outcome": "moved"},
                                            {"handle": "c1", "outcome": "moved"}])
        self.assertEqual((s.obj("c0")["zone"], s.obj("c1")["zone"]), ("exile", "exile"))
        # a card a replacement sent elsewhere is not in the hand: no then:
        s = Session(self.library(1))
        s.step("replace", card="any", when={"to": "hand"}, instead={"to": "graveyard"}, **{"as": "r"})
        answer = self.draw(s, then={"move": {"to": "exile"}})
        self.assertEqual((answer["outcome"], answer["events"]),
                         ("moved", [{"handle": "c0", "outcome": "replaced"}]))
        self.assertEqual(s.obj("c0")["zone"], "alice.graveyard")

    def test_a_replacement_does_not_replace_its_own_draws(self):            # CR 614.5
        s = Session(self.library(4))
        s.step("replace_draw", player="alice", instead=[{"draw": {"player": "alice", "count": 2}}],
               **{"as": "twice"})
        answer = self.draw(s)
        self.assertEqual(answer["outcome"], "replaced")
        self.assertEqual([e["handle"] for e in answer["events"]], ["c0", "c1"])
        # it stays in force: the next draw is replaced again
        self.assertEqual([e["handle"] for e in self.draw(s)["events"]], ["c2", "c3"])

    def test_another_one_replaces_a_draw_among_its_steps_in_the_chosen_order(self):  # CR 614.5, 616.1
        s = Session({**self.library(3), "g": {"owner": "alice", "zone": "graveyard"}})
        s.step("replace_draw", player="alice", instead=[{"draw": {"player": "alice"}}], **{"as": "a"})
        s.step("replace_draw", player="alice", instead=[{"mill": {"player": "alice"}}], **{"as": "b"})
        # a first: its draw is replaced by b, which mills c0
        answer = self.draw(s)
        self.assertEqual((answer["outcome"], answer["events"]),
                         ("replaced", [{"handle": "c0", "outcome": "moved"}]))
        self.assertEqual(s.obj("c0")["zone"], "alice.graveyard")
        # choose_replacement orders draw replacements too: b first, then a
        s = Session({**self.library(1), "g": {"owner": "alice", "zone": "graveyard"}})
        s.step("replace_draw", player="alice", instead=[{"move": {"card": "g", "to": "exile"}}], **{"as": "a"})
        s.step("replace_draw", player="alice", instead=[{"mill": {"player": "alice"}}], **{"as": "b"})
        self.assertEqual(s.step("choose_replacement", order=["b"]), ("no_move", None))
        self.draw(s)
        self.assertEqual((s.obj("c0")["zone"], s.obj("g")["zone"]), ("alice.graveyard", "alice.graveyard"))
        s.step("choose_replacement", order=["a", "b"])
        self.draw(s)
        self.assertEqual(s.obj("g")["zone"], "exile")

    def test_a_move_replacement_never_meets_a_draw_replacement(self):        # CR 614.1, 614.11
        s = Session({"c0": {"owner": "alice", "zone": "library"},
                     "troll": {"owner": "alice", "zone": "graveyard"}})
        s.step("replace_draw", player="alice", once=True, **{"as": "dredge"},
               instead=[{"move": {"card": "troll", "to": "hand"}}])
        # the replacement's own move is an ordinary move: a replace applies to it
        s.step("replace", card="any", when={"to": "hand"}, instead={"to": "exile"}, **{"as": "r"})
        answer = self.draw(s)
        self.assertEqual((answer["outcome"], answer["events"]),
                         ("replaced", [{"handle": "troll", "outcome": "replaced"}]))
        self.assertEqual((s.obj("troll")["zone"], s.obj("c0")["zone"]), ("exile", "alice.library"))
        # a draw replacement in the order changes nothing for moves
        s.step("choose_replacement", order=["dredge", "r"])
        self.assertEqual(s.step("move", card="c0", to="hand"), ("replaced", None))

    def test_a_bad_step_among_its_steps_undoes_the_draw(self):
        s = Session(self.library(1))
        s.step("replace_draw", player="alice", once=True, instead=[{"move": {"card": "nobody", "to": "hand"}}],
               **{"as": "r"})
        self.assertEqual(s.call("step", step={"draw": {"player": "alice"}})["error"]["code"], "bad_request")
        self.assertEqual(s.obj("c0")["zone"], "alice.library")
        # the draw never happened, so the once effect is still in force: bad again
        self.assertEqual(s.call("step", step={"draw": {"player": "alice"}})["error"]["code"], "bad_request")

    def test_bad_requests(self):
        s = Session({"x": {"owner": "alice", "zone": "hand"}, **self.library(1)})
        self.assertIn("draw_replacement", engine.FEATURES)
        s.step("replace", card="any", when={"to": "exile"}, instead={"to": "graveyard"}, **{"as": "r"})
        ok = {"as": "d", "player": "alice", "instead": []}
        for step in ({"replace_draw": {k: v for k, v in ok.items() if k != "as"}},
                     {"replace_draw": {k: v for k, v in ok.items() if k != "player"}},
                     {"replace_draw": {k: v for k, v in ok.items() if k != "instead"}},
                     {"replace_draw": {**ok, "as": "r"}},                  # a replacement's name
                     {"replace_draw": {**ok, "player": "carol"}},
                     {"replace_draw": {**ok, "once": "yes"}},
                     {"replace_draw": {**ok, "card": "x"}},
                     {"replace_draw": {**ok, "instead": {"draw": {"player": "alice"}}}},
                     {"replace_draw": {**ok, "instead": [{"draw": {}, "mill": {}}]}},
                     {"replace_draw": {**ok, "instead": [{"create": {"as": "t", "owner": "alice",
                                                                     "zone": "battlefield"}}]}},
                     {"replace_draw": {**ok, "instead": [{"replace_draw": ok}]}},
                     {"replace_draw": {**ok, "instead": [{"move": {"card": "x", "to": "stack", "cause": "cast",
                                                                   "costs": [{"draw": {"player": "alice"}}]}}]}},
                     {"replace_draw": {**ok, "instead": [{"move": {"card": "x", "to": "exile", "expect": {}}}]}},
                     {"move": {"card": "x", "to": "exile", "then": {"replace_draw": ok}}},
                     {"move": {"card": "x", "to": "stack", "cause": "cast", "costs": [{"replace_draw": ok}]}},
                     {"draw": {"player": "alice", "then": {"move": {"card": "x", "to": "exile"}}}},
                     {"draw": {"player": "alice", "then": {"create": {"as": "t", "owner": "alice",
                                                                      "zone": "battlefield"}}}},
                     {"draw": {"player": "alice", "then": [{"reveal": {}}]}},
                     {"move": {"card": "x", "to": "battlefield",
                               "then": {"draw": {"player": "alice", "then": {"reveal": {}}}}}}):
            self.assertEqual(s.call("step", step=step)["error"]["code"], "bad_request", step)
        self.assertEqual((s.obj("x")["zone"], s.obj("c0")["zone"]), ("alice.hand", "alice.library"))
        self.assertEqual(s.step("replace_draw", **ok), ("no_move", None))


class UntapAndLeaving(unittest.TestCase):
    """untap (untap_phasing), leave_game (leave_game), watch phase: out
    (phasing_triggers)."""

    def test_untap_phases_out_and_in_at_once(self):                     # CR 702.26a
        s = Session({"sliver": {"owner": "alice", "zone": "battlefield", "types": ["creature"]},
                     "wall": {"owner": "alice", "zone": "battlefield", "types": ["creature"]},
                     "imp": {"owner": "alice", "zone": "battlefield", "controller": "bob",
                             "types": ["creature"]}})
        s.step("phase", card="wall")                   # phased out under alice
        first = s.obj("sliver")["object"]
        # alice's untap step: the sliver phases out, the wall in; bob's imp stays
        self.assertEqual(s.step("untap", player="alice", phasing=["sliver", "imp"]), ("no_move", None))
        self.assertEqual([s.obj(h)["phased_out"] for h in ("sliver", "wall", "imp")], [True, False, False])
        # the next: the sliver phases in and is not phased out again in the same step
        s.step("untap", player="alice", phasing=["sliver", "imp"])
        o = s.obj("sliver")
        self.assertEqual((o["phased_out"], o["object"]), (False, first))   # CR 702.26d
        # the wall, phased in, has phasing now: it phases out, the sliver stays in
        s.step("untap", player="alice", phasing=["wall"])
        self.assertEqual([s.obj(h)["phased_out"] for h in ("sliver", "wall")], [False, True])

    def test_untap_aura_phases_only_with_its_creature(self):            # CR 702.26g, 702.26h
        s = Session({"sliver": {"owner": "alice", "zone": "battlefield", "types": ["creature"]},
                     "rancor": {"owner": "alice", "zone": "battlefield", "types": ["enchantment"],
                                "subtypes": ["aura"]},
                     "aegis": {"owner": "bob", "zone": "battlefield", "types": ["enchantment"],
                               "subtypes": ["aura"]}})
        s.step("attach", card="rancor", to="sliver")
        s.step("attach", card="aegis", to="rancor")    # attached through the Aura
        # both have phasing: the Aura phases out only indirectly, with the sliver
        s.step("untap", player="alice", phasing=["rancor", "sliver"])
        self.assertEqual([s.obj(h)["phased_out"] for h in ("sliver", "rancor", "aegis")], [True] * 3)
        self.assertEqual(s.step("phase", card="rancor", out=False), ("failed", "phased_out"))
        # and comes back with it, still attached; bob's step changes nothing of alice's
        s.step("untap", player="bob")
        self.assertTrue(s.obj("sliver")["phased_out"])
        s.step("untap", player="alice")
        self.assertEqual([s.obj(h)["phased_out"] for h in ("sliver", "rancor", "aegis")], [False] * 3)
        self.assertEqual((s.obj("rancor")["attached_to"], s.obj("aegis")["attached_to"]),
                         ("sliver", "rancor"))

    def test_departed_players_permanent_phases_in_after_their_turn(self):   # CR 702.26n
        s = Session({"drake": {"owner": "bob", "zone": "battlefield", "types": ["creature"]}},
                    players=("alice", "bob", "carol"))
        s.step("control", card="drake", player="carol")
        s.step("phase", card="drake")                  # under carol
        s.step("untap", player="carol")                # ... so it phases in in her untap step
        self.assertFalse(s.obj("drake")["phased_out"])
        s.step("phase", card="drake")
        s.step("leave_game", player="carol")           # during her own turn
        self.assertEqual((s.obj("drake")["controller"], s.obj("drake")["phased_out"]), ("bob", True))
        # alice's turn and bob's come first: carol's next turn only after them
        s.step("untap", player="alice")
        s.step("untap", player="bob")
        self.assertTrue(s.obj("drake")["phased_out"])
        s.step("untap", player="alice")                # carol's turn would have begun
        self.assertEqual((s.obj("drake")["controller"], s.obj("drake")["phased_out"]), ("bob", False))

    def test_departed_players_permanent_phases_in_once_they_are_passed(self):  # CR 702.26n
        s = Session({"drake": {"owner": "bob", "zone": "battlefield", "types": ["creature"]}},
                    players=("alice", "bob", "carol"))
        s.step("control", card="drake", player="carol")
        s.step("phase", card="drake")
        s.step("leave_game", player="carol")           # alice's turn (the first player's)
        s.step("untap", player="bob")                  # carol's would come after bob's
        self.assertTrue(s.obj("drake")["phased_out"])
        s.step("untap", player="alice")
        self.assertFalse(s.obj("drake")["phased_out"])

    def test_leave_game(self):                          # CR 800.4a, 603.6c, 702.26k
        s = Session({
            "bear": {"owner": "carol", "zone": "battlefield", "types": ["creature"]},
            "elk": {"owner": "carol", "zone": "battlefield", "types": ["creature"]},
            "lore": {"owner": "carol", "zone": "hand"},
            "stake": {"owner": "carol", "zone": "ante"},
            "wish": {"owner": "carol", "zone": "outside"},
            "ox": {"owner": "alice", "zone": "battlefield", "types": ["creature"]},
            "yak": {"owner": "alice", "zone": "battlefield", "types": ["creature"]},
            "hawk": {"owner": "bob", "zone": "library", "types": ["creature"]},
            "owl": {"owner": "bob", "zone": "library", "types": ["creature"]},
            "ping": {"owner": "alice", "zone": "stack", "kind": "ability", "controller": "carol"},
            "bolt": {"owner": "alice", "zone": "stack", "controller": "carol", "types": ["instant"]}},
            players=("alice", "bob", "carol"))
        s.step("phase", card="bear")
        s.step("control", card="ox", player="bob")
        s.step("control", card="ox", player="carol", until="end_of_turn")
        s.step("control", card="yak", player="carol")
        s.step("move", card="hawk", to="battlefield", player="carol")
        s.step("move", card="owl", to="battlefield", player="carol")
        s.step("phase", card="owl")
        for h in ("bear", "elk", "hawk", "owl"):
            s.step("watch", card=h, **{"as": "gone_" + h, "from": "battlefield"})
        hawk = s.obj("hawk")["object"]
        self.assertEqual(s.step("leave_game", player="carol"), ("no_move", None))
        o = {h: s.obj(h) for h in ("bear", "elk", "lore", "stake", "wish", "ox", "yak", "hawk",
                                    "owl", "ping", "bolt")}
        # 1. what carol owns leaves the game, but not the ante; a phased-in
        #    permanent triggers its leaving the battlefield, a phased-out one not
        self.assertEqual([o[h]["exists"] for h in ("bear", "elk", "lore")], [False] * 3)
        self.assertEqual((o["stake"]["zone"], o["wish"]["zone"]), ("ante", "outside"))
        triggers = s.observe()["triggers"]
        self.assertEqual((triggers["gone_bear"]["fired"], triggers["gone_elk"]["fired"]), (False, True))
        # 2. control effects end: until end of turn -> the one before it; for
        #    good -> the default controller (not changed by control)
        self.assertEqual((o["ox"]["controller"], o["yak"]["controller"]), ("bob", "alice"))
        # 3. an ability she controls on the stack ceases; 4. what she still
        #    controls (put onto the battlefield by her) is exiled, a new object;
        #    a phased-out one stops being phased out and triggers nothing
        self.assertFalse(o["ping"]["exists"])
        self.assertEqual((o["bolt"]["zone"], o["hawk"]["zone"], o["owl"]["zone"]), ("exile",) * 3)
        self.assertNotEqual(o["hawk"]["object"], hawk)
        self.assertFalse(o["owl"]["phased_out"])
        self.assertEqual((triggers["gone_hawk"]["fired"], triggers["gone_owl"]["fired"]), (True, False))

    def test_steps_naming_a_departed_player_are_rejected(self):        # CR 800.4b, 800.4d
        s = Session({"x": {"owner": "alice", "zone": "library"},
                     "y": {"owner": "alice", "zone": "battlefield"}}, players=("alice", "bob", "carol"))
        s.step("leave_game", player="carol")
        rejected = ("rejected", "wrong_player")
        self.assertEqual(s.step("draw", player="carol"), rejected)
        self.assertEqual(s.step("untap", player="carol"), rejected)
        self.assertEqual(s.step("leave_game", player="carol"), rejected)
        self.assertEqual(s.step("control", card="y", player="carol"), rejected)
        self.assertEqual(s.step("end_game", winner="carol"), rejected)
        self.assertEqual(s.step("create", owner="carol", zone="battlefield", **{"as": "t"}), rejected)
        self.assertNotIn("t", s.observe()["objects"])        # never made
        self.assertEqual(s.step("move", card="x", to="hand", then={"draw": {"player": "carol"}})[0], "moved")
        self.assertEqual(s.obj("y")["controller"], "alice")
        # the handle of the token never made is known: not_found, not bad_request
        self.assertEqual(s.step("move", card="t", to="exile"), ("not_found", "not_found"))
        # a malformed step is a bad request all the same
        answer = s.call("step", step={"draw": {"player": "carol", "count": -1}})
        self.assertEqual(answer["error"]["code"], "bad_request")

    def test_watch_phase_out_looks_back_in_time(self):                  # CR 603.10b, 702.26d
        s = Session({"bear": {"owner": "bob", "zone": "battlefield", "types": ["creature"]},
                     "shroud": {"owner": "bob", "zone": "battlefield", "types": ["enchantment"],
                                "subtypes": ["aura"]},
                     "elk": {"owner": "alice", "zone": "battlefield", "types": ["creature"]}},
                    players=("alice", "bob", "carol"))
        s.step("attach", card="shroud", to="bear")
        s.step("control", card="bear", player="carol")
        s.step("watch", card="bear", phase="out", **{"as": "bear_out"})
        s.step("watch", card="shroud", phase="out", **{"as": "shroud_out"})
        s.step("watch", card="shroud", phase="out", types=["creature"], **{"as": "not_a_creature"})
        s.step("watch", card="bear", **{"as": "bear_left", "from": "battlefield"})
        s.step("watch", card="elk", phase="out", **{"as": "elk_out"})
        s.step("untap", player="carol", phasing=["bear"])   # the Aura goes indirectly
        s.step("leave_game", player="carol")                 # the bear goes back to bob
        t = s.observe()["triggers"]
        self.assertEqual((t["bear_out"]["fired"], t["bear_out"]["controller"]), (True, "carol"))
        self.assertEqual((t["shroud_out"]["fired"], t["shroud_out"]["controller"]), (True, "bob"))
        self.assertFalse(t["not_a_creature"]["fired"])
        self.assertFalse(t["bear_left"]["fired"])           # phasing is no zone change
        self.assertEqual(s.obj("bear")["controller"], "bob")
        # carol has left: her trigger is never put on the stack (CR 800.4d)
        self.assertEqual(s.step("resolve", trigger="bear_out"), ("rejected", "wrong_player"))
        # bob's finds the Aura, phased out; what do: does to it is that step's
        self.assertEqual(s.step("resolve", trigger="shroud_out", do={"move": {"to": "hand"}}),
                         ("failed", "phased_out"))
        t = s.observe()["triggers"]
        self.assertEqual((t["bear_out"]["found"], t["shroud_out"]["found"]), (None, True))
        # found while it is the object that phased out, phased in or not
        s.step("phase", card="elk")
        s.step("phase", card="elk", out=False)
        s.step("move", card="elk", to="hand")
        self.assertEqual(s.step("resolve", trigger="elk_out"), ("not_found", "not_found"))

    def test_bad_requests(self):
        s = Session({"a": {"owner": "alice", "zone": "battlefield"},
                     "b": {"owner": "alice", "zone": "battlefield"}})
        for step in ({"untap": {}}, {"untap": {"player": "zed"}},
                     {"untap": {"player": "alice", "phasing": "a"}},
                     {"untap": {"player": "alice", "phasing": ["a", "a"]}},
                     {"untap": {"player": "alice", "phasing": ["nobody"]}},
                     {"leave_game": {}}, {"leave_game": {"player": "alice", "count": 1}},
                     {"move": {"card": "a", "to": "exile", "then": {"untap": {"player": "alice"}}}},
                     {"move": {"card": "a", "to": "exile", "then": {"leave_game": {"player": "bob"}}}},
                     {"watch": {"as": "w", "card": "a", "phase": "in"}},
                     {"watch": {"as": "w", "card": "a", "phase": "out", "from": "battlefield"}},
                     {"watch": {"as": "w", "card": "a", "phase": "out", "aura": "b"}}):
            answer = s.call("step", step=step)
            self.assertEqual(answer["error"]["code"], "bad_request", step)
        self.assertEqual(s.obj("a")["zone"], "battlefield")
        self.assertNotIn("w", s.observe()["triggers"])



class AsEnters(unittest.TestCase):
    """As-enters effects that move other objects (feature as_enters,
    as_enters), CR 614.13, 614.13a, 614.13b, 614.13c."""

    @staticmethod
    def gy(*handles, owner="alice"):
        return {h: {"owner": owner, "zone": "graveyard", "types": ["creature"]} for h in handles}

    def move(self, s, step):
        answer = s.call("step", step=step)
        self.assertTrue(answer["ok"], answer)
        return answer["outcome"], answer["error"], [(e["handle"], e["outcome"]) for e in answer["events"]]

    def test_its_steps_run_first_their_events_before_its_own(self):     # CR 614.13
        s = Session({"ghoul": {"owner": "alice", "zone": "hand", "types": ["creature"]},
                     **self.gy("zombie", "bat", "wall")})
        exile = [{"move": {"card": h, "from": "graveyard", "to": "exile"}} for h in ("zombie", "bat")]
        self.assertEqual(s.step("as_enters", card="ghoul", steps=exile), ("no_move", None))
        s.step("watch", card="zombie", to="exile", **{"as": "exiled"})
        zombie = s.obj("zombie")["object"]
        # a move elsewhere runs nothing
        self.assertEqual(self.move(s, {"move": {"card": "ghoul", "to": "graveyard"}}),
                         ("moved", None, [("ghoul", "moved")]))
        self.assertEqual(s.obj("zombie")["zone"], "alice.graveyard")
        self.assertEqual(self.move(s, {"move": {"card": "ghoul", "to": "battlefield"}}),
                         ("moved", None, [("zombie", "moved"), ("bat", "moved"), ("ghoul", "moved")]))
        o = s.observe()
        self.assertEqual([o["objects"][h]["zone"] for h in ("ghoul", "zombie", "bat", "wall")],
                         ["battlefield", "exile", "exile", "alice.graveyard"])
        self.assertNotEqual(o["objects"]["zombie"]["object"], zombie)
        self.assertTrue(o["triggers"]["exiled"]["fired"])

    def test_only_a_move_that_really_enters_runs_them(self):            # CR 614.13, 614.17
        s = Session({"ghoul": {"owner": "alice", "zone": "battlefield", "types": ["creature"]},
                     "bolt": {"owner": "alice", "zone": "hand", "types": ["instant"]},
                     "elk": {"owner": "alice", "zone": "hand", "types": ["creature"]},
                     "imp": {"owner": "alice", "zone": "exile", "types": ["creature"]},
                     **self.gy("a", "b", "c", "d")})
        for card, victim in (("ghoul", "a"), ("bolt", "b"), ("elk", "c"), ("imp", "d")):
            s.step("as_enters", card=card, steps=[{"move": {"card": victim, "to": "exile"}}])
        s.step("cant", card="elk", when={"to": "battlefield"})
        s.step("replace", card="imp", when={"to": "hand"}, instead={"to": "battlefield"}, **{"as": "r"})
        self.assertEqual(s.step("move", card="ghoul", to="battlefield"), ("no_move", None))  # already there
        self.assertEqual(s.step("move", card="bolt", to="battlefield"), ("stayed", "cannot_hold"))
        self.assertEqual(s.step("move", card="elk", to="battlefield"), ("failed", "forbidden"))
        self.assertEqual([s.obj(h)["zone"] for h in "abc"], ["alice.graveyard"] * 3)
        # replaced into the battlefield: it enters, so its steps run
        self.assertEqual(self.move(s, {"move": {"card": "imp", "to": "hand"}}),
                         ("replaced", None, [("d", "moved"), ("imp", "replaced")]))

    def test_cannot_choose_what_enters_with_it(self):                    # CR 614.13a
        s = Session(self.gy("ghoul", "bear", "zombie"))
        s.step("as_enters", card="ghoul", steps=[{"move": {"card": h, "to": "exile"}}
                                                 for h in ("bear", "ghoul", "zombie")])
        self.assertEqual(self.move(s, {"move_together": {"moves": [{"card": "ghoul", "to": "battlefield"},
                                                                   {"card": "bear", "to": "battlefield"}]}}),
                         ("moved", None, [("bear", "rejected"), ("ghoul", "rejected"), ("zombie", "moved"),
                                          ("ghoul", "moved"), ("bear", "moved")]))
        self.assertEqual([s.obj(h)["zone"] for h in ("ghoul", "bear", "zombie")],
                         ["battlefield", "battlefield", "exile"])
        # alone, its own step on itself: rejected, cannot_choose; another
        # member bound elsewhere may be chosen
        s2 = Session(self.gy("ghoul", "bear"))
        s2.step("as_enters", card="ghoul", steps=[{"move": {"card": "ghoul", "to": "exile"}},
                                                  {"move": {"card": "bear", "to": "exile"}}])
        self.assertEqual(self.move(s2, {"move_together": {"moves": [{"card": "ghoul", "to": "battlefield"},
                                                                    {"card": "bear", "to": "hand"}]}}),
                         ("moved", None, [("ghoul", "rejected"), ("bear", "moved"), ("ghoul", "moved"),
                                          ("bear", "moved")]))
        self.assertEqual((s2.obj("ghoul")["zone"], s2.obj("bear")["zone"]), ("battlefield", "alice.hand"))

    def test_the_rejection_of_a_single_nested_move(self):              # CR 614.13a
        s = Session({**self.gy("ghoul"), "x": {"owner": "alice", "zone": "hand"}})
        s.step("as_enters", card="ghoul", steps=[{"move": {"card": "x", "to": "exile",
                                                           "then": {"move": {"to": "hand"}}}}])
        # then: follows x, which the step already moved: chosen, not moved again
        self.assertEqual(self.move(s, {"move": {"card": "ghoul", "to": "battlefield"}}),
                         ("moved", None, [("x", "moved"), ("x", "rejected"), ("ghoul", "moved")]))
        self.assertEqual(s.obj("x")["zone"], "exile")

    def test_two_effects_cannot_move_one_object_twice(self):              # CR 614.13b
        s = Session({"elder": {"owner": "alice", "zone": "hand", "types": ["creature"]},
                     "bear": {"owner": "alice", "zone": "battlefield", "types": ["creature"]},
                     "ox": {"owner": "alice", "zone": "battlefield", "types": ["creature"]}})
        s.step("as_enters", card="elder", steps=[{"move": {"card": "bear", "to": "graveyard", "cause": "sacrifice"}}])
        s.step("as_enters", card="elder", steps=[{"move": {"card": "bear", "to": "exile"}},
                                                 {"move": {"card": "ox", "to": "graveyard"}}])
        self.assertEqual(self.move(s, {"move": {"card": "elder", "to": "battlefield"}}),
                         ("moved", None, [("bear", "moved"), ("bear", "rejected"), ("ox", "moved"),
                                          ("elder", "moved")]))
        self.assertEqual(s.observe()["objects"]["bear"]["zone"], "alice.graveyard")

    def test_mill_and_draw_skip_the_card_entering(self):                # CR 614.13c
        lib = {h: {"owner": "alice", "zone": "library", "position": i}
               for i, h in enumerate(("pool", "one", "two", "three"))}
        s = Session({**lib, "pool": {**lib["pool"], "types": ["land"]}})
        s.step("as_enters", card="pool", steps=[{"mill": {"player": "alice", "count": 2}},
                                                {"draw": {"player": "alice"}}])
        self.assertEqual(self.move(s, {"move": {"card": "pool", "from": "library", "to": "battlefield"}}),
                         ("moved", None, [("one", "moved"), ("two", "moved"), ("three", "moved"),
                                          ("pool", "moved")]))
        self.assertEqual([s.obj(h)["zone"] for h in ("pool", "one", "two", "three")],
                         ["battlefield", "alice.graveyard", "alice.graveyard", "alice.hand"])
        # only the card entering left: as if the library were empty, and a
        # draw from it is no draw from an empty library
        s2 = Session({"pool": {"owner": "alice", "zone": "library", "position": 0}})
        s2.step("as_enters", card="pool", steps=[{"mill": {"player": "alice"}}, {"draw": {"player": "alice"}}])
        self.assertEqual(self.move(s2, {"move": {"card": "pool", "to": "battlefield"}}),
                         ("moved", None, [("pool", "moved")]))
        s2.step("state_check")
        self.assertFalse(s2.observe()["players"]["alice"]["lost"])
        # no as-enters step running: a mill takes the top card, whatever comes next
        s3 = Session({"pool": {"owner": "alice", "zone": "library", "position": 0}})
        s3.step("as_enters", card="pool", steps=[{"mill": {"player": "alice"}}])
        self.assertEqual(self.move(s3, {"mill": {"player": "alice", "to": "battlefield"}}),
                         ("moved", None, [("pool", "moved")]))

    def test_every_entering_runs_them_again(self):                     # CR 614.13
        s = Session({"ghoul": {"owner": "alice", "zone": "hand", "types": ["creature"]},
                     **self.gy("zombie")})
        s.step("as_enters", card="ghoul", steps=[{"move": {"card": "zombie", "to": "exile"}}])
        s.step("move", card="ghoul", to="battlefield")
        first = s.obj("zombie")["object"]
        s.step("move", card="ghoul", to="hand")
        # exile to exile: a new object in place, so it ran once more
        self.assertEqual(self.move(s, {"move": {"card": "ghoul", "to": "battlefield"}}),
                         ("moved", None, [("zombie", "new_object_in_place"), ("ghoul", "moved")]))
        self.assertNotEqual(s.obj("zombie")["object"], first)
        # a draw, a mill or a trigger's do: is a move of one object too
        s.step("move", card="ghoul", to="library")
        self.assertEqual(self.move(s, {"mill": {"player": "alice", "to": "battlefield"}}),
                         ("moved", None, [("zombie", "new_object_in_place"), ("ghoul", "moved")]))

    def test_a_new_event_forgets_what_was_chosen_and_entering(self):      # CR 614.13a, 614.13b
        s = Session({"elder": {"owner": "alice", "zone": "hand", "types": ["creature"]},
                     "drake": {"owner": "alice", "zone": "hand", "types": ["creature"]},
                     "bear": {"owner": "alice", "zone": "battlefield", "types": ["creature"]}})
        s.step("as_enters", card="elder", steps=[{"move": {"card": "bear", "to": "hand"}}])
        s.step("as_enters", card="drake", steps=[{"move": {"card": "bear", "to": "battlefield"}},
                                                 {"move": {"card": "elder", "to": "graveyard"}}])
        self.assertEqual(self.move(s, {"move": {"card": "elder", "to": "battlefield"}}),
                         ("moved", None, [("bear", "moved"), ("elder", "moved")]))
        # the bear moved in the last event, the elder entered in it: both may be chosen now
        self.assertEqual(self.move(s, {"move": {"card": "drake", "to": "battlefield"}}),
                         ("moved", None, [("bear", "moved"), ("elder", "moved"), ("drake", "moved")]))
        self.assertEqual([s.obj(h)["zone"] for h in ("elder", "drake", "bear")],
                         ["alice.graveyard", "battlefield", "battlefield"])

    def test_one_entering_among_its_steps_is_of_the_same_event(self):   # CR 614.13a, 614.13b
        s = Session({"ghoul": {"owner": "alice", "zone": "hand", "types": ["creature"]},
                     "imp": {"owner": "alice", "zone": "hand", "types": ["creature"]},
                     **self.gy("x")})
        s.step("as_enters", card="ghoul", steps=[{"move": {"card": "imp", "to": "battlefield"}},
                                                 {"move": {"card": "x", "to": "exile"}}])
        s.step("as_enters", card="imp", steps=[{"move": {"card": "ghoul", "to": "exile"}},
                                               {"move": {"card": "x", "to": "hand"}}])
        # the imp's steps can't choose the ghoul (entering); the ghoul's can't
        # choose x again, which the imp's moved
        self.assertEqual(self.move(s, {"move": {"card": "ghoul", "to": "battlefield"}}),
                         ("moved", None, [("ghoul", "rejected"), ("x", "moved"), ("imp", "moved"),
                                          ("x", "rejected"), ("ghoul", "moved")]))
        self.assertEqual([s.obj(h)["zone"] for h in ("ghoul", "imp", "x")],
                         ["battlefield", "battlefield", "alice.hand"])

    def test_bad_requests(self):
        s = Session({"x": {"owner": "alice", "zone": "hand"}, "y": {"owner": "alice", "zone": "graveyard"}})
        self.assertIn("as_enters", engine.FEATURES)
        ok = {"card": "x", "steps": [{"move": {"card": "y", "to": "exile"}}]}
        for step in ({"as_enters": {"steps": ok["steps"]}}, {"as_enters": {"card": "x"}},
                     {"as_enters": {**ok, "card": "nobody"}},
                     {"as_enters": {**ok, "steps": []}},
                     {"as_enters": {**ok, "steps": {"move": {"card": "y", "to": "exile"}}}},
                     {"as_enters": {**ok, "steps": [{"move": {"card": "y", "to": "exile"}, "mill": {}}]}},
                     {"as_enters": {**ok, "steps": [{"create": {"as": "t", "owner": "alice",
                                                                "zone": "battlefield"}}]}},
                     {"as_enters": {**ok, "steps": [{"as_enters": ok}]}},
                     {"as_enters": {**ok, "steps": [{"move": {"card": "y", "to": "exile", "expect": {}}}]}},
                     {"as_enters": {**ok, "steps": [{"move": {"card": "y", "to": "stack", "cause": "cast",
                                                              "costs": [{"draw": {"player": "alice"}}]}}]}},
                     {"as_enters": {**ok, "when": {"to": "battlefield"}}},
                     {"move": {"card": "y", "to": "exile", "then": {"as_enters": ok}}},
                     {"move": {"card": "x", "to": "stack", "cause": "cast", "costs": [{"as_enters": ok}]}}):
            self.assertEqual(s.call("step", step=step)["error"]["code"], "bad_request", step)
        # none of them is in force
        self.assertEqual(s.step("move", card="x", to="battlefield"), ("moved", None))
        self.assertEqual(s.obj("y")["zone"], "alice.graveyard")
        # a bad step among its steps is found when they run: the move is undone
        s.step("move", card="x", to="hand")
        s.step("as_enters", card="x", steps=[{"move": {"card": "nobody", "to": "exile"}}])
        self.assertEqual(s.call("step", step={"move": {"card": "x", "to": "battlefield"}})["error"]["code"],
                         "bad_request")
        self.assertEqual(s.obj("x")["zone"], "alice.hand")

class TodaysText(unittest.TestCase):
    """mtg-current against today's Comprehensive Rules: CR 111.5, 708.3,
    800.4c, 110.2b, 701.20d, 405.3 and 406.3a (cases/mtg/current)."""

    def answer(self, s, step):
        a = s.call("step", step=step)
        self.assertTrue(a["ok"], a)
        return a["outcome"], a["error"], [(e["handle"], e["outcome"]) for e in a["events"]]

    def test_a_token_a_cant_effect_keeps_off_the_battlefield_is_not_created(self):   # CR 111.5
        s = Session({"priest": {"owner": "alice", "zone": "battlefield", "types": ["creature"]}})
        s.step("cant", card="any", when={"to": "battlefield"}, types=["creature"])
        self.assertEqual(s.step("create", owner="alice", zone="battlefield", types=["creature"],
                                **{"as": "soldier"}), ("failed", "forbidden"))
        self.assertNotIn("soldier", s.observe()["objects"])          # the handle never exists
        # judged as it would be there: face down it is a creature (708.2a)
        self.assertEqual(s.step("create", owner="alice", zone="battlefield", types=["artifact"], face="down",
                                **{"as": "morph"}), ("failed", "forbidden"))
        self.assertEqual(s.step("create", owner="alice", zone="battlefield", types=["artifact"],
                                **{"as": "treasure"}), ("moved", None))
        self.assertEqual(s.obj("treasure")["zone"], "battlefield")
        # a can't effect with a from: or a cause: names no creation
        t = Session({})
        t.step("cant", card="any", when={"from": "hand", "to": "battlefield"})
        t.step("cant", card="any", when={"to": "battlefield", "cause": "resolve"})
        self.assertEqual(t.step("create", owner="bob", zone="battlefield", **{"as": "x"}), ("moved", None))

    def test_a_card_put_onto_the_battlefield_face_down_has_no_as_enters_effect(self):   # CR 708.3, 708.2a
        s = Session({"ghoul": {"owner": "alice", "zone": "hand", "types": ["creature"]},
                     "bear": {"owner": "alice", "zone": "graveyard", "types": ["creature"]}})
        s.step("as_enters", card="ghoul", steps=[{"move": {"card": "bear", "to": "exile"}}])
        bear = s.obj("bear")["object"]
        self.assertEqual(self.answer(s, {"move": {"card": "ghoul", "to": "battlefield", "face": "down"}}),
                         ("moved", None, [("ghoul", "moved")]))
        self.assertEqual((s.obj("bear")["zone"], s.obj("bear")["object"]), ("alice.graveyard", bear))
        s.step("move", card="ghoul", to="hand")
        self.assertEqual(self.answer(s, {"move": {"card": "ghoul", "to": "battlefield"}}),
                         ("moved", None, [("bear", "moved"), ("ghoul", "moved")]))
        # a replacement that puts it onto the battlefield face down counts too
        t = Session({"ghoul": {"owner": "alice", "zone": "hand", "types": ["creature"]},
                     "bear": {"owner": "alice", "zone": "graveyard", "types": ["creature"]}})
        t.step("as_enters", card="ghoul", steps=[{"move": {"card": "bear", "to": "exile"}}])
        t.step("replace", card="ghoul", when={"to": "battlefield"}, instead={"to": "battlefield", "face": "down"},
               **{"as": "r"})
        self.assertEqual(self.answer(t, {"move": {"card": "ghoul", "to": "battlefield"}}),
                         ("replaced", None, [("ghoul", "replaced")]))

    def test_control_returning_to_a_departed_player_exiles(self):      # CR 800.4c, 800.4a
        s = Session({"angel": {"owner": "alice", "zone": "library", "types": ["creature"]},
                     "ox": {"owner": "alice", "zone": "battlefield", "types": ["creature"]}},
                    players=("alice", "bob", "carol"))
        s.step("move", card="angel", to="battlefield", player="bob")
        s.step("control", card="angel", player="carol", until="end_of_turn")
        s.step("control", card="ox", player="carol", until="end_of_turn")
        self.assertEqual(s.step("leave_game", player="bob"), ("no_move", None))
        self.assertEqual((s.obj("angel")["zone"], s.obj("angel")["controller"]), ("battlefield", "carol"))
        self.assertEqual(self.answer(s, {"end_turn": {}}), ("moved", None, [("angel", "moved")]))
        self.assertEqual(s.obj("angel")["zone"], "exile")
        self.assertEqual((s.obj("ox")["zone"], s.obj("ox")["controller"]), ("battlefield", "alice"))
        # nobody departed: it only goes back
        t = Session({"ox": {"owner": "alice", "zone": "battlefield", "types": ["creature"]}})
        t.step("control", card="ox", player="bob", until="end_of_turn")
        self.assertEqual(self.answer(t, {"end_turn": {}}), ("no_move", None, []))
        self.assertEqual(t.obj("ox")["controller"], "alice")

    def test_a_stolen_permanent_spell_goes_back_to_its_caster(self):     # CR 110.2b, 800.4a
        s = Session({"angel": {"owner": "alice", "zone": "hand", "types": ["creature"]}},
                    players=("alice", "bob", "carol"))
        s.step("move", card="angel", to="stack", cause="cast", player="alice")
        s.step("control", card="angel", player="bob")
        s.step("move", card="angel", to="battlefield", cause="resolve")
        self.assertEqual(s.obj("angel")["controller"], "bob")
        kept = s.obj("angel")["object"]
        s.step("leave_game", player="bob")
        o = s.obj("angel")
        self.assertEqual((o["zone"], o["controller"], o["object"]), ("battlefield", "alice", kept))
        # one that bob put onto the battlefield himself is his by default: exiled
        t = Session({"imp": {"owner": "alice", "zone": "graveyard", "types": ["creature"]}},
                    players=("alice", "bob", "carol"))
        t.step("move", card="imp", to="battlefield", player="bob")
        t.step("leave_game", player="bob")
        self.assertEqual(t.obj("imp")["zone"], "exile")

    def test_a_revealed_card_of_a_reordered_or_shuffled_library_is_new(self):   # CR 701.20d
        lib = {h: {"owner": "alice", "zone": "library", "position": i} for i, h in enumerate("abc")}
        s = Session(lib)
        s.step("reveal", card="b")
        s.step("remember", card="b", **{"as": "shown"})
        # an order that changes nothing renews nothing
        self.assertEqual(self.answer(s, {"reorder": {"zone": "alice.library", "order": ["a", "b", "c"],
                                                     "by": "effect"}}), ("no_move", None, []))
        self.assertEqual(s.obj("b")["visibility"], "public")
        self.assertEqual(self.answer(s, {"reorder": {"zone": "alice.library", "order": ["b", "a", "c"],
                                                     "by": "effect"}}),
                         ("no_move", None, [("b", "new_object_in_place")]))
        self.assertEqual(s.obj("b")["visibility"], "private")
        self.assertEqual(s.observe()["refs"]["shown"]["found"], False)
        s.step("reveal", card="c")
        self.assertEqual(self.answer(s, {"shuffle": {"zone": "alice.library", "order": ["c", "b", "a"]}}),
                         ("no_move", None, [("c", "new_object_in_place")]))
        self.assertEqual(s.obj("c")["visibility"], "private")
        # a move's shuffle: the library's revealed card first, then the mover
        t = Session({**lib, "x": {"owner": "alice", "zone": "hand"}})
        t.step("reveal", card="a")
        self.assertEqual(self.answer(t, {"move": {"card": "x", "to": "library", "shuffle": True}}),
                         ("moved", None, [("a", "new_object_in_place"), ("x", "moved")]))
        # a look is no reveal: it ends with the shuffle, the card stays the same object
        u = Session(lib)
        u.step("look", card="a", player="alice")
        a = u.obj("a")["object"]
        self.assertEqual(self.answer(u, {"shuffle": {"zone": "alice.library", "order": ["b", "a", "c"]}}),
                         ("no_move", None, []))
        self.assertEqual(u.obj("a")["object"], a)

    def test_stack_apnap_starts_from_the_turn_player(self):              # CR 405.3, 101.4
        cards = {"a1": {"owner": "alice", "zone": "hand"}, "b1": {"owner": "bob", "zone": "hand"},
                 "c1": {"owner": "carol", "zone": "hand"}}
        s = Session(cards, players=("alice", "bob", "carol"))
        together = {"move_together": {"moves": [{"card": h, "to": "stack"} for h in ("a1", "b1", "c1")]}}
        self.assertEqual(s.call("step", step=together)["outcome"], "moved")
        self.assertEqual([s.obj(h)["position"] for h in ("a1", "b1", "c1")], [2, 1, 0])   # alice lowest
        t = Session(cards, players=("alice", "bob", "carol"))
        t.step("untap", player="bob")
        self.assertEqual(t.call("step", step=together)["outcome"], "moved")
        # bob's lowest, then carol's, then alice's on top
        self.assertEqual([t.obj(h)["position"] for h in ("a1", "b1", "c1")], [0, 2, 1])

    def test_a_face_down_exiled_card_has_no_types_for_a_cant_effect(self):   # CR 406.3a
        s = Session({"hidden": {"owner": "alice", "zone": "exile", "face": "down", "types": ["creature"]},
                     "shown": {"owner": "alice", "zone": "exile", "types": ["creature"]},
                     "any1": {"owner": "alice", "zone": "exile", "face": "down", "types": ["creature"]}})
        s.step("cant", card="any", when={"from": "exile", "to": "hand"}, types=["creature"])
        self.assertEqual(s.step("move", card="hidden", to="hand", **{"from": "exile"}), ("moved", None))
        self.assertEqual(s.step("move", card="shown", to="hand"), ("failed", "forbidden"))
        # a can't effect naming no types still holds it
        s.step("cant", card="any1", when={"from": "exile"})
        self.assertEqual(s.step("move", card="any1", to="graveyard"), ("failed", "forbidden"))


class Protocol(unittest.TestCase):
    def test_hello_chooses_the_newest_version_offered(self):
        def hello(**fields):
            return engine.Server().handle({"op": "hello", "id": 1, **fields})
        self.assertEqual(hello(protocol="zcp/1", accepts=["zcp/1", "zcp/2"])["protocol"], "zcp/2")
        self.assertEqual(hello(protocol="zcp/2")["protocol"], "zcp/2")
        self.assertEqual(hello(protocol="zcp/1")["protocol"], "zcp/1")
        self.assertEqual(hello(protocol="zcp/9")["error"]["code"], "unsupported")
        self.assertEqual(hello(protocol="zcp/1", accepts="zcp/2")["error"]["code"], "bad_request")

    def test_run_delta_sends_only_what_changed(self):
        s = Session({"bear": {"owner": "alice", "zone": "battlefield", "types": ["creature"]},
                     "elk": {"owner": "bob", "zone": "hand"}})
        whole = s.observe()
        answer = s.call("run", observe="delta", steps=[
            {"watch": {"as": "w", "card": "bear", "to": "graveyard"}},
            {"move": {"card": "bear", "to": "graveyard"}},
            {"create": {"as": "t", "owner": "bob", "zone": "battlefield"}},
            {"remember": {"as": "r", "card": "t"}},
            {"mark": {"card": "elk", "as": "m", "kind": "counter"}}])
        self.assertTrue(answer["ok"], answer)
        first, moved, created, remembered, marked = answer["observations"]
        self.assertEqual(first, {"objects": {}, "triggers": {
            "w": {"fired": False, "found": None, "controller": None}}})
        self.assertEqual(set(moved["objects"]), {"bear"})
        self.assertEqual(set(moved["objects"]["bear"]), {"zone", "object", "position", "controller"})
        self.assertEqual(moved["triggers"]["w"]["fired"], True)
        self.assertNotIn("refs", moved)
        self.assertEqual(created["objects"]["t"]["zone"], "battlefield")
        self.assertEqual(len(created["objects"]["t"]), len(whole["objects"]["bear"]))  # a new one: whole
        self.assertEqual(sorted(created["visible"]), ["alice", "bob"])
        self.assertEqual(remembered, {"objects": {}, "refs": {"r": {"found": True, "handle": "t"}}})
        self.assertEqual(marked, {"objects": {"elk": {"marks": ["m"]}}})
        # the deltas applied to the observation before the run give the one after
        state = whole
        for d in answer["observations"]:
            for h, fields in d["objects"].items():
                state["objects"][h] = {**state["objects"].get(h, {}), **fields}
            for part in ("triggers", "refs", "players", "visible"):
                state[part].update(d.get(part, {}))
        after = s.observe()
        del after["id"], after["ok"], state["id"], state["ok"]
        self.assertEqual(state, after)

    def test_durations_and_watch_cause(self):                  # G4, G8: CR 514.2, 702.26f, 701.21a
        s = Session({"bear": {"owner": "bob", "zone": "battlefield", "types": ["creature"]},
                     "elf": {"owner": "alice", "zone": "battlefield", "types": ["creature"]}})
        s.step("mark", card="bear", **{"as": "pump", "kind": "effect", "until": "end_of_turn"})
        s.step("mark", card="bear", **{"as": "forever", "kind": "effect"})
        s.step("control", card="bear", player="alice", until="end_of_turn")
        s.step("phase", card="bear")
        self.assertEqual(s.step("end_turn"), ("no_move", None))
        o = s.obj("bear")
        self.assertEqual((o["controller"], o["marks"], o["phased_out"]), ("bob", ["forever"], True))
        s.step("watch", card="elf", to="graveyard", cause="destroy", **{"as": "d"})
        s.step("move", card="elf", to="graveyard", cause="sacrifice")
        self.assertFalse(s.observe()["triggers"]["d"]["fired"])
        answer = s.call("step", step={"mark": {"card": "elf", "as": "c", "kind": "counter",
                                                "until": "end_of_turn"}})
        self.assertEqual(answer["error"]["code"], "bad_request")

    def test_run_modes(self):
        s = Session({"x": {"owner": "alice", "zone": "hand"}})
        steps = [{"move": {"card": "x", "to": "exile"}}, {"state_check": None}]
        self.assertEqual(len(s.call("run", steps=steps, observe="each")["observations"]), 2)
        self.assertEqual(len(s.call("run", steps=steps)["observations"]), 1)
        self.assertEqual(s.call("run", steps=steps, observe="all")["error"]["code"], "bad_request")

    def test_bad_requests_are_answered(self):
        s = Session({"x": {"owner": "alice", "zone": "hand"}})
        for step in (None, {}, {"fly": {}}, {"move": {"card": "nobody", "to": "exile"}},
                     {"move": {"card": "x", "to": "narnia"}}, {"move": {"card": "x"}}):
            answer = s.call("step", step=step)
            self.assertEqual(answer["error"]["code"], "bad_request", step)
        self.assertEqual(s.obj("x")["zone"], "alice.hand")
        self.assertEqual(s.call("setup", ruleset="fab", players=["a"], cards={})["error"]["code"],
                         "unsupported")

    def test_a_step_that_raises_half_way_is_undone_from_the_log(self):   # PROTOCOL.md 6
        s = Session({"bear": {"owner": "alice", "zone": "battlefield", "types": ["creature"]},
                     "elf": {"owner": "bob", "zone": "hand"}}, players=("alice", "bob", "carol"))
        s.step("mark", card="bear", **{"as": "m", "kind": "counter"})
        s.step("watch", card="bear", to="exile", **{"as": "w"})
        before, state = s.observe(), dump(s.server.game)
        # the move happens, its trigger fires, then its then: reuses a mark name
        answer = s.call("step", step={"move": {"card": "bear", "to": "exile",
                                               "then": {"mark": {"as": "m", "kind": "effect"}}}})
        self.assertEqual(answer["error"]["code"], "bad_request")
        self.assertIsNone(engine.Journal.log, "no log is left open")
        after = s.observe()
        del before["id"], after["id"]
        self.assertEqual((after, dump(s.server.game)), (before, state))
        # a step naming a player who left is checked on the game, then undone
        s.step("leave_game", player="carol")
        self.assertEqual(s.step("move", card="elf", to="battlefield", player="carol"), ("rejected", "wrong_player"))
        self.assertEqual(s.obj("elf")["zone"], "bob.hand")
        state = dump(s.server.game)
        self.assertEqual(s.call("step", step={"move": {"card": "elf", "to": "mars", "player": "carol"}})
                         ["error"]["code"], "bad_request")
        self.assertEqual(dump(s.server.game), state)

    def test_process_handshake_and_garbage(self):
        lines = ['{"op":"hello","id":1,"protocol":"zcp/1"}', "not json", '{"op":"bye","id":2}']
        out = subprocess.run([sys.executable, ENGINE], input="\n".join(lines) + "\n",
                             capture_output=True, text=True, timeout=30).stdout.splitlines()
        answers = [json.loads(line) for line in out]
        self.assertEqual((answers[0]["protocol"], answers[0]["rulesets"]), ("zcp/1", ["mtg-current"]))
        self.assertEqual(answers[1]["error"]["code"], "bad_request")
        self.assertEqual(answers[2], {"id": 2, "ok": True})


if __name__ == "__main__":
    unittest.main()
