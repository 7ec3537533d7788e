"""zoneoracle: the conformance oracle for the zone rules of trading card
games, with its case suite and rule sets, for Python engines.

    python3 -m zoneoracle run|gate|smoke|check|rules|table|...   the CLI, as built natively
    zoneoracle.run("--ruleset", "fab")                 the CLI's run in this process: its exit code
    zoneoracle.gate(engine, "--strict")                the suite against a Python engine object,
                                                       in this process: the gate's exit code, reports
    zoneoracle.Gate(engine).run_case(path, ruleset)    one case under one rule set: a CaseResult
    pytest --zoneoracle-engine mymodule:make_engine    every case x rule set a pytest item

An engine object answers zcp requests as ci/adapters/python/engine.py's
Server does: `handle(request: dict) -> dict` (or it is such a callable).
"""
import ctypes
import os
from dataclasses import dataclass, field
from typing import List, Optional

from . import _native
from ._version import __version__

__all__ = ["run", "gate", "smoke", "cli", "Gate", "CaseResult", "cases", "data_dir", "cli_path",
           "__version__"]


def data_dir() -> str:
    """The suite and rule sets this package carries (laid out like an
    installed share/zoneoracle: cases/, rulesets/, protocol/)."""
    return _native.DATA


def cli_path() -> str:
    """The native zoneoracle command inside the package."""
    return _native.BIN


def cli(*args: str) -> int:
    """Any zoneoracle command line (without the program's name) run in
    this process through libzoneoracle.so: its exit code (0 pass, 1
    failures, 2 usage or I/O, 3 invalid case files, 4 engine). Output on
    this process's stdout and stderr, reports where the command writes
    them (--report-dir, default ./reports)."""
    return _native.cli_main(list(args))


def run(*args: str) -> int:
    """`zoneoracle run ARGS...` in this process (the built-in oracle, or
    --engine CMD): the exit code."""
    return _native.cli_main(["run", *args])


def gate(engine, *args: str) -> int:
    """`zoneoracle gate ARGS...` against the Python object engine, in this
    process (no subprocess, no pipe): every option of the gate but
    --engine/--engine-plugin (--strict, --invariants, --expect-failures,
    --fuzz SECONDS, --ruleset, --filter, --report-dir...), the same reports
    and exit code. No time limit and no isolation: an engine that hangs
    hangs the call."""
    return _native.cli_main(["gate", *args], engine=engine)


def smoke(engine, *args: str) -> int:
    """`zoneoracle smoke ARGS...` against the Python object engine, in this
    process: the handshake, one small case per declared feature, malformed
    requests, bye. Its exit code (0 when every check passes)."""
    return _native.cli_main(["smoke", *args], engine=engine)


@dataclass
class CaseResult:
    """One case under one rule set (zo.h zo_case_result)."""
    case_id: str
    ruleset: str
    status: str                 # pass fail error skip crash timeout
    file: str = ""
    line: int = 0
    step: int = 0
    what: str = ""
    expected: str = ""
    observed: str = ""
    message: str = ""
    rules: List[str] = field(default_factory=list)

    def describe(self) -> str:
        """The failure as the CLI prints it."""
        where = f"{self.file}:{self.line}: " if self.line else ""
        if self.what:
            return f"{where}{self.what}: expected {self.expected}, observed {self.observed}"
        return f"{where}{self.message}"


def _s(b):
    return b.decode("utf-8", "replace") if b else ""


def cases(*paths: str):
    """(case file, case id, [rule set ids]) of every case under paths (the
    packaged suite when none), in the order the CLI runs them."""
    lb = _native.lib()
    paths = paths or (os.path.join(data_dir(), "cases"),)
    arr = (ctypes.c_char_p * len(paths))(*[os.fsencode(p) for p in paths])
    out = ctypes.POINTER(ctypes.c_char_p)()
    n = ctypes.c_int()
    err = _native.ZoError()
    if lb.zo_collect_cases(arr, len(paths), ctypes.byref(out), ctypes.byref(n), ctypes.byref(err)):
        raise OSError(_native.error_text(err))
    files = [out[i].decode() for i in range(n.value)]
    lb.zo_paths_free(out, n.value)
    listed = []
    for f in files:
        c = ctypes.c_void_p()
        if lb.zo_case_load_file(f.encode(), ctypes.byref(c), ctypes.byref(err)):
            listed.append((f, None, [], _native.error_text(err)))
            continue
        ids = [_s(lb.zo_case_ruleset(c, i)) for i in range(lb.zo_case_ruleset_count(c))]
        listed.append((f, _s(lb.zo_case_id(c)), ids, None))
        lb.zo_case_free(c)
    return listed


class Gate:
    """One engine object, opened once (its hello answered), run case by
    case in this process: what the pytest plugin uses. close() ends it."""

    def __init__(self, engine, name: str = "python"):
        lb = _native.lib()
        self._bridge = _native.EngineBridge(engine, name)
        err = _native.ZoError()
        self._engine = lb.zo_engine_ops_open(ctypes.byref(self._bridge.ops), name.encode(),
                                             ctypes.byref(err))
        if not self._engine:
            raise RuntimeError(f"the engine could not be driven: {_native.error_text(err)}")

    def run_case(self, path: str, ruleset: Optional[str] = None) -> List[CaseResult]:
        """The case file at path under ruleset (every rule set it names when
        None): one CaseResult each. A file that does not load raises
        ValueError with file:line:column."""
        lb = _native.lib()
        c = ctypes.c_void_p()
        err = _native.ZoError()
        if lb.zo_case_load_file(os.fsencode(path), ctypes.byref(c), ctypes.byref(err)):
            raise ValueError(_native.error_text(err))
        try:
            ids = [_s(lb.zo_case_ruleset(c, i)) for i in range(lb.zo_case_ruleset_count(c))]
            out = []
            for rid in ids:
                if ruleset is not None and rid != ruleset:
                    continue
                rs = lb.zo_ruleset_find(rid.encode())
                if not rs:
                    out.append(CaseResult(_s(lb.zo_case_id(c)), rid, "skip",
                                          message=f"rule set {rid} is not built in (a --ruleset-file one)"))
                    continue
                res = _native.ZoCaseResult()
                opts = _native.ZoRunOptions()
                lb.zo_run_case(self._engine, c, rs, ctypes.byref(opts), ctypes.byref(res))
                out.append(CaseResult(
                    _s(res.case_id), _s(res.ruleset), _native.STATUS[res.status], _s(res.file), res.line,
                    res.step, _s(res.what), _s(res.expected), _s(res.observed), _s(res.message),
                    [_s(res.rules[i]) for i in range(res.nrules)]))
                lb.zo_case_result_clear(ctypes.byref(res))
            return out
        finally:
            lb.zo_case_free(c)

    def close(self):
        if self._engine:
            _native.lib().zo_engine_ops_free(self._engine)
            self._engine = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
