"""Sorting the rows by one column, as a spreadsheet sorts (LibreOffice Calc): numbers before text,
text by its case-folded form, empty cells last in either direction; a stable sort, so rows that
compare equal keep their order. One undoable ReorderRows.

A sort reorders conversations too: `scrambled_sessions` names the conversations whose rows the new
order puts out of the order the service replays them (turn order, or file order without a turn
column) when they were in it before — the window then offers the session-and-turn sort instead."""

from __future__ import annotations

import math

from evaleditor.core.commands import ReorderRows
from evaleditor.core.conversation import replay_order
from evaleditor.core.i18n import N_, Msg
from evaleditor.core.validation import Validator


def sort_key(text: str) -> tuple[int, float, str]:
    t = text.strip()
    try:
        number = float(t)
    except ValueError:
        number = math.nan
    if math.isfinite(number):
        return (0, number, "")
    return (1, 0.0, t.casefold())


def sorted_by_column(v: Validator, column_id: int, descending: bool = False) -> list[int]:
    """Row ids ordered by the column's text; empty cells last."""
    ds = v.ds
    pos = ds.column_position(column_id)
    filled = [(sort_key(r.cells[pos]), r.id) for r in ds.rows if r.cells[pos].strip()]
    empty = [r.id for r in ds.rows if not r.cells[pos].strip()]
    filled.sort(key=lambda pair: pair[0], reverse=descending)  # stable either way
    return [rid for _, rid in filled] + empty


def sort_by_column(v: Validator, column_id: int, descending: bool = False) -> ReorderRows | None:
    """The sort as one undo step ("Sort by question"), None when the rows are already in that order."""
    order = sorted_by_column(v, column_id, descending)
    if order == [r.id for r in v.ds.rows]:
        return None
    header = v.ds.columns[v.ds.column_position(column_id)].header
    text = N_("Sort by {column}, descending") if descending else N_("Sort by {column}")
    return ReorderRows(order, Msg(text, (("column", header),)))


def scrambled_sessions(v: Validator, order: list[int]) -> list[str]:
    """Sessions in replay order now whose rows `order` would put out of it."""
    now = {r.id: i for i, r in enumerate(v.ds.rows)}
    after = {rid: i for i, rid in enumerate(order)}
    out = []
    for sid, members in v.sessions.sessions.items():
        if len(members) < 2:
            continue
        _, replay = replay_order(v, members[0])
        before = [now[r] for r in replay]
        if before == sorted(before):
            positions = [after[r] for r in replay]
            if positions != sorted(positions):
                out.append(sid)
    return out
