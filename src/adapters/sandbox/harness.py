"""SPADE Lab sandbox harness: runs untrusted environment code inside Pyodide.

Every entry point takes and returns JSON text, never raises, and describes the
values the environment returned (type names and plain data) so that the host
can check the SPADE contract itself. Output sizes are checked here, before any
large string leaves Python.
"""

import builtins
import inspect
import json
import math
import random
import sys
import traceback

_BLOCKED_ROOTS = frozenset(
    {"js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "micropip", "pyodide_http"}
)
_ENV_FILENAME = "<environment>"
_BASE_CLASS_NAMES = frozenset({"Env", "ToolUseBaseEnv"})

_PRELUDE = """
import itertools, math, random, re, json, collections, functools, string, copy, heapq, operator, statistics
from collections import deque, defaultdict, Counter, OrderedDict, namedtuple
from itertools import combinations, permutations, product, chain, accumulate
from functools import reduce, lru_cache
from copy import deepcopy
from heapq import heappush, heappop
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union
"""


class _BlockedImport:
    """Meta-path finder refusing the modules that lead from Python to the JS host."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in _BLOCKED_ROOTS:
            raise ImportError(f"module '{name}' is not available inside the SPADE sandbox")
        return None


def _install_import_guard():
    sys.meta_path.insert(0, _BlockedImport())
    for name in list(sys.modules):
        if name.split(".")[0] in _BLOCKED_ROOTS:
            del sys.modules[name]


_WATCHED_MODULES = (
    "builtins", "random", "json", "math", "re", "itertools", "collections", "functools",
    "string", "copy", "heapq", "operator", "statistics", "inspect", "traceback", "typing",
)


def _fingerprint():
    prints = {}
    for name in _WATCHED_MODULES:
        module = __import__(name)
        prints[name] = {key: id(value) for key, value in vars(module).items() if not key.startswith("__")}
    prints["sys"] = {"meta_path": [id(f) for f in sys.meta_path], "recursion": sys.getrecursionlimit()}
    return prints


def _integrity_problems():
    problems = []
    for name, expected in _BASELINE.items():
        if name == "sys":
            current = {"meta_path": [id(f) for f in sys.meta_path], "recursion": sys.getrecursionlimit()}
            problems += [f"sys.{key}" for key in expected if expected[key] != current[key]]
            continue
        module = sys.modules.get(name)
        current = vars(module) if module is not None else {}
        problems += [f"{name}.{key}" for key, ident in expected.items() if id(current.get(key)) != ident]
    problems += [name for name in sys.modules if name.split(".")[0] in _BLOCKED_ROOTS]
    return problems[:20]


class _TooLarge(Exception):
    def __init__(self, what, size, limit):
        super().__init__(what)
        self.what, self.size, self.limit = what, size, limit


_state = {"envs": {}, "classes": {}, "next_id": 1, "max_chars": 100_000}


def _line_of(exc):
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename == _ENV_FILENAME:
            return frame.lineno
    return getattr(exc, "lineno", None) if isinstance(exc, SyntaxError) else None


def _failure(kind, exc=None, **extra):
    out = {"ok": False, "error": kind}
    if exc is not None:
        try:
            text = str(exc.msg) if isinstance(exc, SyntaxError) and exc.msg else str(exc)
        except BaseException:
            text = "<unprintable exception>"
        out["type"] = type(exc).__name__
        out["msg"] = text[:2000]
        out["line"] = _line_of(exc)
    out.update(extra)
    return out


def _describe_number(value):
    try:
        number = float(value)
    except (OverflowError, ValueError):
        return {"t": type(value).__name__, "nonfinite": "inf"}
    if math.isnan(number):
        return {"t": type(value).__name__, "nonfinite": "nan"}
    if math.isinf(number):
        return {"t": type(value).__name__, "nonfinite": "inf" if number > 0 else "-inf"}
    return {"t": type(value).__name__, "v": number}


def _describe(value, what):
    limit = _state["max_chars"]
    if isinstance(value, bool):
        return {"t": "bool", "v": bool(value)}
    if isinstance(value, (int, float)):
        return _describe_number(value)
    if isinstance(value, str):
        if len(value) > limit:
            raise _TooLarge(what, len(value), limit)
        return {"t": "str", "v": str.__str__(value)}
    if isinstance(value, dict):
        encoded = json.dumps(value, default=repr, skipkeys=True)
        if len(encoded) > limit:
            raise _TooLarge(what, len(encoded), limit)
        return {"t": "dict", "v": json.loads(encoded)}
    if value is None:
        return {"t": "NoneType"}
    try:
        shown = repr(value)[:200]
    except BaseException:
        shown = "<unprintable>"
    return {"t": type(value).__name__, "repr": shown}


def _describe_result(value, names):
    if isinstance(value, tuple):
        items = [_describe(item, names[i] if i < len(names) else f"item {i}") for i, item in enumerate(value)]
        return {"t": "tuple", "items": items}
    return _describe(value, names[0])


def _guarded(run):
    try:
        return run()
    except _TooLarge as big:
        return _failure("too_large", what=big.what, size=big.size, limit=big.limit)
    except MemoryError as exc:
        return _failure("memory", exc)
    except SystemExit as exc:
        return _failure("exit", exc)
    except BaseException as exc:
        return _failure("exception", exc)


def _find_env_class(namespace):
    for name, obj in list(namespace.items()):
        if name.endswith("Env") and name not in _BASE_CLASS_NAMES and isinstance(obj, type):
            return obj
    return None


def _accepts_max_turns(cls):
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "max_turns" or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def _fresh_namespace():
    namespace = {"__name__": "spade_environment", "__builtins__": builtins}
    exec(compile(_PRELUDE, "<prelude>", "exec"), namespace)
    return namespace


def _load(code, max_turns):
    try:
        compiled = compile(code, _ENV_FILENAME, "exec")
    except SyntaxError as exc:
        return _failure("syntax", exc)
    except (ValueError, MemoryError, RecursionError) as exc:
        return _failure("syntax", exc)
    namespace = _fresh_namespace()
    try:
        exec(compiled, namespace)
    except ImportError as exc:
        return _failure("import", exc)
    except (MemoryError, SystemExit, _TooLarge):
        raise
    except BaseException as exc:
        return _failure("exec", exc)
    cls = _find_env_class(namespace)
    if cls is None:
        names = sorted(
            k for k, v in namespace.items()
            if isinstance(v, type) and getattr(v, "__module__", None) == namespace["__name__"]
        )
        return _failure("no_class", classes=names[:20])
    env_id = _state["next_id"]
    _state["next_id"] += 1
    _state["classes"][env_id] = (cls, max_turns)
    reply = _instantiate(env_id)
    if not reply["ok"]:
        _state["classes"].pop(env_id, None)
        return reply
    env = _state["envs"][env_id]
    has_solution = callable(getattr(env, "solution", None))
    return {"ok": True, "id": env_id, "cls": cls.__name__, "solution": has_solution}


def _instantiate(env_id):
    cls, max_turns = _state["classes"][env_id]
    try:
        env = cls(max_turns=max_turns) if _accepts_max_turns(cls) else cls()
        if not _accepts_max_turns(cls) and hasattr(env, "max_turns"):
            env.max_turns = max_turns
    except (MemoryError, SystemExit):
        raise
    except BaseException as exc:
        return _failure("init", exc, cls=cls.__name__)
    missing = [m for m in ("reset", "step") if not callable(getattr(env, m, None))]
    if missing:
        return _failure("missing_method", cls=cls.__name__, missing=missing)
    _state["envs"][env_id] = env
    return {"ok": True}


def _renew(env_id):
    if env_id not in _state["classes"]:
        raise LookupError(f"no environment with id {env_id} is loaded in this sandbox")
    _state["envs"].pop(env_id, None)
    return _instantiate(env_id)


def _env(env_id):
    env = _state["envs"].get(env_id)
    if env is None:
        raise LookupError(f"no environment with id {env_id} is loaded in this sandbox")
    return env


def _reset(env_id, seed):
    env = _env(env_id)
    if seed is not None:
        random.seed(seed)
    value = env.reset(seed=seed)
    return {"ok": True, "value": _describe_result(value, ["observation", "info"])}


def _step(env_id, action):
    value = _env(env_id).step(action)
    names = ["observation", "reward", "terminated", "truncated", "info"]
    return {"ok": True, "value": _describe_result(value, names)}


def _solution(env_id):
    env = _env(env_id)
    if not callable(getattr(env, "solution", None)):
        return {"ok": True, "value": {"t": "NoneType"}}
    return {"ok": True, "value": _describe(env.solution(), "solution")}


def _check_syntax(source, mode):
    try:
        compile(source, _ENV_FILENAME, mode)
        return {"ok": True}
    except SyntaxError as exc:
        return {"ok": False, "line": exc.lineno, "msg": str(exc.msg)}
    except (ValueError, MemoryError, RecursionError) as exc:
        return {"ok": False, "line": None, "msg": str(exc)}


def _dispatch(request):
    op = request.get("op")
    _state["max_chars"] = int(request.get("maxChars", _state["max_chars"]))
    if op == "syntax":
        return _check_syntax(request["source"], request.get("mode", "exec"))
    if op == "load":
        return _load(request["code"], int(request.get("maxTurns", 12)))
    if op == "reset":
        return _reset(request["id"], request.get("seed"))
    if op == "step":
        return _step(request["id"], str(request["action"]))
    if op == "solution":
        return _solution(request["id"])
    if op == "renew":
        return _renew(request["id"])
    if op == "integrity":
        return {"ok": True, "problems": _integrity_problems()}
    if op == "dispose":
        _state["envs"].pop(request["id"], None)
        _state["classes"].pop(request["id"], None)
        return {"ok": True}
    return _failure("bad_request", msg=f"unknown op {op!r}")


def spade_harness_call(request_json):
    """Entry point for the host: one JSON request in, one JSON reply out."""
    try:
        request = json.loads(request_json)
    except BaseException as exc:
        return json.dumps(_failure("bad_request", exc))
    reply = _guarded(lambda: _dispatch(request))
    try:
        return json.dumps(reply, allow_nan=False)
    except BaseException as exc:
        return json.dumps(_failure("exception", exc))


_install_import_guard()
_BASELINE = _fingerprint()
