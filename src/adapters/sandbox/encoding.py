"""SPADE Lab sandbox value encoding, loaded with the harness into the same private namespace.

Values are encoded by exact type, never by type name: ["s", text] only for real strings (a str
subclass is copied to a plain str and measured with str.__len__), ["b", flag] only for real
bools, ["i"|"f", number] for ints and floats, ["d", plain data] for dicts, ["t", items] for
tuples, ["n"] for None, and ["o", class name, repr] for anything else (the name is for messages
only). Reply text is built here from C primitives captured at start-up, not by the json module.
"""

import _json
import math

_NAME_CHARS = 100
_MSG_CHARS = 2000
_REPR_CHARS = 200
_INFO_DEPTH = 20  # levels of lists and dicts an info dict keeps, itself the first (sandbox-limits.ts)
_quote = _json.encode_basestring_ascii
_str_of, _len_of = str.__str__, str.__len__


def _is(value, cls):
    """Exact-type test that an object's `__class__` cannot fake."""
    return issubclass(type(value), cls)


class _TooLarge(Exception):
    def __init__(self, what, size, limit):
        super().__init__(what)
        self.what, self.size, self.limit = what, size, limit


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
    if depth < _INFO_DEPTH and _is(value, (list, tuple)):
        items = list.__iter__(value) if _is(value, list) else tuple.__iter__(value)
        return [_plain(item, depth + 1) for item in items]
    if depth < _INFO_DEPTH and _is(value, dict):
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
        return "[" + ",".join([_to_json(item) for item in data]) + "]"
    if type(data) is dict:
        return "{" + ",".join([_quote(key) + ":" + _to_json(item) for key, item in dict.items(data)]) + "}"
    raise TypeError("harness encoder got a non-plain value")


def _encode(value, what, limit):
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


def _encode_result(value, names, limit):
    if _is(value, tuple):
        items = list(tuple.__iter__(value))
        return ["t", [_encode(item, names[i] if i < len(names) else f"item {i}", limit) for i, item in enumerate(items)]]
    return _encode(value, names[0], limit)
