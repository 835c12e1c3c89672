"""What the row of one checked SDK case shows, and what of the case it does not (sdk/read.py).

Split from the reader, and written for speed: opening a file derives this for every case (100k cases
in a big file), so the common shapes (one plain text part, known extras) are handled without the
general walk.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from evaleditor.core.targets import ANSWER, CASE_ID, CONTEXT, QUESTION, SESSION, TOOL_CALLS, TURN
from evaleditor.io.sdk.check import Errors, kind
from evaleditor.io.sdk.mapping import (
    CONTEXT_KEY,
    LOOSE_TURN_KEY,
    PART_KINDS,
    RAW_TOOL_CALLS_KEY,
    RESERVED_EXTRAS,
    SOURCE_CASE_KEY,
    SOURCE_TURN_KEY,
    TRAJECTORY_KEY,
    Kept,
    content_text,
    extra_name_problem,
    hidden_parts,
    scalar_text,
    trajectory_text,
)
from evaleditor.io.sdk.schema import MODELS
from evaleditor.io.sdk.views import hidden_fields

_CASE_FIELDS = frozenset(MODELS["EvalCase"])


class ReadCase:
    """One case as read: the checked case and what its row shows.

    `unchecked`: the case's agent_data is yet to be checked (sdk/read.py); what the row shows does not
    depend on it, nor on how it is cleaned. `as_written`: its agent_data is known to be what the writer
    makes, with whole-number turn indexes (there is nothing to find in it). `kept`: what the checked case
    leaves out of the case as read (mapping.Kept). `repeats`: (path, message) of each key the case's
    text gives twice (sdk/parse.py)."""

    __slots__ = ("index", "case", "errors", "unchecked", "as_written", "hidden", "cells", "extras", "kept",
                 "repeats")

    def __init__(self, index: int, case: dict[str, Any], errors: Errors, unchecked: bool = False,
                 kept: Kept | None = None, repeats: list[tuple[str, str]] | None = None):
        self.index = index
        self.repeats = repeats
        self.case = case
        self.errors = errors
        self.unchecked = unchecked
        self.kept = kept
        self.as_written = False
        self.hidden: list[str] = hidden_fields(case)
        self.cells: dict[str, str] = {}
        self.extras: dict[str, str] = {}
        self._derive()

    def _derive(self) -> None:
        case, cells, hidden = self.case, self.cells, self.hidden
        cells[CASE_ID] = case.get("eval_case_id", "")
        cells[QUESTION] = _shown_text(case.get("prompt"), hidden, "the prompt")
        cells[ANSWER] = _shown_text((case.get("reference") or {}).get("response"), hidden, "the reference")
        session = scalar_text(case.get(SOURCE_CASE_KEY))
        for key, value in case.items():
            if key in _CASE_FIELDS:
                continue
            if key == CONTEXT_KEY:
                text = scalar_text(value)
                cells[CONTEXT] = text or ""
                if text is None:
                    hidden.append(f"the context ({kind(value)})")
            elif key == TRAJECTORY_KEY:
                shown = trajectory_text(value)
                cells[TOOL_CALLS] = shown[0] if shown else ""
                if shown is None or not shown[1]:
                    hidden.append("reference_trajectory content other than function calls" if shown
                                  else f"reference_trajectory ({kind(value)}, not a list of Contents)")
            elif key == RAW_TOOL_CALLS_KEY and TRAJECTORY_KEY not in case and isinstance(value, str):
                cells[TOOL_CALLS] = value
            elif key in (SOURCE_CASE_KEY, SOURCE_TURN_KEY) and session:
                continue  # shown as session_id and turn_id below
            elif key == LOOSE_TURN_KEY and not session and isinstance(value, str):
                cells[TURN] = value  # a turn number typed outside a conversation (sdk_write)
            else:
                text = scalar_text(value)
                if text is None or _not_a_column(key):
                    hidden.append(f"the extra field {key!r}")
                else:
                    self.extras[key] = text
        if session:
            turn = _turn(case.get(SOURCE_TURN_KEY))
            cells[SESSION] = session
            cells[TURN] = "" if turn is None else str(turn + 1)

    @property
    def session(self) -> str:
        return self.cells.get(SESSION, "")


@lru_cache(maxsize=1024)
def _not_a_column(key: str) -> bool:
    """An extra that cannot be a column of its own (asked once per case: the answer is remembered)."""
    return extra_name_problem(key) is not None or key in RESERVED_EXTRAS


def _turn(value: object) -> int | None:
    """source_turn_index as a whole number ≥ 0, or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1 << 53:
        return None
    return int(value) if value == int(value) else None


def _shown_text(content: object, hidden: list[str], where: str) -> str:
    """The text a Content shows (content_text); its parts the table does not show go to `hidden`."""
    if type(content) is dict:
        parts = content.get("parts")
        if type(parts) is list and len(parts) == 1:
            part = parts[0]
            if type(part) is dict and len(part) == 1 and type(part.get("text")) is str:
                return part["text"]  # the common case: one plain text part, nothing hidden
    _describe_parts(hidden, content, where)
    return content_text(content)


def _part_kind(part: dict) -> str:
    if part.get("thought") and "text" in part:
        return "thought"
    name = next((k for k in PART_KINDS if k in part), "empty")
    return f"{name} (with metadata)" if name == "text" else name


def _describe_parts(hidden: list[str], content: object, where: str) -> None:
    parts = hidden_parts(content)
    if not parts:
        return
    for name, n in Counter(_part_kind(p) for p in parts).items():
        count = n if n > 1 else ("an" if name[0] in "aeiou" else "a")
        hidden.append(f"{count} {name} part{'s' if n > 1 else ''} in {where}")
