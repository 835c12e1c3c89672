"""The mapping between table rows and SDK EvalCases, shared by the reader and the writer.

A row read from SDK JSON carries an `SdkCase` payload: the case as read, the text each cell showed,
and the conversation data the writer would have made from the rows as read. The writer compares the
cells with what was shown: an unchanged cell writes the original part of the case back untouched,
an edited cell replaces only that part (formats.md, "Mapping between the table and SDK JSON").
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from evaleditor.core import toolcalls
from evaleditor.core.targets import (
    ANSWER,
    CASE_ID,
    CONTEXT,
    QUESTION,
    SDK,
    SESSION,
    TOOL_CALLS,
    TURN,
    get_target,
)
from evaleditor.io.sdk.json_text import marked, read_constant, read_float
from evaleditor.io.sdk.schema import MODELS

AGENT_ID = "agent"  # the author of expected answers in the history the writer builds
CONTEXT_KEY = "context"
TRAJECTORY_KEY = "reference_trajectory"
RAW_TOOL_CALLS_KEY = "expected_tool_calls"  # tool-call text that is not a valid array, kept as typed
SOURCE_CASE_KEY = "source_case_id"
SOURCE_TURN_KEY = "source_turn_index"
AGENT_DATA_KEY = "agent_data"
LOOSE_TURN_KEY = "turn_id"  # a turn number typed on a row in no conversation, kept as a string extra
CONVERSATION_KEYS = (AGENT_DATA_KEY, SOURCE_CASE_KEY, SOURCE_TURN_KEY)
# EvalCase extras with a meaning here: never written from an extra column
RESERVED_EXTRAS = frozenset({CONTEXT_KEY, TRAJECTORY_KEY, RAW_TOOL_CALLS_KEY, SOURCE_CASE_KEY, SOURCE_TURN_KEY})
CASE_FIELD_NAMES = frozenset(MODELS["EvalCase"]) | frozenset(a for a, _ in MODELS["EvalCase"].values())
# the keys of a Part that say what it holds (a part with none of them is empty)
PART_KINDS = ("text", "inline_data", "file_data", "function_call", "function_response", "executable_code",
              "code_execution_result", "tool_call", "tool_response")
SHOWN_FIELDS = (CASE_ID, SESSION, TURN, QUESTION, ANSWER, CONTEXT, TOOL_CALLS)
_SDK = get_target(SDK)


@dataclass(frozen=True, eq=False, slots=True)
class SdkCase:
    """What a row read from SDK JSON carries besides its cells (RawTable.payloads / Row.payload).

    `case`: the EvalCase as read (checked, snake_case); never mutated. `shown`: the text each cell
    showed, by field name or `extra_key(name)`. `conversation`: the agent_data and source_* extras the
    writer makes for this row from the rows as read (None when the row was not in a conversation).
    `at`: the case's place in the file's eval_cases (a save keeps it: sdk/order.py), None when unknown.
    `kept`: the case's fields that held what the SDK rejects, as read (None: none did).
    """

    case: dict[str, Any]
    shown: dict[str, str] = field(default_factory=dict)
    conversation: dict[str, Any] | None = None
    at: int | None = None
    kept: Kept | None = None


@dataclass(frozen=True, slots=True)
class Kept:
    """The fields of a case as read that hold what the SDK rejects (sdk/check.py), which `case` holds
    without it: a save writes each back as read (`values`, by key) unless an edit replaced the field.
    `where`: the case's path in the file as read (`eval_cases.3`), as the messages name it."""

    where: str
    values: dict[str, Any]

    def written(self, case: dict[str, Any], checked: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """`case` (written from `checked`, the case as read) with each field that is as read put back as
        it was in the file; and the fields an edit replaced, which it cannot hold."""
        out = dict(case)
        replaced = []
        for key, value in self.values.items():
            if out.get(key) == checked.get(key):
                out[key] = value
            else:
                replaced.append(key)
        return out, replaced


def extra_key(name: str) -> str:
    """The key of an extra column in `SdkCase.shown` (kept apart from the field names)."""
    return f"extra:{name}"


def header_field(header: str) -> str | None:
    """The field a header stands for when written as SDK JSON (the SDK target's spellings)."""
    return _SDK.recognise(header)


def reserved_name(name: str) -> str | None:
    """Why an EvalCase extra cannot be named `name` (None when it can)."""
    if name in CASE_FIELD_NAMES:
        return "it is the name of an EvalCase field"
    if name in RESERVED_EXTRAS:
        return "the editor stores other data under that name"
    return None


def extra_name_problem(name: str) -> str | None:
    """Why an extra named `name` cannot be a column of its own (None when it can)."""
    problem = reserved_name(name)
    if problem is None and header_field(name) is not None:
        problem = f"a column of that name would be read as {header_field(name)}"
    return problem


# ----- content text ---------------------------------------------------------------------------------
def is_plain_text(part: object) -> bool:
    """A part the table shows as text: {"text": ...} and nothing else."""
    return isinstance(part, dict) and len(part) == 1 and isinstance(part.get("text"), str)


def content_text(content: object) -> str:
    """The text of a Content's plain text parts, joined by newlines ("" when there is none)."""
    if not isinstance(content, dict):
        return ""
    parts = content.get("parts") or []
    if len(parts) == 1 and is_plain_text(parts[0]):  # the common case, without a join
        return parts[0]["text"]
    return "\n".join(p["text"] for p in parts if is_plain_text(p))


def hidden_parts(content: object) -> list[dict]:
    """The parts of a Content that the table does not show."""
    if not isinstance(content, dict):
        return []
    return [p for p in content.get("parts") or []
            if not (isinstance(p, dict) and len(p) == 1 and isinstance(p.get("text"), str))]  # is_plain_text


def with_text(content: dict | None, text: str, role: str) -> dict | None:
    """`content` with its plain text parts replaced by `text` (other parts kept in place);
    a new Content when there was none; None when nothing would be left."""
    if content is None:
        return {"role": role, "parts": [{"text": text}]} if text else None
    parts = list(content.get("parts") or [])
    first = next((i for i, p in enumerate(parts) if is_plain_text(p)), len(parts))
    kept = [p for p in parts if not is_plain_text(p)]
    if text:
        kept.insert(min(first, len(kept)), {"text": text})
    if not kept and set(content) <= {"parts", "role"}:
        return None
    return {**content, "parts": kept}


def user_content(text: str) -> dict:
    return {"role": "user", "parts": [{"text": text}]}


def model_content(text: str) -> dict:
    return {"role": "model", "parts": [{"text": text}]}


# ----- expected tool calls ----------------------------------------------------------------------------
def trajectory_text(trajectory: object) -> tuple[str, bool] | None:
    """(tool-call text, complete) for a reference_trajectory, or None when it is not a list of Contents.

    `complete` is False when the trajectory holds more than function calls with a name and args
    (text, function responses, call ids …): those are not shown in the cell.
    """
    if not isinstance(trajectory, list) or not all(isinstance(c, dict) for c in trajectory):
        return None
    calls = []
    complete = True
    for content in trajectory:
        parts = content.get("parts")
        if not isinstance(parts, list) or not content.keys() <= _CONTENT_KEYS or content.get("role") not in (None, "model"):
            complete = False
        for part in parts if isinstance(parts, list) else []:
            call = part.get("function_call") if isinstance(part, dict) else None
            if not isinstance(call, dict) or len(part) != 1:
                complete = False
                continue
            if not call.keys() <= _CALL_KEYS or not isinstance(call.get("name"), str):
                complete = False
            args = call.get("args")
            calls.append({"name": call.get("name") if isinstance(call.get("name"), str) else "",
                          "arguments": args if isinstance(args, dict) else {}})
    return toolcalls.dumps(calls), complete


_CONTENT_KEYS = frozenset({"role", "parts"})
_CALL_KEYS = frozenset({"name", "args"})


_SCAN_CALLS = json.JSONDecoder(parse_float=read_float, parse_constant=read_constant).scan_once


def parse_calls(text: str) -> list[dict] | None:
    """`toolcalls.parse` for a cell the writer writes, parsed once: the calls when valid ([] for an
    empty cell), else None; a float in their arguments that orjson would spell otherwise (NaN too)
    marked as it enters (json_text.ReprFloat), so that the file has json.dumps's text (and refuses
    NaN as it does)."""
    if not text.strip():
        return []
    body = text.strip(" \t\n\r")  # JSON's white space, as toolcalls.problem_msg strips it
    try:
        value, end = _SCAN_CALLS(body, 0)
    except (StopIteration, json.JSONDecodeError, RecursionError):
        return None
    return value if end == len(body) and toolcalls.shape_problem(value) is None else None


def calls_to_trajectory(calls: list[dict]) -> list[dict]:
    """The SDK's reference_trajectory for a valid tool-call array: one model Content per call."""
    return [{"role": "model", "parts": [{"function_call": {"name": c["name"], "args": c["arguments"]}}]}
            for c in calls]


def scalar_text(value: object) -> str | None:
    """A string, number or boolean as cell text (JSON spelling for non-strings); None otherwise."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return int.__repr__(value)  # json.dumps's spelling, without its cost (a file has one per case)
    if isinstance(value, float):
        return json.dumps(value)
    return None


_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")


def typed_extra(text: str, original: object) -> object:
    """The value to write for an edited extra cell whose case held `original` under that key.

    The exact inverse of `scalar_text` for the original's JSON kind: when the original was a number
    (not a boolean) and `text` is how the reader shows some number (`8`, `1.0`, `1e+16`, any big int),
    that number; when it was a boolean and `text` is `true` or `false`, that boolean; otherwise `text`
    (a string). So reopening the file shows the cell exactly as typed: `1e5` or ` 8` stay strings,
    since the reader shows no number so. A null, an object or an array is never shown (sdk/case.py),
    so an edit of its cell is written as a string."""
    if isinstance(original, bool):
        return {"true": True, "false": False}.get(text, text)
    if isinstance(original, (int, float)):
        match = _JSON_NUMBER.fullmatch(text)
        if match is None:
            return text
        try:
            value: int | float = float(text) if match.group(1) or match.group(2) else int(text)
        except ValueError:  # an int longer than Python converts (sys.get_int_max_str_digits)
            return text
        if isinstance(value, float) and not math.isfinite(value):
            return text
        if scalar_text(value) != text:
            return text
        return marked(value) if isinstance(value, float) else value  # json_text.ReprFloat
    return text


def default_case_id(position: int, conversation: tuple[str, int, Any] | None) -> str:
    """The id the writer gives a case that has none: `case-<row number>`, `<session>-turn-<turn>`."""
    if conversation is not None:
        return f"{conversation[0]}-turn-{conversation[1] + 1}"
    return f"case-{position + 1}"
