#!/usr/bin/env python3
"""An engine of a game zoneoracle does not ship: the pile game of
oracle/tests/ruleset-file/pile-game.yaml (RULESETS.md, "a game of your
own"), written from that file's rules alone, not from the oracle. It shows
that a rule set given as a file gates an engine of any game (issue 31).

    pile_engine.py RULESET_FILE [RULESET_ID [FEATURE,...]]

It declares the one rule set RULESET_ID (default pile-game) and the
features ruleset_zones and ruleset_digest (and the FEATUREs given, which
only change what setups carry: zone_rules adds the zones' limits and
displace, issue 31): every setup then carries the
rule set's zone types, which must be the pile game's (below), and the
digest of the runner's rule set file, which must be the SHA-256 of
RULESET_FILE; otherwise it refuses the setup, as `unsupported` with the
reason (another game, or another file under the same id). Steps it plays: move and draw (the game has nothing else); any
other step is `unsupported`. The protocol helpers (the zcp/2 observation
delta, error answers) are the reference Python adapter's
(ci/adapters/python/engine.py).

The rules (pile-game.yaml): PG 1 each player has a hidden ordered deck, a
hidden hand and a public ordered discard pile; PG 2 the table is shared and
public, its cards are controlled by their owner; PG 3 a card that changes
zones is a new object; PG 4 a card bound for another player's deck, hand or
discard pile goes to its owner's instead (redirected); PG 5 a draw from an
empty deck fails (error empty)."""
import hashlib
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ADAPTER = os.path.join(HERE, "..", "..", "..", "ci", "adapters", "python", "engine.py")
spec = importlib.util.spec_from_file_location("pyzones", ADAPTER)
pyzones = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pyzones)

RULESET_FILE = sys.argv[1]
RULESET = sys.argv[2] if len(sys.argv) > 2 else "pile-game"
EXTRA_FEATURES = [f for f in (sys.argv[3] if len(sys.argv) > 3 else "").split(",") if f]
with open(RULESET_FILE, "rb") as f:
    DIGEST = "sha256:" + hashlib.sha256(f.read()).hexdigest()

PER_PLAYER = ("deck", "hand", "discard")     # PG 1, all owner-only (PG 4)
SHARED = ("table",)                          # PG 2
ORDERED = ("deck", "discard")                # PG 1
PUBLIC = ("table", "discard")                # PG 1, PG 2
# the attributes its game has, as ruleset_zones gives them (the others are
# false, 0 or empty in the pile game)
ZONES = {z: {"per_player": z in PER_PLAYER, "ordered": z in ORDERED,
             "visibility": "public" if z in PUBLIC else "hidden", "owner_only": z in PER_PLAYER,
             "arena": z == "table", "controller": z == "table", "count": 1, "capacity": 0}
         for z in PER_PLAYER + SHARED}


def zones_differ(given):
    """Why the zone types a setup gives are not the pile game's, or None."""
    if not isinstance(given, dict) or set(given) != set(ZONES):
        return f"zone types {sorted(given) if isinstance(given, dict) else given}, not {sorted(ZONES)}"
    for z, want in ZONES.items():
        for k, v in want.items():
            if given[z].get(k) != v:
                return f"zone {z}: {k} is {given[z].get(k)!r}, not {v!r}"
    return None


class Unsupported(Exception):
    pass


class BadRequest(Exception):
    pass


class Card:
    def __init__(self, owner, zone, oid):
        self.owner, self.zone, self.id = owner, zone, oid


