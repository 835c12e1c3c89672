"""The Upload Preview of the other platforms (io/platforms/): the records the platform's own writer
makes from the file a save writes, one case a record, each shown as the line the file holds (a JSON
object of the .jsonl, or the header and the row of the .csv). Registered by io/upload_preview.py.

The counts are made from the writer's rows, as the shape line counts them (rules.md, "Shape line"):
a row with a session id is a turn of that conversation, one with none a conversation of its own. A
platform that evaluates every row on its own (Target.conversations False) lists each row alone.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from evaleditor.core.document import Document
from evaleditor.core.saving import default_format
from evaleditor.core.shape import Shape
from evaleditor.core.targets import ANSWER, QUESTION, SESSION, TOOL_CALLS, TURN
from evaleditor.io.platforms import building, cases, platform_for
from evaleditor.io.upload_preview import CONVERSATION, SINGLE, Case, Preview, Turn, as_saved, saved_plan


def platform_preview(doc: Document) -> Preview:
    """One case per record the target's writer makes, in the order the file holds them."""
    target = doc.dataset.target
    platform = platform_for(target.name)
    plan = saved_plan(doc)
    saved = as_saved(doc, plan)
    fmt = default_format(doc)
    rows = cases(saved)  # the writer's rows: record n is made from rows[n]
    jsonl = fmt == "jsonl" and platform.records is not None
    if jsonl:
        from evaleditor.io.records import jsonl_bytes

        with building(plan.built):  # the records the plan's left_out built: made once
            records = platform.records(saved)
        header_line = None
        raw = lambda n: jsonl_bytes([records[n]]).decode("utf-8").rstrip("\n")  # noqa: E731 - the line written
    else:
        headers, cells = platform.table(saved)
        header_line = _csv_line(headers)
        raw = lambda n: header_line + _csv_line(cells[n])  # noqa: E731
        records = cells
    sessions = [c.fields.get(SESSION, "") for c in rows]
    together = target.conversations
    groups = platform.record_rows(saved) if jsonl and platform.record_rows is not None \
        else [[i] for i in range(len(rows))]  # a .csv is a row a turn (azure's too)
    entries = []
    for group in groups:  # a record's rows; more than one: a conversation written as one record (azure)
        sid = sessions[group[0]]
        ids = tuple(rows[k].row.id for k in group)
        entries.append((CONVERSATION, sid, ids) if sid and together else (SINGLE, "", ids))
    named = {sid for sid in sessions if sid}
    pos = doc.dataset.field_position(SESSION)
    if pos is None or not named:
        shape = Shape("single-turn", len(rows), None, None)
    else:
        shape = Shape("multi-turn", len(rows), len(named) + sessions.count(""), doc.dataset.columns[pos].header)
    number = doc.dataset.position  # the row as the window numbers it

    def make(n: int) -> Case:
        record = records[n] if isinstance(records[n], dict) else {}
        turns = tuple(Turn(rows[k].row.id, number(rows[k].row.id) + 1, rows[k].fields.get(TURN, ""),
                           rows[k].fields.get(QUESTION, ""), rows[k].fields.get(ANSWER, ""),
                           rows[k].fields.get(TOOL_CALLS, ""), _history(record.get("conversation_history")))
                      for k in groups[n])
        return Case(entries[n][0], entries[n][1], turns, raw=raw(n), session=entries[n][1])

    return Preview(target.name, shape, entries, make, session_header=shape.session_header, objects=True)


def _csv_line(cells: list[str]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(cells)
    return out.getvalue()


def _history(contents: Any) -> tuple[tuple[str, str], ...]:
    """(role, text) of the Contents an sdk-flat record sends before its prompt."""
    if not isinstance(contents, list):
        return ()
    return tuple((str(c.get("role", "")), "\n".join(p.get("text", "") for p in c.get("parts") or ()
                                                    if isinstance(p, dict) and isinstance(p.get("text"), str)))
                 for c in contents if isinstance(c, dict))
