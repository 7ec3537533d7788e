#!/usr/bin/env python3
"""A test engine whose game holds less than the case language can write: the
reference Python adapter (ci/adapters/python/engine.py) behind a hello that
declares `capabilities` (PROTOCOL.md 7.1, zcp/2) and a setup that refuses,
as `unsupported`, any game outside them, as a real engine refuses what it
cannot represent. The runner must never send it such a game.

    capable_engine.py [PLAYERS [ZONES [OBJECTS [FACE_DOWN]]]]
        PLAYERS    comma-separated counts (default 2)
        ZONES      comma-separated zone types (default library,hand,battlefield,
                   graveyard,stack,exile)
        OBJECTS    comma-separated kinds (default card,token)
        FACE_DOWN  the zone types where objects may be face down (default
                   battlefield,stack)

With $ZO_CAPABLE_ZCP1 set it speaks zcp/1 only, which has no capabilities:
the same refusals, undeclared.

Every refused setup is written, one line each, to the file named by
$ZO_CAPABLE_LOG (when set), so a test can tell a setup sent twice from two
setups."""
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ADAPTER = os.path.join(HERE, "..", "..", "..", "ci", "adapters", "python", "engine.py")
spec = importlib.util.spec_from_file_location("pyzones", ADAPTER)
pyzones = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pyzones)

arg = lambda i, d: (sys.argv[i] if len(sys.argv) > i else d).split(",")
PLAYERS = [int(n) for n in arg(1, "2")]
ZONES = arg(2, "library,hand,battlefield,graveyard,stack,exile")
OBJECTS = arg(3, "card,token")
FACE_DOWN = arg(4, "battlefield,stack")


class Capable(pyzones.Server):
    def op_hello(self, req):
        answer = super().op_hello(req)
        if answer.get("protocol") == "zcp/2":
            answer["capabilities"] = {"players": PLAYERS, "zones": ZONES, "objects": OBJECTS,
                                      "face_down": FACE_DOWN}
        return answer

    def op_setup(self, req):
        self.game = None
        players, cards = req.get("players") or [], req.get("cards") or {}
        why = None
        if len(players) not in PLAYERS:
            why = f"{len(players)} players"
        for name, card in cards.items():
            zone = str(card.get("zone", "")).split(".")
            ztype = zone[1] if len(zone) > 1 and zone[0] in players else zone[0]
            if ztype not in ZONES and not why:
                why = f"{name} in zone {ztype}"
            if card.get("kind", "card") not in OBJECTS and not why:
                why = f"{name} of kind {card.get('kind')}"
            if card.get("face") == "down" and ztype not in FACE_DOWN and not why:
                why = f"{name} face down in zone {ztype}"
        if why:
            log = os.environ.get("ZO_CAPABLE_LOG")
            if log:
                with open(log, "a", encoding="utf-8") as f:
                    f.write(json.dumps([req.get("ruleset"), players, cards], sort_keys=True) + "\n")
            raise pyzones.Unsupported(f"this game holds no {why}")
        return super().op_setup(req)

    def step(self, step):
        create = step.get("create") if isinstance(step, dict) else None
        if isinstance(create, dict) and create.get("kind", "token") not in OBJECTS:
            raise pyzones.Unsupported(f"no object of kind {create.get('kind')}")
        return super().step(step)


if __name__ == "__main__":
    if os.environ.get("ZO_CAPABLE_ZCP1"):
        pyzones.PROTOCOLS = ("zcp/1",)
    pyzones.Server = Capable
    pyzones.main()
