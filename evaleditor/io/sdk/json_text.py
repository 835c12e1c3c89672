"""JSON text as the editor writes it: UTF-8, 2-space indent, non-ASCII kept, keys in their given order."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any


class ReprFloat(float):
    """A float that orjson spells otherwise than json.dumps: under 1e-4 (0.00001 / 1.5e-7 where repr
    says 1e-05 / 1.5e-07) or not finite (null where json refuses it). From 1e16 up orjson (from 3.11.7,
    our floor) writes repr's text, 1e+16 (tests/io/test_sdk_json.py checks floats of every exponent).
    Every float the editor reads (`read_float`: the SDK reader, the recovery journal) or makes from
    text (an edited extra, a tool call's arguments) is marked so where it enters; orjson refuses a
    float subclass, so an object holding one is written by the json module's rules (`dumps_marked`),
    and nothing scans the output."""

    __slots__ = ()


def read_float(text: str) -> float:
    """`float(text)`, marked (ReprFloat) when orjson would spell it otherwise: a JSON decoder's
    `parse_float`, called for the rare float of a file."""
    return marked(float(text))


def read_constant(name: str) -> float:
    """NaN, Infinity, -Infinity (the json module's `parse_constant`), marked: never written as null."""
    return ReprFloat(name)


def marked(value: float) -> float:
    """`value`, as a ReprFloat when orjson would spell it otherwise than repr."""
    if not math.isfinite(value) or (value and abs(value) < 1e-4):
        return ReprFloat(value)
    return value


def dumps(obj: dict[str, Any]) -> bytes:
    """UTF-8 JSON, 2-space indent, non-ASCII kept (escaped only if the text holds lone surrogates):
    the same bytes as `json.dumps(obj, ensure_ascii=False, indent=2) + "\\n"`, for any object.

    orjson writes them (0.5 s for 100k conversation cases, which took the pure-Python encoder below
    8 s) except where its text would differ: it cannot encode a lone surrogate, an integer beyond 64
    bits, a key that is not a string or a float subclass (it raises), it writes NaN as null where json
    refuses it, and a float under 1e-4 as 0.00001 / 1.5e-7 where repr says 1e-05 / 1.5e-07. Output
    that could hold either (`_may_differ`) is made again by the encoder below."""
    fast = _orjson_dumps(obj)
    if fast is not None and not _may_differ(fast):
        return fast
    return _exact(obj)


def dumps_marked(obj: dict[str, Any]) -> tuple[bytes, bool]:
    """`dumps` of an object whose every float orjson would spell otherwise is a ReprFloat (as the
    editor's are, from where they entered), without scanning the output: (bytes, by_orjson).
    `by_orjson`: orjson wrote them, so they parse back to `obj`: orjson writes every value it takes
    exactly, and what it would spell otherwise (a ReprFloat), or cannot write, went to the json
    module's rules instead."""
    fast = _orjson_dumps(obj)
    if fast is not None:
        return fast, True
    return _exact(obj), False


def _exact(obj: dict[str, Any]) -> bytes:
    """json.dumps's bytes, by the encoder below (or the json module for what it leaves)."""
    try:
        out: list[str] = []
        _encode(obj, "\n", out, encode_basestring)
        return ("".join(out) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(obj, ensure_ascii=True, indent=2) + "\n").encode("ascii")
    except _Unusual:
        return (json.dumps(obj, ensure_ascii=False, indent=2, allow_nan=False) + "\n").encode("utf-8")


def _orjson_dumps(obj: Any) -> bytes | None:
    try:
        import orjson
    except ImportError:  # no wheel for this platform
        return None
    try:
        return orjson.dumps(obj, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)  # one buffer, not copied
    except (TypeError, orjson.JSONEncodeError):
        return None


_DIGITS = b"0123456789"


def _may_differ(data: bytes) -> bool:
    """Whether orjson's `data` may hold a NaN (written null) or a float under 1e-4 (written otherwise
    than repr): a ` null`, a `0.0000`, or `e-` between digits anywhere, strings included (then the
    slower encoder runs, which is never wrong). Each looked for at memchr speed. A cell reading
    "null" (common: the literal-null-text rule) is `"null"` in the JSON and does not count."""
    if b" null" in data or b"0.0000" in data:  # a null value follows ": " or indentation; text "null" a quote
        return True
    at = data.find(b"e-")
    while at != -1:
        if at and data[at - 1] in _DIGITS and data[at + 2:at + 3].isdigit():
            return True
        at = data.find(b"e-", at + 2)
    return False


class _Unusual(Exception):
    """A value the fast encoder leaves to the json module (a non-string key, NaN, another type)."""


def _encode(o: Any, nl: str, out: list[str], string: Callable[[str], str]) -> None:
    t = type(o)
    if t is str:
        out.append(string(o))
    elif t is dict:
        if not o:
            out.append("{}")
            return
        inner = nl + "  "
        sep = "{" + inner
        for key, value in o.items():
            if type(key) is not str:
                raise _Unusual()
            out.append(sep)
            out.append(string(key))
            out.append(": ")
            _encode(value, inner, out, string)
            sep = "," + inner
        out.append(nl + "}")
    elif t is list:
        if not o:
            out.append("[]")
            return
        inner = nl + "  "
        sep = "[" + inner
        for value in o:
            out.append(sep)
            _encode(value, inner, out, string)
            sep = "," + inner
        out.append(nl + "]")
    elif o is None:
        out.append("null")
    elif o is True:
        out.append("true")
    elif o is False:
        out.append("false")
    elif t is int:
        out.append(int.__repr__(o))
    elif (t is float or t is ReprFloat) and math.isfinite(o):
        out.append(float.__repr__(o))
    else:
        raise _Unusual()
