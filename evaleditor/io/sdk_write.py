"""Write a dataset as SDK JSON (formats.md, "Mapping between the table and SDK JSON", Writing).

Rows read from SDK JSON are written from their `SdkCase` payload: an unchanged cell keeps the part of
the case it came from exactly as read; an edited cell replaces only that part.

Decisions:
- `eval_case_id`: the `eval_case_id` column when the cell is not empty; else the id the row was read
  with; else `case-<n>` (n = the row's 1-based position among written rows) or `<session>-turn-<t>`
  for a conversation turn, with `-2`, `-3` … appended if another case already uses that id. The same
  table always gives the same file.
- `expected_tool_calls` that is not a valid array (the validator reports invalid-tool-calls) is kept as
  typed in the string extra `expected_tool_calls` instead of `reference_trajectory`; the reader shows it
  again in the same column. Nothing is lost and the file still validates.
- An extra column whose name is an EvalCase field (`prompt`, `agentData` …) or a key the mapping uses
  (`reference_trajectory`, `source_case_id` …) cannot be written: SdkColumnError names it.
- Extra columns are written to every new case as strings, an empty cell as "" (so the column and its
  place survive a round trip); a column empty in every row is not written.
- Cases are written in row order; the cases of a conversation carry `source_turn_index` = the turn's
  0-based place in its conversation (ordered by turn_id where numeric, else file order).
- Rows that are entirely empty and carry nothing from a file are skipped.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from evaleditor.core import toolcalls
from evaleditor.core.alloc import bulk_allocation
from evaleditor.core.dataset import Dataset, Row
from evaleditor.core.errors import EvalEditorError, WriteError
from evaleditor.core.targets import ANSWER, CASE_ID, CONTEXT, QUESTION, TOOL_CALLS
from evaleditor.io.json_text import dumps
from evaleditor.io.sdk_map import (
    CONTEXT_KEY,
    CONVERSATION_KEYS,
    RAW_TOOL_CALLS_KEY,
    TRAJECTORY_KEY,
    SdkCase,
    calls_to_trajectory,
    conversations,
    default_case_id,
    extra_key,
    header_field,
    model_content,
    reserved_name,
    with_text,
)

Progress = Callable[[int, int], None]
_EVERY = 1000


class SdkColumnError(EvalEditorError):
    """A column cannot be written as SDK JSON (its name clashes with the SDK's own keys)."""


class _RowCells:
    __slots__ = ("fields", "extras", "payload")

    def __init__(self, fields: dict[str, str], extras: dict[str, str], payload: SdkCase | None):
        self.fields = fields
        self.extras = extras
        self.payload = payload


def _columns(ds: Dataset) -> tuple[dict[str, int], list[tuple[int, str]]]:
    """Position of the first column of each field, and the other columns (position, header)."""
    positions: dict[str, int] = {}
    extras: list[tuple[int, str]] = []
    recognised = ds.fields()
    for i, column in enumerate(ds.columns):
        fld = recognised[i] if i < len(recognised) else None
        if fld is None:
            # a column the dataset's target does not read (eval_case_id under ground-truth …)
            fld = header_field(column.header)
            if fld is not None and fld in recognised:
                fld = None
        if fld is not None and fld not in positions:
            positions[fld] = i
        else:
            extras.append((i, column.header))
    return positions, extras


def _check_extras(extras: list[tuple[int, str]]) -> None:
    seen: set[str] = set()
    for _, name in extras:
        problem = reserved_name(name)
        if problem:
            fld = header_field(name)
            raise SdkColumnError(f"there are two {fld} columns: remove or rename {name!r}" if fld else
                                 f"column {name!r} cannot be saved as SDK JSON: {problem}; rename it")
        if name in seen:
            raise SdkColumnError(f"two columns are named {name!r}: rename one before saving as SDK JSON")
        seen.add(name)


def _row_cells(ds: Dataset, positions: dict[str, int], extras: list[tuple[int, str]]) -> list[_RowCells]:
    out = []
    for row in ds.rows:
        payload = row.payload if isinstance(row.payload, SdkCase) else None
        if row.is_empty():
            continue
        out.append(_RowCells(
            {f: _cell(row, p) for f, p in positions.items()},
            {name: _cell(row, p) for p, name in extras},
            payload,
        ))
    return out


def _cell(row: Row, pos: int) -> str:
    return row.cells[pos] if pos < len(row.cells) else ""


def dataset_to_sdk(ds: Dataset, progress: Progress | None = None) -> dict[str, Any]:
    """The SDK `EvaluationDataset` object for `ds` (snake_case, no nulls)."""
    positions, extras = _columns(ds)
    extras = [(i, name) for i, name in extras if any(_cell(r, i) for r in ds.rows)]  # empty: nothing to write
    _check_extras(extras)
    rows = _row_cells(ds, positions, extras)
    convs = conversations([r.fields for r in rows])
    explicit = _explicit_ids(rows)
    used = {i for i in explicit if i is not None}
    cases = []
    for n, (row, conv) in enumerate(zip(rows, convs, strict=True)):
        case_id = explicit[n]
        if case_id is None and not _keeps_id(row):
            case_id = default_case_id(n, conv)
            suffix = 2
            base = case_id
            while case_id in used:
                case_id = f"{base}-{suffix}"
                suffix += 1
            used.add(case_id)
        cases.append(_case(row, conv[2] if conv else None, case_id))
        if progress is not None and n % _EVERY == 0:
            progress(n, len(rows))
    if progress is not None:
        progress(len(rows), len(rows))
    root: dict[str, Any] = {"eval_cases": cases}
    if isinstance(ds.document, dict):
        root.update((k, v) for k, v in ds.document.items() if k != "eval_cases")
    return root


def _explicit_ids(rows: list[_RowCells]) -> list[str | None]:
    """The id of each row when the table or the file gives one (None: to be generated or absent)."""
    out: list[str | None] = []
    for row in rows:
        cell = row.fields.get(CASE_ID, "")
        p = row.payload
        if p is not None and cell == p.shown.get(CASE_ID, ""):
            original = p.case.get("eval_case_id")
            out.append(original if isinstance(original, str) else None)
        else:
            out.append(cell or None)
    return out


def _keeps_id(row: _RowCells) -> bool:
    """A row read from a file without an id, whose id cell is untouched: it stays without one."""
    p = row.payload
    return p is not None and row.fields.get(CASE_ID, "") == p.shown.get(CASE_ID, "") \
        and "eval_case_id" not in p.case


def _case(row: _RowCells, conv: dict[str, Any] | None, case_id: str | None) -> dict[str, Any]:
    p = row.payload
    case: dict[str, Any] = dict(p.case) if p is not None else {}
    shown = p.shown if p is not None else {}

    def changed(fld: str) -> bool:
        return p is None or row.fields.get(fld, "") != shown.get(fld, "")

    if case_id is not None:
        case["eval_case_id"] = case_id
    if changed(QUESTION):
        _put(case, "prompt", with_text(case.get("prompt"), row.fields.get(QUESTION, ""), "user"))
    if changed(ANSWER):
        _put(case, "reference", _reference(case.get("reference"), row.fields.get(ANSWER, "")))
    if changed(CONTEXT):
        _put(case, CONTEXT_KEY, row.fields.get(CONTEXT, "") or None)
    if changed(TOOL_CALLS):
        text = row.fields.get(TOOL_CALLS, "")
        calls = toolcalls.parse(text)
        _put(case, TRAJECTORY_KEY, calls_to_trajectory(calls) if calls is not None and text.strip() else None)
        _put(case, RAW_TOOL_CALLS_KEY, text if calls is None else None)
    for name, text in row.extras.items():
        if p is None or text != shown.get(extra_key(name), ""):
            case[name] = text  # an empty cell is written as "" (the column stays, in its place)
    for key in shown:
        name = key[len("extra:"):]
        if key.startswith("extra:") and name not in row.extras and shown[key]:
            case.pop(name, None)  # the column was removed
    if p is None or conv != p.conversation:
        for key in CONVERSATION_KEYS:
            _put(case, key, conv.get(key) if conv else None)
    return case if p is not None else _ordered(case)


def _reference(reference: dict | None, text: str) -> dict | None:
    if reference is None:
        return {"response": model_content(text)} if text else None
    response = with_text(reference.get("response"), text, "model")
    rest = {k: v for k, v in reference.items() if k != "response"}
    if response is None:
        return rest or None
    return {**rest, "response": response}


def _put(case: dict[str, Any], key: str, value: Any) -> None:
    if value is None:
        case.pop(key, None)
    else:
        case[key] = value


_ORDER = ("eval_case_id", "prompt", "reference", CONTEXT_KEY, TRAJECTORY_KEY, RAW_TOOL_CALLS_KEY,
          *CONVERSATION_KEYS)


def _ordered(case: dict[str, Any]) -> dict[str, Any]:
    """A new case's keys in a fixed order: id, prompt, reference, context, tool calls, conversation, extras."""
    out = {k: case[k] for k in _ORDER if k in case}
    out.update((k, v) for k, v in case.items() if k not in out)
    return out


def encode_sdk_json(path: object, ds: Dataset, progress: Progress | None = None) -> tuple[dict[str, Any], bytes]:
    """The SDK object for `ds` and its JSON text; WriteError with a one-line reason otherwise."""
    try:
        with bulk_allocation():
            obj = dataset_to_sdk(ds, progress)
            return obj, dumps(obj)
    except SdkColumnError as err:
        raise WriteError(path, str(err)) from None
    except (ValueError, RecursionError) as err:
        raise WriteError(path, f"cannot write SDK JSON: {err}") from None


def write_sdk_json(path: str | os.PathLike[str], ds: Dataset, progress: Progress | None = None) -> None:
    """Write `ds` to `path` as SDK JSON, atomically; WriteError with a one-line reason otherwise."""
    from evaleditor.io.atomic import atomic_write

    _, data = encode_sdk_json(path, ds, progress)
    with atomic_write(path, "wb") as handle:
        handle.write(data)


__all__ = ["SdkColumnError", "dataset_to_sdk", "encode_sdk_json", "write_sdk_json"]
