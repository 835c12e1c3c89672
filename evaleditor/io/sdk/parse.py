"""Parse an SDK JSON file and split its root into the cases and the rest (sdk/read.py).

The reasons given for a file that cannot be read are json.loads's on the file's bytes, word for word;
the bytes are decoded first and dropped, so that a big file's bytes and text are not both held while
it is parsed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from evaleditor.core.errors import ReadError
from evaleditor.core.i18n import N_
from evaleditor.io.sdk.check import Errors, clean_model, field_name, join, kept_values, kind
from evaleditor.io.sdk.json_text import read_float
from evaleditor.io.sdk.schema import ROOT

NOT_SDK = "not an SDK EvaluationDataset: "


def decode_text(path: object, data: bytes) -> str:
    """The file's text, decoded as json.loads decodes bytes (UTF-8, or UTF-16/32 by their BOM)."""
    try:
        return data.decode(json.detect_encoding(data), "surrogatepass")
    except UnicodeDecodeError:
        raise ReadError(path, N_("not valid JSON: the file is not UTF-8 text (binary data?)")) from None


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


class RootObject(dict):
    """The root object of a file that gives a key more than once: `duplicates` holds, for each such key,
    the values given before the last (the last wins, as in every JSON reader and the SDK)."""

    duplicates: dict[str, list[Any]]


_SPACE = re.compile(r"[ \t\n\r]*")


def _root_object(decoder: json.JSONDecoder, text: str) -> dict[str, Any] | None:
    """The root object parsed key by key (each value at C speed, as fast as the whole), a RootObject
    when some key is given twice; None when the root is not a well-formed object (then parsing the
    whole says why, in json's words)."""
    from json.decoder import scanstring

    space = _SPACE.match
    i = space(text, 0).end()
    if not text.startswith("{", i):
        return None
    pairs: list[tuple[str, Any]] = []
    i = space(text, i + 1).end()
    try:
        while not text.startswith("}", i) or pairs:
            if text[i] != '"':
                return None
            key, i = scanstring(text, i + 1)
            i = space(text, i).end()
            if text[i] != ":":
                return None
            value, i = decoder.raw_decode(text, space(text, i + 1).end())
            pairs.append((key, value))
            i = space(text, i).end()
            if text[i] == "}":
                break
            if text[i] != ",":
                return None
            i = space(text, i + 1).end()
    except (ValueError, IndexError):
        return None
    if space(text, i + 1).end() != len(text):
        return None
    root = RootObject(pairs)
    if len(root) == len(pairs):
        return dict(root)
    root.duplicates = {}
    for key, value in pairs[:-1]:
        if root[key] is not value:
            root.duplicates.setdefault(key, []).append(value)
    return root


Repeats = dict[int, tuple[dict[str, Any], dict[str, list[Any]]]]  # id(object) -> (object, key -> values)


def parse_json(path: object, data: bytes | str, repeats: Repeats | None = None) -> Any:
    """The parsed JSON of `data` (bytes, or text from `decode_text`), as json.loads(bytes) parses it.
    A root object that gives a key twice is a RootObject saying so (`duplicates`). Given `repeats`,
    every other object that gives a key twice is put in it, with the values given for that key
    (the object holds the last: parsing so is a third slower, see `REPEATS_CHECKED_UP_TO`)."""
    text = decode_text(path, data) if isinstance(data, bytes) else data
    try:
        # json.loads(text) would refuse a BOM left after decoding; a decoder of its own per call, as
        # json.loads makes (the scanner's memo is not to be shared between threads); a float orjson
        # would spell otherwise is marked (json_text.ReprFloat), so that a save writes it as read
        decoder = json.JSONDecoder(parse_constant=_constant, parse_float=read_float,
                                   object_pairs_hook=None if repeats is None else _noting(repeats))
        root = _root_object(decoder, text)
        return root if root is not None else decoder.decode(text)
    except json.JSONDecodeError as err:
        raise ReadError(path, f"not valid JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
    except RecursionError:
        raise ReadError(path, N_("not valid JSON: nested too deeply")) from None
    except ValueError as err:
        raise ReadError(path, f"not valid JSON: {' '.join(str(err).split())}") from None


# Finding the objects inside the root that give a key twice takes json's pairs hook, which makes
# parsing a third slower (the C parser then builds a list of pairs for every object, measured on the
# 100k-case bench file: 10.1 s -> 13.1 s CPU) and no cheaper test was found (counting the text's `":`
# and the keys read costs 15% of the read); so they are looked for in files up to this size only, whose
# reading this costs at most a tenth of a second
REPEATS_CHECKED_UP_TO = 16 * 2**20


def _noting(repeats: Repeats) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)  # the last value of a key given twice, at its first place, as json.loads makes
        if len(obj) != len(pairs):
            given: dict[str, list[Any]] = {}
            for key, value in pairs:
                given.setdefault(key, []).append(value)
            repeats[id(obj)] = (obj, {k: v for k, v in given.items() if len(v) > 1})
        return obj
    return pairs_hook


