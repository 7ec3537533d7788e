#!/usr/bin/env python3
"""A zone-rules engine for Magic: the Gathering (Comprehensive Rules of 2026,
rule set `mtg-current`) that speaks zoneoracle's protocol, zcp/2 (and zcp/1
to a runner that offers nothing newer).

It is a second implementation of the rules, written from cases/README.md and
the rules, not a wrapper of the oracle: it only shares the wire format. It is
also the template for engine authors: `Game` is the engine (replace it with
calls into your own), `Server` is the protocol (keep it).

    requests on stdin, one JSON object per line; answers on stdout, likewise
    hello -> Server.hello       setup   -> Game(players, cards)
    step  -> Game.step          observe -> Game.observe
    run   -> many Game.step     bye     -> answer, then exit
    (run with observe "delta", zcp/2: only what changed, see delta())

Standard library only, Python 3.9+. Rule numbers are those of the current CR.
"""
import copy
import json
import random
import sys

ENGINE, VERSION = "pyzones", "1.1.0"
PROTOCOLS = ("zcp/1", "zcp/2")        # what it speaks; zcp/2 adds run deltas
RULESET = "mtg-current"
# Protocol features this engine implements completely for mtg-current. Not
# declared: sub_cards, zone_lifecycle, stack_layers (Flesh and Blood only).
FEATURES = ["triggers", "replacement", "phasing", "face_down", "ante", "visibility",
            "reorder", "state_check", "marks", "performer", "look", "reveal",
            "attachments", "durations", "kept_marks", "aura_triggers", "madness", "copies",
            "casting", "phasing_together", "cant", "draw_replacement",
            "untap_phasing", "leave_game", "phasing_triggers", "as_enters",
            "shuffle_order", "draw_then", "together_order", "created_owner",
            "control_effects", "unattach", "cant_costs", "look_then", "enters_attached", "next_turn",
            "cant_draw", "token_as_enters", "attach_player", "unpaid_costs", "cant_draw_moves"]

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
MARK_KINDS = ("counter", "effect", "characteristic", "prevention",
              "sticker", "permission", "spell_info")
SPELL_KEEPS = ("characteristic", "prevention", "spell_info")     # CR 400.7a, 400.7c, 400.7d
ARRIVED = ("moved", "replaced", "redirected")                    # a real zone change

MOVE_KEYS = {"card", "ref", "to", "from", "position", "face", "by", "cause", "choose",
             "shuffle", "seed", "then", "attached_to", "attached_to_player"}
ATTACHMENTS = {"aura", "equipment", "fortification"}   # may enter attached (CR 303.4h)
STEP_KEYS = {
    "move": MOVE_KEYS | {"player", "costs"}, "move_together": {"moves", "order", "player", "order_by"},
    "create": {"as", "kind", "owner", "zone", "types", "subtypes", "controller", "face",
               "copy_of", "lki", "as_enters"},
    "control": {"card", "ref", "player", "until", "turn_of"}, "phase": {"card", "ref", "out", "with"},
    "turn_face": {"card", "ref", "face"}, "reorder": {"zone", "order", "by", "player"},
    "shuffle": {"zone", "order", "seed"}, "draw": {"player", "count", "then"},
    "mill": {"player", "count", "to"}, "put_under": {"card", "ref", "under"},
    "zone_create": {"zone"}, "zone_remove": {"zone", "choose"}, "state_check": set(),
    "end_game": {"winner"}, "watch": {"as", "card", "from", "to", "types", "cause", "aura", "phase"},
    "resolve": {"trigger", "do"}, "remember": {"as", "card", "ref"},
    "replace": {"as", "card", "when", "instead", "controller", "category"},
    "choose_replacement": {"order", "player", "card"}, "mark": {"card", "ref", "as", "kind", "until", "turn_of"},
    "look": {"card", "ref", "player", "then"}, "reveal": {"card", "ref", "end", "top_of"},
    "attach": {"card", "ref", "to", "to_player"},   # to_player: CR 303.4b
    "end_turn": set(),                        # G4 (issue 12)
    "cant": {"card", "when", "types", "draw"},   # CR 614.17; draw: CR 121.3
    "replace_draw": {"as", "player", "instead", "once"},   # CR 614.11
    "untap": {"player", "phasing"},           # CR 702.26a, 702.26n
    "leave_game": {"player"},                 # CR 800.4a, 702.26k
    "as_enters": {"card", "steps"},           # CR 614.13
    "unattach": {"card", "ref"},              # CR 701.3d
}
# never a then:/do:/costs:/instead: step
UNNESTABLE = ("move_together", "create", "end_turn", "cant", "replace_draw", "untap",
              "leave_game", "as_enters")
DURATIONS = ("end_of_turn", "next_turn")      # until: (CR 514.2; 500.5, 800.4m)
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
    return zone[zone.find(".") + 1:]


def zplayer(zone):
    return zone.split(".", 1)[0] if "." in zone else None


def words(value, what):
    need(value is None or (isinstance(value, list) and all(isinstance(w, str) for w in value)),
         f"{what}: expected a list of words")
    return set(value or ())


# ---- undoing a step (PROTOCOL.md section 6) ----------------------------------
# A request answered with an error must leave the game as it was. Copying the
# whole game before every step would cost far more than most steps do, so the
# state keeps an undo log instead: while a step runs, every write to the
# game's state records what it overwrote, and a step that raises is rolled
# back from the log; one that succeeds just drops it. The state is made of
# Tracked objects (Game, Obj, Trigger, ...), whose attribute writes are
# logged, and of the containers below, which log their own changes; a plain
# dict, list or set assigned to a Tracked attribute (or put into a TDict) is
# turned into one of them, so nothing in the state escapes the log. A step
# costs what it writes, whatever the size of the game.
MISSING = object()


class Journal:
    """The undo log of the step under way: None when no step runs (set-up,
    observe), else a list of (undo function, a, b, c) entries, oldest first.
    start() begins (or nests into) a log and returns a mark; rollback(mark)
    undoes every write since the mark; commit(mark) keeps them."""
    log = None

    @classmethod
    def start(cls):
        if cls.log is None:
            cls.log = []
            return None                   # the outermost: it ends the log
        return len(cls.log)

    @classmethod
    def rollback(cls, mark):
        log = cls.log
        for undo, a, b, c in reversed(log[mark or 0:]):
            undo(a, b, c)
        del log[mark or 0:]
        if mark is None:
            cls.log = None

    @classmethod
    def commit(cls, mark):
        if mark is None:
            cls.log = None


def _undo_attr(obj, name, old):
    if old is MISSING:
        obj.__dict__.pop(name, None)
    else:
        obj.__dict__[name] = old


def _undo_key(d, key, old):
    if old is MISSING:
        dict.pop(d, key, None)
    else:
        dict.__setitem__(d, key, old)


def _undo_all(container, old, _):
    """A list, dict or set put back as it was (its own type's methods, which
    log nothing)."""
    if isinstance(container, list):
        list.__setitem__(container, slice(None), old)
    elif isinstance(container, dict):
        dict.clear(container)
        dict.update(container, old)
    else:
        set.clear(container)
        set.update(container, old)


_PLAIN = (dict, list, set)


def tracked(value):
    """A plain dict, list or set as a logging one (a dict's values too)."""
    t = type(value)
    if t is dict:
        return TDict({k: tracked(v) for k, v in value.items()})
    if t is list:
        return TList(value)
    if t is set:
        return TSet(value)
    return value


def _logs_all(base, name):
    """base's mutating method `name`, logging a copy of the whole container
    before it runs (lists and sets are small: a zone, a player's set)."""
    method = getattr(base, name)

    def logged(self, *args, **kwargs):
        if Journal.log is not None:
            Journal.log.append((_undo_all, self, base(self), None))
        return method(self, *args, **kwargs)
    logged.__name__ = name
    return logged


class TList(list):
    """A list whose changes go into the undo log (a copy of it before each)."""


class TSet(set):
    """A set whose changes go into the undo log (a copy of it before each)."""


class TDict(dict):
    """A dict whose changes go into the undo log: the old value of the key
    written, or a copy of the whole for the rarer changes (a key deleted and
    put back would come last: the order of a dict is part of the state)."""

    def __setitem__(self, key, value):
        if Journal.log is not None:
            Journal.log.append((_undo_key, self, key, dict.get(self, key, MISSING)))
        dict.__setitem__(self, key, tracked(value))



for _base, _cls, _names in (
        (list, TList, ("append", "insert", "remove", "pop", "extend", "__setitem__", "__delitem__",
                       "sort", "reverse", "clear", "__iadd__", "__imul__")),
        (set, TSet, ("add", "discard", "remove", "pop", "clear", "update", "difference_update",
                     "intersection_update", "symmetric_difference_update",
                     "__ior__", "__isub__", "__iand__", "__ixor__")),
        (dict, TDict, ("__delitem__", "pop", "popitem", "setdefault", "update", "clear"))):
    for _name in _names:
        setattr(_cls, _name, _logs_all(_base, _name))


class Tracked:
    """A part of the game's state: writing an attribute logs its old value
    while a step runs, and a plain container written is made a logging one."""

    def __setattr__(self, name, value):
        if Journal.log is not None:
            Journal.log.append((_undo_attr, self, name, self.__dict__.get(name, MISSING)))
        self.__dict__[name] = tracked(value) if type(value) in _PLAIN else value


class Obj(Tracked):
    """One card, token, spell copy or ability, under its case handle. `id`
    is the object identity: a new one each time it becomes a new object."""

    def __init__(self, handle, kind, owner, types, subtypes):
        self.handle, self.kind, self.owner = handle, kind, owner
        self.types, self.subtypes = types, subtypes
        self.exists, self.id, self.zone = True, 0, None
        self.face_down, self.controller, self.phased_out = False, None, False
        self.left_battlefield = False   # CR 111.8
        self.marks = {}                  # mark name -> kind
        # attach (CR 301.5, 303.4): the permanent's handle, both identities
        # then (a zone change of either ends it, CR 400.7); and the handle
        # it phased out with, indirectly (CR 702.26g)
        self.attached, self.attached_id, self.attach_self = None, 0, 0
        # attach to_player (CR 303.4b): the player an Aura is attached to,
        # while it is the object attach_self names and the player is in the
        # game (701.3d); attached is None meanwhile
        self.attached_player = None
        self.phased_with = None
        # CR 702.26a: the player who controlled it as it last phased out (it
        # phases in during that player's untap step)
        self.phased_under = None
        # CR 110.2: the player who controls it by default, the one it came
        # under into its zone (set-up, creation, arrival); a control effect
        # never changes it. A player leaving takes back what effects gave
        # them (800.4a)
        self.ctrl_default = None
        self.top_hid_id = None           # CR 401.6: its id when it stopped being the revealed top card
        # CR 400.7f: the step it last arrived in a zone, and whether a
        # state check put it there
        self.arrived_step, self.arrived_by_check = None, False
        # CR 400.7k: the identity it had in exile when the madness trigger
        # put it into a public zone, and the identity it got there
        self.madness_from, self.madness_id = None, None

    def instant_or_sorcery(self):
        return bool(self.types & {"instant", "sorcery"})


