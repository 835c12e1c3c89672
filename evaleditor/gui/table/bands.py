"""Conversation bands: each conversation has a colour (0, 1 or 2) other than those of the conversations
just before and after it (ordered by their first rows), so that neighbours can be told apart.

Built as colours 0 and 1 alternating. A session_id edit changes the first rows of the conversations it
leaves and joins, no others; then only those, and a conversation that came next to one whose first row
went, may need another colour: one that neither neighbour has, the third when they have the other two.
No other conversation changes colour, so an edit repaints its own rows, not every row below (with
colours by rank, one new conversation flipped every later band: the whole screen repainted, ~50 ms at
100k rows under Xvfb). Rows inserted, removed or reordered, a replace-all: built again (27k
conversations at 100k rows: a few milliseconds).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from operator import itemgetter

from evaleditor.core.validation import Validator

COLOURS = frozenset((0, 1, 2))


class Bands:
    def __init__(self, validator: Validator):
        self.validator = validator
        self._colour: dict[str, int] | None = None
        self._first_of: dict[str, int] = {}  # session -> its first row's position
        self._firsts: list[int] = []  # those positions, sorted
        self._sid_at: dict[int, str] = {}  # first-row position -> session

    def reset(self) -> None:
        self._colour = None

    def band(self, row_id: int) -> int | None:
        """0, 1 or 2 for a row in a session; None for a row without one."""
        sid = self.validator.sessions.session_of.get(row_id)
        if sid is None:
            return None
        if self._colour is None:
            self._build()
        return self._colour.get(sid, 0)  # type: ignore[union-attr]

    def moved(self, sids: Iterable[str]) -> list[tuple[int, int]]:
        """Sessions `sids` gained or lost rows by a cell edit (no row moved): refresh their first rows
        and the colours that now clash. Return the spans of row positions (first, last) of the
        conversations given another colour (the rows that moved between conversations are the caller's)."""
        ds, sessions = self.validator.ds, self.validator.sessions.sessions
        if self._colour is None:
            return [(0, len(ds.rows) - 1)]
        sids = set(sids)
        check: list[str] = []  # conversations whose neighbours changed
        for sid in sids:
            old = self._first_of.pop(sid, None)
            if old is not None:
                i = bisect.bisect_left(self._firsts, old)
                del self._firsts[i]
                if self._sid_at.get(old) == sid:
                    del self._sid_at[old]
                if i < len(self._firsts):  # the next one is now beside the one before
                    check.append(self._sid_at[self._firsts[i]])
            new = self._first(sid)
            if new is None:
                self._colour.pop(sid, None)
                continue
            self._first_of[sid] = new
            self._sid_at[new] = sid
            bisect.insort(self._firsts, new)
            check.append(sid)
        recoloured = {sid for sid in check if self._fit(sid)}
        return [(p, p) for sid in recoloured for p in ds.positions(sessions.get(sid, ()))]

    def _fit(self, sid: str) -> bool:
        """Give `sid` a colour neither neighbour has, unless it has one; True when its colour changed."""
        first = self._first_of.get(sid)
        if first is None:
            return False
        i = bisect.bisect_left(self._firsts, first)
        near = {self._colour.get(self._sid_at[self._firsts[j]])  # type: ignore[union-attr]
                for j in (i - 1, i + 1) if 0 <= j < len(self._firsts)}
        colour = self._colour.get(sid)  # type: ignore[union-attr]
        if colour is not None and colour not in near:
            return False
        self._colour[sid] = min(COLOURS - near)  # type: ignore[index]
        return True

    def _first(self, sid: str) -> int | None:
        members = self.validator.sessions.sessions.get(sid)
        return self.validator.ds.position(members[0]) if members else None

    def _build(self) -> None:
        sessions = self.validator.sessions.sessions
        firsts = self.validator.ds.positions(map(itemgetter(0), sessions.values()))
        self._first_of = dict(zip(sessions, firsts, strict=True))
        self._sid_at = dict(zip(firsts, sessions, strict=True))
        self._firsts = sorted(firsts)
        self._colour = {self._sid_at[p]: rank % 2 for rank, p in enumerate(self._firsts)}
