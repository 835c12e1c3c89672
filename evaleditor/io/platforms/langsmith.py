"""LangSmith datasets (target `langsmith`): examples with `inputs`, `outputs` and `metadata`, each a
key-value object (langsmith.schemas.ExampleCreate; `Client.create_examples`). The question and the
context are inputs (`question`, `context`), the expected answer an output (`answer`, with
`expected_tool_calls` as parsed JSON when valid), every other column metadata, with `session_id` and
`turn_id` (LangSmith evaluates every example on its own: rule conversation-not-supported).

.csv is the table as it is (`question`, `context`, `answer` and the other columns), for LangSmith's
CSV upload, which asks which columns are inputs, outputs and metadata (`Client.upload_csv(input_keys=
["question", "context"], output_keys=["answer"])`).
"""

from __future__ import annotations

from typing import Any

from evaleditor.core import toolcalls
from evaleditor.core.dataset import Dataset
from evaleditor.core.targets import ANSWER, CONTEXT, LANGSMITH, QUESTION, SESSION, TOOL_CALLS, TURN
from evaleditor.io.platforms import Platform, cases, flat_record, kept_records, table_of

SOURCE = "https://docs.langchain.com/langsmith/manage-datasets-programmatically"
JSON_KEYS = ("inputs", "outputs", "metadata")


def records(ds: Dataset) -> list[dict[str, Any]]:
    kept = kept_records(ds, JSON_KEYS)
    if kept is not None:
        return kept
    out = []
    for case in cases(ds):
        f = case.fields
        inputs = {"question": f.get(QUESTION, "")}
        if f.get(CONTEXT):
            inputs["context"] = f[CONTEXT]
        outputs: dict[str, Any] = {}
        if f.get(ANSWER):
            outputs["answer"] = f[ANSWER]
        if f.get(TOOL_CALLS):
            calls = toolcalls.parse(f[TOOL_CALLS])
            outputs["expected_tool_calls"] = calls if calls is not None else f[TOOL_CALLS]
        metadata = {k: v for k, v in case.extras.items() if v}
        metadata.update({k: f[fld] for k, fld in (("session_id", SESSION), ("turn_id", TURN)) if f.get(fld)})
        record: dict[str, Any] = {"inputs": inputs, "outputs": outputs}
        if metadata:
            record["metadata"] = metadata
        out.append(record)
    return out


def table(ds: Dataset) -> tuple[list[str], list[list[str]]]:
    return table_of([flat_record(c, LANGSMITH) for c in cases(ds)], ("question", "context", "answer"))


PLATFORM = Platform(LANGSMITH, SOURCE, records, table,
                    owns=lambda keys: bool(keys & {"inputs", "outputs"}))
