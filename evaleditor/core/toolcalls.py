"""`expected_tool_calls`: a JSON array of {"name": str, "arguments": object}. Check and repair."""

from __future__ import annotations

import ast
import json
import re

from evaleditor.core.i18n import N_, Msg

_TRAILING_COMMA = re.compile(r",(\s*[\]}])")
_SCAN = json.JSONDecoder().scan_once  # json.loads without its Python-level wrapping: opening a file
_JSON_SPACE = " \t\n\r"  # checks tens of thousands of cells
_ARG_ALIASES = ("args", "parameters", "params", "input")
# The form json.dumps writes most calls in - [{"name": "...", "arguments": {"key": value, ...}}, ...] with
# values that are strings without escapes, numbers, true, false or null - matched without parsing. Only
# valid arrays match (a name that is not blank; strings without a control character, which JSON
# forbids raw); anything else is parsed.
def _plain_calls(digit: str, blank: str) -> str:
    """The pattern of that form, with `digit` for a digit and `blank` for what a name needs one character
    besides (both classes' contents)."""
    string = r'"[^"\\\x00-\x1f]*"'
    value = rf'(?:{string}|-?(?:0|[1-9][{digit}]*)(?:\.[{digit}]+)?(?:[eE][-+]?[{digit}]+)?|true|false|null)'
    args = rf'\{{(?:{string}: {value}(?:, {string}: {value})*)?\}}'
    call = rf'\{{"name": "[^"\\\x00-\x1f]*[^"\\{blank}\x00-\x1f][^"\\\x00-\x1f]*", "arguments": {args}\}}'
    return rf"\[{call}(?:, {call})*\]"


# a digit is ASCII's only (json.loads refuses others, which `\d` matches); a name needs a character that
# str.strip (shape_problem's blank name) keeps: `\s` is str.isspace's
PLAIN_CALLS = re.compile(_plain_calls("0-9", r"\s"))
# PLAIN_CALLS less its non-ASCII name characters: a pattern RE2 (pyarrow's regexes) reads as Python does,
# each of whose matches PLAIN_CALLS matches too (io/text/arrow_report.py filters with it)
PLAIN_CALLS_ASCII = _plain_calls("0-9", "\x20\x7f-\U0010ffff")


def problem(text: str) -> str | None:
    """None when `text` is empty or a valid tool-call array; else what is wrong, in a few words (English)."""
    found = problem_msg(text)
    return None if found is None else str(found)


def problem_msg(text: str) -> Msg | None:
    """`problem` as a message not yet rendered (core/i18n.py): translated when shown."""
    if not text.strip():
        return None
    body = text.strip(_JSON_SPACE)
    if PLAIN_CALLS.fullmatch(body) is not None:
        return None  # the usual form, known valid without parsing it (half of a big file's cells)
    try:
        value, end = _SCAN(body, 0)
    except (StopIteration, json.JSONDecodeError, RecursionError):
        end = -1
    if end == len(body):
        return shape_problem(value)
    try:  # not valid: json.loads says why, in its words
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return Msg(N_("not valid JSON ({error} at line {line}, column {column})"),
                   (("error", _JSON_ERRORS.get(exc.msg, exc.msg)), ("line", exc.lineno), ("column", exc.colno)))
    except RecursionError:
        return Msg(N_("nested too deeply to read"))
    return shape_problem(value)


# the json module's reasons (its C scanner's too), translated when shown; any other stays as it is.
# Two end in "at", which our "… at line 1, column 4" already says.
_JSON_ERRORS = {m: Msg(m) for m in (
    N_("Expecting value"), N_("Expecting property name enclosed in double quotes"), N_("Expecting ':' delimiter"),
    N_("Expecting ',' delimiter"), N_("Invalid \\escape"), N_("Invalid \\uXXXX escape"), N_("Extra data"),
    N_("Illegal trailing comma before end of object"), N_("Illegal trailing comma before end of array"))}
_JSON_ERRORS["Unterminated string starting at"] = Msg(N_("Unterminated string"))
_JSON_ERRORS["Invalid control character at"] = Msg(N_("Invalid control character"))


def shape_problem(value: object) -> Msg | None:
    if not isinstance(value, list):
        return Msg(N_("must be a JSON array of calls, not {kind}"), (("kind", _a_kind(value)),))
    for i, call in enumerate(value, 1):
        if not isinstance(call, dict):
            return Msg(N_("call {i} is {kind}, not an object"), (("i", i), ("kind", _a_kind(call))))
        if not isinstance(call.get("name"), str) or not call["name"].strip():
            return Msg(N_('call {i} has no string "name"'), (("i", i),))
        if "arguments" not in call:
            alias = next((a for a in _ARG_ALIASES if a in call), None)
            if alias:
                return Msg(N_('call {i} has no "arguments" object (it has "{alias}")'), (("i", i), ("alias", alias)))
            return Msg(N_('call {i} has no "arguments" object'), (("i", i),))
        if not isinstance(call["arguments"], dict):
            return Msg(N_('call {i}: "arguments" is {kind}, not an object'), (("i", i), ("kind", _a_kind(call["arguments"]))))
    return None


def parse(text: str) -> list[dict] | None:
    """The calls when valid (empty list for an empty cell), else None."""
    if problem(text) is not None:
        return None
    return json.loads(text) if text.strip() else []


def repair(text: str) -> str | None:
    """Repair common slips; return canonical JSON, or None when it cannot be repaired."""
    fixed = repaired(text)
    return fixed and fixed[0]


def repaired(text: str) -> tuple[str, int] | None:
    """repair's JSON, and how many calls it gave an empty "arguments" object, having found none (nor an
    alias): a guess the user should check, as a call with arguments left out fails the evaluation."""
    value = _lenient_load(text)
    if value is _FAILED:
        return None
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        return None
    fixed, added = [], 0
    for call in value:
        if not isinstance(call, dict):
            return None
        call = dict(call)
        if "arguments" not in call:
            alias = next((a for a in _ARG_ALIASES if a in call), None)
            call["arguments"] = call.pop(alias) if alias else {}
            added += alias is None
        if isinstance(call["arguments"], str):
            inner = _lenient_load(call["arguments"])
            if isinstance(inner, dict):
                call["arguments"] = inner
        fixed.append(call)
    if shape_problem(fixed) is not None:
        return None
    return dumps(fixed), added


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(…, ensure_ascii=False) builds one a call


def dumps(calls: list[dict]) -> str:
    return _ENCODE(calls)


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


_A_KIND = {dict: Msg(N_("an object")), list: Msg(N_("an array")), str: Msg(N_("a string")),
           bool: Msg(N_("a boolean")), type(None): Msg(N_("a null"))}
_A_NUMBER = Msg(N_("a number"))


def _a_kind(value: object) -> Msg:
    """"an object", "a string" … for a JSON value, as a message."""
    return _A_KIND.get(type(value), _A_NUMBER)
