"""SPADE Lab sandbox harness: runs one untrusted environment inside its own Pyodide interpreter.

Every entry point takes and returns JSON text and never raises. Values the environment returns
are encoded by exact type, never by type name: ["s", text] only for real strings (a str subclass
is copied to a plain str and measured with str.__len__), ["b", flag] only for real bools, ["i"|"f",
number] for ints and floats, ["d", plain data] for dicts, ["t", items] for tuples, ["n"] for None,
and ["o", class name, repr] for anything else (the name is for messages only). Sizes are checked
here before any large string leaves Python, and the host checks them again.
"""

import _json
import builtins
import math
import random
import traceback

_ENV_FILENAME = "<environment>"
_BASE_CLASS_NAMES = frozenset({"Env", "ToolUseBaseEnv"})
_NAME_CHARS = 100
_MSG_CHARS = 2000
_REPR_CHARS = 200
_quote = _json.encode_basestring_ascii
_str_of, _len_of = str.__str__, str.__len__


def _is(value, cls):
    """Exact-type test that an object's `__class__` cannot fake."""
    return issubclass(type(value), cls)

_PRELUDE = """
import itertools, math, random, re, json, collections, functools, string, copy, heapq, operator, statistics
from collections import deque, defaultdict, Counter, OrderedDict, namedtuple
from itertools import combinations, permutations, product, chain, accumulate
from functools import reduce, lru_cache
from copy import deepcopy
from heapq import heappush, heappop
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union
"""


class _TooLarge(Exception):
    def __init__(self, what, size, limit):
        super().__init__(what)
        self.what, self.size, self.limit = what, size, limit


_state = {"cls": None, "env": None, "cap": 12, "max_chars": 100_000}


def _text(value, limit):
    try:
        text = _str_of(value) if _is(value, str) else _str_of(str(value))
    except BaseException:
        return "<unprintable>"
    return text[:limit]


def _name(obj):
    return _text(getattr(type(obj) if not isinstance(obj, type) else obj, "__name__", "?"), _NAME_CHARS)


def _line_of(exc):
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename == _ENV_FILENAME:
            return frame.lineno if type(frame.lineno) is int else None
    lineno = getattr(exc, "lineno", None) if isinstance(exc, SyntaxError) else None
    return lineno if type(lineno) is int else None


def _failure(kind, exc=None, **extra):
    out = {"ok": False, "error": kind}
    if exc is not None:
        message = exc.msg if isinstance(exc, SyntaxError) and exc.msg else exc
        out.update(type=_name(exc), msg=_text(message, _MSG_CHARS), line=_line_of(exc))
    out.update(extra)
    return out


def _number(tag, value):
    try:
        number = float.__float__(value) if tag == "f" else float(int.__int__(value))
    except OverflowError:
        return [tag, "inf" if int.__int__(value) > 0 else "-inf"]
    if math.isnan(number):
        return [tag, "nan"]
    if math.isinf(number):
        return [tag, "inf" if number > 0 else "-inf"]
    return [tag, number]


def _plain(value, depth=0):
    """Plain JSON data for an info dict, by exact base types; anything else becomes its repr."""
    if value is None or type(value) is bool:
        return value
    if _is(value, int):
        return _number("i", value)[1] if abs(int.__int__(value)) >= 2**53 else int.__int__(value)
    if _is(value, float):
        return _number("f", value)[1]
    if _is(value, str):
        return _str_of(value)
    if depth < 20 and _is(value, (list, tuple)):
        items = list.__iter__(value) if _is(value, list) else tuple.__iter__(value)
        return [_plain(item, depth + 1) for item in items]
    if depth < 20 and _is(value, dict):
        out = {}
        for key, item in dict.items(value):
            if _is(key, str):
                out[_str_of(key)] = _plain(item, depth + 1)
            elif key is None or _is(key, (bool, int, float)):
                out[_to_json(_plain(key, depth + 1))] = _plain(item, depth + 1)
        return out
    try:
        return _text(repr(value), _REPR_CHARS)
    except BaseException:
        return "<unprintable>"


def _to_json(data):
    """JSON text of plain data built by this module (exact types only), without the json module."""
    if data is None:
        return "null"
    if data is True or data is False:
        return "true" if data else "false"
    if type(data) is int:
        return int.__repr__(data)
    if type(data) is float:
        return float.__repr__(data) if math.isfinite(data) else _quote(float.__repr__(data))
    if type(data) is str:
        return _quote(data)
    if type(data) is list:
        return "[" + ",".join(_to_json(item) for item in data) + "]"
    if type(data) is dict:
        return "{" + ",".join(_quote(key) + ":" + _to_json(item) for key, item in dict.items(data)) + "}"
    raise TypeError("harness encoder got a non-plain value")


def _encode(value, what):
    limit = _state["max_chars"]
    if type(value) is bool:
        return ["b", value]
    if value is None:
        return ["n"]
    if _is(value, str):
        text = _str_of(value)
        if _len_of(text) > limit:
            raise _TooLarge(what, _len_of(text), limit)
        return ["s", text]
    if _is(value, int) and type(value) is not bool:
        return _number("i", value)
    if _is(value, float):
        return _number("f", value)
    if _is(value, dict):
        plain = _plain(value)
        size = _len_of(_to_json(plain))
        if size > limit:
            raise _TooLarge(what, size, limit)
        return ["d", plain]
    try:
        shown = _text(repr(value), _REPR_CHARS)
    except BaseException:
        shown = "<unprintable>"
    return ["o", _name(value), shown]


