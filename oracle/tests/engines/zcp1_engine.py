#!/usr/bin/env python3
"""A zone-rules engine for Magic: the Gathering (Comprehensive Rules of 2026,
rule set `mtg-current`) that speaks zoneoracle's zcp/1 protocol.

It is a second implementation of the rules, written from cases/README.md and
the rules, not a wrapper of the oracle: it only shares the wire format. It is
also the template for engine authors: `Game` is the engine (replace it with
calls into your own), `Server` is the protocol (keep it).

    requests on stdin, one JSON object per line; answers on stdout, likewise
    hello -> Server.hello       setup   -> Game(players, cards)
    step  -> Game.step          observe -> Game.observe
    run   -> many Game.step     bye     -> answer, then exit

Standard library only, Python 3.9+. Rule numbers are those of the current CR.
"""
import copy
import json
import sys

ENGINE, VERSION, PROTOCOL = "pyzones", "1.0.0", "zcp/1"
RULESET = "mtg-current"
# Protocol features this engine implements completely for mtg-current. Not
# declared: sub_cards, zone_lifecycle, stack_layers (Flesh and Blood only).
FEATURES = ["triggers", "replacement", "phasing", "face_down", "ante", "visibility",
            "reorder", "state_check", "marks"]

# ---- the zones of mtg-current ---------------------------------------------
PER_PLAYER = ("library", "hand", "graveyard")                    # CR 400.1
SHARED = ("battlefield", "stack", "exile", "command", "ante")     # CR 400.1
ORDERED = ("library", "graveyard", "stack")                      # CR 400.5
HIDDEN = ("library", "hand")                                     # CR 400.2
CONTROLLED = ("battlefield", "stack")                            # CR 109.4
NEW_IN_PLACE = ("exile", "command")                              # CR 400.8, 400.10
OUTSIDE = "outside"                                              # CR 400.11: not a zone
COMMAND_BOUND = {"conspiracy", "phenomenon", "plane", "scheme", "vanguard"}  # CR 400.4b
KINDS = ("card", "token", "ability", "copy")
MARK_KINDS = ("counter", "effect", "characteristic", "prevention")
SPELL_KEEPS = ("characteristic", "prevention")                   # CR 400.7a, 400.7c
ARRIVED = ("moved", "replaced", "redirected")                    # a real zone change

MOVE_KEYS = {"card", "ref", "to", "from", "position", "face", "by", "cause", "choose",
             "shuffle", "seed", "then"}
STEP_KEYS = {
    "move": MOVE_KEYS, "move_together": {"moves", "order"},
    "create": {"as", "kind", "owner", "zone", "types", "subtypes", "controller", "face"},
    "control": {"card", "ref", "player"}, "phase": {"card", "ref", "out"},
    "turn_face": {"card", "ref", "face"}, "reorder": {"zone", "order"},
    "shuffle": {"zone", "seed"}, "draw": {"player", "count"},
    "mill": {"player", "count", "to"}, "put_under": {"card", "ref", "under"},
    "zone_create": {"zone"}, "zone_remove": {"zone", "choose"}, "state_check": set(),
    "end_game": {"winner"}, "watch": {"as", "card", "from", "to", "types"},
    "resolve": {"trigger", "do"}, "remember": {"as", "card", "ref"},
    "replace": {"as", "card", "when", "instead", "controller"},
    "choose_replacement": {"order", "player", "card"}, "mark": {"card", "ref", "as", "kind"},
}
CARD_KEYS = {"owner", "zone", "kind", "types", "subtypes", "controller", "face",
             "position", "visibility", "under"}


class BadRequest(Exception):
    """The request is malformed: answered with error code bad_request."""


class Unsupported(Exception):
    """Outside what this engine implements: answered with unsupported."""


def need(condition, message):
    if not condition:
        raise BadRequest(message)


def ztype(zone):
    """'alice.graveyard' -> 'graveyard'; 'exile' -> 'exile'."""
    return zone.rsplit(".", 1)[-1]


def zplayer(zone):
    return zone.split(".", 1)[0] if "." in zone else None


def words(value, what):
    need(value is None or (isinstance(value, list) and all(isinstance(w, str) for w in value)),
         f"{what}: expected a list of words")
    return set(value or ())


