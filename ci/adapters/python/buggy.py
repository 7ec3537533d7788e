#!/usr/bin/env python3
"""Deliberately buggy engines, to measure the case suite (cases/BUG-CLASSES.md).

Each bug is the Python adapter (engine.py, rule set mtg-current) with ONE
behaviour changed the way a real engine gets it wrong: a subclass of
engine.Game overrides one method, and the protocol half is engine.py's own.
engine.py itself is imported, never edited, so every bug follows it.

    python3 buggy.py --bug token-ceases-in-move     speak zcp/1 with that bug
    ZO_BUG=token-ceases-in-move python3 buggy.py    the same
    python3 buggy.py --list                         NAME<TAB>CLASS<TAB>RULES<TAB>what goes wrong

ci/buggy-engines runs the gate against every bug (plain and --strict) and
prints which cases kill each. Standard library only, Python 3.9+.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine  # noqa: E402  (the adapter beside this file)
from engine import HIDDEN, OUTSIDE, Result, ztype  # noqa: E402

# the adapter's own Game, kept before main() puts a buggy subclass in its place
Base = engine.Game


class Bug:
    """One seeded bug: its name, its catalogue class (cases/BUG-CLASSES.md),
    the rules it breaks, what goes wrong, and the function that installs it
    on a subclass of engine.Game."""

    def __init__(self, name, klass, rules, what, install):
        self.name, self.klass, self.rules, self.what, self.install = name, klass, rules, what, install


BUGS = {}


def bug(name, klass, rules, what):
    def register(install):
        BUGS[name] = Bug(name, klass, rules, what, install)
        return install
    return register


# ---- token lifetime --------------------------------------------------------
@bug("token-ceases-in-move", "token-ceases-in-move", "CR 111.7, 704.5d",
     "a token that leaves the battlefield ceases inside the move, not at the state check")
def _(G):
    def move(self, o, opts, res):
        origin = o.zone
        outcome, error = Base.move(self, o, opts, res)
        if o.kind == "token" and origin == "battlefield" and o.exists and o.zone != "battlefield":
            self.cease(o, res)
            return "ceased", None
        return outcome, error
    G.move = move


@bug("token-returns", "token-moves-after-leaving", "CR 111.8",
     "a token that left the battlefield may still move (back to the battlefield, to exile)")
def _(G):
    def move(self, o, opts, res):
        o.left_battlefield = False
        return Base.move(self, o, opts, res)
    G.move = move


@bug("phased-out-token-ceases", "phasing-as-zone-change", "CR 702.26d",
     "the state check makes a phased-out token cease, as if it had left the battlefield")
def _(G):
    def do_state_check(self, opts, obj, res):
        for o in list(self.objs.values()):
            if o.exists and o.kind == "token" and o.phased_out:
                self.cease(o, res)
        Base.do_state_check(self, opts, obj, res)
        if res.events:
            res.set("ceased")
    G.do_state_check = do_state_check


@bug("spell-copy-survives", "non-card-survives", "CR 704.5e",
     "a copy of a spell that left the stack stays where it went")
def _(G):
    def do_state_check(self, opts, obj, res):
        copies = [o for o in self.objs.values() if o.kind == "copy"]
        kinds = [(o, o.kind) for o in copies]
        for o in copies:
            o.kind = "card"               # the state check no longer sees it as a copy
        try:
            Base.do_state_check(self, opts, obj, res)
        finally:
            for o, k in kinds:
                o.kind = k
    G.do_state_check = do_state_check


@bug("ability-moves-like-a-card", "non-card-survives", "CR 608.2k, 113.7a",
     "an ability moved off the stack goes to the destination like a card instead of ceasing")
def _(G):
    def move(self, o, opts, res):
        if o.kind != "ability":
            return Base.move(self, o, opts, res)
        o.kind = "card"
        try:
            return Base.move(self, o, opts, res)
        finally:
            o.kind = "ability"
    G.move = move


@bug("resolved-copy-not-a-token", "token-moves-after-leaving", "CR 111.13, 111.8, 704.5d",
     "a copy of a permanent spell that resolved is not treated as a token once it leaves the battlefield")
def _(G):
    def move(self, o, opts, res):
        was_copy = o.kind == "copy"
        try:
            return Base.move(self, o, opts, res)
        finally:
            if was_copy and o.kind == "token":
                o.kind = "copy"              # it resolved, but stays a copy
    G.move = move


# ---- zone-change triggers and what they find --------------------------------
@bug("trigger-finds-hidden", "trigger-finds-hidden-zone", "CR 603.6, 400.7e",
     "a zone-change trigger finds the card in the hidden zone it went to (hand, library)")
def _(G):
    def finds(self, o, oid, zone):
        if getattr(self, "_resolving", False):
            return o.exists and o.id == oid and o.zone == zone and zone != OUTSIDE
        return Base.finds(o, oid, zone)

    def do_resolve(self, opts, obj, res):
        self._resolving = True
        try:
            Base.do_resolve(self, opts, obj, res)
        finally:
            self._resolving = False
    G.finds, G.do_resolve = finds, do_resolve


@bug("trigger-tracks-card", "trigger-tracks-card-not-object", "CR 603.6, 400.7",
     "a zone-change trigger finds the card wherever it is now, even after it moved again")
def _(G):
    def finds(self, o, oid, zone):
        if getattr(self, "_resolving", False):
            return o.exists and o.zone != OUTSIDE and ztype(o.zone) not in HIDDEN
        return Base.finds(o, oid, zone)

    def do_resolve(self, opts, obj, res):
        self._resolving = True
        try:
            Base.do_resolve(self, opts, obj, res)
        finally:
            self._resolving = False
    G.finds, G.do_resolve = finds, do_resolve


@bug("then-finds-hidden", "trigger-finds-hidden-zone", "CR 400.7j",
     "the rest of an effect finds the card it moved into a hidden zone")
def _(G):
    def then(self, o, opts, res):
        if opts.get("then") is not None and o.exists and o.zone != OUTSIDE:
            res.events += self.step(opts["then"], o).events
        else:
            Base.then(self, o, opts, res)
    G.then = then


@bug("trigger-fires-again", "trigger-fires-again", "CR 603.2, 603.6",
     "a zone-change trigger fires again on a later move of the card, tracking the newer object")
def _(G):
    def fire_triggers(self, o, origin, dest, controller, cause=None):
        for t in self.triggers.values():
            if t.handle == o.handle:
                t.fired = False
        Base.fire_triggers(self, o, origin, dest, controller, cause)
    G.fire_triggers = fire_triggers


@bug("replaced-move-fires-trigger", "replaced-event-still-triggers", "CR 614.6, 603.6",
     "a move a replacement sent elsewhere still fires the triggers of the first destination")
def _(G):
    def replace_destination(self, o, origin, dest, opts):
        self._first_dest = dest
        return Base.replace_destination(self, o, origin, dest, opts)

    def fire_triggers(self, o, origin, dest, controller, cause=None):
        first = getattr(self, "_first_dest", dest)
        if first != dest:                    # the destination before replacement
            Base.fire_triggers(self, o, origin, first, controller, cause)
        Base.fire_triggers(self, o, origin, dest, controller, cause)
    G.replace_destination, G.fire_triggers = replace_destination, fire_triggers


@bug("phasing-fires-trigger", "phasing-as-zone-change", "CR 702.26d",
     "phasing out fires leaves-the-battlefield triggers, as if it were a zone change")
def _(G):
    def do_phase(self, opts, obj, res):
        Base.do_phase(self, opts, obj, res)
        o = self.target(opts, obj, res)
        if res.error is None and o is not None and o.phased_out:
            Base.fire_triggers(self, o, "battlefield", "phased_out", o.controller)
    G.do_phase = do_phase


@bug("trigger-controller-is-owner", "controller-owner-confusion", "CR 603.3a",
     "a zone-change trigger is controlled by the source's owner, not by its controller")
def _(G):
    def fire_triggers(self, o, origin, dest, controller, cause=None):
        Base.fire_triggers(self, o, origin, dest, None, cause)
    G.fire_triggers = fire_triggers


# ---- state-based actions -----------------------------------------------------
@bug("empty-draw-loses-at-once", "loss-outside-state-check", "CR 704.5b, 121.4",
     "drawing from an empty library loses at once, inside the draw")
def _(G):
    def do_draw(self, opts, obj, res):
        Base.do_draw(self, opts, obj, res)
        self.lost |= self.drew_empty
    G.do_draw = do_draw


@bug("empty-draw-never-loses", "loss-outside-state-check", "CR 704.5b",
     "drawing from an empty library is forgotten: the state check never makes the player lose")
def _(G):
    def do_draw(self, opts, obj, res):
        Base.do_draw(self, opts, obj, res)
        self.drew_empty = set()
    G.do_draw = do_draw


# ---- where a card goes ----------------------------------------------------------
@bug("no-owner-redirect", "owner-redirect", "CR 400.3",
     "a card sent to another player's hand, library or graveyard goes there")
def _(G):
    def zone_of(self, spec, owner):
        t, p = spec
        if p is not None and t not in engine.SHARED and t != OUTSIDE:
            return f"{p}.{t}", False
        return Base.zone_of(self, spec, owner)
    G.zone_of = zone_of


@bug("controller-graveyard", "owner-redirect", "CR 400.3, 404.1, 108.4a",
     "a permanent leaving the battlefield goes to its controller's zone, not its owner's")
def _(G):
    def move(self, o, opts, res):
        self._mover = o
        try:
            return Base.move(self, o, opts, res)
        finally:
            self._mover = None

    def zone_of(self, spec, owner):
        o = getattr(self, "_mover", None)
        if o is not None and o.controller is not None:
            owner = o.controller
        return Base.zone_of(self, spec, owner)
    G.move, G.zone_of = move, zone_of


@bug("instant-enters-battlefield", "zone-cannot-hold", "CR 400.4a",
     "an instant or sorcery put onto the battlefield enters it")
def _(G):
    def move(self, o, opts, res):
        types = o.types
        o.types = types - {"instant", "sorcery"}
        try:
            return Base.move(self, o, opts, res)
        finally:
            o.types = types
    G.move = move


@bug("plane-leaves-command", "zone-cannot-hold", "CR 400.4b",
     "a plane or scheme leaves the command zone when an effect moves it")
def _(G):
    def move(self, o, opts, res):
        types = o.types
        o.types = types - engine.COMMAND_BOUND
        try:
            return Base.move(self, o, opts, res)
        finally:
            o.types = types
    G.move = move


@bug("outside-matches-exile", "outside-the-game", "CR 400.11",
     "'from outside the game' also finds cards in exile")
def _(G):
    def matches(spec, zone, owner):
        if spec[0] == OUTSIDE and zone == "exile":
            return True
        return Base.matches(spec, zone, owner)
    G.matches = staticmethod(matches)


@bug("duplicate-on-move", "object-in-two-zones", "CR 400.6, 400.7",
     "a moved card is put into the new zone but not taken out of the old one")
def _(G):
    def remove(self, o):
        if getattr(self, "_moving", False) and o.zone in self.zones:
            return                          # the old pile keeps it
        Base.remove(self, o)

    def move(self, o, opts, res):
        self._moving = True
        try:
            return Base.move(self, o, opts, res)
        finally:
            self._moving = False
    G.remove, G.move = remove, move


@bug("face-down-move-arrives-face-up", "face-lost-on-move", "CR 406.3, 400.7e",
     "a card exiled face down arrives face up (and public)")
def _(G):
    def move(self, o, opts, res):
        if isinstance(opts, dict) and opts.get("face") == "down":
            opts = dict(opts, face="up")
        return Base.move(self, o, opts, res)
    G.move = move


# ---- identity: a new object on each zone change -----------------------------------
@bug("marks-survive-move", "new-object-keeps-memory", "CR 400.7, 122.2",
     "counters and effects stay on a card that changes zones")
def _(G):
    def new_object(self, o, keep=()):
        marks = dict(o.marks)
        Base.new_object(self, o, keep)
        o.marks = marks
    G.new_object = new_object


@bug("spell-drops-marks", "new-object-keeps-memory", "CR 400.7a, 400.7c",
     "a permanent spell that resolves forgets the effects that should carry to the permanent")
def _(G):
    def new_object(self, o, keep=()):
        Base.new_object(self, o, ())
    G.new_object = new_object


def _forgets(kind):
    """An installer: new objects drop marks of `kind` whatever the rules keep."""
    def install(G):
        def new_object(self, o, keep=()):
            Base.new_object(self, o, tuple(k for k in keep if k != kind))
        G.new_object = new_object
    return install


bug("sticker-lost-on-move", "new-object-keeps-memory", "CR 400.7m, 123.5",
    "a sticker goes with the old object, like a counter, when its object moves between public zones")(
    _forgets("sticker"))
bug("cast-permission-lost", "new-object-keeps-memory", "CR 400.7g, 400.7h, 400.7i",
    "an effect that lets a card be cast or played loses the spell or land that cast or play makes")(
    _forgets("permission"))
bug("spell-info-lost", "new-object-keeps-memory", "CR 400.7d",
    "a permanent forgets what was paid for the spell it was")(
    _forgets("spell_info"))


@bug("ref-survives-zone-change", "stale-reference", "CR 400.7",
     "a target or remembered object is found by card, even after it changed zones")
def _(G):
    def do_remember(self, opts, obj, res):
        Base.do_remember(self, opts, obj, res)
        name = opts.get("as")
        o, _ = self.refs[name]
        self.refs[name] = (o, None)        # None: matches any later object of the card

    def target(self, opts, obj, res):
        if obj is None and "ref" in opts and opts["ref"] in self.refs:
            o, oid = self.refs[opts["ref"]]
            if oid is None and o is not None and o.exists:
                return o
        return Base.target(self, opts, obj, res)

    def observe(self):
        seen = Base.observe(self)
        for name, (o, oid) in self.refs.items():
            if oid is None:
                seen["refs"][name]["found"] = o is not None and o.exists
        return seen
    G.do_remember, G.target, G.observe = do_remember, target, observe


@bug("blink-keeps-identity", "stale-reference", "CR 400.7, 603.6",
     "a permanent that leaves the battlefield and comes back gets its old identity back")
def _(G):
    def move(self, o, opts, res):
        if o.zone == "battlefield":
            self.__dict__.setdefault("_battlefield_id", {})[o.handle] = o.id
        return Base.move(self, o, opts, res)

    def new_object(self, o, keep=()):
        Base.new_object(self, o, keep)
        memory = self.__dict__.get("_battlefield_id", {})
        if o.zone == "battlefield" and o.handle in memory:
            o.id = memory.pop(o.handle)      # "the same permanent again"
    G.move, G.new_object = move, new_object


@bug("exile-to-exile-same-object", "same-zone-move", "CR 400.8, 406.7",
     "exiling a card already in exile does nothing: no new object")
def _(G):
    def move(self, o, opts, res):
        if o.zone == "exile" and self.zone_of(self.spec(opts.get("to", ""), (OUTSIDE,)), o.owner)[0] == "exile":
            return "no_move", None
        return Base.move(self, o, opts, res)
    G.move = move


@bug("command-face-down-same-object", "same-zone-move", "CR 400.9",
     "turning a card in the command zone face down keeps the same object")
def _(G):
    def new_object(self, o, keep=()):
        if getattr(self, "_turning", False):
            return
        Base.new_object(self, o, keep)

    def do_turn_face(self, opts, obj, res):
        self._turning = True
        try:
            Base.do_turn_face(self, opts, obj, res)
        finally:
            self._turning = False
        if res.outcome == "new_object_in_place":
            res.set("no_move")
            res.events = [e for e in res.events if e["outcome"] != "new_object_in_place"]
    G.new_object, G.do_turn_face = new_object, do_turn_face


@bug("controller-kept-off-battlefield", "controller-owner-confusion", "CR 109.4",
     "a card that leaves the battlefield keeps its controller in the graveyard or hand")
def _(G):
    def move(self, o, opts, res):
        controller = o.controller
        outcome, error = Base.move(self, o, opts, res)
        if o.exists and o.controller is None and controller is not None:
            o.controller = controller
        return outcome, error
    G.move = move


@bug("control-of-graveyard-card", "controller-owner-confusion", "CR 109.4",
     "an effect can change the controller of a card in a graveyard")
def _(G):
    def do_control(self, opts, obj, res):
        o = self.target(opts, obj, res)
        if o is not None and o.zone != OUTSIDE and ztype(o.zone) not in engine.CONTROLLED:
            o.controller = self.player(opts.get("player"))
            return
        Base.do_control(self, opts, obj, res)
    G.do_control = do_control


# ---- who sees what ----------------------------------------------------------------
@bug("hand-seen-by-all", "hidden-zone-leak", "CR 400.2, 402.3",
     "every player sees the cards in every hand")
def _(G):
    def sees(self, player, o):
        if o.exists and o.zone != OUTSIDE and ztype(o.zone) == "hand":
            return True
        return Base.sees(self, player, o)
    G.sees = sees


@bug("library-seen-by-owner", "hidden-zone-leak", "CR 401.2, 400.2",
     "a player sees the cards in their own library")
def _(G):
    def sees(self, player, o):
        if o.exists and o.zone != OUTSIDE and ztype(o.zone) == "library" and o.owner == player:
            return True
        return Base.sees(self, player, o)
    G.sees = sees


@bug("face-down-exile-seen-by-owner", "hidden-zone-leak", "CR 406.3",
     "the owner of a card exiled face down may look at it")
def _(G):
    def sees(self, player, o):
        if o.exists and o.zone == "exile" and o.face_down and o.owner == player:
            return True
        return Base.sees(self, player, o)
    G.sees = sees


@bug("face-down-permanent-seen-by-all", "hidden-zone-leak", "CR 708.5, 400.2",
     "every player may look at a face-down permanent, not only its controller")
def _(G):
    def sees(self, player, o):
        if o.exists and o.zone == "battlefield" and o.face_down:
            return True
        return Base.sees(self, player, o)
    G.sees = sees


@bug("face-down-hidden-from-controller", "hidden-zone-leak", "CR 708.5",
     "the controller of a face-down permanent can't look at it")
def _(G):
    def sees(self, player, o):
        if o.exists and o.zone in engine.CONTROLLED and o.face_down:
            return False
        return Base.sees(self, player, o)
    G.sees = sees


# ---- positions in ordered zones ------------------------------------------------------
@bug("position-off-by-one", "ordered-zone-position", "CR 401.7, 400.5",
     "'N-th from the top' puts the card one place too deep")
def _(G):
    def insert(self, o, zone, position="top"):
        if type(position) is int and getattr(self, "_moving", False):
            position += 1
        Base.insert(self, o, zone, position)

    def move(self, o, opts, res):
        self._moving = True
        try:
            return Base.move(self, o, opts, res)
        finally:
            self._moving = False
    G.insert, G.move = insert, move


@bug("bottom-means-top", "ordered-zone-position", "CR 401.2, 400.5",
     "a card put on the bottom of a library goes on top")
def _(G):
    def insert(self, o, zone, position="top"):
        if position == "bottom" and getattr(self, "_moving", False):
            position = "top"
        Base.insert(self, o, zone, position)

    def move(self, o, opts, res):
        self._moving = True
        try:
            return Base.move(self, o, opts, res)
        finally:
            self._moving = False
    G.insert, G.move = insert, move


@bug("graveyard-arrival-at-bottom", "ordered-zone-position", "CR 404.1, 400.5",
     "a card put into a graveyard goes under the cards already there")
def _(G):
    def insert(self, o, zone, position="top"):
        if ztype(zone) == "graveyard" and position == "top":
            position = "bottom"
        Base.insert(self, o, zone, position)
    G.insert = insert


@bug("position-past-end-wraps", "ordered-zone-position", "CR 401.7",
     "a position past the end of a library counts again from the top")
def _(G):
    def insert(self, o, zone, position="top"):
        if type(position) is int and zone in self.zones:
            size = len(self.zones[zone]) + 1
            position %= size
        Base.insert(self, o, zone, position)
    G.insert = insert


@bug("move-together-reversed", "simultaneous-arrival-order", "CR 401.4, 404.3",
     "cards moved together land in the reverse of the order chosen")
def _(G):
    def do_move_together(self, opts, obj, res):
        order = opts.get("order")
        if isinstance(order, dict):
            opts = dict(opts, order={z: list(reversed(h)) if isinstance(h, list) else h
                                     for z, h in order.items()})
        else:
            moves = opts.get("moves")
            if isinstance(moves, list):
                opts = dict(opts, moves=list(reversed(moves)))
        Base.do_move_together(self, opts, obj, res)
    G.do_move_together = do_move_together


@bug("library-reorder-allowed", "ordered-zone-position", "CR 400.5, 401.2",
     "a player may rearrange their library at will")
def _(G):
    def do_reorder(self, opts, obj, res):
        zone = self.step_zone(opts.get("zone"))
        if ztype(zone) == "library":
            order = [self.obj(h).handle for h in opts.get("order") or []]
            if sorted(order) != sorted(self.zones[zone]):
                res.set("failed", "not_in_zone")
            else:
                self.zones[zone][:] = order
            return
        Base.do_reorder(self, opts, obj, res)
    G.do_reorder = do_reorder


# ---- statuses: what phasing forbids ------------------------------------------------
@bug("phased-out-can-move", "status-not-enforced", "CR 702.26b",
     "an effect can move a phased-out permanent")
def _(G):
    def move(self, o, opts, res):
        was = o.phased_out
        o.phased_out = False
        try:
            return Base.move(self, o, opts, res)
        finally:
            if o.zone == "battlefield":
                o.phased_out = was
    G.move = move


@bug("phased-out-control-change", "status-not-enforced", "CR 702.26b",
     "an effect can change the controller of a phased-out permanent")
def _(G):
    def do_control(self, opts, obj, res):
        o = self.target(opts, obj, res)
        if o is not None and o.phased_out:
            o.controller = self.player(opts.get("player"))
            return
        Base.do_control(self, opts, obj, res)
    G.do_control = do_control


@bug("phased-out-turned-over", "status-not-enforced", "CR 702.26b",
     "an effect can turn a phased-out permanent face up or down")
def _(G):
    def do_turn_face(self, opts, obj, res):
        o = self.target(opts, obj, res)
        was = o is not None and o.phased_out
        if was:
            o.phased_out = False
        try:
            Base.do_turn_face(self, opts, obj, res)
        finally:
            if was:
                o.phased_out = True
    G.do_turn_face = do_turn_face


@bug("phasing-new-object", "phasing-as-zone-change", "CR 702.26d",
     "phasing out makes a new object that forgets its counters and effects")
def _(G):
    def do_phase(self, opts, obj, res):
        Base.do_phase(self, opts, obj, res)
        o = self.target(opts, obj, res)
        if res.error is None and o is not None and o.phased_out:
            self.new_object(o)
    G.do_phase = do_phase


# ---- replacement effects ----------------------------------------------------------------
@bug("replacement-reapplies", "replacement-once-per-event", "CR 614.5, 616.1",
     "a replacement effect may apply again to the event it already changed (loops, then gives up)")
def _(G):
    def replace_destination(self, o, origin, dest, opts):
        eff, replaced, cause = opts, False, opts.get("cause")
        for _ in range(25):                  # an engine's loop guard
            for name in self.replacement_order:
                r = self.replacements[name]
                if r.card != "any" and r.card != o.handle:
                    continue
                if not self.type_matches(r.to, dest) or not self.type_matches(r.frm, origin):
                    continue
                if r.cause is not None and r.cause != cause:
                    continue
                new, _ = self.zone_of(self.spec(r.instead["to"], (OUTSIDE,)), o.owner)
                if new == dest:
                    continue                 # it would change nothing
                dest, eff, replaced = new, r.instead, True
                break
            else:
                return dest, eff, replaced
        raise RuntimeError("replacement effects loop")
    G.replace_destination = replace_destination


@bug("replacement-no-recheck", "replacement-once-per-event", "CR 616.1",
     "after one replacement effect applies, the others are not checked again")
def _(G):
    def replace_destination(self, o, origin, dest, opts):
        order = self.replacement_order
        for i, name in enumerate(order):
            r = self.replacements[name]
            if r.card not in ("any", o.handle):
                continue
            if not self.type_matches(r.to, dest) or not self.type_matches(r.frm, origin):
                continue
            if r.cause is not None and r.cause != opts.get("cause"):
                continue
            new, _ = self.zone_of(self.spec(r.instead["to"], (OUTSIDE,)), o.owner)
            return new, r.instead, True
        return dest, opts, False
    G.replace_destination = replace_destination


@bug("replacement-order-ignored", "replacement-order-and-chooser", "CR 616.1",
     "replacement effects always apply in creation order, whatever the affected player chose")
def _(G):
    def do_choose_replacement(self, opts, obj, res):
        kept = list(self.replacement_order)
        Base.do_choose_replacement(self, opts, obj, res)
        self.replacement_order = kept
    G.do_choose_replacement = do_choose_replacement


@bug("replacement-chooser-unchecked", "replacement-order-and-chooser", "CR 616.1, 400.6",
     "any player may choose the order of replacement effects on an object")
def _(G):
    def do_choose_replacement(self, opts, obj, res):
        opts = {k: v for k, v in opts.items() if k not in ("player", "card")}
        Base.do_choose_replacement(self, opts, obj, res)
    G.do_choose_replacement = do_choose_replacement


@bug("self-replacement-not-first", "replacement-order-and-chooser", "CR 616.1a, 614.15",
     "a self-replacement effect waits its turn in the chosen or creation order instead of applying first")
def _(G):
    def do_replace(self, opts, obj, res):
        Base.do_replace(self, {k: v for k, v in opts.items() if k != "category"}, obj, res)
    G.do_replace = do_replace


# ---- library actions, ante -------------------------------------------------------
@bug("draw-from-bottom", "ordered-zone-position", "CR 121.1, 401.2",
     "a draw takes the bottom card of the library")
def _(G):
    def do_draw(self, opts, obj, res):
        p = self.player(opts.get("player"))
        self.zones[f"{p}.library"].reverse()
        try:
            Base.do_draw(self, opts, obj, res)
        finally:
            self.zones[f"{p}.library"].reverse()
    G.do_draw = do_draw


@bug("shuffle-order-ignored", "ordered-zone-position", "CR 400.5, 401.2",
     "a shuffle keeps the engine's own random order instead of the result the step gives")
def _(G):
    def do_shuffle(self, opts, obj, res):
        Base.do_shuffle(self, {k: v for k, v in opts.items() if k != "order"}, obj, res)
    G.do_shuffle = do_shuffle


@bug("mill-empty-succeeds", "library-actions", "CR 609.3",
     "milling an empty library reports success instead of failing to do anything")
def _(G):
    def do_mill(self, opts, obj, res):
        Base.do_mill(self, opts, obj, res)
        if res.outcome == "failed" and res.error == "empty":
            res.set("no_move")
    G.do_mill = do_mill


@bug("ante-winner-not-owner", "ownership-change", "CR 407.2",
     "the winner of an ante game gets the ante cards but not their ownership")
def _(G):
    def do_end_game(self, opts, obj, res):
        self.player(opts.get("winner"), "winner")
    G.do_end_game = do_end_game


# ---- G4, G8 of issue 12: durations and events that are not arrivals ---------
@bug("destroyed-on-any-cause", "event-kind-confusion", "CR 701.8a, 701.21a",
     "a trigger on a permanent being destroyed fires on any move to the graveyard, a sacrifice too")
def _(G):
    def fire_triggers(self, o, origin, dest, controller, cause=None):
        for t in self.triggers.values():
            t.cause = None
        Base.fire_triggers(self, o, origin, dest, controller, cause)
    G.fire_triggers = fire_triggers


@bug("phasing-ends-until-effects", "effect-durations", "CR 702.26d, 702.26f",
     "phasing out ends the until-end-of-turn effects on the permanent, as the zone eras did")
def _(G):
    def do_phase(self, opts, obj, res):
        Base.do_phase(self, opts, obj, res)
        o = self.target(opts, obj, res)
        if res.error is None and o is not None and o.phased_out:
            for m in self.until_marks & set(o.marks):
                del o.marks[m]
    G.do_phase = do_phase


@bug("control-effect-outlives-object", "effect-durations", "CR 400.7, 514.2",
     "a control effect until end of turn still gives the card back at end of turn after it left and came back")
def _(G):
    def do_end_turn(self, opts, obj, res):
        for h, (oid, base) in list(self.ctrl_until.items()):
            self.ctrl_until[h] = (self.objs[h].id, base)
        Base.do_end_turn(self, opts, obj, res)
    G.do_end_turn = do_end_turn


@bug("end-turn-skips-phased-out", "effect-durations", "CR 702.26f, 514.2",
     "until-end-of-turn effects on a phased-out permanent don't expire at end of turn")
def _(G):
    def do_end_turn(self, opts, obj, res):
        kept = {o.handle: dict(o.marks) for o in self.objs.values() if o.phased_out}
        ctrl = {h: v for h, v in self.ctrl_until.items() if self.objs[h].phased_out}
        Base.do_end_turn(self, opts, obj, res)
        for h, marks in kept.items():
            self.objs[h].marks = marks
        self.ctrl_until.update(ctrl)
    G.do_end_turn = do_end_turn


# ---- G1, G7 of issue 12: attachments and reveals ------------------------------
@bug("attachment-survives-blink", "attachments-and-reveals", "CR 400.7, 303.4",
     "an Aura stays attached to a permanent that left the battlefield and came back")
def _(G):
    def attached_to(self, a):
        host = self.objs.get(a.attached) if a.attached is not None else None
        if host is None or not (a.exists and host.exists):
            return None
        if a.zone != "battlefield" or host.zone != "battlefield" or a.phased_out != host.phased_out:
            return None
        return host.handle                 # the host's identity is never checked
    G.attached_to = attached_to


@bug("aura-phases-out-alone", "attachments-and-reveals", "CR 702.26g",
     "a permanent phases out without what is attached to it")
def _(G):
    def phase_with_attached(self, o, out):
        o.phased_out = out                 # nothing attached goes with it
        if not out:
            o.phased_with = None
    G.phase_with_attached = phase_with_attached


@bug("reveal-sticks-after-move", "attachments-and-reveals", "CR 701.20a, 400.7",
     "a revealed card stays revealed after it changes zones (the reveal follows the card, not the object)")
def _(G):
    def shown(o):
        return getattr(o, "shown", None)  # no check that it is the same object in the same zone
    G.shown = staticmethod(shown)


# ---- this stop's audit of today's text (issue 12, point 5) ---------------------
def mark_anyway(G, outcome, error):
    """A do_mark that puts the mark on where the adapter answers (outcome,
    error) instead: the check behind that answer is missing."""
    def do_mark(self, opts, obj, res):
        Base.do_mark(self, opts, obj, res)
        if (res.outcome, res.error) == (outcome, error):
            o = self.target(opts, obj, res)
            res.set("no_move")
            o.marks[opts["as"]] = opts["kind"]
    G.do_mark = do_mark


@bug("phased-out-marked", "status-not-enforced", "CR 702.26b, 702.26e",
     "an effect puts a counter or an effect on a phased-out permanent")
def _(G):
    mark_anyway(G, "failed", "phased_out")     # the mark does not look at the status


@bug("outside-card-marked", "outside-the-game", "CR 400.11c",
     "an effect marks a card outside the game (a sideboard card)")
def _(G):
    mark_anyway(G, "rejected", "unsupported")  # only a mark outside the game is refused so


@bug("look-ends-with-object-in-exile", "hidden-zone-leak", "CR 406.3",
     "a player allowed to look at a face-down exiled card can't any more once it is exiled again (today it lasts until it leaves exile)")
def _(G):
    def move(self, o, opts, res):
        seen = self.shown(o)
        outcome, error = Base.move(self, o, opts, res)
        if outcome == "new_object_in_place" and seen is not None:
            o.shown = None                     # the look ends with the object, as in 2011
        return outcome, error
    G.move = move


@bug("indirect-aura-phases-in-alone", "attachments-and-reveals", "CR 702.26g",
     "an Aura that phased out with its creature phases in by itself, unattached")
def _(G):
    def do_phase(self, opts, obj, res):
        o = self.target(opts, obj, res)
        if o is not None and opts.get("out", True) is False and o.phased_out and o.phased_with is not None:
            o.phased_with = None               # forgets it phased out with its permanent
        Base.do_phase(self, opts, obj, res)
    G.do_phase = do_phase

@bug("revealed-top-stays-same-object", "attachments-and-reveals", "CR 401.6",
     "a library's revealed top card, covered and revealed again, is still the object it was")
def _(G):
    def update_tops(self, res):
        for o in self.objs.values():
            o.top_hid_id = None              # never remembers it was hidden
        Base.update_tops(self, res)
    G.update_tops = update_tops


@bug("aura-trigger-finds-no-aura", "attachments-and-reveals", "CR 400.7f, 603.6e",
     "an Aura's trigger on its creature leaving looks for the creature, so it never finds the Aura")
def _(G):
    def aura_found(self, t, a):
        return False
    G.aura_found = aura_found


@bug("phased-together-directly", "attachments-and-reveals", "CR 702.26h",
     "an Aura phasing out in the same event as its creature, named first, phases out directly and so phases in alone")
def _(G):
    def phase_together(self, opts, obj, res):
        for h in [opts.get("card")] + list(opts.get("with") or ()):
            if isinstance(h, str) and h in self.objs:
                self.do_phase({"card": h}, None, res)  # one by one, in list order
    G.phase_together = phase_together


# ---- today's exceptions to 400.7, and copies made outside the game ---------
@bug("madness-card-lost", "identity-exceptions", "CR 400.7k, 702.35c",
     "a trigger on a discard can't find the madness card the madness trigger put into the graveyard")
def _(G):
    def madness_found(self, t, o):
        return False
    G.madness_found = madness_found


def _lki_always(value):
    """An installer: every create with copy_of: behaves as if lki: were
    `value`, whatever the effect says."""
    def install(G):
        def do_create(self, opts, obj, res):
            if "copy_of" in opts:
                opts = dict(opts, lki=value)
            Base.do_create(self, opts, obj, res)
        G.do_create = do_create
    return install


bug("token-copy-ignores-lki", "identity-exceptions", "CR 111.12",
    "a token copy of an object that is gone is never made, even by an effect using its last known information")(
    _lki_always(False))
bug("token-copy-of-gone-object", "identity-exceptions", "CR 111.12",
    "a token copy is made of an object that is gone, as if every copy effect used last known information")(
    _lki_always(True))


@bug("copy-outside-ceases", "outside-the-game", "CR 707.13, 704.5e",
     "a copy made outside the game to be cast ceases at the state check, as a copy off the stack")
def _(G):
    def do_state_check(self, opts, obj, res):
        early = Result()
        for o in list(self.objs.values()):
            if o.exists and o.kind == "copy" and o.zone == OUTSIDE:
                self.cease(o, early)             # as if outside were a zone off the stack
        Base.do_state_check(self, opts, obj, res)
        if early.events:
            res.events[:0] = early.events
            res.set("ceased" if res.outcome == "no_move" else res.outcome)
    G.do_state_check = do_state_check


@bug("top-revealed-while-casting", "attachments-and-reveals", "CR 401.5",
     "a library's new top card is revealed while the spell is still being cast, before its costs are paid")
def _(G):
    def move(self, o, opts, res):
        if not (opts.get("costs") and self.top_shown):
            return Base.move(self, o, opts, res)
        outcome, error = Base.move(self, o, {k: v for k, v in opts.items() if k != "costs"}, res)
        if outcome in engine.ARRIVED:
            self.update_tops(res)                # too early: after each part of the cast
            for c in opts["costs"]:
                res.events += self.step(c).events
                self.update_tops(res)
        return outcome, error
    G.move = move


# ---- "can't" effects on moves (CR 614.17) -----------------------------------
@bug("cant-ignored", "cant-effects", "CR 614.17",
     "a can't effect is never applied: the move it forbids happens")
def _(G):
    def forbids(self, o, origin, dest, cause, face_down):
        return False
    G.forbids = forbids


@bug("cant-replaced-by-any", "cant-effects", "CR 614.17c",
     "an ordinary replacement effect still replaces an event that can't happen")
def _(G):
    def replace_destination(self, o, origin, dest, opts):
        cants, self.cants = self.cants, []   # the replacements don't look at them
        try:
            return Base.replace_destination(self, o, origin, dest, opts)
        finally:
            self.cants = cants
    G.replace_destination = replace_destination


@bug("cant-printed-types", "cant-effects", "CR 614.17d, 708.2a",
     "a can't effect judges a card entering the battlefield by its own types, not as the face-down creature it would be")
def _(G):
    def cant_types(o, origin, dest, face_down):
        if dest == "battlefield":
            return o.types
        return Base.cant_types(o, origin, dest, face_down)
    G.cant_types = staticmethod(cant_types)


# ---- draw replacements (CR 614.11) ---------------------------------------------
@bug("draw-replacement-needs-a-card", "draw-replacements", "CR 614.11",
     "a draw replacement is not applied when the library is empty, so the draw is from an empty library")
def _(G):
    def draw_replacement(self, p):
        if not self.zones[f"{p}.library"]:
            return None                      # "there is nothing to draw"
        return Base.draw_replacement(self, p)
    G.draw_replacement = draw_replacement


@bug("draw-replacement-after-sequence", "draw-replacements", "CR 614.11a",
     "a draw replacement's steps are done only after all the draws of the step")
def _(G):
    def replace_draw(self, r, res):
        if r.once:
            r.active = False
        self.pending.append(r)               # done once the draws are
    G.replace_draw = replace_draw

    def do_draw(self, opts, obj, res):
        saved, self.pending = getattr(self, "pending", None), []
        try:
            Base.do_draw(self, opts, obj, res)
            for r in self.pending:
                Base.replace_draw(self, r, res)
        finally:
            self.pending = saved
    G.do_draw = do_draw


@bug("draw-follow-up-on-replacement-cards", "draw-replacements", "CR 614.11b",
     "a draw's then: is also done to the cards its replacement drew")
def _(G):
    def do_draw(self, opts, obj, res):
        inherited = getattr(self, "follow_up", None)
        if obj is None and opts.get("then") is None and inherited is not None:
            opts = {**opts, "then": inherited}   # a draw among the replacement's steps
        self.follow_up = opts.get("then") if obj is None else None
        try:
            Base.do_draw(self, opts, obj, res)
        finally:
            self.follow_up = inherited
    G.do_draw = do_draw


# ---- the untap step, players leaving, phase-out triggers (CR 702.26, 603.10b) --
@bug("untap-phases-out-what-phased-in", "phasing-and-leaving", "CR 702.26a",
     "the untap step phases permanents in, then phases out again those with phasing that just phased in: not at the same time")
def _(G):
    def do_untap(self, opts, obj, res):
        was_out = {h for h, o in self.objs.items() if o.exists and o.phased_out}
        Base.do_untap(self, opts, obj, res)
        for h in opts.get("phasing") or ():
            o = self.objs[h]
            if h in was_out and o.exists and not o.phased_out and o.zone == "battlefield" \
                    and o.controller == opts["player"]:
                self.phase_with_attached(o, True)    # a second pass, after the phasing in
    G.do_untap = do_untap


@bug("departed-phased-out-trigger", "phasing-and-leaving", "CR 702.26k",
     "the phased-out permanents of a player leaving the game fire their leaves-the-battlefield triggers")
def _(G):
    def do_leave_game(self, opts, obj, res):
        p = opts.get("player")
        for o in list(self.objs.values()):
            if o.exists and o.owner == p and o.zone == "battlefield" and o.phased_out:
                self.fire_triggers(o, "battlefield", None, o.controller)
        Base.do_leave_game(self, opts, obj, res)
    G.do_leave_game = do_leave_game


@bug("phase-out-trigger-needs-phased-in-source", "phasing-and-leaving", "CR 603.10b",
     "a phase-out trigger is checked after the event, so an Aura that phased out indirectly doesn't trigger its own ability")
def _(G):
    def fire_phase_triggers(self, o, controller):
        if o.phased_with is None:            # only what phased out directly still "sees" it
            Base.fire_phase_triggers(self, o, controller)
    G.fire_phase_triggers = fire_phase_triggers


# ---- as-enters effects that move other objects (CR 614.13) ---------------------
@bug("as-enters-chooses-entering", "as-enters-choices", "CR 614.13a",
     "an as-enters effect may choose an object entering the battlefield at the same time: each member of a move_together enters as an event of its own")
def _(G):
    def etb_mark_together(self, moves):
        pass                                 # only the card itself is entering
    G.etb_mark_together = etb_mark_together


@bug("as-enters-chooses-twice", "as-enters-choices", "CR 614.13b",
     "an object one as-enters effect of the event moved may be moved again by another: each effect chooses afresh")
def _(G):
    def etb_apply(self, o, res):
        effects = [steps for card, steps in self.as_enters if card == o.handle]
        if not effects:
            return
        own = o.handle not in self.entering
        self.entering.add(o.handle)
        self.in_etb += 1
        try:
            for steps in effects:
                self.etb_chosen = set()      # what the effects before it chose is forgotten
                for s in steps:
                    res.events += self.step(s).events
        finally:
            self.in_etb -= 1
        if own:
            self.etb_event_end()
    G.etb_apply = etb_apply


@bug("as-enters-mill-takes-entering", "as-enters-choices", "CR 614.13c",
     "a mill during an as-enters effect takes the top card of the library even when it is the card entering")
def _(G):
    def top_not_entering(self, p):
        library = self.zones[f"{p}.library"]
        return self.objs[library[0]] if library else None
    G.top_not_entering = top_not_entering


def make_game(name):
    """engine.Game with bug `name` installed (KeyError if unknown)."""
    b = BUGS[name]
    G = type("BuggyGame_" + name.replace("-", "_"), (Base,), {})
    b.install(G)
    return G


def main(argv):
    args = list(argv)
    if "--list" in args:
        for b in BUGS.values():
            print(f"{b.name}\t{b.klass}\t{b.rules}\t{b.what}")
        return 0
    name = os.environ.get("ZO_BUG")
    if "--bug" in args:
        i = args.index("--bug")
        name = args[i + 1] if i + 1 < len(args) else None
    if name not in BUGS:
        sys.stderr.write(f"buggy.py: --bug NAME (or ZO_BUG); one of: {', '.join(BUGS)}\n")
        return 2
    engine.Game = make_game(name)          # Server builds engine.Game on setup
    engine.ENGINE = "pyzones-bug-" + name
    engine.main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
