#!/usr/bin/env python3
"""fuzz_proxy.py MODE ZONEORACLE: an engine for oracle/tests/gate_fuzz.sh,
`zoneoracle serve` behind a proxy that misbehaves in one way (MODE):

  unsupported  answers `unsupported` to a step (or a run holding one) that
               draws: an engine that declares a step kind only in part;
  batch-only   changes the first step's outcome in `run` answers only, so
               a difference shows in batch mode and never step by step;
  crash-mill   exits when asked to mill (in a step or in a run);
  no-run       answers `unsupported` to every `run`: an engine without the
               batch operation, driven one step at a time instead;
  banner       writes a banner of 9 lines on stderr as it starts (so at
               every restart), and a line naming its pid before a crash;
  one-ruleset  declares mtg-current alone in its hello.

MODE may join several with '+' ("banner+crash-mill+one-ruleset").

Everything else is passed through to serve unchanged, one line each way."""
import json
import os
import subprocess
import sys

modes, zoneoracle = set(sys.argv[1].split("+")), sys.argv[2]
mode = sys.argv[1]
if "banner" in modes:
    for i in range(1, 10):
        sys.stderr.write("proxy engine 1.0 (banner line %d of 9)\n" % i)
    sys.stderr.flush()
serve = subprocess.Popen([zoneoracle, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def ask(line):
    serve.stdin.write(line + "\n")
    serve.stdin.flush()
    return serve.stdout.readline().rstrip("\n")


def steps_of(req):
    if req.get("op") == "step":
        return [req.get("step")]
    if req.get("op") == "run":
        return req.get("steps") or []
    return []


def has(req, kind):
    return any(isinstance(s, dict) and kind in s for s in steps_of(req))


for line in sys.stdin:
    line = line.rstrip("\n")
    try:
        req = json.loads(line)
    except ValueError:
        req = {}
    if not isinstance(req, dict):
        req = {}
    if mode == "unsupported" and has(req, "draw"):
        print(json.dumps({"id": req.get("id"), "ok": False,
                          "error": {"code": "unsupported", "message": "this engine cannot draw"}}), flush=True)
        continue
    if mode == "no-run" and req.get("op") == "run":
        print(json.dumps({"id": req.get("id"), "ok": False,
                          "error": {"code": "unsupported", "message": "no run"}}), flush=True)
        continue
    if "crash-mill" in modes and has(req, "mill"):
        if "banner" in modes:
            sys.stderr.write("proxy engine: pid %d exits on a mill\n" % os.getpid())
            sys.stderr.flush()
        sys.exit(3)
    answer = ask(line)
    if "one-ruleset" in modes and req.get("op") == "hello":
        msg = json.loads(answer)
        if isinstance(msg.get("rulesets"), list):
            msg["rulesets"] = ["mtg-current"]
        answer = json.dumps(msg)
    if mode == "batch-only" and req.get("op") == "run":
        msg = json.loads(answer)
        results = msg.get("results") or []
        if results and results[0].get("outcome") == "moved":
            results[0]["outcome"] = "no_move"
            answer = json.dumps(msg)
    print(answer, flush=True)
    if req.get("op") == "bye":
        break
