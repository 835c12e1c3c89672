"""Read SDK JSON (an `EvaluationDataset`) into a RawTable (formats.md, "Mapping …", Reading).

Columns, in this order: `eval_case_id` (only when some id differs from the one the writer would
generate, so a table without ids round-trips without gaining a column; or when a row would show
nothing else), `session_id` and `turn_id` (both, when some case carries `source_case_id`), `question`
(always), `answer`, `context`, `expected_tool_calls` (each when some row has text in it), then the
EvalCase extras holding a string, number or boolean (numbers and booleans in JSON spelling: `3`,
`true`; written back as they were unless edited), in order of first appearance. Cases with `source_case_id` regroup into conversations
(session = source_case_id, turn = source_turn_index + 1), ordered by (first appearance, turn).

Everything else in a case stays in the row's `SdkCase` payload and is written back unchanged
(info rule sdk-not-shown). What the SDK would reject is reported (sdk-schema-error) and left out of the
payload, so that a save gives a valid file; ReadError only when nothing sensible can be shown.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable
from typing import Any

from evaleditor.core.alloc import bulk_allocation
from evaleditor.core.errors import Cancelled, ReadError
from evaleditor.core.table import LoadNote, RawTable
from evaleditor.core.targets import ANSWER, CASE_ID, CONTEXT, QUESTION, SESSION, TOOL_CALLS, TURN
from evaleditor.io.sdk_check import DROP, Errors, clean, clean_model, field_name, join, kind
from evaleditor.io.sdk_map import (
    CONTEXT_KEY,
    CONVERSATION_KEYS,
    PART_KINDS,
    RAW_TOOL_CALLS_KEY,
    RESERVED_EXTRAS,
    SHOWN_FIELDS,
    SOURCE_CASE_KEY,
    SOURCE_TURN_KEY,
    TRAJECTORY_KEY,
    SdkCase,
    content_text,
    conversations,
    default_case_id,
    extra_key,
    extra_name_problem,
    hidden_parts,
    model_content,
    scalar_text,
    trajectory_text,
    user_content,
)
from evaleditor.io.sdk_schema import MODELS, ROOT
from evaleditor.io.sdk_views import case_findings, hidden_fields

Progress = Callable[[int, int], None]
Cancel = Callable[[], bool]
_EVERY = 500
_MAX_ERRORS = 10  # schema errors reported per case (then a count)
NOT_SDK = "not an SDK EvaluationDataset: "


class _Case:
    """One case as read: the checked case and what its row shows."""

    def __init__(self, index: int, case: dict[str, Any], errors: Errors):
        self.index = index
        self.case = case
        self.errors = errors
        self.hidden: list[str] = hidden_fields(case)
        self.cells: dict[str, str] = {}
        self.extras: dict[str, str] = {}
        self._derive()

    def _derive(self) -> None:
        case, cells, hidden = self.case, self.cells, self.hidden
        cells[CASE_ID] = case.get("eval_case_id", "")
        cells[QUESTION] = content_text(case.get("prompt"))
        _describe_parts(hidden, case.get("prompt"), "the prompt")
        reference = case.get("reference") or {}
        cells[ANSWER] = content_text(reference.get("response"))
        _describe_parts(hidden, reference.get("response"), "the reference")
        for key, value in case.items():
            if key in MODELS["EvalCase"]:
                continue
            text = scalar_text(value)
            if key == CONTEXT_KEY:
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
            elif key in (SOURCE_CASE_KEY, SOURCE_TURN_KEY) and scalar_text(case.get(SOURCE_CASE_KEY)):
                continue  # shown as session_id and turn_id below
            elif text is None or extra_name_problem(key) or key in RESERVED_EXTRAS:
                hidden.append(f"the extra field {key!r}")
            else:
                self.extras[key] = text
        session = scalar_text(case.get(SOURCE_CASE_KEY))
        if session:
            turn = _turn(case.get(SOURCE_TURN_KEY))
            cells[SESSION] = session
            cells[TURN] = "" if turn is None else str(turn + 1)

    @property
    def session(self) -> str:
        return self.cells.get(SESSION, "")


def _turn(value: object) -> int | None:
    """source_turn_index as a whole number ≥ 0, or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1 << 53:
        return None
    return int(value) if value == int(value) else None


