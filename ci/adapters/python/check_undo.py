#!/usr/bin/env python3
"""Check the undo log of engine.py against a recorded session, and what
undoing a step costs (GUIDE.md section 6):

    python3 ci/adapters/bench_steps.py record /tmp/session.jsonl -- ...   (see there)
    python3 ci/adapters/python/check_undo.py /tmp/session.jsonl

1. Every step of the session (each `step`, and each step of each `run`) is
   first run and rolled back, and the whole state must then be exactly what
   it was (a write that bypassed the log shows here); then it is run for
   real, so the session goes on as the runner played it.
2. The session is played in process three ways, best of --rounds: with the
   undo log (Server.step), copying the game before every step (the old
   way, copy.deepcopy), and unprotected; the differences are what
   protecting a step costs, in microseconds.
Exit 1 when a step is not undone exactly. Standard library only.
"""
import argparse
import copy
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine  # noqa: E402
from test_engine import dump  # noqa: E402


def steps_of(req):
    if req.get("op") == "step":
        return [req.get("step")]
    if req.get("op") == "run":
        return req.get("steps") or []
    return None


def check(reqs):
    """(steps checked, steps not undone exactly)."""
    server, n, bad = engine.Server(), 0, 0
    for req in reqs:
        steps = steps_of(req)
        if steps is None or server.game is None:
            server.handle(req)
            continue
        for step in steps:
            game, before = server.game, dump(server.game)
            mark = engine.Journal.start()
            try:
                server.step(step)
            except Exception:
                pass
            finally:
                engine.Journal.rollback(mark)
            n += 1
            if server.game is not game or dump(game) != before:
                bad += 1
                if bad <= 5:
                    print(f"not undone exactly: {json.dumps(step)}")
            try:
                server.step(step)
            except Exception:
                pass
    return n, bad


class Copying(engine.Server):
    """The old way: a copy of the whole game before every step."""

    def step(self, step):
        saved = copy.deepcopy(self.game)
        try:
            return self.game.step(step).json()
        except Exception:
            self.game = saved
            raise


class Unprotected(engine.Server):
    def step(self, step):
        return self.game.step(step).json()


def costs(reqs, rounds):
    steps = sum(len(steps_of(r) or ()) for r in reqs)
    best = {}
    for _ in range(rounds):
        for name, cls in (("undo log", engine.Server), ("copy", Copying), ("none", Unprotected)):
            server, t = cls(), time.process_time()
            for req in reqs:
                json.dumps(server.handle(req))
            us = (time.process_time() - t) / max(steps, 1) * 1e6
            best[name] = min(best.get(name, us), us)
    print(f"{steps} steps, in process, CPU us per step (best of {rounds}): "
          + ", ".join(f"{k} {v:.1f}" for k, v in best.items()))
    print(f"protecting a step: undo log {best['undo log'] - best['none']:.1f} us, "
          f"copy {best['copy'] - best['none']:.1f} us")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("session", help="requests recorded by bench_steps.py record")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with open(args.session, encoding="utf-8") as f:
        reqs = [json.loads(line) for line in f if line.strip()]
    n, bad = check(reqs)
    print(f"{n} steps run and rolled back: {bad} not undone exactly")
    costs(reqs, args.rounds)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