class Game:
    def __init__(self, players, cards):
        if not isinstance(players, list) or not isinstance(cards, dict):
            raise BadRequest("setup needs players (list) and cards (object)")
        self.players, self.next_id = players, 0
        self.zones = {f"{p}.{z}": [] for p in players for z in PER_PLAYER}
        self.zones.update({z: [] for z in SHARED})
        self.cards, placed = {}, []
        for h, c in cards.items():
            if set(c) - {"owner", "zone", "position"} or c.get("owner") not in players:
                raise Unsupported(f"card {h}: this game has plain cards only")
            zone = self.zone_of(c.get("zone", ""), c["owner"])
            if zone is None or (zone != "table" and not zone.startswith(c["owner"] + ".")):
                raise BadRequest(f"card {h}: no zone {c.get('zone')!r} of its owner")
            self.cards[h] = Card(c["owner"], zone, self.new_id())
            placed.append((c.get("position", 0), h))
        for _, h in sorted(placed):
            self.zones[self.cards[h].zone].append(h)

    def new_id(self):
        self.next_id += 1
        return self.next_id

    def zone_of(self, name, owner):
        """A zone as cases write it: table, deck (the owner's), bob.deck."""
        if name in SHARED:
            return name
        if name in PER_PLAYER:
            return f"{owner}.{name}"
        return name if name in self.zones else None

    def move(self, h, dest):
        """PG 4: another player's pile is the owner's instead; PG 3: a new
        object. Returns the outcome."""
        c = self.cards[h]
        outcome = "moved"
        if dest != "table" and not dest.startswith(c.owner + "."):
            dest = f"{c.owner}.{dest.split('.', 1)[1]}"
            outcome = "redirected"
        if dest == c.zone:
            return "no_move"
        self.zones[c.zone].remove(h)
        self.zones[dest].insert(0, h)            # on top
        c.zone, c.id = dest, self.new_id()
        return outcome

    def step(self, step):
        if not isinstance(step, dict) or len(step) != 1:
            raise BadRequest("a step is an object with one key")
        (name, o), = step.items()
        if name == "move" and set(o) <= {"card", "to", "cause"} and o.get("card") in self.cards:
            c = self.cards[o["card"]]
            dest = self.zone_of(o.get("to", ""), c.owner)
            if dest is None:
                return {"outcome": "failed", "error": "no_zone", "events": []}
            out = self.move(o["card"], dest)
            return {"outcome": out, "error": None, "events": [{"handle": o["card"], "outcome": out}]}
        if name == "draw" and set(o) <= {"player"} and o.get("player") in self.players:
            deck = self.zones[o["player"] + ".deck"]
            if not deck:                         # PG 5
                return {"outcome": "failed", "error": "empty", "events": []}
            h = deck[0]
            out = self.move(h, o["player"] + ".hand")
            return {"outcome": out, "error": None, "events": [{"handle": h, "outcome": out}]}
        raise Unsupported(f"step {name} with these options is not part of the pile game")

    def observe(self):
        objects = {}
        for h, c in self.cards.items():
            ztype = c.zone.split(".")[-1]
            objects[h] = {
                "exists": True, "zone": c.zone, "object": c.id,
                "position": self.zones[c.zone].index(h) if ztype in ORDERED else None,
                "layer": None, "visibility": "public" if ztype in PUBLIC else "private",
                "face": "up", "controller": c.owner if ztype == "table" else None,   # PG 2
                "owner": c.owner, "marks": [], "under": None, "phased_out": False,
                "came_from": None}
        sees = lambda p, c: c.zone.split(".")[-1] in PUBLIC or c.zone == f"{p}.hand"
        return {"objects": objects, "triggers": {}, "refs": {},
                "players": {p: {"lost": False} for p in self.players},
                "visible": {p: [h for h, c in self.cards.items() if sees(p, c)] for p in self.players}}


class Server:
    def __init__(self):
        self.game, self.protocol = None, "zcp/1"

    def handle(self, req):
        if not isinstance(req, dict) or type(req.get("id")) is not int:
            return pyzones.error(None, "bad_request", "a request is an object with an integer id")
        rid, op = req["id"], req.get("op")
        try:
            if op not in ("hello", "setup", "step", "observe", "run", "bye"):
                raise BadRequest(f"unknown op {op!r}")
            answer = getattr(self, "op_" + op)(req)
        except BadRequest as e:
            return pyzones.error(rid, "bad_request", str(e))
        except Unsupported as e:
            return pyzones.error(rid, "unsupported", str(e))
        return {"id": rid, "ok": True, **answer}

    def op_hello(self, req):
        offered = set(req.get("accepts") or ()) | {req.get("protocol")}
        if not offered & {"zcp/1", "zcp/2"}:
            raise Unsupported("this engine speaks zcp/1 and zcp/2")
        self.protocol = "zcp/2" if "zcp/2" in offered else "zcp/1"
        return {"protocol": self.protocol, "engine": "pile-engine", "version": "1.0",
                "rulesets": [RULESET], "features": ["ruleset_zones", "ruleset_digest"] + EXTRA_FEATURES}

    def op_setup(self, req):
        self.game = None
        if req.get("ruleset") != RULESET:
            raise Unsupported(f"unknown rule set {req.get('ruleset')!r}; this engine plays {RULESET}")
        why = zones_differ(req.get("ruleset_zones"))
        if why:
            raise Unsupported(f"rule set {RULESET} is not the pile game here: {why}")
        if req.get("ruleset_digest") != DIGEST:
            raise Unsupported(f"rule set {RULESET} is another file here: digest {DIGEST}, "
                              f"the runner's {req['ruleset_digest']}")
        self.game = Game(req.get("players"), req.get("cards"))
        return {}

    def op_step(self, req):
        if self.game is None:
            raise BadRequest("step before setup")
        return self.game.step(req.get("step"))

    def op_observe(self, req):
        if self.game is None:
            raise BadRequest("observe before setup")
        return self.game.observe()

    def op_run(self, req):
        if self.game is None:
            raise BadRequest("run before setup")
        mode, results, observations = req.get("observe", "end"), [], []
        prev = self.game.observe()
        for s in req.get("steps") or []:
            results.append(self.game.step(s))
            cur = self.game.observe()
            if mode == "each":
                observations.append(cur)
            elif mode == "delta":
                observations.append(pyzones.delta(prev, cur))
            prev = cur
        if mode == "end":
            observations.append(prev)
        return {"results": results, "observations": observations}

    def op_bye(self, req):
        return {}


def main():
    server = Server()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except ValueError as e:
            req, answer = None, pyzones.error(None, "bad_request", f"not JSON: {e}")
        else:
            answer = server.handle(req)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
        if isinstance(req, dict) and req.get("op") == "bye":
            break


if __name__ == "__main__":
    main()