def repeated_keys(data: Any, repeats: Repeats) -> list[tuple[str, str, list[Any]]]:
    """(path of the object, key, values given) for each key given twice in an object of `data` found
    by `parse_json(..., repeats)`, in the file's order (the objects are looked for only when some are)."""
    out: list[tuple[str, str, list[Any]]] = []
    if not repeats:
        return out
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            if id(value) in repeats:  # (each object found is held there: its id is not reused)
                out += [(path, key, values) for key, values in repeats[id(value)][1].items()]
            stack += reversed([(join(path, k), v) for k, v in value.items()])
        elif isinstance(value, list):
            stack += reversed([(join(path, i), v) for i, v in enumerate(value)])
    return out


def split_root(path: object, data: Any, errors: Errors) -> tuple[list[Any], dict[str, Any] | None]:
    """The raw cases and the root's other keys (checked: each holding what the SDK rejects as read,
    written back so)."""
    if isinstance(data, list):
        if data and not any(isinstance(c, dict) for c in data):
            raise ReadError(path, NOT_SDK + "the JSON is an array of non-objects")
        errors.append(("", 'the root is an array; the SDK wants an object {"eval_cases": [...]} '
                           "(it is saved so)"))
        return data, None
    if not isinstance(data, dict):
        raise ReadError(path, NOT_SDK + f'the JSON is a {kind(data)}, not an object with "eval_cases"')
    if data and not any(field_name(ROOT, k) for k in data):
        keys = ", ".join(k if len(k) <= 40 else k[:39] + "…" for k in list(data)[:5]) + (" …" if len(data) > 5 else "")
        raise ReadError(path, NOT_SDK + f'no "eval_cases" (keys: {keys})')
    cases: list[Any] | None = None
    document: dict[str, Any] = {}
    rest = {}
    second: dict[str, Any] = {}
    for key, value in data.items():
        if field_name(ROOT, key) == "eval_cases":
            if cases is not None:  # the other spelling: its cases are not read, but written back as read
                errors.append((key, "eval_cases is given twice (as eval_cases and evalCases): the first is read, "
                                    "the second is not, and a save as SDK JSON writes it back as it is"))
                second[key] = value
            elif value is not None and not isinstance(value, list):
                raise ReadError(path, NOT_SDK + f"eval_cases is {_a(kind(value))}, not an array")
            else:
                cases = value or []
        else:
            rest[key] = value
    document.update(clean_model(rest, ROOT, "", errors))
    document.update(kept_values(rest, ROOT, "", errors))
    document.update(second)  # eval_cases here: the cases were read from evalCases (write.sdk_root)
    return cases or [], document or None


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def duplicate_key_messages(data: Any) -> list[str]:
    """What to say about each root key that `data` (from parse_json) gives more than once."""
    return [repeated_key_message(key, [*earlier, data[key]], root=True)
            for key, earlier in getattr(data, "duplicates", {}).items()]


def repeated_key_message(key: str, values: list[Any], root: bool = False) -> str:
    """What to say about a key given with each of `values` in one object (`root`: the file's)."""
    told = [f"{len(v):,} case{'' if len(v) == 1 else 's'}" if root and isinstance(v, list)
            and field_name(ROOT, key) == "eval_cases" else kind(v) for v in values]
    return (f'the key "{key}" is given {len(values)} times ({", then ".join(told)}): only the last is read, '
            "as the SDK reads it; the others are left out and a save does not keep them")
