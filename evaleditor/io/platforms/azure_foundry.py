"""Azure AI Foundry evaluation (target `azure-foundry`): .jsonl (or .csv) rows with `query`,
`response`, `context` and `ground_truth`, the names the azure-ai-evaluation evaluators take
(`evaluate(data=…jsonl, evaluators=…)` maps columns to evaluator arguments by name, and passes the
other columns on as data); a conversation is one line `{"conversation": {"messages": [{"role":
"user", "content": …}, {"role": "assistant", "content": …, "ground_truth": …, "context": …}, …]}}`.
Azure documents no key that names a line.

The table's answer is the expected answer (`ground_truth`); a `response` column (the answers to score)
is kept as it is. A conversation is written as one `conversation` line in the place of its first row,
its turns in turn order: user question, then the assistant's message with the turn's answer as its
`ground_truth`, its response (else the answer) as its `content`, and its context: azure-ai-evaluation
1.18.10 scores each turn's `content` against that message's own `ground_truth`
(`_base_eval.py`, `_derive_conversation_converter`). It pairs the nth user message with the nth
assistant message, so a turn with no answer that is not the last gets an empty assistant message
(content and ground_truth ""), which reads back as the same empty cells: without it every later reply
would be scored as the answer to the question before it (a line read so and not edited is written as
read). Reading, such a line opens as one row per user
message (`Turn`): `query` the user's message, `ground_truth` the reply's `ground_truth` (else, in a
line written without it, its content), `response` its content where it has a `ground_truth` (a column
only when some reply's content is not its ground_truth), `context` the reply's, `turn_id` 1…n,
`session_id` the line's `session_id` or else `id` key (`conversation-<line>` when it has neither, or
shares it with another line), and every other key of the line a column of its own on each of its
turns. Each row keeps its messages and the line (tool calls …) and writes them back with only the
edited message changed (a reply read without `ground_truth` keeps that shape until it is given a
response).

The other columns of a conversation's turns (all but `response`) are the line's keys (the session the key it was read
from, else `session_id`): one value for all its turns. Where the turns differ, the line keeps the
value it had and `left_out` says so (the save's plan lists it). A line whose messages are not
user/assistant turns (a system message, a tool message) opens as one row whose `conversation` cell
holds its JSON, written back as it is (info rule sdk-not-shown).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from evaleditor.core.dataset import Dataset
from evaleditor.core.export import export_headers
from evaleditor.core.i18n import N_, Msg
from evaleditor.core.report import some_of
from evaleditor.core.table import LoadNote, RawTable
from evaleditor.core.targets import ANSWER, AZURE, CONTEXT, QUESTION, SESSION, TURN, get_target
from evaleditor.io.platforms import Case, Platform, built, cases, flat_record, table_of
from evaleditor.io.records import Record, records_table, renamed_keys, row_record, typed_value, value_text
from evaleditor.io.sdk.conversations import conversation_layout

SOURCE = "https://learn.microsoft.com/azure/ai-foundry/how-to/develop/evaluate-sdk"
_TURN_COLUMNS = ("query", "ground_truth", "context", "session_id", "turn_id")  # made from the messages, not line keys
RESPONSE = "response"  # the answers to score: a conversation's in its assistant messages' content
_SESSION_KEYS = ("session_id", "id")  # a line's own name, shown as its session


@dataclass(frozen=True, eq=False, slots=True)
class Turn:
    """What a row read from a conversation line carries: the line, which of its turns, the text shown,
    and the key its session was read from (None: made up, `conversation-<line>`)."""

    line: dict[str, Any]
    index: int  # 0-based, into turns(line)
    shown: dict[str, str]
    session_key: str | None = None

    def messages(self, parsed: dict[int, list[list[dict[str, Any]]]]) -> list[dict[str, Any]]:
        """Its messages as read; `parsed` keeps each line's turns, parsed once for all its rows."""
        found = parsed.get(id(self.line))
        if found is None:
            found = parsed[id(self.line)] = turns(self.line) or []
        return list(found[self.index]) if self.index < len(found) else []


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


