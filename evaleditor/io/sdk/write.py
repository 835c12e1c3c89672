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
- Extra columns are written to every new case (a new row) as strings, an empty cell as "" (so the
  column and its place survive a round trip); a column empty in every row is not written.
- Extra values of a case read from a file: an unchanged cell writes the value as read (string, number,
  boolean). An edited cell of a case that held a number (a boolean) under that key is written as a
  number (a boolean) when its text is how the reader shows one (`8`, `1.0`, `1e+16`, `true`), else as
  the string typed (`high`, `1e5`, ` 8`: no number reads back so), so that reopening shows every cell
  as typed (sdk_map.typed_extra). A case that held a string, or nothing the table shows (null, array,
  object), under that key gets the string typed.
- A renamed extra column: a column no row showed as read, holding the text of a column as read that is
  no longer in the table in at least half of the rows where that one showed text, is taken for it
  renamed: its values move to the new key in their place, as read where the cell is unchanged. A
  removed column removes what its cells showed (empty strings too, else it would come back).
- Agent data the editor did not make (a case's own agent trace, another tool's conversation data) is
  not dropped when the row's conversation changes (sdk_conversations.conversation_keys): it is kept whole when
  the row is in no conversation or is the first turn of one (a case alone in a new conversation only
  gains source_case_id and source_turn_index). As turn 2 or later its history turns must be the
  conversation's, made from its rows: its agents are kept, with the writer's `agent`, and its evaluated
  turn when it asks the row's question; its other turns are replaced. `replaced_traces(ds)` gives the
  ids of such rows before a save, so that the window can warn.
- Cases are written in row order; the cases of a conversation carry `source_turn_index` = the turn's
  0-based place in its conversation (ordered by turn_id where numeric, else file order).
- Rows that are entirely empty and carry nothing from a file are skipped.
- A turn number on a row in no conversation (its session id empty, or its session column not read as
  one: `Session_ID`) is kept as the string extra `turn_id`; the reader shows it in the turn column again.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from evaleditor.core.alloc import bulk_allocation
from evaleditor.core.dataset import Dataset, Row
from evaleditor.core.errors import EvalEditorError, WriteError
from evaleditor.core.targets import ANSWER, CASE_ID, CONTEXT, QUESTION, SESSION, TOOL_CALLS, TURN
from evaleditor.io.sdk.conversations import (
    conversation_data,
    conversation_keys,
    conversation_layout,
    conversations,
    own_trace,
)
from evaleditor.io.sdk.extras import renamed_columns, written_extras
from evaleditor.io.sdk.json_text import dumps, dumps_marked
from evaleditor.io.sdk.mapping import (
    CONTEXT_KEY,
    CONVERSATION_KEYS,
    LOOSE_TURN_KEY,
    RAW_TOOL_CALLS_KEY,
    TRAJECTORY_KEY,
    SdkCase,
    calls_to_trajectory,
    default_case_id,
    extra_key,
    header_field,
    model_content,
    parse_calls,
    reserved_name,
    with_text,
)
from evaleditor.io.sdk.traces import SdkTrace, TraceRow, trace_order, write_trace

Progress = Callable[[int, int], None]
_EVERY = 1000


class SdkColumnError(EvalEditorError):
    """A column cannot be written as SDK JSON (its name clashes with the SDK's own keys)."""


class _RowCells:
    __slots__ = ("row_id", "fields", "extras", "payload")

    def __init__(self, row_id: int, fields: dict[str, str], extras: dict[str, str], payload: SdkCase | None):
        self.row_id = row_id
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


def _row_cells(ds: Dataset, positions: dict[str, int], extras: list[tuple[int, str]],
               kinds: tuple[type, ...] = (SdkCase,)) -> list[_RowCells]:
    out = []
    for row in ds.rows:
        payload = row.payload if isinstance(row.payload, kinds) else None
        if row.is_empty():
            continue
        out.append(_RowCells(
            row.id,
            {f: _cell(row, p) for f, p in positions.items()},
            {name: _cell(row, p) for p, name in extras},
            payload,
        ))
    return out


def _cell(row: Row, pos: int) -> str:
    return row.cells[pos] if pos < len(row.cells) else ""