class Result:
    """A step's answer: outcome, error code (or None), per-object events."""

    def __init__(self, outcome="no_move", error=None):
        self.outcome, self.error, self.events = outcome, error, []
        self.first_error = None    # the error of the first object that did not arrive

    def set(self, outcome, error=None):
        self.outcome, self.error = outcome, error
        return self

    def event(self, handle, outcome):
        self.events.append({"handle": handle, "outcome": outcome})

    def json(self):
        return {"outcome": self.outcome, "error": self.error, "events": self.events}


class Trigger(Tracked):
    """A zone-change trigger (watch): fires once, then tracks the new object."""

    def __init__(self, handle, frm, to, types, cause=None, aura=None):
        self.handle, self.frm, self.to, self.types = handle, frm, to, types
        self.cause = cause                    # G8: only a move with this cause
        self.aura = aura                      # CR 400.7f: the Aura whose trigger it is
        self.fired_step = None
        self.discard = False                  # it fired on a discard (CR 400.7k)
        self.fired, self.found, self.controller = False, None, None
        self.on_phase = False                 # CR 603.10b: on phasing out, not on a move
        self.object, self.zone = None, None   # the object it tracks, and where


class Replacement(Tracked):
    draw = False                           # it replaces moves

    def __init__(self, card, to, frm, cause, instead, category="other"):
        self.card, self.to, self.frm, self.cause, self.instead = card, to, frm, cause, instead
        self.category = category           # "self": a self-replacement effect (CR 614.15)


class DrawReplacement(Tracked):
    """An effect replacing `player`'s draws (replace_draw, CR 614.11) by the
    steps of `instead`; `once`: only the next draw. Its name is a
    replacement's (choose_replacement orders it); it never matches a move,
    nor a `replace` a draw."""
    draw, card, category = True, None, "other"

    def __init__(self, player, instead, once):
        self.player, self.instead, self.once = player, instead, once
        self.active = True                 # in force (a once effect ends as it applies)
        self.running = False               # CR 614.5: doing its own steps


class Cant(Tracked):
    """A "can't" effect on moves (CR 614.17): `card` (a handle, or "any")
    can't move from `frm` to `to` (by `cause`), if it has every type of
    `types`. In force from the step that made it on (614.17a)."""

    def __init__(self, card, to, frm, cause, types, draw=None):
        self.card, self.to, self.frm, self.cause, self.types = card, to, frm, cause, types
        self.draw = draw                  # cant draw: the player who can't draw (CR 121.3)


