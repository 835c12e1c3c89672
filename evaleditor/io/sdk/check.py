"""Check SDK JSON against the shape of `EvaluationDataset` (sdk/schema.py) without importing the SDK.

`clean` returns a copy in snake_case (camelCase aliases are renamed only where the SDK declares a
field; free-form objects such as function-call arguments keep their keys) and reports every value the
SDK would reject, with its path (`eval_cases.3.prompt.parts.0`). A rejected value is left out of the
copy, which the editor reads (what it shows and checks has the SDK's shape); `kept_values` gives the
fields that held one as read, which a save writes back as they were (nothing is lost: the SDK's error
stays until the user fixes it). It accepts what the SDK's pydantic models accept in Python mode (e.g.
"2" for an int, "yes" for a bool), so a valid file is never altered.

`is_clean` answers, much faster, whether `clean` would give back the value unchanged: opening a big
file checks every case that way first and cleans (copies, with paths) only the ones that are not.
"""

from __future__ import annotations

import base64
import binascii
import datetime as _dt
import re
from collections.abc import Callable
from typing import Any

from evaleditor.io.sdk.schema import EXTRA_ALLOWED, MODELS

DROP = object()  # a value the SDK would reject: left out of the cleaned copy
Errors = list[tuple[str, str]]  # (path, message)
KEPT = " (kept as it is on save as SDK JSON)"  # ends the message of a value left out of the cleaned copy only

_ALIASES = {model: {alias: name for name, (alias, _) in fields.items() if alias != name}
            for model, fields in MODELS.items()}
_INT = re.compile(r"\s*[+-]?\d+\s*")
_TRUE = {"1", "on", "t", "true", "y", "yes"}
_FALSE = {"0", "off", "f", "false", "n", "no"}