class SdkCases:
    """The cases a save of `ds` as SDK JSON writes, in row order, each made only when asked: what is
    decided across rows (the columns written, renamed extras, conversations and their turn order, case
    ids) is settled here once; `case(n)` makes case n as `dataset_to_sdk` writes it, so that the Upload
    Preview of a big file builds the one case it shows with the very code that saves."""

    def __init__(self, ds: Dataset):
        positions, extras = _columns(ds)
        self.present = {name for _, name in extras}
        extras = [(i, name) for i, name in extras if any(_cell(r, i) for r in ds.rows)]  # empty: nothing to write
        _check_extras(extras)
        # a case's own recorded conversation (sdk/traces.py) is one unit of its rows; every other row one case
        self.units = _units(_row_cells(ds, positions, extras, (SdkCase, SdkTrace)))
        plain = [n for n, u in enumerate(self.units) if isinstance(u, _RowCells)]
        self.rows = [self.units[n] for n in plain]
        self.renamed = renamed_columns(self.rows, [name for _, name in extras], self.present)
        fields = [r.fields for r in self.rows]
        layout = conversation_layout([f.get(SESSION, "") for f in fields], [f.get(TURN, "") for f in fields])
        self.layout = {sid: [plain[i] for i in members] for sid, members in layout.items()}  # case numbers
        self.place: dict[int, tuple[str, int]] = {i: (sid, k) for sid, members in self.layout.items()
                                                  for k, i in enumerate(members)}
        self.ids = self._case_ids()
        self.document = ds.document

    def __len__(self) -> int:
        return len(self.units)

    def row_id(self, n: int) -> int:
        return self.row_ids(n)[0]

    def row_ids(self, n: int) -> tuple[int, ...]:
        """The rows case n is written from: one, or the turns of a recorded conversation in turn order."""
        unit = self.units[n]
        if isinstance(unit, _RowCells):
            return (unit.row_id,)
        return tuple(r.row_id for r in trace_order(unit))

    def _case_ids(self) -> list[str | None]:
        explicit = _explicit_ids(self.rows)
        used = {i for i in explicit if i is not None}
        ids: list[str | None] = []
        plain = iter(range(len(self.rows)))
        for n, row in enumerate(self.units):
            if not isinstance(row, _RowCells):
                first = next(r.payload for r in row if r.payload is not None)
                ids.append(first.case.get("eval_case_id"))
                continue
            case_id = explicit[next(plain)]
            if case_id is None and not _keeps_id(row):
                place = self.place.get(n)
                case_id = default_case_id(n, (*place, None) if place else None)
                suffix = 2
                base = case_id
                while case_id in used:
                    case_id = f"{base}-{suffix}"
                    suffix += 1
                used.add(case_id)
            ids.append(case_id)
        return ids

    def conversation(self, n: int) -> dict[str, Any] | None:
        """The conversation data (agent_data, source_*) of case n, None when its row is in none."""
        place = self.place.get(n)
        if place is None:
            return None
        sid, k = place
        members = self.layout[sid]
        history = [(self.units[i].fields.get(QUESTION, ""), self.units[i].fields.get(ANSWER, "")) for i in members[:k]]
        return conversation_data(sid, history, self.units[n].fields.get(QUESTION, ""), k)

    def case(self, n: int, conversation: dict[str, Any] | None | bool = False) -> dict[str, Any]:
        """Case n as saved (`conversation`: its conversation data when already made)."""
        unit = self.units[n]
        if not isinstance(unit, _RowCells):  # the rows of a case's own recorded conversation
            first = next(r.payload for r in unit if r.payload is not None)
            return write_trace(first.case, [TraceRow(r.fields, r.extras, r.payload) for r in unit], extra_key)
        conv = self.conversation(n) if conversation is False else conversation
        return _case(unit, conv, self.ids[n], self.renamed, self.present)

    def all(self, progress: Progress | None = None) -> list[dict[str, Any]]:
        """Every case; the conversations made together, sharing what repeats (sdk_conversations)."""
        convs = iter(conversations([r.fields for r in self.rows]))
        cases = []
        for n, unit in enumerate(self.units):
            conv = next(convs) if isinstance(unit, _RowCells) else None
            cases.append(self.case(n, conv[2] if conv else None))
            if progress is not None and n % _EVERY == 0:
                progress(n, len(self.units))
        if progress is not None:
            progress(len(self.units), len(self.units))
        return cases


def dataset_to_sdk(ds: Dataset, progress: Progress | None = None) -> dict[str, Any]:
    """The SDK `EvaluationDataset` object for `ds` (snake_case, no nulls); in the records form
    (`{"eval_dataset_df": [...]}`) when it was read so."""
    if _records_form(ds):
        from evaleditor.io.platforms.sdk_flat import JSON_KEYS
        from evaleditor.io.records import dataset_records

        return {**ds.document, "eval_dataset_df": dataset_records(ds, JSON_KEYS)}
    plan = SdkCases(ds)
    root: dict[str, Any] = {"eval_cases": plan.all(progress)}
    if isinstance(plan.document, dict):
        root.update((k, v) for k, v in plan.document.items() if k != "eval_cases")
    return root


def _records_form(ds: Dataset) -> bool:
    return isinstance(ds.document, dict) and isinstance(ds.document.get("eval_dataset_df"), list) \
        and "eval_cases" not in ds.document


