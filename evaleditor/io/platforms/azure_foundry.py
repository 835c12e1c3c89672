"""Azure AI Foundry evaluation (target `azure-foundry`): .jsonl (or .csv) rows with `query`,
`response`, `context` and `ground_truth`, the names the azure-ai-evaluation evaluators take
(`evaluate(data=…jsonl, evaluators=…)` maps columns to evaluator arguments by name); a conversation
is one line `{"conversation": {"messages": [{"role": "user", "content": …}, {"role": "assistant",
"content": …, "context": …}, …]}}`.

The table's answer is the expected answer (`ground_truth`); a `response` column (the answers to score)
is kept as it is. A conversation is written as one `conversation` line in the place of its first row,
its turns in turn order: user question, then the expected answer as the assistant's message (with the
turn's context). Reading, such a line opens as one row per user message (`Turn`): `query` the user's
message, `ground_truth` and `context` the assistant's reply, `session_id` `conversation-<line>`,
`turn_id` 1…n; each row keeps its messages and the line (other keys, tool calls) and writes them back
with only the edited message changed. A line whose messages are not user/assistant turns (a system
message, a tool message) opens as one row whose `conversation` cell holds its JSON, written back as it
is (info rule sdk-not-shown).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from evaleditor.core.dataset import Dataset
from evaleditor.core.export import export_headers
from evaleditor.core.table import LoadNote, RawTable
from evaleditor.core.targets import ANSWER, AZURE, CONTEXT, QUESTION, SESSION, TURN
from evaleditor.io.platforms import Case, Platform, cases, flat_record, table_of
from evaleditor.io.records import Record, records_table, row_record, typed_value
from evaleditor.io.sdk.conversations import conversation_layout

SOURCE = "https://learn.microsoft.com/azure/ai-foundry/how-to/develop/evaluate-sdk"
_SHOWN = ((QUESTION, "query", 0, "content"), (ANSWER, "ground_truth", 1, "content"), (CONTEXT, "context", 1, "context"))


@dataclass(frozen=True, eq=False, slots=True)
class Turn:
    """What a row read from a conversation line carries: the line, which of its turns, the text shown."""

    line: dict[str, Any]
    index: int  # 0-based, into turns(line)
    shown: dict[str, str]

    def messages(self) -> list[dict[str, Any]]:
        found = turns(self.line)
        return list(found[self.index]) if found is not None else []


def turns(record: dict[str, Any]) -> list[list[dict[str, Any]]] | None:
    """A conversation line's messages as turns (a user message, then the assistant's reply if any),
    or None when the line is no conversation or its messages are not user/assistant turns."""
    conversation = record.get("conversation")
    messages = conversation.get("messages") if isinstance(conversation, dict) else None
    if not isinstance(messages, list) or not messages:
        return None
    out: list[list[dict[str, Any]]] = []
    for m in messages:
        role = m.get("role") if isinstance(m, dict) else None
        if not isinstance(m, dict) or not isinstance(m.get("content"), str) or role not in ("user", "assistant"):
            return None
        if role == "user":
            out.append([m])
        elif not out or len(out[-1]) == 2:
            return None  # a reply before any question, or two replies in a row
        else:
            out[-1].append(m)
    return out


def read(records: list[dict[str, Any]]) -> RawTable:
    shown_rows: list[dict[str, Any]] = []
    turn_of: dict[int, tuple[dict[str, Any], int]] = {}
    notes = []
    for n, record in enumerate(records, 1):
        found = turns(record)
        if found is None:
            if "conversation" in record:
                notes.append(LoadNote("sdk-not-shown", f"line {n}: a conversation whose messages are not user and "
                                      "assistant turns: kept whole in the conversation column", len(shown_rows)))
            shown_rows.append(record)
            continue
        for k, messages in enumerate(found):
            row = {"query": messages[0]["content"]}
            if len(messages) == 2:
                row["ground_truth"] = messages[1]["content"]
                if "context" in messages[1]:
                    row["context"] = messages[1]["context"]
            turn_of[len(shown_rows)] = (record, k)
            shown_rows.append({**row, "session_id": f"conversation-{n}", "turn_id": k + 1})
    table = records_table(shown_rows, "jsonl")
    for i, (record, k) in turn_of.items():
        table.payloads[i] = Turn(record, k, table.payloads[i].shown)
    table.notes.extend(notes)
    table.target = AZURE
    return table


def records(ds: Dataset) -> list[dict[str, Any]]:
    """A row read as a record is written as read (edits in place) while the headers are Azure's; the
    other rows are made from their cells, those of a conversation (session_id) as one line."""
    rows, kept = cases(ds), _kept(ds)
    headers = ds.headers()
    return [row_record(headers, rows[g[0]].row.cells, rows[g[0]].row.payload, ("conversation",)) if kept[g[0]]
            else _conversation([rows[k] for k in g]) if rows[g[0]].fields.get(SESSION)
            else flat_record(rows[g[0]], AZURE) for g in record_rows(ds)]


def record_rows(ds: Dataset) -> list[list[int]]:
    """Which rows (of `cases(ds)`) each record is made of, in the file's order: a conversation's rows
    in turn order, in the place of its first turn; a row written as read, or in no conversation, alone."""
    rows, kept = cases(ds), _kept(ds)
    joined = [i for i, k in enumerate(kept) if not k]
    layout = conversation_layout([rows[i].fields.get(SESSION, "") for i in joined],
                                 [rows[i].fields.get(TURN, "") for i in joined])
    first = {joined[members[0]]: [joined[k] for k in members] for members in layout.values()}
    in_conversation = {i for members in first.values() for i in members}
    return [first.get(i, [i]) for i in range(len(rows)) if i in first or i not in in_conversation]


def _kept(ds: Dataset) -> list[bool]:
    """For each of cases(ds): written as read (a plain record under Azure's headers)."""
    keep = export_headers(ds, AZURE) == ds.headers()
    return [keep and type(c.row.payload) is Record for c in cases(ds)]


def _conversation(members: list[Case]) -> dict[str, Any]:
    """One conversation line: the line read (its other keys) with the members' messages, in turn order."""
    messages = [m for c in members for m in _messages(c)]
    line = next((c.row.payload.line for c in members if isinstance(c.row.payload, Turn)), None)
    if line is None:
        return {"conversation": {"messages": messages}}
    return {**line, "conversation": {**line["conversation"], "messages": messages}}


def _messages(case: Case) -> list[dict[str, Any]]:
    """A row's messages: those read with its edits (only an edited key changes), else made from its cells."""
    fields, turn = case.fields, case.row.payload
    if not isinstance(turn, Turn):
        out = [{"role": "user", "content": fields.get(QUESTION, "")}]
        if fields.get(ANSWER):
            reply = {"role": "assistant", "content": fields[ANSWER]}
            if fields.get(CONTEXT):
                reply["context"] = fields[CONTEXT]
            out.append(reply)
        return out
    out = [dict(m) for m in turn.messages()]
    for field, name, at, key in _SHOWN:
        text = fields.get(field, "")
        if text == turn.shown.get(name, ""):
            continue
        if at == 1 and len(out) == 1:
            out.append({"role": "assistant", "content": ""})
        original = out[at].get(key)
        if text == "" and key == "context":
            out[at].pop(key, None)
        else:
            out[at][key] = typed_value(text, original)
    return out


def table(ds: Dataset) -> tuple[list[str], list[list[str]]]:
    return table_of(records(ds), ("query", "response", "context", "ground_truth"))


PLATFORM = Platform(AZURE, SOURCE, records, table,
                    owns=lambda keys: bool(keys & {"query", "ground_truth", "conversation"}), read=read,
                    record_rows=record_rows)