def kind(value: object) -> str:
    """The JSON name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def field_name(model: str, key: str) -> str | None:
    """The snake_case field `key` stands for in `model` (its name or its camelCase alias), or None."""
    if key in MODELS[model]:
        return key
    return _ALIASES[model].get(key)


def join(path: str, key: object) -> str:
    return f"{path}.{key}" if path else str(key)


def clean(value: Any, spec: object, path: str, errors: Errors) -> Any:
    """A checked copy of `value` as the SDK type `spec`, or DROP when the SDK would reject it."""
    if isinstance(spec, tuple):
        what = spec[0]
        if what == "list":
            if not isinstance(value, list):
                _reject(errors, path, f"expected an array, got {_show(value)}")
                return DROP
            out = []
            for i, item in enumerate(value):
                item = clean(item, spec[1], join(path, i), errors)
                if item is not DROP:
                    out.append(item)
            return out
        if what == "dict":
            if not isinstance(value, dict):
                _reject(errors, path, f"expected an object, got {_show(value)}")
                return DROP
            out_map = {}
            for key, item in value.items():
                if spec[1] == "any":
                    out_map[key] = item
                    continue
                item = clean(item, spec[1], join(path, key), errors)
                if item is not DROP:
                    out_map[key] = item
            return out_map
        if what == "literal":
            if value in spec[1]:
                return value
            _reject(errors, path, f"expected one of {', '.join(map(repr, spec[1]))}, got {_show(value)}")
            return DROP
        raise ValueError(f"unknown type {spec!r}")  # pragma: no cover - the schema is generated
    if spec in MODELS:
        return clean_model(value, spec, path, errors)
    problem = _primitive_problem(value, spec)
    if problem:
        _reject(errors, path, problem)
        return DROP
    return value


def clean_model(value: Any, model: str, path: str, errors: Errors) -> Any:
    """A checked snake_case copy of the object `value` as the SDK model `model` (None values left out)."""
    if not isinstance(value, dict):
        _reject(errors, path, f"expected an object ({model}), got {_show(value)}")
        return DROP
    fields = MODELS[model]
    aliases = _ALIASES[model]
    out: dict[str, Any] = {}
    spelt: dict[str, str] = {}  # a field's name -> the key it was read from
    for key, item in value.items():
        name = key if key in fields else aliases.get(key)
        if name is None:
            if model in EXTRA_ALLOWED:
                if item is not None:
                    out[key] = item
            else:
                _reject(errors, join(path, key), f"unknown key {key!r} in {model}")
            continue
        if item is None:  # as if absent (a save leaves nulls out): not a second value of the field
            continue
        if name in spelt:
            errors.append((join(path, key), f"{name!r} is given twice (as {spelt[name]!r} and {key!r}); the table "
                                            f"reads the first{KEPT}"))
            continue
        spelt[name] = key
        spec = fields[name][1]
        if _FAST.get(spec) is type(item):  # the common case, checked without a call
            out[name] = item
            continue
        item = clean(item, spec, join(path, name), errors)
        if item is not DROP:
            out[name] = item
    return out


_FAST = {"str": str, "enum": str, "int": int, "bool": bool, "float": float}


class _Never:
    """A type no JSON value has: a field whose type needs a real check."""


Check = Callable[[Any], bool]


def is_clean(value: Any, model: str, but: str | None = None) -> bool:
    """Whether `clean_model(value, model, …)` would report nothing and return a value equal to `value`
    (no alias renamed, no null left out), so `value` itself can stand for the checked copy.

    `but`: a field whose value is not looked at (beyond not being null), for a caller that can tell
    more cheaply whether it is clean (the reader compares agent_data with what the writer makes)."""
    if but is None:
        return _MODEL_CHECKS[model](value)
    check = _BUT.get((model, but))
    if check is None:
        table = {name: entry for name, entry in _TABLES[model].items() if name != but}
        check = _BUT[(model, but)] = _model_check(model, table, but)
    return check(value)


def _model_check(model: str, table: dict[str, tuple[type, Check]], skip: str | None = None) -> Check:
    extra = model in EXTRA_ALLOWED
    aliases = frozenset(_ALIASES[model])

    def check(value: Any) -> bool:
        if type(value) is not dict:
            return False
        for key, item in value.items():
            entry = table.get(key)
            if entry is None:
                if item is not None and ((extra and key not in aliases) or key == skip):
                    continue  # an extra key, kept as it is (or the field not looked at)
                return False
            if type(item) is not entry[0] and (item is None or not entry[1](item)):
                return False
        return True

    return check


def _check_of(spec: object) -> tuple[type, Check]:
    """(the type that needs no further look, the check of a value of any other type) for `spec`."""
    if isinstance(spec, tuple):
        if spec[0] == "literal":
            values = spec[1]
            return _Never, lambda v: v in values
        container = list if spec[0] == "list" else dict
        if spec[1] == "any":
            return _Never, lambda v: type(v) is container
        fast, item = _check_of(spec[1])
        if container is list:
            if fast is _Never:
                return _Never, lambda v: type(v) is list and all(map(item, v))
            return _Never, lambda v: type(v) is list and all(type(x) is fast or item(x) for x in v)
        if fast is _Never:
            return _Never, lambda v: type(v) is dict and all(map(item, v.values()))
        return _Never, lambda v: type(v) is dict and all(type(x) is fast or item(x) for x in v.values())
    if spec in MODELS:
        return _Never, _MODEL_CHECKS[spec]  # type: ignore[index]
    return _FAST.get(spec, _Never), lambda v: _primitive_problem(v, spec) is None  # type: ignore[arg-type]


_TABLES: dict[str, dict[str, tuple[type, Check]]] = {model: {} for model in MODELS}
_MODEL_CHECKS = {model: _model_check(model, _TABLES[model]) for model in MODELS}
_BUT: dict[tuple[str, str], Check] = {}
for _model, _fields in MODELS.items():  # filled once every model has its check (the types nest)
    _TABLES[_model].update((_name, _check_of(_spec)) for _name, (_, _spec) in _fields.items())


def _reject(errors: Errors, path: str, message: str) -> None:
    errors.append((path, message + KEPT))


def kept_values(raw: dict[str, Any], model: str, path: str, errors: Errors) -> dict[str, Any]:
    """The keys of `raw` (the object at `path`, checked as `model` with `errors`) whose value holds
    something the cleaned copy leaves out, each with its value as read: a field by its snake_case name,
    an unknown key as it is; a field given twice (by its name and its alias) under both, as read."""
    out: dict[str, Any] = {}
    prefix = path + "." if path else ""
    for where, message in errors:
        if not message.endswith(KEPT) or not where.startswith(prefix):
            continue
        rest = where[len(prefix):]
        key = rest if rest in raw else next((k for k in raw if rest.startswith(k + ".")), None)
        name = field_name(model, key) if key is not None else rest.split(".", 1)[0]  # a path names a field so
        if name is None:
            out[key] = raw[key]  # an unknown key
            continue
        spellings = [k for k in raw if field_name(model, k) == name]
        if len(spellings) == 1:
            out[name] = raw[spellings[0]]
        else:
            out.update((k, raw[k]) for k in spellings)
    return out


def _show(value: object) -> str:
    text = kind(value)
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        text += f" {shown}"
    return text


def _primitive_problem(value: Any, spec: object) -> str | None:
    ok: bool
    if spec == "any":
        return None
    if spec in ("str", "enum"):
        ok = isinstance(value, str)
        want = "a string"
    elif spec == "int":
        ok = (isinstance(value, int) or (isinstance(value, float) and value.is_integer())
              or (isinstance(value, str) and _INT.fullmatch(value) is not None))
        want = "a whole number"
    elif spec == "float":
        ok = isinstance(value, (int, float)) or (isinstance(value, str) and _is_float(value))
        want = "a number"
    elif spec == "bool":
        ok = (isinstance(value, bool) or (isinstance(value, (int, float)) and value in (0, 1))
              or (isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE))
        want = "true or false"
    elif spec == "bytes":
        ok = isinstance(value, str) and _is_base64(value)
        want = "base64 text"
    elif spec == "datetime":
        ok = (isinstance(value, (int, float)) and not isinstance(value, bool)) or (
            isinstance(value, str) and _is_datetime(value))
        want = "a date and time (ISO 8601)"
    elif spec == "records":
        ok = isinstance(value, list) and all(isinstance(r, dict) for r in value)
        want = "an array of row objects"
    else:  # pragma: no cover - the schema is generated
        raise ValueError(f"unknown type {spec!r}")
    return None if ok else f"expected {want}, got {_show(value)}"


def _is_float(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _is_base64(text: str) -> bool:
    for decode in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            decode(text.encode("ascii"), validate=True) if decode is base64.b64decode else decode(text)
            return True
        except (binascii.Error, ValueError, UnicodeEncodeError):
            continue
    return False


def _is_datetime(text: str) -> bool:
    s = text.strip()
    if _is_float(s):
        return True
    try:
        _dt.datetime.fromisoformat(s[:-1] + "+00:00" if s.endswith(("Z", "z")) else s)
    except ValueError:
        return False
    return True
