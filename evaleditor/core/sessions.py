"""Sessions: which rows form each conversation, in file order, kept up to date incrementally.

A row with an empty session id (an entirely empty row has one) is a conversation of one and is not
in the index.
"""

from __future__ import annotations

import bisect
import re
from itertools import compress
from operator import attrgetter, itemgetter

from evaleditor.core.bulk import run_bounds
from evaleditor.core.dataset import Change, Dataset
from evaleditor.core.targets import SESSION, TURN

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
    """The conversations of a dataset: which rows form each, in file order, and their turn order.

    It listens to the dataset and is current when the listeners subscribed after it hear of a change
    (a Document builds it before its Validator, which reads it for the session rules). What the last
    change moved stays readable until the next: `session_before(row id)`, and after a reorder the
    conversations whose rows changed order (`reordered`).
    """

    def __init__(self, ds: Dataset):
        self.ds = ds
        self.sessions: dict[str, list[int]] = {}  # session id -> row ids in file order
        self.session_of: dict[int, str] = {}  # row id -> session id (non-empty only)
        self.reordered: set[str] = set()  # the conversations whose rows the last change (a reorder) moved
        self._old_of: dict[int, str] | None = None  # session_of before a rebuild
        self._moved: dict[int, str] = {}  # row id -> its session id ("" for none) before the last change
        self._rebuild()
        ds.subscribe(self)

    def session_before(self, row_id: int) -> str:
        """The row's session id before the last change ("" for none)."""
        if self._old_of is not None:
            return self._old_of.get(row_id, "")
        moved = self._moved.get(row_id)
        return self.session_of.get(row_id, "") if moved is None else moved

    # ----- the dataset's listener ----------------------------------------------------------------
    def before_change(self, change: Change) -> None:
        pass

    def after_change(self, change: Change) -> None:
        self.reordered, self._old_of, self._moved = set(), None, {}
        kind = change.kind
        if kind == "cells":
            pos = self.ds.field_position(SESSION)
            if pos is None:
                return
            column = self.ds.columns[pos].id
            rows = {rid for rid, c in change.cells if c == column}
            if not rows:
                return
            row, session_of = self.ds.row, self.session_of
            moving = [(rid, sid) for rid in rows if (sid := row(rid).cells[pos]) != session_of.get(rid, "")]
            if len(moving) > 64 and len(moving) > len(self.ds.rows) // 16:  # one pass costs less than the moves
                self._rebuild()
            else:
                for rid, sid in moving:
                    self._move(rid, sid)
        elif kind == "insert_rows":
            pos = self.ds.field_position(SESSION)
            if pos is not None:
                row = self.ds.row
                for rid in change.row_ids:
                    if sid := row(rid).cells[pos]:
                        self._move(rid, sid)
        elif kind == "remove_rows":
            for rid in change.row_ids:
                if rid in self.session_of:
                    self._move(rid, "")
        elif kind == "reorder":  # a sort, its undo: the same conversations, their rows in another order
            self.reordered = self._reorder()
        else:  # a column or the target changed: the conversations may all differ
            self._rebuild()

    # ----- updates -------------------------------------------------------------------------------
    def _rebuild(self) -> None:
        """Recompute from scratch (`session_before` reads the old index): a Python step per run of rows
        with the same id (a conversation's rows are together), not per row."""
        self._old_of = self.session_of
        self.sessions, self.session_of = {}, {}
        pos = self.ds.field_position(SESSION)
        if pos is None:
            return
        rows = self.ds.rows
        ids = self.ds.row_ids()
        sids = list(map(itemgetter(pos), map(_CELLS, rows)))
        self.session_of = dict(compress(zip(ids, sids, strict=True), sids))
        sessions = self.sessions
        bounds = run_bounds(sids)
        for start, stop in zip(bounds, bounds[1:]):  # noqa: B905 - bounds[1:] is one shorter
            sid = sids[start]
            if sid:
                members = sessions.get(sid)
                if members is None:
                    sessions[sid] = ids[start:stop]
                else:
                    members += ids[start:stop]

    def _reorder(self) -> set[str]:
        """The rows moved (none came, went or changed): each conversation's rows put in their new file
        order, without a pass over every row's cells (a third of `_rebuild`'s time at 100k rows). Returns
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

    def _move(self, row_id: int, new_sid: str) -> None:
        """Put `row_id` into session `new_sid` ("" for none)."""
        old_sid = self.session_of.get(row_id, "")
        if old_sid == new_sid:
            return
        self._moved.setdefault(row_id, old_sid)
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

    # ----- queries -------------------------------------------------------------------------------
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
