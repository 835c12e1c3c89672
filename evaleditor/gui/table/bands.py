"""Alternating conversation bands: a session's colour is the parity of its rank among the sessions
ordered by their first row.

Kept as each session's first-row position and the sorted list of them, so that a row's band is a
bisection, and a session_id edit moves only the sessions it leaves and joins (their first rows may
change; nobody else's can). Rows inserted, removed or reordered shift positions: then it is rebuilt
(27k sessions at 100k rows: a few milliseconds).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from operator import itemgetter

from evaleditor.core.validation import Validator


class Bands:
    def __init__(self, validator: Validator):
        self.validator = validator
        self._first_of: dict[str, int] | None = None
        self._firsts: list[int] = []
        self._sid_at: dict[int, str] = {}  # first-row position -> session

    def reset(self) -> None:
        self._first_of = None

    def band(self, row_id: int) -> int | None:
        """0 or 1 for a row in a session; None for a row without one."""
        sid = self.validator.sessions.session_of.get(row_id)
        if sid is None:
            return None
        if self._first_of is None:
            self._build()
        first = self._first_of.get(sid)  # type: ignore[union-attr]
        return 0 if first is None else bisect.bisect_left(self._firsts, first) % 2

    def moved(self, sids: Iterable[str]) -> list[tuple[int, int]]:
        """Sessions `sids` gained or lost rows by a cell edit (no row moved): refresh their first rows.
        Return the spans of row positions (first, last) whose band may have changed: a session keeps its
        colour unless the number of sessions starting before it changed by an odd number, which can only
        happen after the first rows that came and went; and the rows of `sids` themselves."""
        if self._first_of is None:
            return [(0, len(self.validator.ds.rows) - 1)]
        sids = set(sids)
        marks: list[tuple[int, int]] = []  # (position, +1 a first row came / -1 one went)
        for sid in sids:
            old = self._first_of.pop(sid, None)
            if old is not None:
                del self._firsts[bisect.bisect_left(self._firsts, old)]
                if self._sid_at.get(old) == sid:
                    del self._sid_at[old]
                marks.append((old, -1))
            new = self._first(sid)
            if new is not None:
                self._first_of[sid] = new
                self._sid_at[new] = sid
                bisect.insort(self._firsts, new)
                marks.append((new, 1))
        marks.sort()
        spans, odd_from = [], None
        parity = 0
        for position, change in marks:  # sessions starting after an odd count of changes flip
            parity ^= change & 1
            if parity and odd_from is None:
                odd_from = position
            elif not parity and odd_from is not None:
                spans.append((odd_from, self._last_row_of_sessions_from(odd_from, position)))
                odd_from = None
        last = len(self.validator.ds.rows) - 1
        if odd_from is not None:
            spans.append((odd_from, last))
        sessions, ds = self.validator.sessions.sessions, self.validator.ds
        spans += [(p, p) for sid in sids for p in ds.positions(sessions.get(sid, ()))]
        return spans

    def _last_row_of_sessions_from(self, first: int, to: int) -> int:
        """The last row of the sessions whose first row is in first..to (`to` at least)."""
        sessions, ds = self.validator.sessions.sessions, self.validator.ds
        last = to
        for p in self._firsts[bisect.bisect_left(self._firsts, first):bisect.bisect_right(self._firsts, to)]:
            last = max(last, ds.position(sessions[self._sid_at[p]][-1]))
        return last

    def _first(self, sid: str) -> int | None:
        members = self.validator.sessions.sessions.get(sid)
        return self.validator.ds.position(members[0]) if members else None

    def _build(self) -> None:
        sessions = self.validator.sessions.sessions
        firsts = self.validator.ds.positions(map(itemgetter(0), sessions.values()))
        self._first_of = dict(zip(sessions, firsts, strict=True))
        self._sid_at = dict(zip(firsts, sessions, strict=True))
        self._firsts = sorted(firsts)