def _session_keys(records: list[dict[str, Any]], found: list[Any]) -> list[str | None]:
    """For each conversation line (found[n] not None): the key whose value is its session, when that
    value names no other line and is no made-up `conversation-<line>` of another."""
    keys = [next((k for k in _SESSION_KEYS if r.get(k) is not None), None) if f is not None else None
            for r, f in zip(records, found, strict=True)]
    names = [value_text(r[k]) if k else "" for r, k in zip(records, keys, strict=True)]
    taken = Counter(n for n in names if n)
    made = {f"conversation-{n}" for n, k in enumerate(keys, 1) if k is None}
    return [k if k and taken[name] == 1 and name not in made else None for k, name in zip(keys, names, strict=True)]


def _expected(reply: dict[str, Any]) -> bool:
    """The assistant message holds the expected answer in its own `ground_truth` key (its content the
    response), as azure-ai-evaluation's conversation converter reads it."""
    return isinstance(reply.get("ground_truth"), str)


def read(records: list[dict[str, Any]]) -> RawTable:
    shown_rows: list[dict[str, Any]] = []
    turn_of: dict[int, tuple[dict[str, Any], int, str | None]] = {}
    notes = []
    found = [turns(r) for r in records]
    session_keys = _session_keys(records, found)
    # a response column only where some reply's content is not its expected answer (without one, the
    # writer makes the content the answer: the same line)
    responses = any(len(m) == 2 and _expected(m[1]) and m[1]["content"] != m[1]["ground_truth"]
                    for messages_of in found if messages_of for m in messages_of)
    for n, (record, messages_of, key) in enumerate(zip(records, found, session_keys, strict=True), 1):
        if messages_of is None:
            if "conversation" in record:
                notes.append(LoadNote("sdk-not-shown", f"line {n}: a conversation whose messages are not user and "
                                      "assistant turns: kept whole in the conversation column", len(shown_rows)))
            shown_rows.append(record)
            continue
        own_responses = responses and any(len(m) == 2 and _expected(m[1]) for m in messages_of)
        others = {k: v for k, v in record.items() if k != "conversation" and k != key and k not in _TURN_COLUMNS
                  and not (own_responses and k == RESPONSE)}
        session = record[key] if key else f"conversation-{n}"
        for k, messages in enumerate(messages_of):
            row = {"query": messages[0]["content"]}
            if len(messages) == 2:
                reply = messages[1]
                row["ground_truth"] = reply["ground_truth"] if _expected(reply) else reply["content"]
                if responses and _expected(reply):
                    row[RESPONSE] = reply["content"]
                if "context" in reply:
                    row["context"] = reply["context"]
            turn_of[len(shown_rows)] = (record, k, key)
            shown_rows.append({**row, "session_id": session, "turn_id": k + 1, **others})
    table = records_table(shown_rows, "jsonl")
    for i, (record, k, key) in turn_of.items():
        table.payloads[i] = Turn(record, k, table.payloads[i].shown, key)
    table.notes.extend(notes)
    table.target = AZURE
    return table


def records(ds: Dataset) -> list[dict[str, Any]]:
    """A row read as a record is written as read (edits in place) while the headers are Azure's; the
    other rows are made from their cells, those of a conversation (session_id) as one line."""
    return built(ds, AZURE, _written, keep=False).records  # made once: the save plan's left_out made them


@dataclass(frozen=True, slots=True)
class _Written:
    records: list[dict[str, Any]]
    differing: dict[str, list[str]]  # a column whose value differs between a conversation's turns: its sessions


