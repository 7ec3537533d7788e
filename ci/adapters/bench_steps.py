#!/usr/bin/env python3
"""What a step costs an engine: record the requests a runner sends, replay
them to an engine process, and divide the engine's CPU time by the steps.

    # 1. record a session (here: 10 s of differential fuzzing, seed 1)
    zoneoracle gate --fuzz 10 --seed 1 \\
        --engine "python3 ci/adapters/bench_steps.py record /tmp/session.jsonl -- \\
                  python3 ci/adapters/python/engine.py"
    # 2. replay it to any engine, as often as you like
    python3 ci/adapters/bench_steps.py replay /tmp/session.jsonl \\
        --engine "python3 ci/adapters/python/engine.py" --repeat 3

`record FILE -- CMD...` is an engine command for the runner: it starts CMD,
passes each request line to it and its answer back, and appends the
request to FILE (a runner that restarts the engine appends a new session).

`replay FILE --engine CMD` starts CMD once, writes one hello, the recorded
requests other than hello and bye (`--repeat` times), then bye, and reads
every answer. It reports the engine's CPU time (user + system, from the
operating system, so the engine's own start-up, JSON and observations
included) less that of a session of only hello and bye (the start-up),
divided by the steps sent (a `step` request is one, a `run` as many as it
has): microseconds per step, the best of `--rounds` runs. The answers are
counted, errors apart, so that two engines (or two versions) can be seen
to have played the same session.

Standard library only, Python 3.9+; Unix (os.wait4).
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import threading


def record(path, cmd):
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    with open(path, "a", encoding="utf-8") as out:
        for line in sys.stdin:
            if not line.strip():
                continue
            out.write(line if line.endswith("\n") else line + "\n")
            out.flush()
            child.stdin.write(line if line.endswith("\n") else line + "\n")
            child.stdin.flush()
            answer = child.stdout.readline()
            if not answer:
                break
            sys.stdout.write(answer)
            sys.stdout.flush()
    try:
        child.stdin.close()
    except OSError:
        pass
    return child.wait()


def session(path, repeat):
    body, hello = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            req = json.loads(line)
            if req.get("op") == "hello":
                hello = hello or req
            elif req.get("op") != "bye":
                body.append(req)
    hello = hello or {"op": "hello", "id": 0, "protocol": "zcp/1", "accepts": ["zcp/1", "zcp/2"]}
    reqs = [hello] + body * repeat + [{"op": "bye", "id": 2**31 - 1}]
    steps = sum(1 if r.get("op") == "step" else len(r.get("steps") or ()) if r.get("op") == "run" else 0
                for r in body) * repeat
    return reqs, steps


def cpu(cmd, reqs):
    """Run cmd on the requests: its CPU seconds (os.wait4, before Popen
    can reap it) and its answers."""
    text = "".join(json.dumps(r) + "\n" for r in reqs).encode()
    rfd, wfd = os.pipe()
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=wfd)
    os.close(wfd)
    chunks = []

    def reader():
        with os.fdopen(rfd, "rb") as f:
            chunks.append(f.read())
    t = threading.Thread(target=reader)
    t.start()
    child.stdin.write(text)
    child.stdin.close()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    t.join()
    answers = [json.loads(a) for a in chunks[0].decode().splitlines() if a.strip()]
    return usage.ru_utime + usage.ru_stime, answers


def replay(path, engine, repeat, rounds):
    cmd = shlex.split(engine)
    reqs, steps = session(path, repeat)
    base = [reqs[0], reqs[-1]]
    start = min(cpu(cmd, base)[0] for _ in range(rounds))
    best, answers = None, []
    for _ in range(rounds):
        t, answers = cpu(cmd, reqs)
        best = t if best is None else min(best, t)
    errors = sum(1 for a in answers if not a.get("ok"))
    print(f"{engine}: {len(reqs)} requests, {steps} steps; answers {len(answers)}, errors {errors}")
    print(f"cpu {best:.3f} s, start-up {start:.3f} s: {(best - start) / max(steps, 1) * 1e6:.1f} us/step")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    r = sub.add_parser("record")
    r.add_argument("file")
    r.add_argument("cmd", nargs=argparse.REMAINDER)
    p = sub.add_parser("replay")
    p.add_argument("file")
    p.add_argument("--engine", required=True)
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if args.mode == "record":
        cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
        sys.exit(record(args.file, cmd))
    replay(args.file, args.engine, args.repeat, args.rounds)


if __name__ == "__main__":
    main()