class Game(Tracked):
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
        self.cants = []                   # "can't" effects in force (CR 614.17)
        self.drew_empty, self.lost, self.mark_names = set(), set(), set()
        # CR 800.4a, 702.26n: the players who left the game, and those of
        # them whose next turn has not come round yet; whose turn it is: the
        # first player's, then the player of the last untap step
        self.departed, self.turn_due, self.turn = set(), set(), players[0]
        # CR 614.13: as-enters effects in force, (handle, steps) in the order
        # they came; the handles entering the battlefield in the event being
        # done (a move, or a whole move_together) and those an as-enters step
        # of that event moved; how deep such steps run
        self.as_enters, self.entering, self.etb_chosen, self.in_etb = [], set(), set(), 0
        # G4: the mark names that end at end_turn; those that end as a
        # player's next turn begins, name -> that player (800.4m); the
        # control effects in force, (handle, object id, player, until) in
        # timestamp order, until None, "end_of_turn" or ("next_turn",
        # player): the latest decides (CR 613.7), on the object it was
        # given for (400.7)
        self.until_marks, self.next_marks, self.ctrls = set(), {}, []
        self.top_shown = {}               # CR 401.5: player -> handle shown on top (or None)
        self.together = set()             # the move_together's handles under way (CR 303.4f)
        self.depth = 0                    # nested steps (then:, do:) under way
        self.nsteps = 0                   # top-level steps done (CR 400.7f: when)
        arriving = {}                     # zone -> [(handle, position or None)]
        for handle, card in cards.items():
            o, pos = self.place(handle, card)
            arriving.setdefault(o.zone, []).append((handle, pos))
        for zone, listed in arriving.items():
            self.stack_up(zone, listed)
        for o in self.objs.values():
            self.new_object(o)

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
        when written, must match too. None (no zone: a player leaving takes
        it out of the game, 800.4a) matches only any."""
        t, p = spec
        if t == "any":
            return True
        if zone is None:
            return False
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
        """CR 400.2: public when its zone is public and it is face up, or
        while revealed (CR 701.20a), or the revealed top card of a library
        (401.5)."""
        if o.exists and o.zone != OUTSIDE and self.shown(o) and self.shown(o)["all"]:
            return True
        if o.exists and o.zone != OUTSIDE and ztype(o.zone) == "library" and \
                zplayer(o.zone) in self.top_shown and self.zones[o.zone][:1] == [o.handle]:
            return True
        return o.exists and o.zone != OUTSIDE and ztype(o.zone) not in HIDDEN and not o.face_down

    @staticmethod
    def shown(o):
        """What a look or reveal still shows of o: the same object in the same
        zone (CR 400.7), or None."""
        s = getattr(o, "shown", None)
        return s if s and s["id"] == o.id and s["zone"] == o.zone else None

    def sees(self, player, o, public=None):
        """May `player` look at o? `public`: self.public(o), when known."""
        if not o.exists or o.zone == OUTSIDE:
            return False
        if self.public(o) if public is None else public:
            return True
        if self.shown(o) and player in self.shown(o)["players"]:
            return True                    # CR 406.3: an instruction lets them look
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
        if kind == "copy" and t == "battlefield":
            o.kind = "token"                # CR 111.13: a copy of a permanent is a token
        need(not (t == "battlefield" and o.instant_or_sorcery()),
             f"card {handle}: an instant or sorcery can't be on the battlefield (CR 400.4a)")
        if t in CONTROLLED:                 # CR 109.4
            o.controller = self.player(c.get("controller", o.owner), "controller")
            o.ctrl_default = o.controller
        else:
            need("controller" not in c, f"card {handle}: objects in {zone} have no controller")
        pos = c.get("position")
        need(pos is None or (type(pos) is int and pos >= 0), f"card {handle}: bad position")
        need(pos is None or (zone != OUTSIDE and t in ORDERED),
             f"card {handle}: a position only in an ordered zone (CR 400.5)")
        self.objs[handle] = o
        o.zone = zone
        return o, pos

    def stack_up(self, zone, listed):
        """The starting order of one zone. Order never comes from the order of
        keys in `cards` (JSON parsers may sort them): each card of an ordered
        zone carries its `position`. Cards without one (an older runner) fill
        the places left, in the order given, first on top."""
        if zone == OUTSIDE:
            return
        pile = [None] * len(listed)
        for handle, pos in listed:
            if pos is not None:
                need(pos < len(pile) and pile[pos] is None,
                     f"card {handle}: position {pos} is taken or past the end of {zone}")
                pile[pos] = handle
        rest = iter(h for h, pos in listed if pos is None)
        self.zones[zone] = [h if h is not None else next(rest) for h in pile]

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
        self.depth += 1
        try:
            if self.departed and self.names_departed(name, opts):
                self.probe(name, opts, obj)       # a malformed step is still a bad request
                res.set("rejected", "wrong_player")   # CR 800.4b, 800.4d, 800.4k
                if name == "create":              # its handle names an object never made
                    never = self.objs[opts["as"]] = Obj(opts["as"], opts.get("kind", "token"),
                                                        opts["owner"], set(), set())
                    never.exists = False
            else:
                getattr(self, "do_" + name)(opts, obj, res)
        finally:
            self.depth -= 1
        if not self.depth:
            if self.top_shown:
                self.update_tops(res)         # CR 401.5, 401.6: after each step
            self.nsteps += 1
        return res

    def names_departed(self, name, opts):
        """Does the step name a player who left the game as who performs it
        (player, order_by; reveal's top_of), or as the owner or controller
        of what it creates, or as the winner? (CR 800.4b, 800.4d, 800.4k)"""
        keys = ["player", "order_by", "turn_of"] + {"create": ["owner", "controller"], "end_game": ["winner"],
                                         "reveal": ["top_of"], "attach": ["to_player"],
                                         "move": ["attached_to_player"]}.get(name, [])
        return any(isinstance(opts.get(k), str) and opts[k] in self.departed for k in keys)

    def probe(self, name, opts, obj):
        """Run a step that will be rejected as if nobody had left, only so
        that a malformed one still answers bad_request, then undo all it did
        (the undo log, as for a step that raises)."""
        mark = Journal.start()
        try:
            self.departed = set()
            getattr(self, "do_" + name)(opts, obj, Result())
        finally:
            Journal.rollback(mark)

    def referenced(self, name):
        """The object reference `name` still finds: the one it saw, while it
        exists and is still that object (CR 400.7); else None."""
        need(name in self.refs, f"unknown reference {name!r}")
        o, oid = self.refs[name]
        return o if o is not None and o.exists and o.id == oid else None

    def target(self, opts, obj, res):
        """The object a step acts on, or None (not_found) if it is gone."""
        if obj is not None:
            return obj
        if "ref" in opts:
            o = self.referenced(opts["ref"])
            if o is None:
                res.set("not_found", "not_found")
            return o
        o = self.obj(opts.get("card"))
        if not o.exists:
            res.set("not_found", "not_found")
            res.event(o.handle, "not_found")
            return None
        return o

    def do_move(self, opts, obj, res):
        need(obj is None or "player" not in opts, "move: player is not allowed in then:/do:")
        need(not ("attached_to" in opts and "attached_to_player" in opts),
             "move: give attached_to: or attached_to_player:, not both")
        if "attached_to_player" in opts:
            self.player(opts["attached_to_player"], "attached_to_player")
        if "costs" in opts:
            self.check_costs(opts, obj)
        o = self.target(opts, obj, res)
        if o is None:
            return
        if not self.may_put(opts.get("player"), o, opts):
            res.set("rejected", "wrong_player")
            res.event(o.handle, "rejected")
        else:
            unpaid = self.cost_unpaid(opts["costs"], o) if "costs" in opts else None
            if unpaid is not None:
                res.set("failed", unpaid)          # CR 601.2h, 614.17b: it can't be cast
            else:
                res.set(*self.move(o, opts, res))

    def cost_unpaid(self, costs, spell):
        """Why a cost of the cast of `spell` can't be paid (CR 601.2h:
        unpayable costs can't be paid, partial payments are not allowed;
        118.3), or None; each cost judged in order against the game before
        the cast, replacement effects not applied. A move cost: its object
        gone (not_found), not where its from: says (not_in_zone), phased
        out (phased_out, 702.26b), already in its destination with no new
        object (already), forbidden by a can't effect (forbidden, 614.17b,
        after the owner's-zone redirect, 400.3), or kept where it is by a
        rule (cannot_hold, 400.4a, 400.4b; token_left, 111.8). A draw cost:
        by a player who can't draw, or of a card whose move can't happen
        (forbidden; 121.3, 614.17b); from a library too small it is paid
        (121.3, 704.5b). A mill cost: of a card whose move can't happen
        (forbidden), or of more cards than the library holds (empty,
        701.13b). The card being cast is on the stack by then (601.2a), so
        no library counts it. Other costs are left to their own steps."""
        for c in costs:
            (name, sub), = c.items()
            sub = sub or {}
            if name == "move":
                o = self.referenced(sub["ref"]) if "ref" in sub else self.obj(sub.get("card"))
                if o is None or not o.exists:
                    return "not_found"
                if o is spell:
                    continue
                if "from" in sub and not self.matches(self.spec(sub["from"], (OUTSIDE, "any")),
                                                      o.zone, o.owner):
                    return "not_in_zone"
                if o.phased_out:
                    return "phased_out"
                dest, _ = self.zone_of(self.spec(sub["to"], (OUTSIDE,)), o.owner)
                face_down = sub.get("face") == "down"
                if dest == o.zone and (dest == OUTSIDE or ztype(dest) not in NEW_IN_PLACE):
                    return "already"
                if self.cants and self.forbids(o, o.zone, dest, sub.get("cause"), face_down):
                    return "forbidden"
                if o.zone == "command" and o.types & COMMAND_BOUND:
                    return "cannot_hold"
                if o.left_battlefield and dest != OUTSIDE:
                    return "token_left"
                if dest == "battlefield" and o.instant_or_sorcery() and not face_down:
                    return "cannot_hold"
            elif name in ("draw", "mill"):
                p = self.player(sub.get("player"))
                if name == "draw" and any(k.draw == p for k in self.cants):
                    return "forbidden"
                n = self.count(sub)
                cards = [self.objs[h] for h in self.zones[f"{p}.library"] if self.objs[h] is not spell][:n]
                for o in cards:
                    if name == "draw":
                        dest = f"{p}.hand"
                    else:
                        dest, _ = self.zone_of(self.spec(sub.get("to", "graveyard"), (OUTSIDE,)), o.owner)
                    if self.cants and self.forbids(o, o.zone, dest, name, False):
                        return "forbidden"
                if name == "mill" and len(cards) < n:
                    return "empty"
        return None

    def check_costs(self, opts, obj):
        """costs: the steps done while a card is being cast (CR 601.2b-h),
        each a step of a nestable kind naming its own object, run after the
        move; the spell becomes cast at the end of the step (401.5)."""
        costs = opts["costs"]
        need(obj is None and self.depth == 1, "move: costs is for a move step, not a then:/do: step")
        need(opts.get("cause") == "cast", "move: costs are paid while a spell is cast (cause: cast)")
        need(isinstance(costs, list) and costs, "move: costs is a non-empty list of steps")
        self.check_step_list(costs, "move: costs")

    @staticmethod
    def check_step_list(steps, what):
        """A list of steps done as top-level steps inside another (a move's
        costs:, replace_draw's instead:): each an object of one step of a
        nestable kind with its own options, naming its own object, no
        expect:, no costs: of its own."""
        for c in steps:
            need(isinstance(c, dict) and len(c) == 1, f"{what}: each step is an object of one step")
            (name, sub), = c.items()
            need(name in STEP_KEYS and name not in UNNESTABLE, f"{what}: {name!r} can't be one of its steps")
            need(sub is None or isinstance(sub, dict), f"{what}: {name}: expected an object")
            need(set(sub or ()) <= STEP_KEYS[name],
                 f"{what}: {name}: unknown keys {sorted(set(sub or ()) - STEP_KEYS[name])}")
            need("costs" not in (sub or ()), f"{what}: a step can't have costs of its own")

    def may_put(self, name, o, opts):
        """CR 407.4: only an object's owner may ante it."""
        if name is None:
            return True
        player = self.player(name)
        return not (isinstance(opts.get("to"), str) and opts["to"] == "ante" and o.owner != player)

    def show(self, o):
        o.shown = self.shown(o) or {"id": o.id, "zone": o.zone, "players": set(), "all": False}
        return o.shown                     # the logging dict the state holds, not the one written

    # ---- the revealed top card of a library (CR 401.5, 401.6) -----------------
    def top_hidden(self, handle, p):
        """It stops being the revealed top card: remember the object it was,
        if it is still in that library (one that left is new anyway)."""
        o = self.objs[handle]
        if o.exists and o.zone == f"{p}.library":
            o.top_hid_id = o.id

    def update_tops(self, res):
        """Each library played with its top card revealed shows its top card
        now; a card revealed again after it stopped is a new object (401.6)."""
        for p in self.players:
            if p not in self.top_shown:
                continue
            pile = self.zones[f"{p}.library"]
            t, was = (pile[0] if pile else None), self.top_shown[p]
            if t == was:
                continue
            if was is not None:
                self.top_hidden(was, p)
            if t is not None and self.objs[t].top_hid_id == self.objs[t].id:
                self.new_object(self.objs[t])
                res.event(t, "new_object_in_place")
            self.top_shown[p] = t

    def do_look(self, opts, obj, res):
        """CR 406.3: an instruction lets a player look at a face-down exiled
        card (or a library or hand card) while it stays that object there."""
        player = self.player(opts.get("player"))
        o = self.target(opts, obj, res)
        if o is None:
            return
        if o.zone == OUTSIDE:
            res.set("rejected", "unsupported")
            return
        self.show(o)["players"].add(player)
        if opts.get("then") is not None:
            # the rest of the same instruction: look at it, then exile it face
            # down, and the player goes on looking while it stays exiled (406.3)
            need(obj is None, "look: then is not allowed in then:/do:")
            need(isinstance(opts["then"], dict) and len(opts["then"]) == 1, "look: then is one step")
            before = o.id
            res.events += self.step(opts["then"], o).events
            if o.exists and o.id != before and ztype(o.zone) == "exile" and o.face_down:
                self.show(o)["players"].add(player)

    def do_reveal(self, opts, obj, res):
        """CR 701.20a: shown to every player until it leaves its zone or
        becomes a new object (400.7), or end: true. top_of: a player plays
        with the top card of their library revealed (401.5, 401.6)."""
        need(isinstance(opts.get("end", False), bool), "reveal: end is true or false")
        if "top_of" in opts:
            need(obj is None and not ({"card", "ref"} & set(opts)),
                 "reveal: top_of is not with card/ref, nor in then:/do:")
            p = self.player(opts["top_of"], "top_of")
            if opts.get("end", False):
                if p in self.top_shown:
                    was = self.top_shown.pop(p)
                    if was is not None:
                        self.top_hidden(was, p)
            elif p not in self.top_shown:
                self.top_shown[p] = None      # shown by update_tops after this step
            return
        o = self.target(opts, obj, res)
        if o is None:
            return
        if o.zone == OUTSIDE:
            res.set("rejected", "unsupported")
            return
        self.show(o)["all"] = not opts.get("end", False)

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
        shuffle = opts.get("shuffle", False)
        need(isinstance(shuffle, bool) or (isinstance(shuffle, list) and all(isinstance(h, str) for h in shuffle)),
             "move: shuffle is true, false or the resulting order (a list of handles)")
        need(type(opts.get("seed", 0)) is int, "move: seed is an integer")

    def move(self, o, opts, res):
        """One object changes zone (CR 400.6). Returns (outcome, error)."""
        self.move_options(opts)
        origin = o.zone
        if "from" in opts and not self.matches(self.spec(opts["from"], (OUTSIDE, "any")), origin, o.owner):
            return "failed", "not_in_zone"    # not where the effect expects it
        if o.phased_out:                      # CR 702.26b: treated as though it doesn't exist
            return "failed", "phased_out"
        if self.in_etb and (o.handle in self.entering or o.handle in self.etb_chosen):
            # CR 614.13a, 614.13b: an as-enters effect can't choose what
            # enters with it, nor what an effect of the event already moved
            res.event(o.handle, "rejected")
            return "rejected", "cannot_choose"
        dest, redirected = self.zone_of(self.spec(opts["to"], (OUTSIDE,)), o.owner)
        # (face down it is a 2/2 creature and no Aura, 708.2a: it enters; an
        # Aura that's also a creature can't enchant anything, 303.4d)
        if ("attached_to" in opts and dest == "battlefield" and "aura" in (o.types | o.subtypes)
                and opts.get("face") != "down"
                and ("creature" in o.types or not self.may_enter_attached(o, opts["attached_to"]))):
            # CR 303.4i: an Aura that can't be attached to it stays where it
            # is; from the stack it goes to its owner's graveyard instead
            if origin != "stack":
                return "stayed", "cannot_hold"
            dest, redirected = f"{o.owner}.graveyard", True
        dest, eff, replaced = self.replace_destination(o, origin, dest, opts)
        face_down = eff.get("face") == "down"
        # CR 614.17: a can't effect forbids the event as it finally stands:
        # nothing moves, whatever would else have stayed or ceased. A move to
        # the zone it is in that makes no new object is no event (outside the
        # game is no zone, 400.11).
        same_zone = dest == origin and dest != OUTSIDE and ztype(dest) not in NEW_IN_PLACE
        if self.cants and not same_zone and \
                self.forbids(o, origin, dest, eff.get("cause") or opts.get("cause"), face_down):
            return "failed", "forbidden"
        if dest == origin:                    # no zone change
            if ztype(dest) not in NEW_IN_PLACE:
                # model decision: nothing happens; the rest of the effect
                # (then:) still acts on the object, which is still there
                self.then(o, opts, res)
                return "no_move", None
            seen = self.shown(o)
            self.new_object(o, ("sticker",))  # CR 400.8 (exile), 400.10 (command); 123.5
            o.face_down = face_down
            if seen and seen["players"]:      # CR 406.3: a look lasts until it leaves exile
                o.shown = {"id": o.id, "zone": o.zone, "players": set(seen["players"]), "all": False}
            res.event(o.handle, "new_object_in_place")
            self.then(o, opts, res)
            return "new_object_in_place", None
        if o.kind == "ability" or (dest == OUTSIDE and o.kind != "card"):
            self.cease(o, res)                # an ability exists only on the stack;
            return "ceased", None             # only cards exist outside (400.11)
        # what can't leave its zone, or can't move any more, or can't be in
        # the destination, stays, in that order (cannot_hold, token_left,
        # cannot_hold), whatever else holds
        if origin == "command" and o.types & COMMAND_BOUND:     # CR 400.4b
            return "stayed", "cannot_hold"
        # CR 111.8: it can't change zones any more. Leaving the game is no
        # zone change (400.11: outside the game is not a zone), so that case
        # is above: a token that leaves the game ceases even after it left
        # the battlefield.
        if o.left_battlefield:
            return "stayed", "token_left"
        # CR 400.4a; one put there face down is turned face down first, a
        # creature with no other types, and enters (708.3, 708.2a)
        if dest == "battlefield" and o.instant_or_sorcery() and not face_down:
            return "stayed", "cannot_hold"
        # CR 614.13: right before it enters, its as-enters effects move
        # other objects first; what one of their steps moves is chosen. Not
        # for a card put onto the battlefield face down: it is turned face
        # down before it enters, so it has no abilities as it enters (708.3,
        # 708.2a)
        if self.as_enters and dest == "battlefield" and origin != dest and not face_down:
            self.etb_apply(o, res)
        if self.in_etb:
            self.etb_chosen.add(o.handle)     # 614.13b: chosen once per event
        controller = o.controller
        self.remove(o)
        self.insert(o, dest, eff.get("position", "top"))
        # CR 400.7f: when it arrived, and whether a state check put it there
        o.arrived_step = self.nsteps
        o.arrived_by_check = (eff.get("cause") or opts.get("cause")) == "state_check"
        # CR 400.7a, 400.7c, 400.7d: a permanent spell becoming a permanent keeps them
        spell_to_permanent = origin == "stack" and dest == "battlefield" and not o.instant_or_sorcery()
        keep = SPELL_KEEPS if spell_to_permanent else ()
        if dest != OUTSIDE and ztype(dest) not in HIDDEN:  # CR 123.5, 400.7m: to a public zone
            keep += ("sticker",)
        cause = eff.get("cause") or opts.get("cause")
        if (dest == "stack" and "land" not in o.types) or (
                dest == "battlefield" and "land" in o.types and origin != "stack" and cause == "play"):
            keep += ("permission",)           # CR 400.7g-h: cast; 400.7i: played
        old_id = o.id
        self.new_object(o, keep)
        if origin == "stack" and dest == "battlefield":
            # CR 400.7a: a control effect on a permanent spell goes on with
            # the permanent it becomes
            self.ctrls = [(h, o.id if (h == o.handle and i == old_id) else i, p, u)
                          for h, i, p, u in self.ctrls]
        # CR 400.7k: the madness trigger put the exiled card into a public
        # zone, where a trigger on its discard may still find it
        if self.triggers and origin == "exile" and dest != OUTSIDE and ztype(dest) not in HIDDEN \
                and cause == "madness":
            o.madness_from, o.madness_id = old_id, o.id
        # CR 109.4: a controller only on the stack and battlefield; it stays
        # across a move between them (the spell's controller, 110.2)
        # (arriving from elsewhere, the player who performs the move controls
        # it: the caster, 405.4; who puts it onto the battlefield, 110.2a)
        o.controller = (controller or opts.get("player") or o.owner) if dest in CONTROLLED else None
        # CR 110.2: the control it came under; but the permanent a spell
        # becomes is by default the caster's, whoever controls the spell
        # now (110.2b): a spell keeps its default controller as it resolves
        if not (origin == "stack" and controller is not None and dest in CONTROLLED
                and o.ctrl_default is not None):
            o.ctrl_default = o.controller
        o.face_down, o.phased_out = face_down, False
        if o.kind == "copy" and origin == "stack" and dest == "battlefield":
            o.kind = "token"                  # CR 111.13: a resolved permanent spell's copy
        if origin == "battlefield" and o.kind == "token":
            o.left_battlefield = True         # CR 111.8: tokens only
        if isinstance(eff.get("shuffle"), list):   # the result, top first
            order = [self.obj(h).handle for h in eff["shuffle"]]
            if len(set(order)) == len(order) and sorted(order) == sorted(self.zones.get(dest, [])):
                self.zones[dest][:] = order         # else it stays as the move left it
                self.forget_shown(dest, res)
        elif eff.get("shuffle"):
            self.shuffle(dest, eff.get("seed", 0), res)
        # CR 303.4f, 303.4h: put onto the battlefield attached, an Aura,
        # Equipment or Fortification enters attached; anything else not
        if ("attached_to" in eff and dest == "battlefield" and (o.types | o.subtypes) & ATTACHMENTS
                and not face_down and "creature" not in o.types   # CR 708.2a, 303.4d, 301.5c
                and self.may_enter_attached(o, eff["attached_to"])):
            host = self.obj(eff["attached_to"])
            o.attached, o.attached_id, o.attach_self = host.handle, host.id, o.id
            o.attached_player = None
            o.phased_with = None
        elif ("attached_to_player" in eff and dest == "battlefield" and "aura" in o.types | o.subtypes
              and eff["attached_to_player"] not in self.departed):
            # CR 303.4f: an Aura enters attached to the player named; anything
            # else (an Equipment or Fortification: 701.3a) enters unattached
            o.attached, o.attached_player, o.attach_self = None, eff["attached_to_player"], o.id
            o.phased_with = None
        # G8: the event's cause: the replacement's own, else the move's
        self.fire_triggers(o, origin, dest, controller, eff.get("cause") or opts.get("cause"))
        outcome = "replaced" if replaced else "redirected" if redirected else "moved"
        res.event(o.handle, outcome)
        self.then(o, opts, res)
        for c in opts.get("costs") or ():   # CR 601.2b-h: paid while it is cast
            res.events += self.step(c).events
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
            applicable = [name for name in self.replacement_order
                          if self.replacement_applies(name, used, o, origin, dest, cause)]
            # CR 614.17c: an event that can't happen (as it now stands) is
            # replaced only by a self-replacement effect
            if self.cants and self.forbids(o, origin, dest, eff.get("cause") or cause,
                                           eff.get("face") == "down"):
                applicable = [n for n in applicable if self.replacements[n].category == "self"]
            # CR 616.1a: a self-replacement effect must be chosen first
            selfs = [n for n in applicable if self.replacements[n].category == "self"]
            for name in selfs or applicable:
                r = self.replacements[name]
                used.add(name)
                dest, _ = self.zone_of(self.spec(r.instead["to"], (OUTSIDE,)), o.owner)
                eff, replaced = r.instead, True
                break
            else:
                return dest, eff, replaced

    def replacement_applies(self, name, used, o, origin, dest, cause):
        """CR 614.1, 614.5: replacement `name` applies to this event and has
        not applied to it yet."""
        r = self.replacements[name]
        if r.draw:
            return False                      # it replaces draws, not moves
        if name in used or (r.card != "any" and r.card != o.handle):
            return False
        if not self.type_matches(r.to, dest) or not self.type_matches(r.frm, origin):
            return False
        return r.cause is None or r.cause == cause

    def forbids(self, o, origin, dest, cause, face_down):
        """CR 614.17: a can't effect in force forbids o's move from origin to
        dest by cause, arriving face down or not."""
        for c in self.cants:
            if c.draw is not None:
                # CR 121.1, 121.3: a move with cause draw from the player's
                # library to their hand is a draw, which they can't make
                if cause == "draw" and origin == f"{c.draw}.library" and dest == f"{c.draw}.hand":
                    return True
                continue
            if c.card != "any" and c.card != o.handle:
                continue
            if not self.type_matches(c.to, dest) or not self.type_matches(c.frm, origin):
                continue
            if c.cause and c.cause != cause:
                continue
            if c.types <= self.cant_types(o, origin, dest, face_down):
                return True
        return False

    @staticmethod
    def cant_types(o, origin, dest, face_down):
        """The types a can't effect judges o by: onto the battlefield, those it
        would have there (CR 614.17d); elsewhere, those it has where it is. A
        face-down permanent or spell is a creature and nothing else (708.2a);
        a card exiled face down has none (406.3a)."""
        zone = dest
        if dest != "battlefield":
            zone, face_down = origin, o.face_down
        if face_down and zone in CONTROLLED:
            return {"creature"}
        if face_down and zone == "exile":
            return set()                      # CR 406.3a: no characteristics at all
        return o.types

    def fire_triggers(self, o, origin, dest, controller, cause=None):
        for t in self.triggers.values():
            if t.fired or t.on_phase or t.handle != o.handle or not t.types <= o.types:
                continue
            if t.aura is not None and not (self.objs[t.aura].attached == o.handle
                                           and self.objs[t.aura].attached_id != 0):
                continue                      # CR 603.10a: not the one it enchanted (701.3d)
            if t.cause is not None and t.cause != cause:
                continue                      # CR 701.8a, 701.21a: a destroy is its own event
            if self.type_matches(t.frm, origin) and self.type_matches(t.to, dest):
                t.fired, t.object, t.zone, t.fired_step = True, o.id, dest, self.nsteps
                t.discard = cause == "discard"
                # CR 603.3a: whoever controlled the source (else its owner):
                # the moving object, or the Aura whose trigger it is
                if t.aura is not None:
                    a = self.objs[t.aura]
                    t.controller = a.controller or a.owner
                else:
                    t.controller = controller or o.owner

    def fire_phase_triggers(self, o, controller):
        """CR 603.10b: a trigger on o phasing out (directly or with its
        permanent) looks back in time: controlled by o's controller just
        before (603.3a), o's types as they were."""
        for t in self.triggers.values():
            if t.on_phase and not t.fired and t.handle == o.handle and t.types <= o.types:
                t.fired, t.object, t.zone, t.fired_step = True, o.id, o.zone, self.nsteps
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
        need(all("player" not in m for m in moves), "move_together: player goes beside moves")
        order = opts.get("order") or {}
        need(isinstance(order, dict) and len(order) <= 1, "move_together: order names one zone")
        chosen = {}
        for text, listed in order.items():
            need(isinstance(listed, list) and listed, "move_together: order lists handles")
            t, p = self.spec(text)
            zone = t if t in SHARED else f"{p or self.obj(listed[0]).owner}.{t}"
            chosen[zone] = [self.obj(h).handle for h in listed]
        # CR 407.4: only the owner antes; CR 401.4: the owner of a library's
        # cards arranges them, whoever puts them there
        if any(self.objs[h].exists and not self.may_put(opts.get("player"), self.objs[h], m)
               for h, m in zip(handles, moves)):
            res.set("rejected", "wrong_player")
            return
        if "order_by" in opts:
            by = self.player(opts["order_by"])
            need(chosen, "move_together: order_by needs order")
            for zone, listed in chosen.items():
                owners = {self.objs[h].owner for h in listed}
                chooser = zplayer(zone) if "." in zone else (owners.pop() if len(owners) == 1 else None)
                if chooser != by:
                    res.set("rejected", "wrong_player")
                    return
        if self.as_enters:
            self.etb_mark_together(moves)     # CR 614.13a: they enter at once
        moved, arrived = False, set()
        # CR 303.4f: none of them is there yet for another to enter attached to
        self.together = set(handles)
        try:
            for m in moves:
                if self.move_in_event(self.objs[m["card"]], m, res):
                    moved = True
                    arrived.add(self.objs[m["card"]].handle)
        finally:
            self.together = set()
        # CR 401.4, 404.3: objects arriving together in an ordered zone are
        # ordered by their owner (the case's order:, else the list order,
        # first on top), in the places they took; a member that did not
        # move keeps its place (400.5)
        for zone, pile in self.zones.items():
            if ztype(zone) not in ORDERED:
                continue
            wanted = [h for h in chosen.get(zone, handles) if h in arrived and self.objs[h].zone == zone]
            if zone == "stack":
                # CR 405.3, 101.4: the active player's lowest (the first
                # player's, or the player's of the last untap step), then
                # each other player's in turn order; each orders only their
                # own (arrivals order: leaves out follow in list order)
                wanted += [h for h in handles if h in arrived and h not in wanted
                           and self.objs[h].zone == zone]
                n, at = len(self.players), self.players.index(self.turn)
                rank = {p: (i - at) % n for i, p in enumerate(self.players)}
                wanted.sort(key=lambda h: -rank[self.objs[h].controller or self.objs[h].owner])
            slots = sorted(pile.index(h) for h in wanted)
            for i, h in zip(slots, wanted):
                pile[i] = h
        if self.as_enters:
            self.etb_event_end()
        self.several(res, moved)

    # ---- as-enters effects (CR 614.13) --------------------------------------------
    def do_as_enters(self, opts, obj, res):
        """CR 614.13: from this step on, each time the card is about to enter
        the battlefield by a move, steps: are done first, in order, as
        top-level steps. (Flesh and Blood has none: a fab engine answers
        rejected / unsupported; this one is mtg-current.)"""
        need(obj is None and self.depth == 1, "as_enters: a top-level step only")
        need("card" in opts, "as_enters: card is required (the permanent entering)")
        card = self.obj(opts["card"]).handle
        steps = opts.get("steps")
        need(isinstance(steps, list) and steps, "as_enters: steps is a non-empty list of steps")
        self.check_step_list(steps, "as_enters: steps")
        self.as_enters.append((card, copy.deepcopy(steps)))

    def etb_mark_together(self, moves):
        """CR 614.13a: before any member of a move_together moves, those that
        would enter the battlefield (where the owner's redirect and the
        replacements in force send them) are marked as entering."""
        for m in moves:
            o = self.objs[m["card"]]
            if not o.exists or o.phased_out:
                continue
            dest, _ = self.zone_of(self.spec(m["to"], (OUTSIDE,)), o.owner)
            dest, _, _ = self.replace_destination(o, o.zone, dest, m)
            if dest == "battlefield" and dest != o.zone:
                self.entering.add(o.handle)

    def etb_apply(self, o, res):
        """CR 614.13: o is about to enter the battlefield: the steps of its
        as-enters effects, in the order they came, their events before its
        own. o is entering (614.13a); a move of its own (not a member of a
        move_together) is an event that ends with them."""
        effects = [steps for card, steps in self.as_enters if card == o.handle]
        if not effects:
            return
        own = o.handle not in self.entering
        self.entering.add(o.handle)
        self.in_etb += 1
        try:
            for steps in effects:
                for s in steps:
                    res.events += self.step(s).events
        finally:
            self.in_etb -= 1
        if own:
            self.etb_event_end()

    def token_as_enters(self, o, steps, zone, res):
        """A token's own as-enters effect (create as_enters, CR 111.1, 614.12,
        614.13): its steps, done as it is created onto the battlefield,
        before it is there; it can't be chosen (614.13a)."""
        need(isinstance(steps, list) and steps, "create: as_enters is a non-empty list of steps")
        self.check_step_list(steps, "create: as_enters")
        if zone != "battlefield":
            return
        self.entering.add(o.handle)
        self.in_etb += 1
        try:
            for s in steps:
                res.events += self.step(s).events
        finally:
            self.in_etb -= 1
        self.etb_event_end()

    def etb_event_end(self):
        """The event ends: what was entering and what its as-enters effects
        chose are forgotten (614.13a, 614.13b), unless such steps still run."""
        if not self.in_etb:
            self.entering.clear()
            self.etb_chosen.clear()

    def top_not_entering(self, p):
        """The card a draw or mill takes from p's library: the top one, or
        while as-enters steps run the first from the top that is not
        entering the battlefield (CR 614.13c); None when there is none."""
        library = self.zones[f"{p}.library"]
        if self.in_etb:
            library = [h for h in library if h not in self.entering]
        return self.objs[library[0]] if library else None

    def move_in_event(self, o, opts, res):
        """One object's move inside a step that moves several (move_together,
        draw, mill); each object's outcome is an event. Did it arrive?"""
        return self.take(o, opts, res) in ARRIVED

    def take(self, o, opts, res):
        """move_in_event, returning the object's outcome."""
        outcome, error = self.move(o, opts, res) if o.exists else ("not_found", "not_found")
        if outcome not in ARRIVED + ("ceased", "new_object_in_place"):
            res.event(o.handle, outcome)
        if outcome not in ARRIVED and res.first_error is None:
            res.first_error = (outcome, error)
        return outcome

    @staticmethod
    def settle(res, outcome):
        """The step's outcome, with the error of the first object that did
        not arrive when it is that object's outcome (forbidden,
        cannot_hold...: cases/README.md, error codes)."""
        first = res.first_error
        res.set(outcome, first[1] if first and first[0] == outcome else None)

    @staticmethod
    def several(res, moved):
        """`moved` if any object arrived, else the first object's outcome."""
        Game.settle(res, "moved" if moved else res.events[0]["outcome"] if res.events else "no_move")

    def do_create(self, opts, obj, res):
        handle = self.new_name(self.objs, opts.get("as"))
        kind = opts.get("kind", "token")
        need(kind in KINDS, f"create: kind {kind!r} is not a Magic object")
        o = Obj(handle, kind, self.player(opts.get("owner"), "owner"),
                words(opts.get("types"), "types"), words(opts.get("subtypes"), "subtypes"))
        need("zone" in opts, "create: zone is required")
        zone, _ = self.zone_of(self.spec(opts["zone"], (OUTSIDE,)), o.owner)
        # CR 707.13: only a copy of a card named by an effect is made outside the game
        need(zone != OUTSIDE or kind == "copy", "create: only kind copy is created outside the game")
        need("copy_of" not in opts or kind == "token", "create: copy_of makes a token (CR 111.12)")
        need("lki" not in opts or ("copy_of" in opts and isinstance(opts["lki"], bool)),
             "create: lki is true or false, beside copy_of")
        copied = self.referenced(opts["copy_of"]) if "copy_of" in opts else None
        need(opts.get("face", "up") in ("up", "down"), "create: face is up or down")
        if kind == "copy" and zone == "battlefield":
            o.kind = "token"                  # CR 111.13: a copy of a permanent is a token
        self.objs[handle] = o
        if "copy_of" in opts and not opts.get("lki", False) and (copied is None or copied.phased_out):
            o.exists = False                  # CR 111.12: nothing to copy (702.26b: phased out), no token
            res.set("not_found", "not_found")
            return
        if zone == OUTSIDE:                   # CR 707.13: there until it is cast
            o.zone = OUTSIDE
            self.new_object(o)
            res.event(handle, "moved")
            res.set("moved")
            return
        # CR 111.5, 614.17d: a token that a can't effect in force keeps from
        # entering the battlefield, judged as it would be there, is not
        # created: its handle never names an object
        if zone == "battlefield" and kind != "card" and self.cants and \
                self.forbids(o, None, zone, None, opts.get("face") == "down"):
            o.exists = False
            res.set("failed", "forbidden")
            return
        if zone == "battlefield" and o.instant_or_sorcery():
            o.exists = False                  # CR 111.5, 400.4a: never created
            res.set("failed", "cannot_hold")
            return
        if zone in CONTROLLED:
            o.controller = self.player(opts.get("controller", o.owner), "controller")
            o.ctrl_default = o.controller
            if o.kind in ("token", "copy"):
                o.owner = o.controller        # CR 111.2: whoever creates it owns it
        else:
            need("controller" not in opts, f"create: objects in {zone} have no controller")
        o.face_down = opts.get("face") == "down"
        if "as_enters" in opts:
            self.token_as_enters(o, opts["as_enters"], zone, res)
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
        until = self.duration(opts, "control")
        if o.zone == OUTSIDE or ztype(o.zone) not in CONTROLLED:
            res.set("rejected", "no_controller")   # CR 109.4
        elif o.phased_out:
            res.set("failed", "phased_out")        # CR 702.26b
        else:
            # G4: a control effect, the latest (CR 613.7), until end of turn
            # or for the rest of the game (514.2, 611.2a); those on objects
            # that have become new objects (400.7) are gone
            self.ctrls = [e for e in self.ctrls if self.ctrl_in_force(e)] + \
                [(o.handle, o.id, player, until)]
            o.controller = player

    def ctrl_in_force(self, e):
        o = self.objs[e[0]]
        return o.exists and o.id == e[1]

    def control_now(self, o):
        """The controller control effects give o: the latest in force (CR
        613.7), else its default controller (110.2), else its owner."""
        for h, i, p, _ in reversed(self.ctrls):
            if h == o.handle and i == o.id and o.exists:
                return p
        return o.ctrl_default if o.ctrl_default is not None else o.owner

    def do_phase(self, opts, obj, res):
        if "with" in opts:
            self.phase_together(opts, obj, res)
            return
        o = self.target(opts, obj, res)
        if o is None:
            return
        out = opts.get("out", True)
        need(isinstance(out, bool), "phase: out is true or false")
        if o.zone != "battlefield":
            res.set("rejected", "unsupported")     # only permanents phase
        elif o.phased_out == out:
            res.set("failed", "already")
        elif not out and o.phased_with is not None:
            res.set("failed", "phased_out")      # CR 702.26g: only with its permanent
        else:
            # CR 702.26d: a status, not a zone change: same object, same
            # controller, marks kept, no zone-change trigger; tokens survive
            self.phase_with_attached(o, out)

    def phase_together(self, opts, obj, res):
        """CR 702.26h: the object and those `with` names phase out in one
        event; one attached (directly, or through what it is attached to) to
        another of them phases out only indirectly, with it (702.26g). The
        step's outcome is the first object's; another that can't phase out
        gets an event with its outcome."""
        need(obj is None, "phase: with is for a phase step, not a then:/do: step")
        need(opts.get("out", True) is True, "phase: with phases several permanents out at once, not out: false")
        others = opts["with"]
        need(isinstance(others, list) and others and all(isinstance(h, str) for h in others),
             "phase: with is a list of handles")
        members = [self.obj(h) for h in others]
        named = [opts["card"]] if "card" in opts else []
        need(len(set(others + named)) == len(others + named),
             "phase: with names each permanent once, and not the one card names")
        o = self.target(opts, obj, res)
        if o is None:
            return
        group = [o] + members
        names = {m.handle for m in group}

        def carried(m):
            x = m
            for _ in range(len(self.objs)):
                host = self.objs.get(x.attached) if x.attached is not None else None
                if host is None or host is m or not self.same_attachment(x, host):
                    return False
                if host.handle in names and not host.phased_out and host.zone == "battlefield":
                    return True
                x = host
            return False

        skip = [m.exists and carried(m) for m in group]   # decided before any phases
        for i, m in enumerate(group):
            if skip[i]:
                continue                       # phases out with its permanent
            if i == 0:
                self.do_phase({"card": m.handle}, None, res)
                continue
            sub = Result()
            if m.exists:
                self.do_phase({"card": m.handle}, None, sub)
            else:
                sub.set("not_found", "not_found")
            res.events += sub.events
            if sub.outcome in ("failed", "rejected", "not_found", "stayed"):
                res.event(m.handle, sub.outcome)

    def phase_with_attached(self, o, out):
        """Phase o out or in, and (CR 702.26g) what is attached to it phases
        out with it, indirectly, and back in with it, still attached. Out,
        it remembers its controller (CR 702.26a: it phases in during their
        untap step) and triggers on its phasing out fire (603.10b)."""
        o.phased_out = out
        if out:
            o.phased_under = o.controller
            if self.triggers:
                self.fire_phase_triggers(o, o.controller)
        else:
            o.phased_with = None
        for a in list(self.objs.values()):
            if a is o or not a.exists:
                continue
            if out and a.zone == "battlefield" and not a.phased_out and self.same_attachment(a, o):
                a.phased_with = o.handle
                self.phase_with_attached(a, True)
            elif not out and a.phased_with == o.handle:
                self.phase_with_attached(a, False)

    def same_attachment(self, a, host):
        """a is attached to host, both still the objects they were then."""
        return (a.attached == host.handle and a.exists and a.id == a.attach_self
                and host.exists and host.id == a.attached_id)

    def attached_to(self, a):
        """The handle a is attached to, or None (CR 301.5, 303.4, 400.7)."""
        host = self.objs.get(a.attached) if a.attached is not None else None
        if host is None or not self.same_attachment(a, host):
            return None
        if a.zone != "battlefield" or host.zone != "battlefield" or a.phased_out != host.phased_out:
            return None
        return host.handle

    def attached_player(self, a):
        """The player Aura a is attached to, or None: still the object it
        was (CR 400.7), on the battlefield, the player in the game (701.3d)."""
        if (a.attached_player is None or not a.exists or a.id != a.attach_self
                or a.zone != "battlefield" or a.attached_player in self.departed):
            return None
        return a.attached_player

    def do_attach(self, opts, obj, res):
        need(("to" in opts) != ("to_player" in opts), "attach: give to: or to_player:, exactly one")
        o = self.target(opts, obj, res)
        if o is None:
            return
        if "to_player" in opts:
            # CR 303.4b, 701.3a: an Aura enchants a player; anything else
            # (an Equipment, a Fortification) can't be and doesn't move (701.3b)
            p = self.player(opts["to_player"], "to_player")
            if o.zone != "battlefield":
                res.set("failed", "not_in_zone")
            elif o.phased_out:
                res.set("failed", "phased_out")        # CR 702.26b
            elif "aura" not in o.types | o.subtypes:
                res.set("failed", "cannot_hold")
            elif self.attached_player(o) != p:         # the same player: does nothing
                o.attached, o.attached_player, o.attach_self = None, p, o.id
                o.phased_with = None
            return
        host = self.obj(opts.get("to"))
        if host is o:
            res.set("failed", "cannot_hold")           # nothing is attached to itself
            return
        for x in (o, host):
            if not x.exists:
                res.set("failed", "not_found")
                return
            if x.zone != "battlefield":
                res.set("failed", "not_in_zone")       # both permanents (CR 303.4, 301.5)
                return
            if x.phased_out:
                res.set("failed", "phased_out")        # CR 702.26b
                return
        o.attached, o.attached_id, o.attach_self = host.handle, host.id, o.id
        o.attached_player = None
        o.phased_with = None

    def may_enter_attached(self, o, handle):
        """May o enter the battlefield attached to handle's object: a phased-in
        permanent, not o itself (CR 303.4d, 303.4i)?"""
        host = self.obj(handle)
        return (host is not o and host.exists and host.zone == "battlefield" and not host.phased_out
                and host.handle not in self.together)

    def do_unattach(self, opts, obj, res):
        """CR 701.3d: attached to nothing where it is, the same object; the
        state-based actions see it as attached to nothing (704.5m, 704.5n)."""
        o = self.target(opts, obj, res)
        if o is None:
            return
        if o.zone != "battlefield":
            res.set("failed", "not_in_zone")
        elif o.phased_out:
            res.set("failed", "phased_out")            # CR 702.26b
        elif self.attached_player(o) is not None:
            o.attach_self = 0                          # attached to no player (704.5m)
        elif self.attached_to(o) is None:
            res.set("failed", "already")
        else:
            o.attached_id = 0                          # no identity: attached to nothing

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
        if not down and o.zone == "battlefield" and o.instant_or_sorcery():
            res.set("failed", "cannot_hold")       # CR 400.4a: it would be one there
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
        by = opts.get("by", "player")
        need(by in ("player", "effect"), "reorder: by is player or effect")
        # CR 400.5: only an effect (or rule) may change the order of a
        # library, a graveyard or the stack; nothing changes zones, so each
        # object stays the same object and nothing triggers
        if ztype(zone) in ORDERED and by != "effect":
            res.set("rejected", "ordered")         # CR 400.5, 401.2, 404.2
        elif "player" in opts and by != "effect" and not self.may_arrange(self.player(opts["player"]), zone, order):
            res.set("rejected", "wrong_player")    # CR 400.5, 402.3: their own only
        elif sorted(order) != sorted(self.zones[zone]):
            res.set("failed", "not_in_zone")
        elif by != "effect" and ztype(zone) != "battlefield" and \
                sum(self.objs[h].face_down for h in self.zones[zone]) >= 2:
            res.set("rejected", "ordered")         # CR 400.5: a face-down pile keeps its order
        else:
            changed = self.zones[zone] != order
            self.zones[zone][:] = order            # CR 400.5: arranged by the owner
            if changed:
                self.renew_revealed(zone, res)     # CR 701.20d

    def may_arrange(self, player, zone, order):
        """CR 400.5, 402.3: a player arranges their own zone, or in a shared
        zone only their own objects (those whose place changes)."""
        if "." in zone:
            return zplayer(zone) == player
        pile = self.zones[zone]
        return all(h == n or (self.objs[h].owner == player and self.objs[n].owner == player)
                   for h, n in zip(pile, order))

    def do_shuffle(self, opts, obj, res):
        """A shuffle's result is chance, so the step carries it: `order`, the
        zone top first, every object in it once (else failed / not_in_zone,
        nothing changes). Without it any order will do."""
        seed = opts.get("seed", 0)
        need(type(seed) is int, "shuffle: seed is an integer")
        zone = self.step_zone(opts.get("zone"))
        if opts.get("order") is None:
            self.shuffle(zone, seed, res)
            return
        order = opts["order"]
        need(isinstance(order, list), "shuffle: order is a list of handles, top first")
        order = [self.obj(h).handle for h in order]
        if len(set(order)) != len(order) or sorted(order) != sorted(self.zones[zone]):
            res.set("failed", "not_in_zone")
        else:
            self.zones[zone][:] = order
            self.forget_shown(zone, res)

    def shuffle(self, zone, seed, res):
        """A shuffle without a given result (a `shuffle` step without `order`,
        a move with `shuffle: true`): any order is right, so Python's own
        generator, seeded for repeatability. No engine needs the oracle's."""
        if zone in self.zones:
            pile = list(self.zones[zone])
            random.Random(seed).shuffle(pile)
            self.zones[zone][:] = pile           # one write for the undo log
            self.forget_shown(zone, res)

    def forget_shown(self, zone, res):
        """A shuffled pile is unknown again: looks and reveals of its cards
        end (CR 406.3: a look at a face-down exiled card lasts until its pile
        is shuffled; 401.2), and a library's revealed cards are new objects
        (701.20d)."""
        self.renew_revealed(zone, res)
        for h in self.zones.get(zone, []):
            self.objs[h].shown = None

    def renew_revealed(self, zone, res):
        """CR 701.20d: the revealed cards of a library that is shuffled, or
        rearranged so that its order changes, stop being revealed and become
        new objects, top first, each with a new_object_in_place event."""
        if zone == OUTSIDE or ztype(zone) != "library":
            return
        for h in self.zones[zone]:
            o = self.objs[h]
            if self.shown(o) and self.shown(o)["all"]:
                o.shown = None
                self.new_object(o)
                res.event(h, "new_object_in_place")

    def count(self, opts):
        n = opts.get("count", 1)
        need(type(n) is int and 0 <= n <= 10000, "count: a number from 0")
        return n

    def do_draw(self, opts, obj, res):
        """CR 121.1-121.2: the top card to the hand, one at a time; drawing
        from an empty library loses at the next state check (704.5b). Before
        each draw a draw replacement may replace it (614.11); then: follows
        up each card the draw itself put into the hand (614.11b)."""
        p = self.player(opts.get("player"))
        hand = f"{p}.hand"
        then = opts.get("then")
        if any(c.draw == p for c in self.cants):
            # CR 121.3: a player who can't draw draws nothing: no draw to
            # replace (614.17c), none from an empty library (704.5b)
            res.set("failed", "forbidden")
            return
        if then is not None:
            need(obj is None, "draw: a then:/do: draw has no then: of its own")
            self.check_nested(then, "draw: then")
        moved = replaced = False
        first = None                               # the first other outcome
        for _ in range(self.count(opts)):
            # CR 614.17c: a draw that can't happen (a can't effect forbids its
            # card's move to the hand) is replaced by no draw replacement
            top = self.top_not_entering(p)
            cant = bool(self.cants) and top is not None and \
                self.forbids(top, top.zone, hand, "draw", False)
            r = None if cant else self.draw_replacement(p)
            if r is not None:
                # CR 614.11: even a draw from an empty library (no loss,
                # 704.5b); 614.11a: its steps all done before the next draw
                self.replace_draw(r, res)
                replaced = True
                continue
            if not self.zones[f"{p}.library"]:
                self.drew_empty.add(p)
                break
            o = self.top_not_entering(p)
            if o is None:
                break                              # CR 614.13c: only cards entering are left
            outcome = self.take(o, {"to": hand, "cause": "draw"}, res)
            if outcome in ARRIVED:
                moved = True
            elif first is None:
                first = outcome
            # CR 614.11b: only a card this draw put into the hand, right away
            if then is not None and o.exists and o.zone == hand:
                res.events += self.step(then, o).events
            if o.exists and o.zone == f"{p}.library":
                break                              # still there: taking it again changes nothing
        self.settle(res, "moved" if moved else "replaced" if replaced else first or "no_move")

    def check_nested(self, step, what):
        """A then: step given before it runs: one step of a nestable kind,
        without card:/ref: and without then: of its own."""
        need(isinstance(step, dict) and len(step) == 1, f"{what}: expected one step")
        (name, sub), = step.items()
        need(name in STEP_KEYS and name not in UNNESTABLE, f"{what}: {name!r} can't be a then: step")
        need(sub is None or isinstance(sub, dict), f"{what}: {name}: expected an object")
        own = {"card"} if name in ("watch", "replace", "choose_replacement") else set()
        need(set(sub or ()) <= STEP_KEYS[name] - ({"card", "ref", "then", "costs"} - own),
             f"{what}: {name}: only its own keys, and no card, ref, then or costs")

    def draw_replacement(self, p):
        """CR 614.11, 616.1: the draw replacement that replaces p's next draw:
        the first in the replacement order in force for p and not doing its
        own steps (614.5), or None."""
        for name in self.replacement_order:
            r = self.replacements[name]
            if r.draw and r.active and r.player == p and not r.running:
                return r
        return None

    def replace_draw(self, r, res):
        """One draw replaced by r: its steps, each as a top-level step, their
        events appended to the draw's (CR 614.11)."""
        if r.once:
            r.active = False                       # "the next time ...": used up
        r.running = True                           # CR 614.5: not on its own draws
        try:
            for s in r.instead:
                res.events += self.step(s).events
        finally:
            r.running = False

    def do_mill(self, opts, obj, res):
        p, to = self.player(opts.get("player")), opts.get("to", "graveyard")
        moved = empty = False
        first = None                               # the first other outcome
        self.spec(to, (OUTSIDE,))
        for _ in range(self.count(opts)):
            o = self.top_not_entering(p)
            if o is None:
                # CR 701.17b: as many as possible; 614.13c: the cards
                # entering the battlefield from it are left out
                empty = True
                break
            outcome = self.take(o, {"to": to, "cause": "mill"}, res)
            if outcome in ARRIVED:
                moved = True
            elif first is None:
                first = outcome
            if o.exists and o.zone == f"{p}.library":
                break                              # still there: taking it again changes nothing
        # failed (empty) only when it took nothing at all: one taken that
        # ceased or stayed gives the step its outcome (CR 701.17b)
        if empty and not moved and first is None:
            res.set("failed", "empty")
        else:
            self.settle(res, "moved" if moved else first or "no_move")

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
                # 704.5e; a copy made outside the game (707.13) is in no zone
                copy_off = o.kind == "copy" and o.zone not in CONTROLLED + (OUTSIDE,)
                # a phased-out token is still on the battlefield (702.26d)
                if token_off or copy_off:
                    self.cease(o, res)
                    again = True
                elif ((o.attached is not None or o.attached_player is not None)
                      and o.zone == "battlefield" and not o.phased_out
                      and self.attached_to(o) is None and self.attached_player(o) is None):
                    # attached to nothing, or to a player who left (303.4c)
                    o.attached = o.attached_player = None
                    if "aura" in o.types | o.subtypes:  # CR 704.5m: to its owner's graveyard
                        # a move of one object, performed by no player: its
                        # events are those the move reports itself (one that
                        # can't happen, 614.17, or can't be chosen, 614.13b,
                        # adds no second one)
                        self.move(o, {"to": "graveyard", "cause": "state_check", "by": "rule"}, res)
                        again = True
                    # CR 704.5n: an Equipment or Fortification stays, unattached
        self.lost |= self.drew_empty                 # CR 704.5b
        self.drew_empty = set()
        outcomes = {e["outcome"] for e in res.events}
        res.set("moved" if outcomes and outcomes <= set(ARRIVED)
                else "ceased" if res.events else "no_move")

    def do_end_game(self, opts, obj, res):
        winner = self.player(opts.get("winner"), "winner")
        for h in self.zones["ante"]:                 # CR 407.2: the winner owns the ante
            self.objs[h].owner = winner

    def do_watch(self, opts, obj, res):
        name = self.new_name(self.triggers, opts.get("as"))
        o = self.obj(opts["card"]) if "card" in opts or obj is None else obj
        aura = self.obj(opts["aura"]).handle if "aura" in opts else None
        if "phase" in opts:                   # CR 603.10b: on phasing out, not on a move
            need(opts["phase"] == "out", "watch: phase takes out (a trigger on phasing out)")
            need(not ({"from", "to", "cause", "aura"} & set(opts)),
                 "watch: from, to, cause and aura are for a zone change, not with phase: out")
        trigger = Trigger(o.handle, self.spec(opts.get("from", "any"), (OUTSIDE, "any")),
                          self.spec(opts.get("to", "any"), (OUTSIDE, "any")),
                          words(opts.get("types"), "types"), opts.get("cause"), aura)
        need(opts.get("cause") is None or isinstance(opts["cause"], str), "watch: cause is text")
        trigger.on_phase = "phase" in opts
        self.triggers[name] = trigger

    def do_resolve(self, opts, obj, res):
        need(opts.get("trigger") in self.triggers, f"unknown trigger {opts.get('trigger')!r}")
        t = self.triggers[opts["trigger"]]
        need(opts.get("do") is None or isinstance(opts["do"], dict), "resolve: do is a step")
        if not t.fired:
            res.set("not_found", "not_fired")
            return
        if t.controller in self.departed:
            # CR 800.4d: a triggered ability a departed player would control
            # is never put on the stack
            res.set("rejected", "wrong_player")
            return
        if t.on_phase:
            # CR 603.10b, 702.26d: phasing is no zone change: it finds the
            # permanent while it is the object that phased out, phased out
            # or not (what do: may do to it is that step's, 702.26b)
            o = self.objs[t.handle]
            t.found = o.exists and o.id == t.object
        elif t.aura is not None:
            o = self.objs[t.aura]
            t.found = self.aura_found(t, o)   # CR 400.7f, 603.6e
        else:
            o = self.objs[t.handle]
            t.found = self.finds(o, t.object, t.zone) or self.madness_found(t, o)  # CR 400.7e, 603.6
        if not t.found:
            res.set("not_found", "not_found")
            res.event(o.handle, "not_found")
        elif opts.get("do") is not None:
            done = self.step(opts["do"], o)
            res.set(done.outcome, done.error)
            res.events = done.events

    def madness_found(self, t, o):
        """CR 400.7k, 702.35c: a trigger on a card's discard finds it in the
        public zone the madness trigger put it into from exile (not cast),
        when it followed that exiled object and the card has not moved
        since."""
        return (t.discard and o.madness_from is not None and o.madness_from == t.object
                and o.exists and o.id == o.madness_id and o.zone != OUTSIDE
                and ztype(o.zone) not in HIDDEN)

    def aura_found(self, t, a):
        """CR 400.7f, 603.6e: the Aura's new object in its owner's graveyard,
        put there in the step the trigger fired in or by a later state
        check (704.5m), and not moved since."""
        if not a.exists or a.zone != f"{a.owner}.graveyard":
            return False
        step = a.arrived_step
        return step == t.fired_step or (step is not None and step > t.fired_step and a.arrived_by_check)

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
        category = opts.get("category", "other")
        need(category in ("self", "other"), "replace: category is self or other")
        special = (OUTSIDE, "any")
        self.replacements[name] = Replacement(card, self.spec(when.get("to", "any"), special),
                                              self.spec(when.get("from", "any"), special),
                                              when.get("cause"), instead, category)
        self.replacement_order.append(name)        # creation order by default

    def do_cant(self, opts, obj, res):
        """CR 614.17, 614.17a: a can't effect on moves, in force from this
        step on; what already happened stays. (Flesh and Blood has none: a
        fab engine answers rejected / unsupported; this one is mtg-current.)"""
        need(obj is None and self.depth == 1, "cant: a top-level step only")
        if "draw" in opts:                # CR 121.3: a player who can't draw
            need(not {"card", "when", "types"} & set(opts), "cant: draw is instead of card, when, types")
            self.cants.append(Cant(None, None, None, None, set(), self.player(opts["draw"])))
            return
        need("card" in opts, "cant: card is required (a handle or any)")
        card = opts["card"] if opts["card"] == "any" else self.obj(opts["card"]).handle
        when = opts.get("when") or {}
        need(isinstance(when, dict) and set(when) <= {"to", "from", "cause"},
             "cant: when has to, from, cause")
        need(when.get("cause") is None or isinstance(when["cause"], str), "cant: cause is text")
        special = (OUTSIDE, "any")
        self.cants.append(Cant(card, self.spec(when.get("to", "any"), special),
                               self.spec(when.get("from", "any"), special),
                               when.get("cause"), words(opts.get("types"), "types")))

    def do_replace_draw(self, opts, obj, res):
        """CR 614.11: an effect replacing the player's draws from this step
        on, by the steps of instead: (maybe none); once: only the next draw.
        (Flesh and Blood has none: a fab engine answers rejected /
        unsupported; this one is mtg-current.)"""
        need(obj is None and self.depth == 1, "replace_draw: a top-level step only")
        name = self.new_name(self.replacements, opts.get("as"))
        player = self.player(opts.get("player"))
        instead = opts.get("instead")
        need(isinstance(instead, list), "replace_draw: instead is a list of steps ([] for none)")
        self.check_step_list(instead, "replace_draw: instead")
        once = opts.get("once", False)
        need(isinstance(once, bool), "replace_draw: once is true or false")
        self.replacements[name] = DrawReplacement(player, copy.deepcopy(instead), once)
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
        until = self.duration(opts, "mark")
        need(until is None or opts["kind"] == "effect", "mark: until only on an effect")
        if until == "end_of_turn":
            self.until_marks.add(name)
        elif until:
            self.next_marks[name] = until[1]
        o = self.target(opts, obj, res)
        if o is not None and o.phased_out:
            res.set("failed", "phased_out")        # CR 702.26b, 702.26e: unaffected
        elif o is not None and o.zone == OUTSIDE:
            res.set("rejected", "unsupported")     # CR 400.11c: only brought in
        elif o is not None:
            o.marks[name] = opts["kind"]

    def do_end_turn(self, opts, obj, res):
        """G4, CR 514.2: until-end-of-turn effects end, on phased-out
        permanents too (702.26f); phasing ended none of them (702.26d). A
        control effect gives the object back to whoever controlled it
        without it, or, when that player has left the game, exiles it
        (800.4c): the step is then `moved`."""
        for o in self.objs.values():
            for m in self.until_marks & set(o.marks):
                del o.marks[m]
        if self.end_effects(lambda u: u == "end_of_turn", res):
            res.set("moved")

    def duration(self, opts, name):
        """until: (and turn_of: with next_turn) as None, "end_of_turn" or
        ("next_turn", player)."""
        until = opts.get("until")
        need(until in (None,) + DURATIONS, f"{name}: until is end_of_turn or next_turn")
        need((until == "next_turn") == ("turn_of" in opts), f"{name}: turn_of comes with until: next_turn")
        return ("next_turn", self.player(opts["turn_of"])) if until == "next_turn" else until

    def end_effects(self, ends, res):
        """The control effects whose until ends(until) says end now end: the
        objects go to the controller the others give them, or, when that
        player has left the game, are exiled (800.4c). True if so."""
        ending = {e[0] for e in self.ctrls if e[3] and ends(e[3]) and self.ctrl_in_force(e)}
        self.ctrls = [e for e in self.ctrls if not (e[3] and ends(e[3]))]
        exiled = False
        for h, o in list(self.objs.items()):
            if h not in ending or o.zone not in CONTROLLED:
                continue
            base = self.control_now(o)   # an earlier effect, else the default (613.7)
            if base in self.departed:
                # CR 800.4c: the player it would go back to has left the
                # game, and no other effect gives it to anyone: exiled
                self.exile_by_rule(o, res)
                exiled = True
            else:
                o.controller = base
        return exiled

    # ---- the untap step, and a player leaving the game -------------------------
    def between(self, frm, to, p):
        """Does p sit strictly after frm and strictly before to in turn order,
        going round? frm == to is an extra turn (CR 500.7): nobody does."""
        if frm == to:
            return False
        n, at = len(self.players), self.players.index
        k = (at(frm) + 1) % n
        while k != at(to):
            if self.players[k] == p:
                return True
            k = (k + 1) % n
        return False

    def do_untap(self, opts, obj, res):
        """CR 702.26a: in the player's untap step, the phased-in permanents
        with phasing (phasing:) they control phase out and the permanents
        that phased out under them phase in, at the same time: decided for
        all before any phases, so none does both. What is attached phases
        with its permanent (702.26g, 702.26h). 702.26n: a permanent that
        phased out under a departed player phases in once that player's
        next turn would have begun (between the last turn and this one).
        (Flesh and Blood has none: a fab engine answers rejected /
        unsupported; this one is mtg-current.)"""
        need(obj is None and self.depth == 1, "untap: a top-level step only")
        p = self.player(opts.get("player"))
        listed = opts.get("phasing", [])
        need(isinstance(listed, list) and all(isinstance(h, str) for h in listed),
             "untap: phasing is a list of handles (the permanents with phasing)")
        handles = [self.obj(h).handle for h in listed]
        need(len(set(handles)) == len(handles), "untap: phasing names each permanent once")
        # the turn begins: effects until it end first (CR 500.5), those until
        # a departed player's turn that would have begun since too (800.4m)
        # (a turn of theirs no untap names was skipped: it waits, 614.10a)
        def ends(u):
            return u != "end_of_turn" and (u[1] == p or (
                u[1] in self.departed and self.between(self.turn, p, u[1])))
        for name, q in list(self.next_marks.items()):
            if ends(("next_turn", q)):
                del self.next_marks[name]
                for o in self.objs.values():
                    o.marks.pop(name, None)
        exiled = self.end_effects(ends, res)
        due = {d for d in self.turn_due if self.between(self.turn, p, d)}
        self.turn_due -= due
        act = {}                                    # handle -> "out", "in", "carried"
        for h in handles:
            o = self.objs[h]
            if o.exists and o.zone == "battlefield" and not o.phased_out and o.controller == p:
                act[h] = "out"
        for h, o in self.objs.items():
            # phased out directly (what went with its permanent comes back with it)
            if o.exists and o.phased_out and o.phased_with is None and \
                    o.phased_under is not None and (o.phased_under == p or o.phased_under in due):
                act[h] = "in"
        for h, o in self.objs.items():
            if act.get(h) == "out" and self.carried_out(o, act):
                act[h] = "carried"                  # only with its permanent (702.26h)
        for h, o in self.objs.items():              # handle order
            if act.get(h) == "out" and not o.phased_out:
                self.phase_with_attached(o, True)
            elif act.get(h) == "in" and o.phased_out and o.phased_with is None:
                self.phase_with_attached(o, False)
        self.turn = p
        if exiled:
            res.set("moved")

    def carried_out(self, o, act):
        """Is o attached, directly or through what it is attached to, to a
        permanent phasing out in this untap step?"""
        x = o
        for _ in range(len(self.objs)):
            host = self.objs.get(x.attached) if x.attached is not None else None
            if host is None or host is o or not self.same_attachment(x, host):
                return False
            if act.get(host.handle) == "out":
                return True
            x = host
        return False

    def do_leave_game(self, opts, obj, res):
        """CR 800.4a: the player leaves the game. (1) What they own leaves
        with them (not from the ante, 800.4n): it ceases; a phased-in
        permanent's leaving is a leaves-the-battlefield event (603.6c), a
        phased-out one's triggers nothing (702.26k). (2) Effects giving
        them control of others' objects end. (3) What they control on the
        stack that is no card ceases. (4) What they (or another departed
        player) still control is exiled, a phased-out one quietly. From now
        on a step naming them is rejected (800.4b), and what phased out
        under them phases in after their next turn would have begun
        (702.26n, do_untap). (Flesh and Blood has none: a fab engine answers
        rejected / unsupported; this one is mtg-current.)"""
        need(obj is None and self.depth == 1, "leave_game: a top-level step only")
        p = self.player(opts.get("player"))
        self.departed.add(p)
        self.turn_due.add(p)
        for o in list(self.objs.values()):
            if not o.exists or o.owner != p or o.zone in (OUTSIDE, "ante"):
                continue
            if self.triggers and not o.phased_out and o.zone == "battlefield":
                self.fire_triggers(o, "battlefield", None, o.controller)
            self.cease(o, res)
        # their control effects end, on every object; what they controlled
        # goes to the latest effect still in force, else its default
        # controller (CR 800.4a, 613.7, 110.2)
        self.ctrls = [e for e in self.ctrls if e[2] != p]
        for o in self.objs.values():
            if not o.exists or o.controller != p:
                continue
            back = self.control_now(o)
            if back is not None and back != p and back not in self.departed:
                o.controller = back                 # a phased-out one too (keeps phased_under)
        for o in list(self.objs.values()):
            if o.exists and o.controller == p and o.zone == "stack" and o.kind in ("ability", "copy"):
                self.cease(o, res)
        for o in list(self.objs.values()):
            if o.exists and o.controller is not None and \
                    (o.controller == p or o.controller in self.departed):
                self.exile_by_rule(o, res)

    def exile_by_rule(self, o, res):
        """CR 800.4a: exiled by the rules, a zone change like any; a
        phased-out permanent first stops being phased out, and as it was
        treated as though it didn't exist (702.26b) its going triggers
        nothing."""
        quiet = o.phased_out
        o.phased_out, o.phased_with = False, None
        triggers = self.triggers
        if quiet:
            self.triggers = {}
        try:
            self.move(o, {"to": "exile", "by": "rule"}, res)
        finally:
            self.triggers = triggers

    # ---- observation -------------------------------------------------------
    def observe(self):
        objects = {}
        # what is public, once per object (it costs most of an observation)
        public = {h: self.public(o) for h, o in self.objs.items() if o.id}
        for h, o in self.objs.items():
            if o.id == 0:
                continue                           # never came into being
            ordered = o.exists and o.zone in self.zones and ztype(o.zone) in ORDERED
            objects[h] = {
                "exists": o.exists, "zone": o.zone if o.exists else "", "object": o.id,
                "position": self.zones[o.zone].index(h) if ordered else None, "layer": None,
                "visibility": "public" if public[h] else "private",
                "face": "down" if o.face_down else "up", "controller": o.controller,
                "owner": o.owner, "marks": sorted(o.marks), "under": None,
                # came_from: Magic keeps no zone history (CR 400.7), so null
                # in every Magic rule set, also right after a move
                "phased_out": o.phased_out, "came_from": None}
            if o.exists and self.attached_to(o) is not None:
                objects[h]["attached_to"] = self.attached_to(o)   # feature attachments
            if o.exists and self.attached_player(o) is not None:
                objects[h]["attached_to_player"] = self.attached_player(o)   # attach_player
        triggers = {n: {"fired": t.fired, "found": t.found, "controller": t.controller}
                    for n, t in self.triggers.items()}
        refs = {}
        for n in self.refs:
            o = self.referenced(n)
            # the handle of the object it finds; none when it finds nothing
            refs[n] = {"found": o is not None, "handle": o.handle if o is not None else None}
        return {"objects": objects, "triggers": triggers, "refs": refs,
                "players": {p: {"lost": p in self.lost} for p in self.players},
                "visible": {p: [h for h, o in self.objs.items() if o.id and self.sees(p, o, public[h])]
                            for p in self.players}}


def same(a, b):
    """Equal as JSON values (in Python True == 1; in JSON they differ)."""
    return type(a) is type(b) and a == b


def delta(prev, cur):
    """What changed from observation `prev` to `cur` (run with observe
    "delta", zcp/2): `objects` always, mapping each handle whose object
    changed to only its changed fields (a handle new since `prev`: all of
    them); `triggers`, `refs`, `players` only when an entry changed, each
    changed entry whole; `visible` only when a player's list changed, each
    such list whole. Entries never disappear from an observation, so a
    delta never needs to say that one did."""
    objects = {}
    for h, o in cur["objects"].items():
        before = prev["objects"].get(h)
        if before is None:
            objects[h] = o
            continue
        if before == o:
            continue      # most objects are untouched (a field keeps its JSON type)
        changed = {k: v for k, v in o.items() if k not in before or not same(before[k], v)}
        # an optional field that went away (attached_to, attached_to_player) is null now
        changed.update({k: None for k in before if k not in o})
        if changed:
            objects[h] = changed
    out = {"objects": objects}
    for part in ("triggers", "refs", "players", "visible"):
        if prev[part] == cur[part]:
            continue
        changed = {n: v for n, v in cur[part].items()
                   if n not in prev[part] or not same(prev[part][n], v)}
        if changed:
            out[part] = changed
    return out


class Server:
    """zcp/2 (or zcp/1) over JSON Lines: one request per line in, one answer
    per line out."""

    def __init__(self):
        self.game = None
        self.protocol = "zcp/1"            # until hello chooses

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
        """Version negotiation: `protocol` is the runner's baseline, `accepts`
        (optional) every version it speaks. Answer with the newest both speak,
        named in `protocol` (absent would mean zcp/1)."""
        offered = req.get("accepts")
        need(offered is None or (isinstance(offered, list) and all(isinstance(v, str) for v in offered)),
             "hello: accepts is a list of versions")
        if req.get("protocol") not in PROTOCOLS:
            raise Unsupported(f"this engine speaks {' and '.join(PROTOCOLS)}")
        offered = set(offered or ()) | {req["protocol"]}
        self.protocol = [v for v in PROTOCOLS if v in offered][-1]   # the newest
        return {"protocol": self.protocol, "engine": ENGINE, "version": VERSION,
                "rulesets": [RULESET], "features": FEATURES}

    def op_setup(self, req):
        self.game = None
        if req.get("ruleset") != RULESET:
            raise Unsupported(f"unknown rule set {req.get('ruleset')!r}; this engine has {RULESET}")
        self.game = Game(req.get("players"), req.get("cards"))
        return {}

    def step(self, step):
        """A step applies completely or not at all: one that raises is
        undone from the undo log of its writes (Journal), not from a copy of
        the whole game taken before it."""
        need(self.game is not None, "step before setup")
        mark = Journal.start()
        try:
            answer = self.game.step(step).json()
        except BaseException:
            Journal.rollback(mark)
            raise
        Journal.commit(mark)
        return answer

    def op_step(self, req):
        return self.step(req.get("step"))

    def op_observe(self, req):
        need(self.game is not None, "observe before setup")
        return self.game.observe()

    def op_run(self, req):
        """Many steps, one answer. observe: "each" gives a whole observation
        after every step, "delta" (zcp/2) only what changed since the one
        before (for the first step: since the state before the run), "end"
        (the default) one whole observation after the last step."""
        steps, mode = req.get("steps"), req.get("observe", "end")
        need(isinstance(steps, list), "run needs steps (a list)")
        need(mode in ("each", "delta", "end"), "run: observe is each, delta or end")
        results, observations = [], []
        prev = self.game.observe() if mode == "delta" and self.game is not None else None
        for s in steps:
            results.append(self.step(s))
            if mode == "each":
                observations.append(self.game.observe())
            elif mode == "delta":
                cur = self.game.observe()
                observations.append(cur if prev is None else delta(prev, cur))
                prev = cur
        if mode == "end" and self.game is not None:
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