def _encode_result(value, names):
    if _is(value, tuple):
        items = list(tuple.__iter__(value))
        return ["t", [_encode(item, names[i] if i < len(names) else f"item {i}") for i, item in enumerate(items)]]
    return _encode(value, names[0])


def _find_env_class(namespace):
    for name, obj in list(namespace.items()):
        if isinstance(name, str) and name.endswith("Env") and name not in _BASE_CLASS_NAMES and isinstance(obj, type):
            return obj
    return None


def _instantiate(cls, cap):
    """The reference's semantics: the class's own defaults, then the turn cap on `max_turns`."""
    try:
        env = cls()
    except TypeError:
        env = cls(max_turns=cap)
    designed = getattr(env, "max_turns", None)
    if type(designed) is int and designed > 0:
        env.max_turns = min(designed, cap)
    elif hasattr(env, "max_turns"):
        env.max_turns = cap
    return env


def _construct():
    cls = _state["cls"]
    try:
        env = _instantiate(cls, _state["cap"])
    except (MemoryError, SystemExit):
        raise
    except BaseException as exc:
        return _failure("init", exc, cls=_name(cls))
    missing = [m for m in ("reset", "step") if not callable(getattr(env, m, None))]
    if missing:
        return _failure("missing_method", cls=_name(cls), missing=missing)
    _state["env"] = env
    return {"ok": True, "cls": _name(cls), "solution": callable(getattr(env, "solution", None))}


def _load(code, cap):
    if _state["cls"] is not None:
        return _failure("bad_request", msg="this interpreter already ran an environment")
    try:
        compiled = compile(code, _ENV_FILENAME, "exec")
    except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
        return _failure("syntax", exc)
    namespace = {"__name__": "spade_environment", "__builtins__": builtins}
    exec(compile(_PRELUDE, "<prelude>", "exec"), namespace)
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
        names = sorted(_text(k, _NAME_CHARS) for k, v in namespace.items() if isinstance(v, type) and getattr(v, "__module__", None) == "spade_environment")
        return _failure("no_class", classes=names[:20])
    _state["cls"], _state["cap"] = cls, cap
    return _construct()


def _env():
    if _state["env"] is None:
        raise LookupError("no environment instance is loaded in this interpreter")
    return _state["env"]


def _reset(seed):
    env = _env()
    if seed is not None:
        random.seed(seed)
    return {"ok": True, "value": _encode_result(env.reset(seed=seed), ["observation", "info"])}


def _step(action):
    names = ["observation", "reward", "terminated", "truncated", "info"]
    return {"ok": True, "value": _encode_result(_env().step(action), names)}


def _solution():
    env = _env()
    if not callable(getattr(env, "solution", None)):
        return {"ok": True, "value": ["n"]}
    return {"ok": True, "value": _encode(env.solution(), "solution")}


def _check_syntax(source, mode):
    try:
        compile(source, _ENV_FILENAME, mode)
        return {"ok": True}
    except SyntaxError as exc:
        return {"ok": False, "line": exc.lineno if type(exc.lineno) is int else None, "msg": _text(exc.msg, _MSG_CHARS)}
    except (ValueError, MemoryError, RecursionError) as exc:
        return {"ok": False, "line": None, "msg": _text(exc, _MSG_CHARS)}


def _dispatch(request):
    op = request.get("op")
    _state["max_chars"] = int(request.get("maxChars", _state["max_chars"]))
    if op == "syntax":
        return _check_syntax(str(request["source"]), str(request.get("mode", "exec")))
    if op == "load":
        return _load(str(request["code"]), int(request.get("maxTurns", 12)))
    if op == "renew":
        return _construct() if _state["cls"] is not None else _failure("bad_request", msg="nothing loaded")
    if op == "reset":
        return _reset(request.get("seed"))
    if op == "step":
        return _step(str(request["action"]))
    if op == "solution":
        return _solution()
    return _failure("bad_request", msg=f"unknown op {_text(op, _NAME_CHARS)!r}")


def _guarded(request):
    try:
        return _dispatch(request)
    except _TooLarge as big:
        return _failure("too_large", what=big.what, size=big.size, limit=big.limit)
    except MemoryError as exc:
        return _failure("memory", exc)
    except SystemExit as exc:
        return _failure("exit", exc)
    except BaseException as exc:
        return _failure("exception", exc)


def spade_harness_call(request_json):
    """Entry point for the host: one JSON request in, one JSON reply out."""
    import json

    try:
        request = json.loads(request_json)
        reply = _guarded(request) if isinstance(request, dict) else _failure("bad_request", msg="not an object")
    except BaseException as exc:
        reply = _failure("bad_request", exc)
    try:
        return _to_json(_plain(reply))
    except BaseException as exc:
        return _to_json(_failure("exception", exc))