def _units(rows: list[_RowCells]) -> list[_RowCells | list[_RowCells]]:
    """The rows in order, those of one recorded conversation (sdk/traces.py) gathered as one unit at
    the place of its first row: rows read from it, and new rows given its session id."""
    sessions = {r.payload.shown.get(SESSION): r.payload.key for r in rows
                if isinstance(r.payload, SdkTrace) and r.payload.shown.get(SESSION)}
    if not sessions and not any(isinstance(r.payload, SdkTrace) for r in rows):
        return list(rows)  # most files
    groups: dict[int, list[_RowCells]] = {}
    units: list[_RowCells | list[_RowCells]] = []
    for r in rows:
        key = r.payload.key if isinstance(r.payload, SdkTrace) else \
            sessions.get(r.fields.get(SESSION)) if r.payload is None and r.fields.get(SESSION) else None
        if key is None:
            units.append(r)
        elif key in groups:
            groups[key].append(r)
        else:
            groups[key] = [r]
            units.append(groups[key])
    return [u for u in units if not isinstance(u, list) or any(r.payload is not None for r in u)]


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


def _case(row: _RowCells, conv: dict[str, Any] | None, case_id: str | None, renamed: dict[str, str],
          present: set[str]) -> dict[str, Any]:
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
        calls = parse_calls(text)
        _put(case, TRAJECTORY_KEY, calls_to_trajectory(calls) if calls is not None and text.strip() else None)
        _put(case, RAW_TOOL_CALLS_KEY, text if calls is None else None)
    if p is None:
        case.update(row.extras)  # strings; an empty cell as "" (the column stays, in its place)
    else:
        case = written_extras(case, row.extras, p, renamed, present)
    if p is None or conv != p.conversation:
        keys, _ = conversation_keys(conv, p)
        for key in CONVERSATION_KEYS:
            _put(case, key, keys.get(key))
    # a turn number on a row in no conversation (its session column unread, or its session id empty)
    # has no place among the SDK's fields: kept as the string extra `turn_id`, shown in the turn column
    # again when read; in a conversation it is the case's place (source_turn_index)
    if p is None or changed(TURN) or conv != p.conversation:
        if conv is None:
            _put(case, LOOSE_TURN_KEY, row.fields.get(TURN) or None)
        elif isinstance(case.get(LOOSE_TURN_KEY), str):
            del case[LOOSE_TURN_KEY]
    return case if p is not None else _ordered(case)


def replaced_traces(ds: Dataset) -> list[int]:
    """Ids of the rows whose own agent trace (agent_data the editor did not make: a multi-agent trace,
    conversation data of another tool) a save of `ds` as SDK JSON replaces in part: rows that are now
    turn 2 or later of a conversation, whose history turns must be the conversation's
    (sdk_conversations.conversation_keys). Everything else of such a trace is kept; the window can warn before
    saving. Empty when nothing is replaced."""
    if not any(isinstance(r.payload, SdkCase) and own_trace(r.payload) is not None for r in ds.rows):
        return []  # most files (the agent_data of a conversation as read is what the writer makes)
    positions, _ = _columns(ds)
    rows = _row_cells(ds, positions, [])
    out = []
    for row, conv in zip(rows, conversations([r.fields for r in rows]), strict=True):
        p = row.payload
        data = conv[2] if conv else None
        if p is not None and data != p.conversation and own_trace(p) is not None and conversation_keys(data, p)[1]:
            out.append(row.row_id)
    return out


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


def encode_sdk_json(path: object, ds: Dataset, progress: Progress | None = None
                    ) -> tuple[dict[str, Any], bytes, bool]:
    """The SDK object for `ds`, its JSON text, and whether that text is known to parse back to the
    object (json_text.dumps_marked: every float the object holds was marked where it entered, and
    orjson wrote it); WriteError with a one-line reason otherwise. The records form's values are made
    from text by io/records.py, unmarked: its text is made by `dumps`, which looks."""
    try:
        with bulk_allocation():
            obj = dataset_to_sdk(ds, progress)
            if _records_form(ds):
                return obj, dumps(obj), False
            data, exact = dumps_marked(obj)
            return obj, data, exact
    except SdkColumnError as err:
        raise WriteError(path, str(err)) from None
    except (ValueError, RecursionError) as err:
        raise WriteError(path, f"cannot write SDK JSON: {err}") from None


def write_sdk_json(path: str | os.PathLike[str], ds: Dataset, progress: Progress | None = None) -> None:
    """Write `ds` to `path` as SDK JSON, atomically; WriteError with a one-line reason otherwise."""
    from evaleditor.io.atomic import atomic_write

    data = encode_sdk_json(path, ds, progress)[1]
    with atomic_write(path, "wb") as handle:
        handle.write(data)


__all__ = ["SdkCases", "SdkColumnError", "dataset_to_sdk", "encode_sdk_json", "replaced_traces", "write_sdk_json"]
