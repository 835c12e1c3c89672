"""Azure AI Foundry evaluation (target `azure-foundry`): .jsonl (or .csv) rows with `query`,
`response`, `context` and `ground_truth`, the names the azure-ai-evaluation evaluators take
(`evaluate(data=…jsonl, evaluators=…)` maps columns to evaluator arguments by name); a conversation
is one line `{"conversation": {"messages": [{"role": "user", "content": …}, {"role": "assistant",
"content": …, "context": …}, …]}}`.

The table's answer is the expected answer (`ground_truth`); a `response` column (the answers to score)
is kept as it is. A conversation is written as one `conversation` line in the place of its first row,
its turns in turn order: user question, then the expected answer as the assistant's message (with the
turn's context). Such a line reopens as one row whose `conversation` cell holds its JSON (and is
written back as it is); it is not split into turns again.
"""

from __future__ import annotations

from typing import Any

from evaleditor.core.dataset import Dataset
from evaleditor.core.targets import ANSWER, AZURE, CONTEXT, QUESTION, SESSION, TURN
from evaleditor.io.platforms import Platform, as_read, cases, flat_record, kept_records, table_of
from evaleditor.io.sdk.conversations import conversation_layout

SOURCE = "https://learn.microsoft.com/azure/ai-foundry/how-to/develop/evaluate-sdk"


def records(ds: Dataset) -> list[dict[str, Any]]:
    kept = kept_records(ds, ("conversation",))
    if kept is not None:
        return kept
    rows = cases(ds)
    return [{"conversation": {"messages": [m for k in group for m in _messages(rows[k].fields)]}}
            if rows[group[0]].fields.get(SESSION) else flat_record(rows[group[0]], AZURE) for group in _groups(rows)]


def record_rows(ds: Dataset) -> list[list[int]]:
    """Which rows (of `cases(ds)`) each record is made of, in the file's order."""
    rows = cases(ds)
    return [[i] for i in range(len(rows))] if as_read(ds) else _groups(rows)


def _groups(rows: list) -> list[list[int]]:
    """A conversation's rows in turn order, in the place of its first turn; any other row alone."""
    layout = conversation_layout([c.fields.get(SESSION, "") for c in rows], [c.fields.get(TURN, "") for c in rows])
    first = {members[0]: members for members in layout.values()}
    in_conversation = {i for members in layout.values() for i in members}
    return [first[i] if i in first else [i] for i in range(len(rows)) if i in first or i not in in_conversation]


def _messages(fields: dict[str, str]) -> list[dict[str, str]]:
    out = [{"role": "user", "content": fields.get(QUESTION, "")}]
    if fields.get(ANSWER):
        reply = {"role": "assistant", "content": fields[ANSWER]}
        if fields.get(CONTEXT):
            reply["context"] = fields[CONTEXT]
        out.append(reply)
    return out


def table(ds: Dataset) -> tuple[list[str], list[list[str]]]:
    return table_of(records(ds), ("query", "response", "context", "ground_truth"))


PLATFORM = Platform(AZURE, SOURCE, records, table,
                    owns=lambda keys: bool(keys & {"query", "ground_truth", "conversation"}), record_rows=record_rows)
