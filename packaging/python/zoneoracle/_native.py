"""The native half of the package, through ctypes: libzoneoracle.so (the
oracle and the CLI as zo_cli_main, oracle/include/zo.h) and the zoneoracle
command, both under zoneoracle/_native/ with the suite they run.

An engine given as a Python object is driven through the plugin ABI
(oracle/include/zo_engine.h) with ctypes callbacks: each request is a JSON
text, each answer a JSON text the library frees with free_response. The
object answers requests as the reference adapter's Server does
(ci/adapters/python/engine.py): `handle(request: dict) -> dict`; or it is a
callable doing the same.
"""
import ctypes
import json
import os
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
NATIVE = os.path.join(HERE, "_native")
DATA = os.path.join(NATIVE, "share", "zoneoracle")
BIN = os.path.join(NATIVE, "bin", "zoneoracle")
LIB = os.path.join(NATIVE, "lib", "libzoneoracle.so")

ZO_ENGINE_ABI_VERSION = 1

# ---- the plugin ABI (zo_engine.h) ----------------------------------------
OPEN = ctypes.CFUNCTYPE(ctypes.c_void_p)
REQUEST = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)
FREE_RESPONSE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
CLOSE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class EngineOps(ctypes.Structure):
    """struct zo_engine_ops, abi_version 1."""
    _fields_ = [("abi_version", ctypes.c_uint32), ("name", ctypes.c_char_p),
                ("version", ctypes.c_char_p), ("open", OPEN), ("request", REQUEST),
                ("free_response", FREE_RESPONSE), ("close", CLOSE)]


# ---- zo.h: what the pytest plugin and run_case use -------------------------
class ZoError(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char * 512),
                ("file", ctypes.c_char * 256), ("line", ctypes.c_int), ("column", ctypes.c_int),
                ("context", ctypes.c_char * 160), ("engine_fault", ctypes.c_int)]


class ZoHit(ctypes.Structure):
    _fields_ = [("id", ctypes.c_char_p), ("count", ctypes.c_int)]


class ZoCaseResult(ctypes.Structure):
    _fields_ = [("case_id", ctypes.c_char_p), ("title", ctypes.c_char_p), ("file", ctypes.c_char_p),
                ("ruleset", ctypes.c_char_p), ("status", ctypes.c_int), ("line", ctypes.c_int),
                ("step", ctypes.c_int), ("what", ctypes.c_char_p), ("expected", ctypes.c_char_p),
                ("observed", ctypes.c_char_p), ("message", ctypes.c_char_p),
                ("stderr_text", ctypes.c_char_p), ("rules", ctypes.POINTER(ctypes.c_char_p)),
                ("nrules", ctypes.c_int), ("hits", ctypes.POINTER(ZoHit)), ("nhits", ctypes.c_int),
                ("ms", ctypes.c_double), ("reason", ctypes.c_char_p)]


class ZoRunOptions(ctypes.Structure):
    _fields_ = [("ruleset", ctypes.c_char_p), ("filter", ctypes.c_char_p),
                ("check_invariants", ctypes.c_int), ("shard", ctypes.c_int), ("nshards", ctypes.c_int),
                ("xfail", ctypes.c_void_p), ("nxfail", ctypes.c_int), ("strict", ctypes.c_void_p),
                ("obs_invariants", ctypes.c_int), ("max_fail", ctypes.c_int),
                ("progress", ctypes.c_void_p), ("progress_ctx", ctypes.c_void_p)]


STATUS = ("pass", "fail", "error", "skip", "crash", "timeout", "xfail", "xpass")

_lib = None
_libc = ctypes.CDLL(None)
_libc.malloc.restype = ctypes.c_void_p
_libc.malloc.argtypes = [ctypes.c_size_t]
_libc.free.argtypes = [ctypes.c_void_p]
_libc.fflush.argtypes = [ctypes.c_void_p]