class Obj:
    """One card, token, spell copy or ability, under its case handle. `id`
    is the object identity: a new one each time it becomes a new object."""

    def __init__(self, handle, kind, owner, types, subtypes):
        self.handle, self.kind, self.owner = handle, kind, owner
        self.types, self.subtypes = types, subtypes
        self.exists, self.id, self.zone = True, 0, None
        self.face_down, self.controller, self.phased_out = False, None, False
        self.left_battlefield = False   # CR 111.8
        self.marks = {}                  # mark name -> kind

    def tokenlike(self):
        # CR 111.13: a copy of a permanent spell becomes a token as it resolves
        return self.kind in ("token", "copy")

    def instant_or_sorcery(self):
        return bool(self.types & {"instant", "sorcery"})


class Result:
    """A step's answer: outcome, error code (or None), per-object events."""

    def __init__(self, outcome="no_move", error=None):
        self.outcome, self.error, self.events = outcome, error, []

    def set(self, outcome, error=None):
        self.outcome, self.error = outcome, error
        return self

    def event(self, handle, outcome):
        self.events.append({"handle": handle, "outcome": outcome})

    def json(self):
        return {"outcome": self.outcome, "error": self.error, "events": self.events}


class Trigger:
    """A zone-change trigger (watch): fires once, then tracks the new object."""

    def __init__(self, handle, frm, to, types):
        self.handle, self.frm, self.to, self.types = handle, frm, to, types
        self.fired, self.found, self.controller = False, None, None
        self.object, self.zone = None, None   # the object it tracks, and where


class Replacement:
    def __init__(self, card, to, frm, cause, instead):
        self.card, self.to, self.frm, self.cause, self.instead = card, to, frm, cause, instead