def _written(ds: Dataset) -> _Written:
    rows = cases(ds)
    kept = _kept(ds, rows)
    headers = ds.headers()
    groups = _groups(rows, kept)
    lines = any(not kept[g[0]] and rows[g[0]].fields.get(SESSION) for g in groups)
    renamed = renamed_keys(ds, (Record, Turn)) if any(kept) or lines else {}
    differing: dict[str, list[str]] = {}
    made = [row_record(headers, rows[g[0]].row.cells, rows[g[0]].row.payload, ("conversation",), renamed) if kept[g[0]]
            else _conversation([rows[k] for k in g], headers, renamed, differing) if rows[g[0]].fields.get(SESSION)
            else flat_record(rows[g[0]], AZURE) for g in groups]
    return _Written(made, differing)


def record_rows(ds: Dataset) -> list[list[int]]:
    """Which rows (of `cases(ds)`) each record is made of, in the file's order: a conversation's rows
    in turn order, in the place of its first turn; a row written as read, or in no conversation, alone."""
    rows = cases(ds)
    return _groups(rows, _kept(ds, rows))


def _groups(rows: list[Case], kept: list[bool]) -> list[list[int]]:
    joined = [i for i, k in enumerate(kept) if not k]
    layout = conversation_layout([rows[i].fields.get(SESSION, "") for i in joined],
                                 [rows[i].fields.get(TURN, "") for i in joined])
    first = {joined[members[0]]: [joined[k] for k in members] for members in layout.values()}
    in_conversation = {i for members in first.values() for i in members}
    return [first.get(i, [i]) for i in range(len(rows)) if i in first or i not in in_conversation]


def left_out(ds: Dataset, fmt: str) -> list[Msg]:
    """What a .jsonl cannot hold: the columns whose value differs between the turns of a conversation,
    which is one line with one value of each (the line keeps the value it had). A .csv holds it all."""
    if fmt != "jsonl":
        return []
    differing = built(ds, AZURE, _written).differing  # the lines the save writes, made once
    return [Msg(N_("the column {column} where the turns of a conversation differ (a conversation is one line, "
                   "with one value for all its turns): {sessions}"),
                (("column", column), ("sessions", some_of(sessions, 5)))) for column, sessions in differing.items()]


def _kept(ds: Dataset, rows: list[Case]) -> list[bool]:
    """For each of rows (cases(ds)): written as read (a plain record under Azure's headers)."""
    keep = export_headers(ds, AZURE) == ds.headers()
    return [keep and type(c.row.payload) is Record for c in rows]


def _line_values(case: Case) -> dict[str, str]:
    """A row's cells that are its conversation line's keys, by column: all but its messages and turn."""
    t = get_target(AZURE)
    out = {t.header_for(f): text for f, text in case.fields.items() if f not in (QUESTION, ANSWER, CONTEXT, TURN)}
    out.update((h, text) for h, text in case.extras.items() if h not in ("conversation", RESPONSE))
    return out


def _typed(case: Case, column: str) -> Any:
    """A line key's value as read from the row's own record (Case.typed_extras, typed_fields), or None."""
    t = get_target(AZURE)
    return case.typed_extras().get(column, next((v for f, v in case.typed_fields().items()
                                                 if t.header_for(f) == column), None))