def _part_kind(part: dict) -> str:
    if part.get("thought") and "text" in part:
        return "thought"
    name = next((k for k in PART_KINDS if k in part), "empty")
    return f"{name} (with metadata)" if name == "text" else name


def _describe_parts(hidden: list[str], content: object, where: str) -> None:
    for name, n in Counter(_part_kind(p) for p in hidden_parts(content)).items():
        count = n if n > 1 else ("an" if name[0] in "aeiou" else "a")
        hidden.append(f"{count} {name} part{'s' if n > 1 else ''} in {where}")


def _load(path: object, data: bytes) -> Any:
    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON value")

    try:
        return json.loads(data, parse_constant=constant)
    except json.JSONDecodeError as err:
        raise ReadError(path, f"not valid JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
    except UnicodeDecodeError:
        raise ReadError(path, "not valid JSON: the file is not UTF-8 text (binary data?)") from None
    except RecursionError:
        raise ReadError(path, "not valid JSON: nested too deeply") from None
    except ValueError as err:
        raise ReadError(path, f"not valid JSON: {' '.join(str(err).split())}") from None


def _root(path: object, data: Any, errors: Errors) -> tuple[list[Any], dict[str, Any] | None]:
    """The raw cases and the root's other (checked) keys."""
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
    for key, value in data.items():
        if field_name(ROOT, key) == "eval_cases":
            if cases is not None:
                errors.append((key, "eval_cases is given twice; the first is kept"))
            elif value is not None and not isinstance(value, list):
                raise ReadError(path, NOT_SDK + f"eval_cases is {_a(kind(value))}, not an array")
            else:
                cases = value or []
        else:
            rest[key] = value
    cleaned = clean_model(rest, ROOT, "", errors)
    document.update(cleaned)
    return cases or [], document or None


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _clean_case(value: Any, path: str, errors: Errors) -> Any:
    """The checked case; a bare-string prompt and a bare reference are wrapped (and reported)."""
    if isinstance(value, dict):
        value = dict(value)
        for key, item in list(value.items()):
            name = field_name("EvalCase", key)
            where = join(path, name)
            if name == "prompt" and isinstance(item, str):
                errors.append((where, "a bare string; the SDK wants a Content "
                                      '{"role": "user", "parts": [{"text": ...}]} (it is saved so)'))
                value[key] = user_content(item)
            elif name == "reference" and isinstance(item, str):
                errors.append((where, 'a bare string; the SDK wants {"response": Content} (it is saved so)'))
                value[key] = {"response": model_content(item)}
            elif name == "reference" and isinstance(item, dict) and {"parts", "role"} & set(item) \
                    and "response" not in item:
                errors.append((where, 'a bare Content; the SDK wants {"response": Content} (it is saved so)'))
                value[key] = {"response": item}
    return clean(value, "EvalCase", path, errors)


def read_sdk_json(path: str | os.PathLike[str], progress: Progress | None = None,
                  cancel: Cancel | None = None) -> RawTable:
    """Read an SDK JSON file; ReadError (one-line reason) when nothing sensible can be shown."""
    from evaleditor.io import safety

    safety.check_file(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as err:
        raise ReadError(path, safety.os_error_reason(err)) from None
    with bulk_allocation():
        return _read(path, data, progress, cancel)


def _read(path: object, data: bytes, progress: Progress | None, cancel: Cancel | None) -> RawTable:
    root_errors: Errors = []
    raw_cases, document = _root(path, _load(path, data), root_errors)
    cases: list[_Case] = []
    for i, raw in enumerate(raw_cases):
        if i % _EVERY == 0:
            if cancel is not None and cancel():
                raise Cancelled()
            if progress is not None:
                progress(i, len(raw_cases))
        errors: Errors = []
        cleaned = _clean_case(raw, f"eval_cases.{i}", errors)
        if cleaned is DROP:
            root_errors.extend(errors)
        else:
            cases.append(_Case(i, cleaned, errors))
    table = _table(_regrouped(cases), root_errors)
    table.document = document
    if progress is not None:
        progress(len(raw_cases), len(raw_cases))
    return table


def _regrouped(cases: list[_Case]) -> list[_Case]:
    """Conversation cases gathered at their first case, in turn order; other cases stay in place."""
    first: dict[str, int] = {}
    for n, c in enumerate(cases):
        if c.session:
            first.setdefault(c.session, n)

    def key(item: tuple[int, _Case]) -> tuple[int, float, int]:
        n, c = item
        if not c.session:
            return (n, 0, n)
        turn = c.cells.get(TURN, "")
        return (first[c.session], int(turn) if turn else float("inf"), n)

    return [c for _, c in sorted(enumerate(cases), key=key)]


def _table(cases: list[_Case], root_errors: Errors) -> RawTable:
    convs = conversations([c.cells for c in cases])
    extras: dict[str, None] = {}
    for c in cases:
        extras.update(dict.fromkeys(c.extras))
    used = {f for f in SHOWN_FIELDS if any(c.cells.get(f) for c in cases)}
    if SESSION in used:
        used.add(TURN)
    used.add(QUESTION)
    if CASE_ID in used and _ids_are_defaults(cases, convs, used):
        used.discard(CASE_ID)
    fields = [f for f in SHOWN_FIELDS if f in used]
    headers = fields + list(extras)
    column = {f: i for i, f in enumerate(fields)}
    rows, payloads, notes = [], [], []
    for n, c in enumerate(cases):
        cells = [c.cells.get(f, "") for f in fields] + [c.extras.get(name, "") for name in extras]
        shown = {f: (c.cells.get(f, "") if f in used else "") for f in SHOWN_FIELDS}
        shown.update((extra_key(name), c.extras.get(name, "")) for name in extras)
        conv = convs[n][2] if convs[n] else None
        if conv is not None and conv != {k: c.case.get(k) for k in CONVERSATION_KEYS if k in c.case}:
            c.hidden.append("conversation data (agent_data, source_*) not as this editor writes it, kept while "
                            "the conversation is unchanged")
        elif conv is None and "agent_data" in c.case:
            c.hidden.append(_trace(c.case["agent_data"]))
        rows.append(cells)
        payloads.append(SdkCase(c.case, shown, conv))
        notes.extend(_notes(c, n, column))
    notes[:0] = [LoadNote("sdk-schema-error", f"{p}: {m}" if p else m) for p, m in root_errors]
    return RawTable(headers, rows, "json", notes=notes, payloads=payloads)


def _ids_are_defaults(cases: list[_Case], convs: list, used: set[str]) -> bool:
    """Every id is the one the writer would generate (so the column is not needed), and no row would
    show nothing at all without its id."""
    for n, c in enumerate(cases):
        case_id = c.cells.get(CASE_ID, "")
        if case_id and case_id != default_case_id(n, convs[n]):
            return False
        if case_id and not any(c.cells.get(f) for f in used - {CASE_ID}) and not any(c.extras.values()):
            return False
    return True


def _trace(agent_data: dict[str, Any]) -> str:
    turns = agent_data.get("turns") or []
    agents = agent_data.get("agents") or {}
    return (f"the agent trace ({len(turns)} turn{'s' if len(turns) != 1 else ''}"
            + (f", {len(agents)} agent{'s' if len(agents) != 1 else ''}" if agents else "") + ")")


def _column_of(path: str, column: dict[str, int]) -> int | None:
    part = path.split(".")[2] if path.count(".") >= 2 else ""
    fld = {"prompt": QUESTION, "reference": ANSWER, CONTEXT_KEY: CONTEXT, TRAJECTORY_KEY: TOOL_CALLS,
           "eval_case_id": CASE_ID}.get(part)
    return column.get(fld) if fld else None


def _notes(c: _Case, row: int, column: dict[str, int]) -> list[LoadNote]:
    notes = [LoadNote("sdk-schema-error", f"{p}: {m}", row, _column_of(p, column))
             for p, m in c.errors[:_MAX_ERRORS]]
    if len(c.errors) > _MAX_ERRORS:
        notes.append(LoadNote("sdk-schema-error", f"eval_cases.{c.index}: {len(c.errors) - _MAX_ERRORS} more "
                                                  "values the SDK would reject", row))
    for rule, path, message in case_findings(c.case, f"eval_cases.{c.index}"):
        notes.append(LoadNote(rule, f"{path}: {message}", row, _column_of(path, column)))
    if c.hidden:
        notes.append(LoadNote("sdk-not-shown", f"eval_cases.{c.index}: kept but not shown (written back "
                                               f"unchanged): {'; '.join(c.hidden)}", row))
    return notes