class Game:
    """The state of one game under mtg-current and the steps acting on it."""

    def __init__(self, players, cards):
        need(isinstance(players, list) and players, "players: expected a non-empty list")
        need(all(isinstance(p, str) and p and "." not in p for p in players),
             "players: names without '.'")
        need(len(set(players)) == len(players), "players: names must differ")
        need(isinstance(cards, dict), "cards: expected an object")
        self.players = players
        self.zones = {z: [] for z in SHARED}
        for p in players:
            for t in PER_PLAYER:
                self.zones[f"{p}.{t}"] = []
        self.objs, self.next_id = {}, 0
        self.triggers, self.refs, self.replacements = {}, {}, {}
        self.replacement_order = []       # names, in the order they apply
        self.drew_empty, self.lost, self.mark_names = set(), set(), set()
        for handle, card in cards.items():
            self.place(handle, card)

    # ---- names --------------------------------------------------------------
    def player(self, name, what="player"):
        need(name in self.players, f"{what}: unknown player {name!r}")
        return name

    def obj(self, handle):
        need(isinstance(handle, str) and handle in self.objs, f"unknown card handle {handle!r}")
        return self.objs[handle]

    def new_name(self, table, name):
        need(isinstance(name, str) and name and "." not in name and name not in table,
             f"as: {name!r} is not a new name")
        return name

    def spec(self, text, special=()):
        """A zone as written -> (type, player or None). `special` lists the
        extra words the step allows (outside, any)."""
        need(isinstance(text, str), "zone: expected a string")
        if text in special:
            return text, None
        parts = text.split(".")
        if len(parts) == 1 and text in SHARED + PER_PLAYER:
            return text, None
        need(len(parts) == 2 and parts[1] in PER_PLAYER,
             f"unknown zone {text!r} for {RULESET}")
        return parts[1], self.player(parts[0], "zone")

    def zone_of(self, spec, owner):
        """The zone instance a written zone names for an object of `owner`;
        a bare per-player zone means the owner's. Returns (zone, redirected)."""
        t, p = spec
        if t in SHARED or t == OUTSIDE:
            return t, False
        if p is not None and p != owner:    # CR 400.3: the owner's zone instead
            return f"{owner}.{t}", True
        return f"{owner}.{t}", False

    def step_zone(self, text):
        """A zone named by a step with no object: bare = the first player's."""
        t, p = self.spec(text)
        return t if t in SHARED else f"{p or self.players[0]}.{t}"

    @staticmethod
    def matches(spec, zone, owner):
        """Is `zone` (an object's zone) the zone `spec` names? A bare
        per-player type means the owner's (move from:)."""
        t, p = spec
        if t == "any":
            return True
        if t == OUTSIDE or zone == OUTSIDE:   # CR 400.11: exile is no sideboard
            return t == zone
        return ztype(zone) == t and zplayer(zone) in (None, p or owner)

    @staticmethod
    def type_matches(spec, zone):
        """Does `zone` have the type `spec` names (watch, replace)? A player,
        when written, must match too."""
        t, p = spec
        if t == "any":
            return True
        if t == OUTSIDE or zone == OUTSIDE:
            return t == zone
        return ztype(zone) == t and (p is None or zplayer(zone) == p)

    # ---- objects and zones -----------------------------------------------------
    def new_object(self, o, keep=()):
        """CR 400.7: a new object with no memory of the old one, except the
        mark kinds in `keep`."""
        self.next_id += 1
        o.id = self.next_id
        o.marks = {m: k for m, k in o.marks.items() if k in keep}

    def insert(self, o, zone, position="top"):
        o.zone = zone
        if zone == OUTSIDE:
            return
        pile = self.zones[zone]
        if ztype(zone) not in ORDERED or position == "bottom":
            pile.append(o.handle)          # unordered zones keep arrival order
        elif position == "top":
            pile.insert(0, o.handle)
        else:
            pile.insert(min(position, len(pile)), o.handle)  # CR 401.7: past the end = bottom

    def remove(self, o):
        if o.zone in self.zones:
            self.zones[o.zone].remove(o.handle)

    def cease(self, o, res):
        self.remove(o)
        o.exists, o.zone, o.controller, o.marks = False, None, None, {}
        res.event(o.handle, "ceased")

    def public(self, o):
        """CR 400.2: public when its zone is public and it is face up."""
        return o.exists and o.zone != OUTSIDE and ztype(o.zone) not in HIDDEN and not o.face_down

    def sees(self, player, o):
        if not o.exists or o.zone == OUTSIDE:
            return False
        if self.public(o):
            return True
        t = ztype(o.zone)
        if t == "hand":                    # CR 402.3: its owner looks at a hand
            return zplayer(o.zone) == player
        if o.face_down and t in CONTROLLED:  # CR 708.5: face-down spell/permanent
            return o.controller == player
        return False                       # a library (401.2), face-down exile (406.3)

    @staticmethod
    def finds(o, oid, zone):
        """CR 400.7e, 400.7j, 603.6: an ability that followed an object finds
        the new object only in a public zone, and only while it stays there."""
        return (o.exists and o.id == oid and o.zone == zone and zone != OUTSIDE
                and ztype(zone) not in HIDDEN)

    # ---- set-up (a starting position the rules forbid is a bad request) -----
    def place(self, handle, c):
        need(isinstance(handle, str) and handle and "." not in handle, f"bad handle {handle!r}")
        need(isinstance(c, dict), f"card {handle}: expected an object")
        need(set(c) <= CARD_KEYS, f"card {handle}: unknown keys {sorted(set(c) - CARD_KEYS)}")
        need("under" not in c, f"card {handle}: sub-cards are not part of {RULESET}")
        kind = c.get("kind", "card")
        need(kind in KINDS, f"card {handle}: kind {kind!r} is not a Magic object")
        o = Obj(handle, kind, self.player(c.get("owner"), "owner"),
                words(c.get("types"), "types"), words(c.get("subtypes"), "subtypes"))
        need(c.get("face", "up") in ("up", "down"), f"card {handle}: face is up or down")
        o.face_down = c.get("face") == "down"
        need("zone" in c, f"card {handle}: zone is required")
        if c["zone"] == OUTSIDE:           # CR 400.11a: a sideboard card
            need(kind == "card", f"card {handle}: only cards can be outside the game")
            zone = OUTSIDE
        else:
            zone, wrong_owner = self.zone_of(self.spec(c["zone"]), o.owner)
            need(not wrong_owner, f"card {handle}: that zone holds only its owner's cards")
        t = ztype(zone)
        need(kind != "token" or t == "battlefield", f"token {handle}: only on the battlefield")
        need(kind != "ability" or t == "stack", f"ability {handle}: only on the stack")
        need(kind != "copy" or t in CONTROLLED, f"copy {handle}: only on the stack or battlefield")
        need(not (t == "battlefield" and o.instant_or_sorcery()),
             f"card {handle}: an instant or sorcery can't be on the battlefield (CR 400.4a)")
        if t in CONTROLLED:                 # CR 109.4
            o.controller = self.player(c.get("controller", o.owner), "controller")
        else:
            need("controller" not in c, f"card {handle}: objects in {zone} have no controller")
        pos = c.get("position", "bottom")   # listed cards stack in file order, first on top
        need(pos == "bottom" or (type(pos) is int and pos >= 0), f"card {handle}: bad position")
        self.objs[handle] = o
        self.insert(o, zone, pos)
        self.new_object(o)

    # ---- steps -------------------------------------------------------------------
    def step(self, step, obj=None):
        """Apply one step of the case language; `obj` is the object a nested
        step (then:, do:) acts on. Returns a Result."""
        need(isinstance(step, dict), "step: expected an object")
        step = {k: v for k, v in step.items() if k != "expect"}
        need(len(step) == 1, "step: expected exactly one step name")
        (name, opts), = step.items()
        need(name in STEP_KEYS, f"unknown step {name!r}")
        opts = {} if opts is None else opts
        need(isinstance(opts, dict), f"{name}: expected an object")
        need(set(opts) <= STEP_KEYS[name], f"{name}: unknown keys {sorted(set(opts) - STEP_KEYS[name])}")
        need(obj is None or not ({"card", "ref"} & set(opts))
             or name in ("watch", "replace", "choose_replacement"),
             f"{name}: a nested step acts on the followed object, without card/ref")
        res = Result()
        getattr(self, "do_" + name)(opts, obj, res)
        return res

    def target(self, opts, obj, res):
        """The object a step acts on, or None (not_found) if it is gone."""
        if obj is not None:
            return obj
        if "ref" in opts:
            need(opts["ref"] in self.refs, f"unknown reference {opts['ref']!r}")
            o, oid = self.refs[opts["ref"]]
            if o is not None and o.exists and o.id == oid:
                return o
            res.set("not_found", "not_found")
            return None
        o = self.obj(opts.get("card"))
        if not o.exists:
            res.set("not_found", "not_found")
            res.event(o.handle, "not_found")
            return None
        return o

    def do_move(self, opts, obj, res):
        o = self.target(opts, obj, res)
        if o is not None:
            res.set(*self.move(o, opts, res))

    def move_options(self, opts):
        """Check a move's options (move, move_together, replace instead:)."""
        need("to" in opts, "move: to is required")
        self.spec(opts["to"], (OUTSIDE,))
        if "from" in opts:
            self.spec(opts["from"], (OUTSIDE, "any"))
        pos = opts.get("position", "top")
        need(pos in ("top", "bottom") or (type(pos) is int and pos >= 0), "move: bad position")
        need(opts.get("face", "up") in ("up", "down"), "move: face is up or down")
        need(opts.get("by", "effect") in ("effect", "rule"), "move: by is effect or rule")
        need(isinstance(opts.get("cause", ""), str), "move: cause is text")
        need(isinstance(opts.get("shuffle", False), bool), "move: shuffle is true or false")
        need(type(opts.get("seed", 0)) is int, "move: seed is an integer")

    def move(self, o, opts, res):
        """One object changes zone (CR 400.6). Returns (outcome, error)."""
        self.move_options(opts)
        origin = o.zone
        if "from" in opts and not self.matches(self.spec(opts["from"], (OUTSIDE, "any")), origin, o.owner):
            return "failed", "not_in_zone"    # not where the effect expects it
        if o.phased_out:                      # CR 702.26b: treated as though it doesn't exist
            return "failed", "phased_out"
        dest, redirected = self.zone_of(self.spec(opts["to"], (OUTSIDE,)), o.owner)
        dest, eff, replaced = self.replace_destination(o, origin, dest, opts)
        face_down = eff.get("face") == "down"
        if dest == origin:                    # no zone change
            if ztype(dest) not in NEW_IN_PLACE:
                return "no_move", None        # model decision: nothing happens
            self.new_object(o)                # CR 400.8 (exile), 400.10 (command)
            o.face_down = face_down
            res.event(o.handle, "new_object_in_place")
            self.then(o, opts, res)
            return "new_object_in_place", None
        if o.kind == "ability" or (dest == OUTSIDE and o.kind != "card"):
            self.cease(o, res)                # an ability exists only on the stack;
            return "ceased", None             # only cards exist outside (400.11)
        # CR 111.8: it can't change zones any more. Leaving the game is no
        # zone change (400.11: outside the game is not a zone), so that case
        # is above: a token that leaves the game ceases even after it left
        # the battlefield.
        if o.left_battlefield:
            return "stayed", "token_left"
        if dest == "battlefield" and o.instant_or_sorcery():   # CR 400.4a
            return "stayed", "cannot_hold"
        if origin == "command" and o.types & COMMAND_BOUND:     # CR 400.4b
            return "stayed", "cannot_hold"
        controller = o.controller
        self.remove(o)
        self.insert(o, dest, eff.get("position", "top"))
        # CR 400.7a, 400.7c: a permanent spell becoming a permanent keeps them
        spell_to_permanent = origin == "stack" and dest == "battlefield"
        self.new_object(o, SPELL_KEEPS if spell_to_permanent else ())
        # CR 109.4: a controller only on the stack and battlefield; it stays
        # across a move between them (the spell's controller, 110.2)
        o.controller = (controller or o.owner) if dest in CONTROLLED else None
        o.face_down, o.phased_out = face_down, False
        if origin == "battlefield" and o.tokenlike():
            o.left_battlefield = True         # CR 111.8
        if eff.get("shuffle"):
            self.shuffle(dest, eff.get("seed", 0))
        self.fire_triggers(o, origin, dest, controller)
        outcome = "replaced" if replaced else "redirected" if redirected else "moved"
        res.event(o.handle, outcome)
        self.then(o, opts, res)
        return outcome, None

    def then(self, o, opts, res):
        """CR 400.7j: the rest of the effect finds what it moved to a public
        zone. Its events join the move's; its outcome does not replace it."""
        if opts.get("then") is None:
            return
        if self.finds(o, o.id, o.zone):
            res.events += self.step(opts["then"], o).events
        else:
            res.event(o.handle, "not_found")

    def replace_destination(self, o, origin, dest, opts):
        """CR 400.6 step 3, 614.5, 616.1: apply replacement effects in the
        chosen order, each at most once, rechecking after each. Returns the
        destination, the move options that take effect, and whether any
        replacement applied (the cause stays the original event's)."""
        eff, replaced, used, cause = opts, False, set(), opts.get("cause")
        while True:
            for name in self.replacement_order:
                r = self.replacements[name]
                if name in used or (r.card != "any" and r.card != o.handle):
                    continue
                if not self.type_matches(r.to, dest) or not self.type_matches(r.frm, origin):
                    continue
                if r.cause is not None and r.cause != cause:
                    continue
                used.add(name)
                dest, _ = self.zone_of(self.spec(r.instead["to"], (OUTSIDE,)), o.owner)
                eff, replaced = r.instead, True
                break
            else:
                return dest, eff, replaced

    def fire_triggers(self, o, origin, dest, controller):
        for t in self.triggers.values():
            if t.fired or t.handle != o.handle or not t.types <= o.types:
                continue
            if self.type_matches(t.frm, origin) and self.type_matches(t.to, dest):
                t.fired, t.object, t.zone = True, o.id, dest
                # CR 603.3a: whoever controlled the source (else its owner)
                t.controller = controller or o.owner

    def do_move_together(self, opts, obj, res):
        moves = opts.get("moves")
        need(isinstance(moves, list) and moves, "move_together: moves is a non-empty list")
        for m in moves:
            need(isinstance(m, dict) and "then" not in m and "ref" not in m,
                 "move_together: each move names card: and has no then:")
            need(set(m) <= MOVE_KEYS, f"move_together: unknown keys {sorted(set(m) - MOVE_KEYS)}")
            self.move_options(m)
        handles = [self.obj(m.get("card")).handle for m in moves]
        need(len(set(handles)) == len(handles), "move_together: a card moves at most once")
        order = opts.get("order") or {}
        need(isinstance(order, dict) and len(order) <= 1, "move_together: order names one zone")
        chosen = {}
        for text, listed in order.items():
            need(isinstance(listed, list) and listed, "move_together: order lists handles")
            t, p = self.spec(text)
            zone = t if t in SHARED else f"{p or self.obj(listed[0]).owner}.{t}"
            chosen[zone] = [self.obj(h).handle for h in listed]
        moved = False
        for m in moves:
            moved |= self.move_in_event(self.objs[m["card"]], m, res)
        # CR 401.4, 404.3: objects arriving together in an ordered zone are
        # ordered by their owner (the case's order:, else the list order,
        # first on top), in the places they took
        for zone, pile in self.zones.items():
            if ztype(zone) not in ORDERED:
                continue
            wanted = [h for h in chosen.get(zone, handles) if self.objs[h].zone == zone]
            slots = sorted(pile.index(h) for h in wanted)
            for i, h in zip(slots, wanted):
                pile[i] = h
        self.several(res, moved)

    def move_in_event(self, o, opts, res):
        """One object's move inside a step that moves several (move_together,
        draw, mill); each object's outcome is an event. Did it arrive?"""
        outcome, _ = self.move(o, opts, res) if o.exists else ("not_found", None)
        if outcome not in ARRIVED + ("ceased", "new_object_in_place"):
            res.event(o.handle, outcome)
        return outcome in ARRIVED

    @staticmethod
    def several(res, moved):
        """`moved` if any object arrived, else the first object's outcome."""
        res.set("moved" if moved else res.events[0]["outcome"] if res.events else "no_move")

    def do_create(self, opts, obj, res):
        handle = self.new_name(self.objs, opts.get("as"))
        kind = opts.get("kind", "token")
        need(kind in KINDS, f"create: kind {kind!r} is not a Magic object")
        o = Obj(handle, kind, self.player(opts.get("owner"), "owner"),
                words(opts.get("types"), "types"), words(opts.get("subtypes"), "subtypes"))
        need("zone" in opts, "create: zone is required")
        zone, _ = self.zone_of(self.spec(opts["zone"]), o.owner)
        need(opts.get("face", "up") in ("up", "down"), "create: face is up or down")
        self.objs[handle] = o
        if zone == "battlefield" and o.instant_or_sorcery():
            o.exists = False                  # CR 111.5, 400.4a: never created
            res.set("failed", "cannot_hold")
            return
        if zone in CONTROLLED:
            o.controller = self.player(opts.get("controller", o.owner), "controller")
        else:
            need("controller" not in opts, f"create: objects in {zone} have no controller")
        o.face_down = opts.get("face") == "down"
        self.insert(o, zone)
        self.new_object(o)
        if kind == "ability" and zone != "stack":
            self.cease(o, res)                # an ability exists only on the stack
            res.set("ceased")
            return
        # a token made outside the battlefield exists until the state check (111.7)
        res.event(handle, "moved")
        res.set("moved")

    def do_control(self, opts, obj, res):
        o = self.target(opts, obj, res)
        if o is None:
            return
        player = self.player(opts.get("player"))
        if o.zone == OUTSIDE or ztype(o.zone) not in CONTROLLED:
            res.set("rejected", "no_controller")   # CR 109.4
        elif o.phased_out:
            res.set("failed", "phased_out")        # CR 702.26b
        else:
            o.controller = player

    def do_phase(self, opts, obj, res):
        o = self.target(opts, obj, res)
        if o is None:
            return
        out = opts.get("out", True)
        need(isinstance(out, bool), "phase: out is true or false")
        if o.zone != "battlefield":
            res.set("rejected", "unsupported")     # only permanents phase
        elif o.phased_out == out:
            res.set("failed", "already")
        else:
            # CR 702.26d: a status, not a zone change: same object, same
            # controller, marks kept, no zone-change trigger; tokens survive
            o.phased_out = out

    def do_turn_face(self, opts, obj, res):
        o = self.target(opts, obj, res)
        if o is None:
            return
        need(opts.get("face") in ("up", "down"), "turn_face: face is up or down")
        down = opts["face"] == "down"
        if o.phased_out:
            # CR 702.26b: treated as though it doesn't exist, so nothing can
            # turn it over; whether it already shows that face is not asked
            res.set("failed", "phased_out")
            return
        if o.face_down == down:
            res.set("failed", "already")           # CR 708.2b
            return
        o.face_down = down
        if down and o.zone == "command":           # CR 400.9
            self.new_object(o)
            res.set("new_object_in_place")
        res.event(o.handle, res.outcome)

    def do_reorder(self, opts, obj, res):
        zone = self.step_zone(opts.get("zone"))
        order = opts.get("order")
        need(isinstance(order, list), "reorder: order is a list of handles")
        order = [self.obj(h).handle for h in order]
        if ztype(zone) in ORDERED:
            res.set("rejected", "ordered")         # CR 400.5, 401.2, 404.2
        elif sorted(order) != sorted(self.zones[zone]):
            res.set("failed", "not_in_zone")
        else:
            self.zones[zone][:] = order            # CR 400.5: arranged by the owner

    def do_shuffle(self, opts, obj, res):
        seed = opts.get("seed", 0)
        need(type(seed) is int, "shuffle: seed is an integer")
        self.shuffle(self.step_zone(opts.get("zone")), seed)

    def shuffle(self, zone, seed):
        """A repeatable shuffle: the suite's convention (Fisher-Yates over the
        zone listed top first, drawing from splitmix64 seeded with `seed`), so
        that two engines given the same seed agree (ci/protocol/PROTOCOL.md)."""
        if zone not in self.zones:
            return
        pile, state, mask = self.zones[zone], seed & (2**64 - 1), 2**64 - 1
        for i in range(len(pile) - 1, 0, -1):
            state = (state + 0x9E3779B97F4A7C15) & mask
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            j = (z ^ (z >> 31)) % (i + 1)
            pile[i], pile[j] = pile[j], pile[i]

    def count(self, opts):
        n = opts.get("count", 1)
        need(type(n) is int and 0 <= n <= 10000, "count: a number from 0")
        return n

    def do_draw(self, opts, obj, res):
        """CR 121.1-121.2: the top card to the hand, one at a time; drawing
        from an empty library loses at the next state check (704.5b)."""
        p, moved = self.player(opts.get("player")), False
        for _ in range(self.count(opts)):
            library = self.zones[f"{p}.library"]
            if not library:
                self.drew_empty.add(p)
                break
            moved |= self.move_in_event(self.objs[library[0]], {"to": f"{p}.hand", "cause": "draw"}, res)
        self.several(res, moved)

    def do_mill(self, opts, obj, res):
        p, to = self.player(opts.get("player")), opts.get("to", "graveyard")
        moved = took = False
        self.spec(to, (OUTSIDE,))
        for _ in range(self.count(opts)):
            library = self.zones[f"{p}.library"]
            if not library:
                break                              # CR 609.3: as many as there are
            moved |= self.move_in_event(self.objs[library[0]], {"to": to, "cause": "mill"}, res)
            took = True
        self.several(res, moved)
        if not took:
            res.set("failed", "empty")

    def do_put_under(self, opts, obj, res):
        res.set("rejected", "unsupported")         # Magic has no sub-cards

    def do_zone_create(self, opts, obj, res):
        res.set("rejected", "unsupported")         # Magic zones never come and go

    do_zone_remove = do_zone_create

    def do_state_check(self, opts, obj, res):
        """CR 704.3: state-based actions, repeated until none applies."""
        again = True
        while again:
            again = False
            for o in self.objs.values():
                if not o.exists:
                    continue
                token_off = o.kind == "token" and o.zone != "battlefield"        # 704.5d, 111.7
                copy_off = o.kind == "copy" and o.zone not in CONTROLLED         # 704.5e
                # a phased-out token is still on the battlefield (702.26d)
                if token_off or copy_off:
                    self.cease(o, res)
                    again = True
        self.lost |= self.drew_empty                 # CR 704.5b
        self.drew_empty = set()
        res.set("ceased" if res.events else "no_move")

    def do_end_game(self, opts, obj, res):
        winner = self.player(opts.get("winner"), "winner")
        for h in self.zones["ante"]:                 # CR 407.2: the winner owns the ante
            self.objs[h].owner = winner

    def do_watch(self, opts, obj, res):
        name = self.new_name(self.triggers, opts.get("as"))
        o = self.obj(opts["card"]) if "card" in opts or obj is None else obj
        self.triggers[name] = Trigger(o.handle, self.spec(opts.get("from", "any"), (OUTSIDE, "any")),
                                      self.spec(opts.get("to", "any"), (OUTSIDE, "any")),
                                      words(opts.get("types"), "types"))

    def do_resolve(self, opts, obj, res):
        need(opts.get("trigger") in self.triggers, f"unknown trigger {opts.get('trigger')!r}")
        t = self.triggers[opts["trigger"]]
        need(opts.get("do") is None or isinstance(opts["do"], dict), "resolve: do is a step")
        if not t.fired:
            res.set("not_found", "not_fired")
            return
        o = self.objs[t.handle]
        t.found = self.finds(o, t.object, t.zone)    # CR 400.7e, 603.6
        if not t.found:
            res.set("not_found", "not_found")
            res.event(o.handle, "not_found")
        elif opts.get("do") is not None:
            done = self.step(opts["do"], o)
            res.set(done.outcome, done.error)
            res.events = done.events

    def do_remember(self, opts, obj, res):
        name = self.new_name(self.refs, opts.get("as"))
        o = self.target(opts, obj, res)
        self.refs[name] = (o, o.id) if o is not None else (None, 0)

    def do_replace(self, opts, obj, res):
        name = self.new_name(self.replacements, opts.get("as"))
        card = opts.get("card")
        if card != "any":
            card = (self.obj(card) if "card" in opts or obj is None else obj).handle
        when, instead = opts.get("when") or {}, opts.get("instead")
        need(isinstance(when, dict) and set(when) <= {"to", "from", "cause"},
             "replace: when has to, from, cause")
        need(isinstance(instead, dict) and not ({"card", "ref", "then"} & set(instead)),
             "replace: instead holds move options")
        self.move_options(instead)
        need(when.get("cause") is None or isinstance(when["cause"], str), "replace: cause is text")
        special = (OUTSIDE, "any")
        self.replacements[name] = Replacement(card, self.spec(when.get("to", "any"), special),
                                              self.spec(when.get("from", "any"), special),
                                              when.get("cause"), instead)
        self.replacement_order.append(name)        # creation order by default

    def do_choose_replacement(self, opts, obj, res):
        order = opts.get("order")
        need(isinstance(order, list) and all(n in self.replacements for n in order),
             "choose_replacement: order lists replacement names")
        if "player" in opts:
            player = self.player(opts["player"])
            o = self.obj(opts["card"]) if "card" in opts else obj
            # CR 400.6, 616.1: the affected object's controller, or its owner
            if o is not None and o.exists and player != (o.controller or o.owner):
                res.set("rejected", "wrong_player")
                return
        chosen = list(dict.fromkeys(order))
        self.replacement_order = chosen + [n for n in self.replacements if n not in chosen]

    def do_mark(self, opts, obj, res):
        name = opts.get("as")
        need(isinstance(name, str) and name, "mark: as is required")
        need(name not in self.mark_names, f"mark: {name!r} is used")
        self.mark_names.add(name)
        need(opts.get("kind") in MARK_KINDS, f"mark: kind is one of {MARK_KINDS}")
        o = self.target(opts, obj, res)
        if o is not None:
            o.marks[name] = opts["kind"]

    # ---- observation -------------------------------------------------------
    def observe(self):
        objects = {}
        for h, o in self.objs.items():
            if o.id == 0:
                continue                           # never came into being
            ordered = o.exists and o.zone in self.zones and ztype(o.zone) in ORDERED
            objects[h] = {
                "exists": o.exists, "zone": o.zone if o.exists else "", "object": o.id,
                "position": self.zones[o.zone].index(h) if ordered else None, "layer": None,
                "visibility": "public" if self.public(o) else "private",
                "face": "down" if o.face_down else "up", "controller": o.controller,
                "owner": o.owner, "marks": sorted(o.marks), "under": None,
                "phased_out": o.phased_out, "came_from": None}
        triggers = {n: {"fired": t.fired, "found": t.found, "controller": t.controller}
                    for n, t in self.triggers.items()}
        refs = {n: {"found": o is not None and o.exists and o.id == oid,
                    "handle": o and o.handle}
                for n, (o, oid) in self.refs.items()}
        return {"objects": objects, "triggers": triggers, "refs": refs,
                "players": {p: {"lost": p in self.lost} for p in self.players},
                "visible": {p: [h for h, o in self.objs.items() if o.id and self.sees(p, o)]
                            for p in self.players}}