def lib():
    """libzoneoracle.so, loaded once, its functions typed."""
    global _lib
    if _lib is None:
        os.environ.setdefault("ZO_DATA_DIR", DATA)
        lb = ctypes.CDLL(LIB)
        P, I, S = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p
        E = ctypes.POINTER(ZoError)
        sigs = {
            "zo_cli_main": (I, [I, ctypes.POINTER(S)]),
            "zo_engine_register": (I, [S, ctypes.POINTER(EngineOps), E]),
            "zo_engine_ops_open": (P, [ctypes.POINTER(EngineOps), S, E]),
            "zo_engine_ops_free": (None, [P]),
            "zo_case_load_file": (I, [S, ctypes.POINTER(P), E]),
            "zo_case_free": (None, [P]),
            "zo_case_id": (S, [P]),
            "zo_case_title": (S, [P]),
            "zo_case_ruleset_count": (ctypes.c_size_t, [P]),
            "zo_case_ruleset": (S, [P, ctypes.c_size_t]),
            "zo_ruleset_find": (P, [S]),
            "zo_run_case": (None, [P, P, P, ctypes.POINTER(ZoRunOptions), ctypes.POINTER(ZoCaseResult)]),
            "zo_case_result_clear": (None, [ctypes.POINTER(ZoCaseResult)]),
            "zo_collect_cases": (I, [ctypes.POINTER(S), I, ctypes.POINTER(ctypes.POINTER(S)),
                                     ctypes.POINTER(I), E]),
            "zo_paths_free": (None, [ctypes.POINTER(S), I]),
            "zo_error_format": (None, [E, ctypes.c_char_p, ctypes.c_size_t]),
        }
        for name, (res, args) in sigs.items():
            f = getattr(lb, name)
            f.restype, f.argtypes = res, args
        _lib = lb
    return _lib


def error_text(err):
    buf = ctypes.create_string_buffer(2048)
    lib().zo_error_format(ctypes.byref(err), buf, len(buf))
    return buf.value.decode("utf-8", "replace")


def _error_answer(request_text, code, message):
    rid = None
    try:
        r = json.loads(request_text)
        rid = r.get("id") if isinstance(r, dict) and type(r.get("id")) is int else None
    except ValueError:
        pass
    return {"id": rid, "ok": False, "error": {"code": code, "message": message}}


class EngineBridge:
    """A Python engine object behind a struct zo_engine_ops (kept alive as
    long as this bridge). `handle(dict) -> dict`, `answer(dict) -> dict`,
    `answer_line(str) -> str` or a callable taking the request dict."""

    def __init__(self, engine, name="python"):
        self.engine = engine
        self.requests = 0
        if hasattr(engine, "handle"):
            self._answer = engine.handle
        elif hasattr(engine, "answer"):
            self._answer = engine.answer
        elif callable(engine):
            self._answer = engine
        else:
            raise TypeError("an engine has handle(request) -> answer (ci/adapters/python/engine.py's "
                            "Server), or is a callable")
        self._open = OPEN(lambda: 1)
        self._request = REQUEST(self._on_request)
        self._free = FREE_RESPONSE(lambda p: _libc.free(p))
        self._close = CLOSE(lambda s: None)
        self.ops = EngineOps(ZO_ENGINE_ABI_VERSION, name.encode(), b"0", self._open, self._request,
                             self._free, self._close)

    def _on_request(self, session, request):
        self.requests += 1
        text = request.decode("utf-8", "replace")
        try:
            answer = self._answer(json.loads(text))
        except ValueError as e:
            answer = _error_answer(text, "bad_request", f"not JSON: {e}")
        except BaseException as e:  # never unwind through C
            answer = _error_answer(text, "internal", f"{type(e).__name__}: {e}")
        try:
            data = json.dumps(answer).encode("utf-8")
        except (TypeError, ValueError) as e:
            data = json.dumps(_error_answer(text, "internal", f"answer not JSON: {e}")).encode()
        p = _libc.malloc(len(data) + 1)
        ctypes.memmove(p, data + b"\0", len(data) + 1)
        return p


_cli_lock = threading.Lock()
_registered = 0


def cli_main(argv, engine=None):
    """zo_cli_main in this process: argv without the program's name; with
    engine, `--engine-plugin @pythonN` names it. The command's exit code."""
    global _registered
    lb = lib()
    with _cli_lock:
        bridge = None
        args = list(argv)
        if engine is not None:
            _registered += 1
            name = f"@python{_registered}"
            bridge = EngineBridge(engine, name)
            err = ZoError()
            if lb.zo_engine_register(name.encode(), ctypes.byref(bridge.ops), ctypes.byref(err)):
                raise RuntimeError(error_text(err))
            args[1:1] = ["--engine-plugin", name]
        sys.stdout.flush()
        sys.stderr.flush()
        words = [b"zoneoracle"] + [os.fsencode(a) for a in args]
        arr = (ctypes.c_char_p * (len(words) + 1))(*words, None)
        try:
            return lb.zo_cli_main(len(words), arr)
        finally:
            _libc.fflush(None)
            if bridge is not None:
                lb.zo_engine_register(name.encode(), None, None)
