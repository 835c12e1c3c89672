"""`expected_tool_calls`: a JSON array of {"name": str, "arguments": object}. Check and repair."""

from __future__ import annotations

import ast
import json
import re

_TRAILING_COMMA = re.compile(r",(\s*[\]}])")
_ARG_ALIASES = ("args", "parameters", "params", "input")


def problem(text: str) -> str | None:
    """None when `text` is empty or a valid tool-call array; else what is wrong, in a few words."""
    if not text.strip():
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return f"not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
    return shape_problem(value)


def shape_problem(value: object) -> str | None:
    if not isinstance(value, list):
        return f"must be a JSON array of calls, not {_a(_kind(value))}"
    for i, call in enumerate(value, 1):
        if not isinstance(call, dict):
            return f"call {i} is {_a(_kind(call))}, not an object"
        if not isinstance(call.get("name"), str) or not call["name"].strip():
            return f"call {i} has no string \"name\""
        if "arguments" not in call:
            alias = next((a for a in _ARG_ALIASES if a in call), None)
            hint = f" (it has \"{alias}\")" if alias else ""
            return f"call {i} has no \"arguments\" object{hint}"
        if not isinstance(call["arguments"], dict):
            return f"call {i}: \"arguments\" is {_a(_kind(call['arguments']))}, not an object"
    return None


def parse(text: str) -> list[dict] | None:
    """The calls when valid (empty list for an empty cell), else None."""
    if problem(text) is not None:
        return None
    return json.loads(text) if text.strip() else []


def repair(text: str) -> str | None:
    """Repair common slips; return canonical JSON, or None when it cannot be repaired."""
    value = _lenient_load(text)
    if value is _FAILED:
        return None
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        return None
    fixed = []
    for call in value:
        if not isinstance(call, dict):
            return None
        call = dict(call)
        if "arguments" not in call:
            alias = next((a for a in _ARG_ALIASES if a in call), None)
            call["arguments"] = call.pop(alias) if alias else {}
        if isinstance(call["arguments"], str):
            inner = _lenient_load(call["arguments"])
            if isinstance(inner, dict):
                call["arguments"] = inner
        fixed.append(call)
    if shape_problem(fixed) is not None:
        return None
    return dumps(fixed)


def dumps(calls: list[dict]) -> str:
    return json.dumps(calls, ensure_ascii=False)


_FAILED = object()


def _lenient_load(text: str) -> object:
    for candidate in (text, _TRAILING_COMMA.sub(r"\1", text)):
        try:
            return json.loads(candidate)
        except json.JSONDecodeError:
            pass
        try:
            return _to_json_types(ast.literal_eval(candidate.strip()))
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            pass
    return _FAILED


def _to_json_types(value: object) -> object:
    if isinstance(value, tuple):
        value = list(value)
    if isinstance(value, list):
        return [_to_json_types(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _to_json_types(v) for k, v in value.items()}
    if isinstance(value, set):
        raise ValueError("a set is not JSON")
    return value


def _kind(value: object) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), "number")


def _a(noun: str) -> str:
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"
