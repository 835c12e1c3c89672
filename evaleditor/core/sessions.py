"""Sessions: which rows form each conversation, in file order, kept up to date incrementally.

A row with an empty session id is a conversation of one and is not in the index.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from itertools import compress
from operator import attrgetter, itemgetter

from evaleditor.core.bulk import run_bounds
from evaleditor.core.dataset import Dataset
from evaleditor.core.targets import SESSION, TURN

_ID = attrgetter("id")
_CELLS = attrgetter("cells")
_TURN = re.compile(r"\s*(\d+)(?:\.0*)?\s*")


def parse_turn(text: str) -> int | None:
    """A turn number as the service reads it (`2.0` is 2), or None when it is not a whole number ≥ 0."""
    m = _TURN.fullmatch(text)
    return int(m.group(1)) if m else None


def turn_key(text: str) -> tuple[int, int]:
    """The one order of a conversation's turns (the window, the fixes, the SDK JSON writer): numbered
    turns by number, then those with no readable number; a stable sort keeps file order among equals."""
    if text.isascii() and text.isdigit():  # most turn cells: no pattern to match
        return 0, int(text)
    t = parse_turn(text)
    return (0, t) if t is not None else (1, 0)


class SessionIndex:
    def __init__(self, ds: Dataset):
        self.ds = ds
        self.sessions: dict[str, list[int]] = {}  # session id -> row ids in file order
        self.session_of: dict[int, str] = {}  # row id -> session id (non-empty only)

    def rebuild(self, skip: set[int], sids: Sequence[str] | None = None) -> dict[str, list[int]]:
        """Recompute from scratch (rows in `skip` — entirely empty — are left out); return the old index.
        `sids`: the session column, cell by cell (bulk.columns_of), when the caller has it. A Python step
        per run of rows with the same id (a conversation's rows are together), not per row."""
        old = self.sessions
        self.sessions, self.session_of = {}, {}
        pos = self.ds.field_position(SESSION)
        if pos is None:
            return old
        rows = self.ds.rows
        ids = list(map(_ID, rows))
        if sids is None:
            sids = list(map(itemgetter(pos), map(_CELLS, rows)))
        self.session_of = session_of = dict(compress(zip(ids, sids, strict=True), sids))
        sessions = self.sessions
        if skip and not skip.isdisjoint(session_of):  # rows left out that have an id (an empty row has none)
            for rid in skip:
                session_of.pop(rid, None)
            for rid, sid in session_of.items():  # in file order
                sessions.setdefault(sid, []).append(rid)
            return old
        bounds = run_bounds(sids)
        for start, stop in zip(bounds, bounds[1:]):  # noqa: B905 - bounds[1:] is one shorter
            sid = sids[start]
            if sid:
                members = sessions.get(sid)
                if members is None:
                    sessions[sid] = ids[start:stop]
                else:
                    members += ids[start:stop]
        return old

    def reorder(self) -> set[str]:
        """The rows moved (none came, went or changed): each conversation's rows put in their new file
        order, without a pass over every row's cells (a third of `rebuild`'s time at 100k rows). Returns
        the conversations whose rows changed order."""
        positions, sessions = self.ds.positions, self.sessions
        moved = set()
        for sid, members in sessions.items():
            if len(members) > 1:
                at = positions(members)
                if at != sorted(at):
                    sessions[sid] = [rid for _, rid in sorted(zip(at, members, strict=True))]
                    moved.add(sid)
        return moved

    def move(self, row_id: int, new_sid: str) -> str:
        """Put `row_id` into session `new_sid` ("" for none); return its old session id."""
        old_sid = self.session_of.get(row_id, "")
        if old_sid == new_sid:
            return old_sid
        if old_sid:
            members = self.sessions[old_sid]
            members.remove(row_id)
            if not members:
                del self.sessions[old_sid]
            del self.session_of[row_id]
        if new_sid:
            members = self.sessions.setdefault(new_sid, [])
            bisect.insort(members, row_id, key=self.ds.position)
            self.session_of[row_id] = new_sid
        return old_sid

    def is_contiguous(self, sid: str) -> bool:
        members = self.sessions[sid]
        return self.ds.position(members[-1]) - self.ds.position(members[0]) + 1 == len(members)

    def in_turn_order(self, sid: str) -> list[int]:
        """The row ids of conversation `sid` as the service replays them (turn_key; file order without
        a turn column)."""
        members = self.sessions[sid]
        pos = self.ds.field_position(TURN)
        if pos is None:
            return list(members)
        row = self.ds.row
        return sorted(members, key=lambda rid: turn_key(row(rid).cells[pos]))


def sorted_order(ds: Dataset, index: SessionIndex) -> list[int]:
    """Row ids with each conversation gathered at its first row and its turns in turn order.

    Rows without a session keep their place; rows with an unreadable turn keep file order after
    the numbered ones. A stable sort: nothing else moves. One sort of every row by (its
    conversation's first position, unreadable turn, turn, its position).
    """
    turn_pos = ds.field_position(TURN)
    session_of = index.session_of
    rows = ds.rows
    first: dict[str, int] = {}
    keys = []
    for i, row in enumerate(rows):
        sid = session_of.get(row.id)
        if sid is None:
            keys.append((i, 0, 0, i))
            continue
        unread, turn = turn_key(row.cells[turn_pos]) if turn_pos is not None else (1, 0)
        keys.append((first.setdefault(sid, i), unread, turn, i))
    keys.sort()
    return [rows[k[3]].id for k in keys]