def _conversation(members: list[Case], headers: list[str], renamed: dict[str, str],
                  differing: dict[str, list[str]]) -> dict[str, Any]:
    """One conversation line: the line read with the members' messages in turn order, and the line's
    keys from the other columns where the turns agree and a cell changed (see the module's docstring);
    a renamed column (`renamed`: header -> key as read) in its key's place, its value typed as read.
    A column whose turns differ is added to `differing` (left_out says so)."""
    parsed: dict[int, list[list[dict[str, Any]]]] = {}
    read_as = next((c.row.payload for c in members if isinstance(c.row.payload, Turn)), None)
    made = [_messages(c, parsed) for c in members]
    messages = [m for turn in made for m in turn]
    if read_as is None or messages != read_as.line["conversation"].get("messages"):  # made or edited
        for turn in made[:-1]:  # a turn with no reply but the last: an empty one, for Azure pairs the nth
            if len(turn) == 1:  # user message with the nth assistant message (zip)
                turn.append({"role": "assistant", "content": "", "ground_truth": ""})
        messages = [m for turn in made for m in turn]
    line: dict[str, Any] = {"conversation": {}}
    renamed = {new: old for new, old in renamed.items() if read_as is not None and old in read_as.line}  # its keys
    if read_as is not None:
        new_name = {old: new for new, old in renamed.items()}
        gone = set(read_as.shown) - set(headers) - set(_TURN_COLUMNS)  # a column removed (or renamed)
        line = {new_name.get(k, k): v for k, v in read_as.line.items() if k not in gone or k in new_name}
    session_key = (read_as.session_key if read_as is not None else None) or "session_id"
    values = [_line_values(c) for c in members]
    for column in dict.fromkeys(col for v in values for col in v):
        texts = {v.get(column, "") for v in values}
        source = renamed.get(column, column)  # the key it was read as
        if len(texts) > 1:
            differing.setdefault(column, []).append(members[0].fields[SESSION])
        if len(texts) > 1 or (read_as is not None and all(
                isinstance(c.row.payload, Turn) and c.row.payload.line is read_as.line
                and c.row.payload.shown.get(source, "") == v.get(column, "") for c, v in zip(members, values, strict=True))):
            continue  # turns that differ (left_out says so), or as read (renamed: in its key's place)
        text = texts.pop()
        key = session_key if column == "session_id" else column
        original = line.get(key, _typed(members[0], column))  # a new line: the value as read, its JSON type
        if text == "" and not isinstance(original, str):
            line.pop(key, None)
        else:
            line[key] = typed_value(text, original)
    line["conversation"] = {**line["conversation"], "messages": messages}
    return line


def _messages(case: Case, parsed: dict[int, list[list[dict[str, Any]]]]) -> list[dict[str, Any]]:
    """A row's messages: those read with its edits (only an edited message changes), else made from its
    cells. An assistant message made or changed holds the answer as `ground_truth` and the response
    (else the answer) as `content`; one read with the answer as its content only, and no response
    given, keeps that shape."""
    fields, turn = case.fields, case.row.payload
    answer, response, context = fields.get(ANSWER, ""), case.extras.get(RESPONSE, ""), fields.get(CONTEXT, "")
    if not isinstance(turn, Turn):
        out = [{"role": "user", "content": fields.get(QUESTION, "")}]
        if answer or response:
            out.append({"role": "assistant", "content": response or answer, "ground_truth": answer,
                        **({"context": context} if context else {})})
        return out
    out = [dict(m) for m in turn.messages(parsed)]
    if fields.get(QUESTION, "") != turn.shown.get("query", ""):
        out[0]["content"] = fields.get(QUESTION, "")
    edited = answer != turn.shown.get("ground_truth", "") or response != turn.shown.get(RESPONSE, "")
    new_context = context != turn.shown.get("context", "")
    if (edited or new_context) and len(out) == 1:
        out.append({"role": "assistant", "content": "", "ground_truth": ""})
    if edited and (response or _expected(out[1])):
        out[1]["content"], out[1]["ground_truth"] = response or answer, answer
    elif edited:
        out[1]["content"] = answer
    if new_context and not context:
        out[1].pop("context", None)
    elif new_context:
        out[1]["context"] = typed_value(context, out[1].get("context"))
    return out


def table(ds: Dataset) -> tuple[list[str], list[list[str]]]:
    """The .csv: a row a turn, every column as it is (Azure's CSV is turn-level only, and a conversation
    written as one JSON cell would not open as its turns again)."""
    return table_of([flat_record(c, AZURE) for c in cases(ds)], ("query", "response", "context", "ground_truth"))


PLATFORM = Platform(AZURE, SOURCE, records, table,
                    owns=lambda keys: bool(keys & {"query", "ground_truth", "conversation"}), read=read,
                    record_rows=record_rows, left_out=left_out)
