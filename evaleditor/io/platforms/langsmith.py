"""LangSmith datasets (target `langsmith`): examples with `inputs`, `outputs` and `metadata`, each a
key-value object (langsmith.schemas.ExampleCreate; `Client.create_examples`). The question and the
context are inputs (`question`, `context`), the expected answer an output (`answer`, with
`expected_tool_calls` as parsed JSON when valid), every other column metadata, with `session_id` and
`turn_id` (LangSmith evaluates every example on its own: rule conversation-not-supported).

Reading is the writer's inverse, one level deep: each key of `inputs`, `outputs` and `metadata` is a
column of its own name, except that the single key of `inputs` is the question column and the single
key of `outputs` the answer column (an example `{"inputs": {"input": …}}` opens with `question`);
the example as read stays with its row and an edit changes only that key. An example where two of
these keys would be one column, or whose `inputs`/`outputs`/`metadata` is not an object, opens with
each as a JSON-text column, as any .jsonl record.

.csv is the table as it is (`question`, `context`, `answer` and the other columns), for LangSmith's
CSV upload, which asks which columns are inputs, outputs and metadata (`Client.upload_csv(input_keys=
["question", "context"], output_keys=["answer"])`).
"""

from __future__ import annotations

from typing import Any

from evaleditor.core import toolcalls
from evaleditor.core.dataset import Dataset
from evaleditor.core.export import export_headers
from evaleditor.core.table import RawTable
from evaleditor.core.targets import ANSWER, CONTEXT, LANGSMITH, QUESTION, SESSION, TOOL_CALLS, TURN
from evaleditor.io.platforms import Case, Platform, cases, flat_record, table_of
from evaleditor.io.records import Record, records_table, renamed_keys, row_record, typed_value

SOURCE = "https://docs.langchain.com/langsmith/manage-datasets-programmatically"
JSON_KEYS = ("inputs", "outputs", "metadata")
_SINGLE = {"inputs": "question", "outputs": "answer"}  # the column of an object's single key
_NEW = {"question": "inputs", "context": "inputs", "answer": "outputs", "expected_tool_calls": "outputs"}


def columns(record: dict[str, Any]) -> dict[str, tuple[str | None, str]] | None:
    """Column -> (object, key) of an example read one level deep (None: a top-level key), in the
    record's order; None when the example is not of that shape (see the module's docstring)."""
    out: dict[str, tuple[str | None, str]] = {}
    for top, value in record.items():
        if top not in JSON_KEYS:
            pairs = [(top, (None, top))]
        elif not isinstance(value, dict):
            return None
        elif len(value) == 1 and top in _SINGLE:
            pairs = [(_SINGLE[top], (top, next(iter(value))))]
        else:
            pairs = [(key, (top, key)) for key in value]
        for column, where in pairs:
            if column in out:
                return None
            out[column] = where
    return out


def _flat(record: dict[str, Any]) -> dict[str, Any]:
    where = columns(record)
    if where is None:
        return record
    return {col: record[top][key] if top else record[key] for col, (top, key) in where.items()}


def read(records: list[dict[str, Any]]) -> RawTable:
    table = records_table(records, "jsonl", _flat)
    table.target = LANGSMITH
    return table


def records(ds: Dataset) -> list[dict[str, Any]]:
    """A row read from an example is written as read (edits in place) while the headers are
    LangSmith's; any other row is made from its cells."""
    headers = ds.headers()
    keep = export_headers(ds, LANGSMITH) == headers
    renamed = renamed_keys(ds) if keep else {}
    out = []
    for case in cases(ds):
        payload = case.row.payload
        if keep and type(payload) is Record:
            where = columns(payload.record)
            out.append(row_record(headers, case.row.cells, payload, JSON_KEYS, renamed) if where is None
                       else _example(headers, case.row.cells, payload, where, renamed))
        else:
            out.append(_made(case))
    return out


def _example(headers: list[str], cells: list[str], payload: Record, where: dict[str, tuple[str | None, str]],
             renamed: dict[str, str]) -> dict[str, Any]:
    """The example read with the row's edits: an edited cell changes only its key (a new column is a
    metadata key, or an input/output by its name); a removed column's key is dropped; a renamed
    column's key (`renamed`: new name -> column as read) is renamed in its place, its value kept."""
    out = {k: dict(v) if k in JSON_KEYS else v for k, v in payload.record.items()}
    shown, where = dict(payload.shown), dict(where)
    for col, source in renamed.items():
        if col not in where and source in where and source not in headers:
            top, key = where.pop(source)
            holder = out if top is None else out[top]
            moved = {(col if k == key else k): v for k, v in holder.items()}
            holder.clear()
            holder.update(moved)
            where[col], shown[col] = (top, col), shown.pop(source)
    edits: list[tuple[str, str | None]] = [(col, None) for col in shown if col not in headers]
    edits += [(col, text) for col, text in zip(headers, cells, strict=False) if shown.get(col, "") != text]
    for col, text in edits:
        top, key = where.get(col, (_NEW.get(col, "metadata"), col))
        holder = out if top is None else out.setdefault(top, {})
        original = holder.get(key)
        if text is None or (text == "" and not isinstance(original, str)):
            holder.pop(key, None)
        else:
            holder[key] = typed_value(text, original, key == "expected_tool_calls")
    return out


def _made(case: Case) -> dict[str, Any]:
    f = case.fields
    inputs = {"question": case.value(QUESTION)}
    if f.get(CONTEXT):
        inputs["context"] = case.value(CONTEXT)
    outputs: dict[str, Any] = {}
    if f.get(ANSWER):
        outputs["answer"] = case.value(ANSWER)
    if f.get(TOOL_CALLS):
        calls = toolcalls.parse(f[TOOL_CALLS])
        outputs["expected_tool_calls"] = calls if calls is not None else f[TOOL_CALLS]
    typed = case.typed_extras()
    metadata = {k: typed.get(k, v) for k, v in case.extras.items() if v}  # a number as read stays one
    metadata.update({k: case.value(fld) for k, fld in (("session_id", SESSION), ("turn_id", TURN)) if f.get(fld)})
    record: dict[str, Any] = {"inputs": inputs, "outputs": outputs}
    if metadata:
        record["metadata"] = metadata
    return record


def blank(headers: list[str]) -> dict[str, Any]:
    """The example of a file with no cases yet: each column an empty key where `_made` puts it."""
    out: dict[str, dict[str, str]] = {"inputs": {}, "outputs": {}}
    for h in headers:
        out.setdefault(_NEW.get(h, "metadata"), {})[h] = ""
    return out


def table(ds: Dataset) -> tuple[list[str], list[list[str]]]:
    return table_of([flat_record(c, LANGSMITH) for c in cases(ds)], ("question", "context", "answer"))


PLATFORM = Platform(LANGSMITH, SOURCE, records, table,
                    owns=lambda keys: bool(keys & {"inputs", "outputs"}), read=read, blank=blank)
