"""Write a dataset as SDK JSON (formats.md, "Mapping between the table and SDK JSON", Writing).

Rows read from SDK JSON are written from their `SdkCase` payload: an unchanged cell keeps the part of
the case it came from exactly as read; an edited cell replaces only that part. What is decided across
rows is settled in sdk/cases.py (SdkCases), each case made in sdk/write_case.py.

Decisions:
- `eval_case_id`: the `eval_case_id` column when the cell is not empty; else the id the row was read
  with; else the id an earlier save made for the row (Dataset.case_ids: a new case keeps its id however
  the rows move afterwards); else `case-<n>` (n = the row's 1-based position among written rows) or
  `<session>-turn-<t>` for a conversation turn, with `-2`, `-3` … appended if another case already uses
  that id. The same table always gives the same file.
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
- Cases read from a file keep their places in it unless the user moved them; new cases take theirs
  among them (sdk/order.py): the file reads back in the table's order, and a file opened and saved with
  no edit is the same bytes. The cases of a conversation carry `source_turn_index` = the turn's 0-based
  place in its conversation (ordered by turn_id where numeric, else file order).
- Rows that are entirely empty and carry nothing from a file are skipped.
- A turn number on a row in no conversation (its session id empty, or its session column not read as
  one: `Session_ID`) is kept as the string extra `turn_id`; the reader shows it in the turn column again.
"""

from __future__ import annotations

import os
from typing import Any

from evaleditor.core.alloc import bulk_allocation
from evaleditor.core.commands import Command
from evaleditor.core.dataset import Dataset
from evaleditor.core.errors import WriteError
from evaleditor.io.sdk.cases import Progress, SdkCases, SdkColumnError, table_rows
from evaleditor.io.sdk.conversations import conversation_keys, conversations, own_trace
from evaleditor.io.sdk.json_text import dumps, dumps_marked
from evaleditor.io.sdk.mapping import SdkCase
from evaleditor.io.sdk.traces import SdkTrace


def dataset_to_sdk(ds: Dataset, progress: Progress | None = None) -> dict[str, Any]:
    """The SDK `EvaluationDataset` object for `ds` (snake_case, no nulls); in the records form
    (`{"eval_dataset_df": [...]}`) when it was read so."""
    if records_form(ds):
        from evaleditor.io.platforms.sdk_flat import JSON_KEYS
        from evaleditor.io.records import dataset_records

        return {**ds.document, "eval_dataset_df": dataset_records(ds, JSON_KEYS)}
    plan = SdkCases(ds)
    return sdk_root(plan, plan.all(progress))


def sdk_root(plan: SdkCases, cases: Any) -> dict[str, Any]:
    """The SDK object of `plan` holding `cases` as its eval_cases: first, then the other keys of the
    document it was read from, in their order. A document holding cases of its own under eval_cases was
    read from a file giving evalCases first (sdk/parse.split_root): the rows go back under evalCases."""
    document = plan.document if isinstance(plan.document, dict) else {}
    second = document.get("eval_cases")  # else [] at most: where the cases go (cases beside records)
    root: dict[str, Any] = {"evalCases" if second else "eval_cases": cases}
    root.update((k, v) for k, v in document.items() if k != "eval_cases" or second)
    return root


def records_form(ds: Dataset) -> bool:
    """`ds` was read from SDK JSON in the records form (`{"eval_dataset_df": [...]}`)."""
    return isinstance(ds.document, dict) and isinstance(ds.document.get("eval_dataset_df"), list) \
        and "eval_cases" not in ds.document


def replaced_traces(ds: Dataset) -> list[int]:
    """Ids of the rows whose own agent trace (agent_data the editor did not make: a multi-agent trace,
    conversation data of another tool) a save of `ds` as SDK JSON replaces in part: rows that are now
    turn 2 or later of a conversation, whose history turns must be the conversation's
    (sdk_conversations.conversation_keys). Everything else of such a trace is kept; the window can warn before
    saving. Empty when nothing is replaced."""
    if not any(isinstance(r.payload, SdkCase) and own_trace(r.payload) is not None for r in ds.rows):
        return []  # most files (the agent_data of a conversation as read is what the writer makes)
    rows = table_rows(ds)
    out = []
    for row, conv in zip(rows, conversations([r.fields for r in rows]), strict=True):
        p = row.payload
        data = conv[2] if conv else None
        if p is not None and data != p.conversation and own_trace(p) is not None and conversation_keys(data, p)[1]:
            out.append(row.row_id)
    return out


def replaced_rejected(ds: Dataset, command: Command | None) -> list[str]:
    """The paths (`eval_cases.3.prompt`, as read) of the fields holding what the SDK rejects that a save
    of `ds` as SDK JSON by a plan with `command` cannot write back as read, an edit having replaced them
    (SdkCases.replaced); empty when there are none (a field no edit touched is written as read), or when
    the table cannot be written as SDK JSON at all (SdkColumnError): the save says why itself."""
    from evaleditor.core.saving import planned_dataset

    if not any(isinstance(r.payload, (SdkCase, SdkTrace)) and r.payload.kept is not None for r in ds.rows):
        return []  # most files
    try:
        plan = SdkCases(planned_dataset(ds, command, ds.target.name))
    except SdkColumnError:  # a column it cannot write: encode_sdk_json reports it
        return []
    return [where for n in range(len(plan)) for where in plan.replaced(n)]


def encode_sdk_json(path: object, ds: Dataset, progress: Progress | None = None
                    ) -> tuple[dict[str, Any], bytes, bool]:
    """The SDK object for `ds`, its JSON text, and whether that text is known to parse back to the
    object (json_text.dumps_marked: every float the object holds was marked where it entered, and
    orjson wrote it); WriteError with a one-line reason otherwise. The records form's values are made
    from text by io/records.py, unmarked: its text is made by `dumps`, which looks."""
    try:
        with bulk_allocation():
            obj = dataset_to_sdk(ds, progress)
            if records_form(ds):
                return obj, dumps(obj), False
            data, exact = dumps_marked(obj)
            return obj, data, exact
    except SdkColumnError as err:
        raise WriteError(path, str(err)) from None
    except (ValueError, RecursionError) as err:
        raise WriteError(path, f"cannot write SDK JSON: {err}") from None


def write_sdk_json(path: str | os.PathLike[str], ds: Dataset, progress: Progress | None = None) -> None:
    """Write `ds` to `path` as SDK JSON, atomically; WriteError with a one-line reason otherwise."""
    from evaleditor.io.sdk.stream import save_sdk_json

    with bulk_allocation():
        save_sdk_json(path, ds, progress)


__all__ = ["SdkCases", "SdkColumnError", "dataset_to_sdk", "encode_sdk_json", "replaced_rejected", "replaced_traces",
           "write_sdk_json"]
