"""JSON text as the editor writes it: UTF-8, 2-space indent, non-ASCII kept, keys in their given order."""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any


def dumps(obj: dict[str, Any]) -> bytes:
    """UTF-8 JSON, 2-space indent, non-ASCII kept (escaped only if the text holds lone surrogates).

    The same text as `json.dumps(obj, ensure_ascii=False, indent=2)`, about three times faster: the
    standard library indents with nested generators, which cost more the deeper the data (agent_data).
    """
    try:
        out: list[str] = []
        _encode(obj, "\n", out, encode_basestring)
        return ("".join(out) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(obj, ensure_ascii=True, indent=2) + "\n").encode("ascii")
    except _Unusual:
        return (json.dumps(obj, ensure_ascii=False, indent=2, allow_nan=False) + "\n").encode("utf-8")


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
    elif t is float and o == o and o not in (float("inf"), float("-inf")):
        out.append(float.__repr__(o))
    else:
        raise _Unusual()
