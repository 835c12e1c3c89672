"""The Agent Platform Evaluation SDK's flat form (target `sdk-flat`): .jsonl and .csv with the columns
`prompt`, `reference`, `response`, `context`, `conversation_history`, `agent_data`, which the SDK's
`EvalDatasetLoader` reads (`pd.read_json(lines=True)` / `pd.read_csv`) and its
`_FlattenEvalDataConverter` turns into EvalCases (agentplatform/_genai/_evals_utils.py and
_evals_data_converters.py, google-cloud-agentplatform 2.6.0); the SDK's records form
`{"eval_dataset_df": [...]}` holds the same rows in a .json.

A conversation is written one line per evaluated turn: `prompt` the turn's question, `reference` its
answer, `conversation_history` the earlier turns as Content objects (user question, model answer),
and `session_id` / `turn_id` kept as columns (the converter passes unknown columns on as EvalCase
extras) so that the file reopens as the same conversations; `conversation_history` is then the one
those rows make, and is not shown as a column (it is made again on save). There is no `eval_case_id`
column: the converter names every case itself and an `eval_case_id` column makes it fail
("got multiple values for keyword argument 'eval_case_id'"); a table's `eval_case_id` column is
written as `source_eval_case_id`.
"""

from __future__ import annotations

from typing import Any

from evaleditor.core.dataset import Dataset
from evaleditor.core.i18n import N_, Msg
from evaleditor.core.table import RawTable
from evaleditor.core.targets import ANSWER, QUESTION, SDK_FLAT, SDK_HISTORY, SESSION, TURN
from evaleditor.io.platforms import Platform, cases, flat_record, kept_records, table_of
from evaleditor.io.records import typed_value
from evaleditor.io.sdk.conversations import conversation_layout
from evaleditor.io.sdk.mapping import model_content, user_content

SOURCE = "google-cloud-agentplatform 2.6.0: agentplatform/_genai/_evals_data_converters.py (_FlattenEvalDataConverter)"
HISTORY = SDK_HISTORY
JSON_KEYS = (HISTORY, "agent_data", "intermediate_events", "rubric_groups")
_OWN_KEYS = {"prompt", "reference", "response", HISTORY, "agent_data"}
_CASE_ID = "eval_case_id"
_SOURCE_ID = "source_eval_case_id"  # what the table's eval_case_id is written as


def histories(fields: list[dict[str, str]]) -> list[list[dict[str, Any]] | None]:
    """For each row: the Contents of the turns before it in its conversation, or None (first turn, or in none)."""
    out: list[list[dict[str, Any]] | None] = [None] * len(fields)
    layout = conversation_layout([f.get(SESSION, "") for f in fields], [f.get(TURN, "") for f in fields])
    for members in layout.values():
        history: list[dict[str, Any]] = []
        for i in members:
            out[i] = list(history) if history else None
            history.append(user_content(fields[i].get(QUESTION, "")))
            if fields[i].get(ANSWER, ""):
                history.append(model_content(fields[i][ANSWER]))
    return out


def records(ds: Dataset) -> list[dict[str, Any]]:
    """The rows as lines; a conversation's `conversation_history` made from its rows, unless the table
    shows that column (fold_history shows it when the file's is not what the rows make): then as shown."""
    rows = cases(ds)
    kept = kept_records(ds, JSON_KEYS)
    made = histories([c.fields for c in rows])
    shown = HISTORY in ds.headers()
    out = []
    for n, (case, history) in enumerate(zip(rows, made, strict=True)):
        record = kept[n] if kept is not None else {  # JSON text of a JSON column written as its value
            k: typed_value(v, None, k in JSON_KEYS) if isinstance(v, str) else v
            for k, v in flat_record(case, SDK_FLAT).items()}
        if _CASE_ID in record:
            record[_SOURCE_ID] = record.pop(_CASE_ID)
        if case.fields.get(SESSION) and not shown:
            if history is None:
                record.pop(HISTORY, None)
            else:
                record[HISTORY] = history
        out.append(record)
    return out


def left_out(ds: Dataset, fmt: str) -> list[Msg]:
    """A `source_eval_case_id` column beside an `eval_case_id` one: the line holds the id as that key."""
    headers = ds.headers()
    if _CASE_ID not in headers or _SOURCE_ID not in headers:
        return []
    return [Msg(N_("the column {column}: the table's {case_id} is written in its place (the SDK names each case "
                   "itself, and fails on an {case_id} column)"), (("column", _SOURCE_ID), ("case_id", _CASE_ID)))]


def table(ds: Dataset) -> tuple[list[str], list[list[str]]]:
    return table_of(records(ds), ("prompt", "reference", "context"))


def fold_history(table: RawTable) -> RawTable:
    """Leave out the `conversation_history` column when it is, on every row, what the conversation rows
    make (histories): it is made again on save, and an edit of an earlier turn shows in it then."""
    import json

    headers = table.headers
    if HISTORY not in headers or "session_id" not in headers:
        return table
    at = headers.index(HISTORY)
    position = {h: i for i, h in enumerate(headers)}
    want = histories([{SESSION: r[position["session_id"]], TURN: r[position["turn_id"]] if "turn_id" in position else "",
                       QUESTION: r[position["prompt"]] if "prompt" in position else "",
                       ANSWER: r[position["reference"]] if "reference" in position else ""} for r in table.rows])
    for row, history in zip(table.rows, want, strict=True):
        text = row[at]
        try:
            if (json.loads(text) if text else None) != history:
                return table
        except ValueError:
            return table
    table.headers = headers[:at] + headers[at + 1:]
    table.rows = [r[:at] + r[at + 1:] for r in table.rows]
    table.scans = None  # of the columns as read
    return table


PLATFORM = Platform(SDK_FLAT, SOURCE, records, table, left_out=left_out,
                    owns=lambda keys: bool(keys & _OWN_KEYS) and "referenceResponse" not in keys)
