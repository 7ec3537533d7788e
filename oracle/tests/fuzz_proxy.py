#!/usr/bin/env python3
"""fuzz_proxy.py MODE ZONEORACLE: an engine for oracle/tests/gate_fuzz.sh,
`zoneoracle serve` behind a proxy that misbehaves in one way (MODE):

  unsupported  answers `unsupported` to a step (or a run holding one) that
               draws: an engine that declares a step kind only in part;
  batch-only   changes the first step's outcome in `run` answers only, so
               a difference shows in batch mode and never step by step;
  crash-mill   exits when asked to mill (in a step or in a run);
  no-run       answers `unsupported` to every `run`: an engine without the
               batch operation, driven one step at a time instead.

Everything else is passed through to serve unchanged, one line each way."""
import json
import subprocess
import sys

mode, zoneoracle = sys.argv[1], sys.argv[2]
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
    if mode == "crash-mill" and has(req, "mill"):
        sys.exit(3)
    answer = ask(line)
    if mode == "batch-only" and req.get("op") == "run":
        msg = json.loads(answer)
        results = msg.get("results") or []
        if results and results[0].get("outcome") == "moved":
            results[0]["outcome"] = "no_move"
            answer = json.dumps(msg)
    print(answer, flush=True)
    if req.get("op") == "bye":
        break
