"""SPADE Lab sandbox harness: runs one untrusted environment inside its own Pyodide interpreter.

Every entry point takes and returns JSON text and never raises. It runs in the same private
namespace as encoding.py (which also gives it _failure and _line_of), which encodes the values the environment returns by exact type; sizes
are checked before any large string leaves Python, and the host checks them again. tool_use_env.py
shares the namespace too: one of its base classes is handed to every environment namespace as
ToolUseBaseEnv (the tab's aided one unless the load asks for the reference's).
"""

import builtins
import random
import traceback

_ENV_FILENAME = "<environment>"
_BASE_CLASS_NAMES = frozenset({"Env", "ToolUseBaseEnv"})

_PRELUDE = """
import itertools, math, random, re, json, collections, functools, string, copy, heapq, operator, statistics
from collections import deque, defaultdict, Counter, OrderedDict, namedtuple
from itertools import combinations, permutations, product, chain, accumulate
from functools import reduce, lru_cache
from copy import deepcopy
from heapq import heappush, heappop
from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple, Union
"""


_state = {"cls": None, "env": None, "code": None, "cap": 12, "aided": True, "max_chars": 100_000}


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
    return {"ok": True, "cls": _name(cls), "solution": has_solution(env)}


def _load(code, cap, aided):
    if _state["cls"] is not None:
        return _failure("bad_request", msg="this interpreter already ran an environment")
    try:
        compiled = compile(code, _ENV_FILENAME, "exec")
    except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
        return _failure("syntax", exc)
    _state["code"], _state["cap"], _state["aided"] = compiled, cap, aided
    return _run_module()


def _run_module():
    """Runs the environment's module in a namespace of its own, finds its class and builds an
    instance: every play gets a module run afresh, as the reference builds one per trajectory."""
    namespace = {"__name__": "spade_environment", "__builtins__": builtins}
    exec(compile(_PRELUDE, "<prelude>", "exec"), namespace)
    namespace["ToolUseBaseEnv"] = base_class(_state["aided"])
    try:
        exec(_state["code"], namespace)
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
    _state["cls"] = cls
    return _construct()


def _env():
    if _state["env"] is None:
        raise LookupError("no environment instance is loaded in this interpreter")
    return _state["env"]


def _reset(seed, coerce):
    env = _env()
    if seed is not None:
        random.seed(seed)
    result = env.reset(seed=seed)
    value = _converted_reset(result) if coerce else result
    return {"ok": True, "value": _encode_result(value, ["observation", "info"], _state["max_chars"])}


def _numeric_info(info):
    """The reference's info filter: numbers, bools and None stay, strings go, anything else is kept as float() of it or left out.
    It reads the dict through its own isinstance() and items(), so a subclass's items() (or a class that claims
    to be a dict) is called as the reference calls it."""
    if not isinstance(info, dict):
        return {}
    kept = {}
    for key, value in info.items():
        if isinstance(value, (int, float, bool, type(None))):
            kept[key] = value
        elif not isinstance(value, str):
            try:
                kept[key] = float(value)
            except (ValueError, TypeError):
                pass
    return kept


class _NotFiveItems:
    """A tuple whose len() is not 5 although it holds another number of items: the reference calls it an
    invalid game response. The host is shown its class and len(), not its items, so it refuses it."""

    def __init__(self, result, length):
        self.cls, self.length = _name(result), length


def _converted(result):
    """A 5-tuple step return converted as the reference's wrapper converts it (docs/method.md section 5,
    "Odd step returns"); anything else is returned as it is, for the host to refuse. It asks isinstance(),
    len() and unpacking, as the wrapper does, so a tuple subclass's __len__ and __iter__ (or an object that
    claims to be a tuple) are called just as there. A conversion that raises raises here, as it does in the
    wrapper, and the host reads it as the step's exception."""
    if not isinstance(result, tuple):
        return result
    length = len(result)
    if length != 5:
        return _NotFiveItems(result, length) if _is(result, tuple) and tuple.__len__(result) != length else result
    obs, reward, terminated, truncated, info = result
    return (
        "No observation" if obs is None else str(obs),
        0.0 if reward is None else float(reward),
        False if terminated is None else bool(terminated),
        False if truncated is None else bool(truncated),
        _numeric_info(info if isinstance(info, dict) else {}),
    )