class Server:
    """zcp/1 over JSON Lines: one request per line in, one answer per line out."""

    def __init__(self):
        self.game = None

    def handle(self, req):
        if not isinstance(req, dict):
            return error(None, "bad_request", "a request is a JSON object")
        rid = req.get("id")
        if type(rid) is not int:
            return error(None, "bad_request", "a request needs an integer id")
        op = req.get("op")
        try:
            answer = getattr(self, "op_" + op)(req) if op in OPS else None
            if answer is None:
                return error(rid, "bad_request", f"unknown op {op!r} (one of {', '.join(OPS)})")
        except BadRequest as e:
            return error(rid, "bad_request", str(e))
        except Unsupported as e:
            return error(rid, "unsupported", str(e))
        except Exception as e:  # never crash: report it and go on
            return error(rid, "internal", f"{type(e).__name__}: {e}")
        return {"id": rid, "ok": True, **answer}

    def op_hello(self, req):
        if req.get("protocol") != PROTOCOL:
            raise Unsupported(f"this engine speaks {PROTOCOL}")
        return {"engine": ENGINE, "version": VERSION, "rulesets": [RULESET], "features": FEATURES}

    def op_setup(self, req):
        self.game = None
        if req.get("ruleset") != RULESET:
            raise Unsupported(f"unknown rule set {req.get('ruleset')!r}; this engine has {RULESET}")
        self.game = Game(req.get("players"), req.get("cards"))
        return {}

    def step(self, step):
        need(self.game is not None, "step before setup")
        saved = copy.deepcopy(self.game)   # a step applies completely or not at all
        try:
            return self.game.step(step).json()
        except Exception:
            self.game = saved
            raise

    def op_step(self, req):
        return self.step(req.get("step"))

    def op_observe(self, req):
        need(self.game is not None, "observe before setup")
        return self.game.observe()

    def op_run(self, req):
        steps, each = req.get("steps"), req.get("observe") == "each"
        need(isinstance(steps, list), "run needs steps (a list)")
        results, observations = [], []
        for s in steps:
            results.append(self.step(s))
            if each:
                observations.append(self.game.observe())
        if not each and self.game is not None:
            observations.append(self.game.observe())
        return {"results": results, "observations": observations}

    def op_bye(self, req):
        return {}


OPS = ("hello", "setup", "step", "observe", "run", "bye")


def error(rid, code, message):
    return {"id": rid, "ok": False, "error": {"code": code, "message": message}}


def main():
    server = Server()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except ValueError as e:
            answer = error(None, "bad_request", f"not JSON: {e}")
            req = None
        else:
            answer = server.handle(req)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
        if isinstance(req, dict) and req.get("op") == "bye":
            break


if __name__ == "__main__":
    main()