def _converted_reset(result):
    """A reset return converted as the reference's wrapper converts it (docs/method.md section 5, "Odd
    reset returns"): a tuple whose len() is 2 is unpacked as (observation, info), a str is the observation
    with an empty info, anything else is str() of it; the info goes through the numeric filter. The
    wrapper leaves a pair's observation as it is and the agent's prompt writes it with format(), so the
    observation is format() of it. Always an (str, dict) pair; a conversion that raises raises here, as the
    reset's exception, which the reference's wrapper catches as it catches the game's own."""
    if isinstance(result, tuple) and len(result) == 2:
        obs, info = result
    elif isinstance(result, str):
        obs, info = result, {}
    else:
        obs, info = str(result), {}
    return format(obs, ""), _numeric_info(info)


def _step(action, coerce):
    names = ["observation", "reward", "terminated", "truncated", "info"]
    result = _env().step(action)
    value = _converted(result) if coerce else result
    if type(value) is _NotFiveItems:
        return {"ok": True, "value": ["o", value.cls, f"a tuple whose len() is {value.length}"]}
    return {"ok": True, "value": _encode_result(value, names, _state["max_chars"])}


def _execute_tool(name, arguments):
    return {"ok": True, "value": _encode(_env().execute_tool(name, arguments), "tool result", _state["max_chars"])}


def _solution():
    env = _env()
    if not has_solution(env):
        return {"ok": True, "value": ["n"]}
    return {"ok": True, "value": _encode(env.solution(), "solution", _state["max_chars"])}


def _close():
    """Calls the environment's close() when it has one, as the reference does when it is done with an environment."""
    close = getattr(_env(), "close", None)
    if callable(close):
        close()
    return {"ok": True, "value": ["n"]}


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
        return _load(str(request["code"]), int(request.get("maxTurns", 12)), request.get("toolBaseAids", True) is not False)
    if op == "renew":
        return _run_module() if _state["cls"] is not None else _failure("bad_request", msg="nothing loaded")
    if op == "reset":
        return _reset(request.get("seed"), request.get("coerce") is True)
    if op == "step":
        return _step(str(request["action"]), request.get("coerce") is True)
    if op == "solution":
        return _solution()
    if op == "tool":
        arguments = request.get("arguments")
        return _execute_tool(str(request.get("name", "")), dict(arguments) if isinstance(arguments, dict) else {})
    if op == "close":
        return _close()
    if op == "inspect":
        return {"ok": True, "value": _encode(tool_use_facts(_env()), "tool facts", _state["max_chars"])}
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


_WARM_UP = """
class WarmUpEnv:
    def __init__(self, max_turns=12):
        self.max_turns = max_turns
    def reset(self, seed=None):
        self.secret = random.Random(seed).randint(1, 9)
        return f"Guess the digit as \\\\boxed{{n}} ({self.max_turns} turns).", {"seed": seed}
    def step(self, action):
        match = re.search(r"\\\\boxed\\{([^{}]*)\\}", action)
        won = bool(match) and match.group(1) == str(self.secret)
        return "Correct!" if won else "Wrong.", 1.0 if won else 0.0, won, False, {"guess": action}
"""


def spade_warm_up():
    """Runs a typical environment once in a throwaway namespace, so a fresh interpreter's first real calls are not slow."""
    namespace = {"__name__": "spade_warm_up", "__builtins__": builtins}
    exec(compile(_PRELUDE, "<prelude>", "exec"), namespace)
    exec(compile(_WARM_UP, _ENV_FILENAME, "exec"), namespace)
    env = _instantiate(_find_env_class(namespace), 12)
    replies = [_encode_result(env.reset(seed=3), ["observation", "info"], 1000)]
    replies += [_encode_result(env.step(f"\\boxed{{{n}}}"), ["observation", "reward", "terminated", "truncated", "info"], 1000) for n in range(10)]
    _check_syntax("x = 1", "exec")
    _to_json({"ok": True, "value": replies})


def spade_harness_call(request_json):
    """Entry point for the host: one JSON request in, one JSON reply out."""
    import json

    try:
        request = json.loads(request_json)
        reply = _guarded(request) if isinstance(request, dict) else _failure("bad_request", msg="not an object")
    except BaseException as exc:
        reply = _failure("bad_request", exc)
    # Replies are plain by construction (the encoders copy every value to its exact base type), so
    # they are not walked again: _to_json refuses anything else, which becomes an exception reply.
    try:
        return _to_json(reply)
    except BaseException as exc:
        return _to_json(_failure("exception", exc))
