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

    def moved(self, sids: Iterable[str]) -> None:
        """Sessions `sids` gained or lost rows by a cell edit (no row moved): refresh their first rows."""
        if self._first_of is None:
            return
        for sid in set(sids):
            old = self._first_of.pop(sid, None)
            if old is not None:
                del self._firsts[bisect.bisect_left(self._firsts, old)]
            new = self._first(sid)
            if new is not None:
                self._first_of[sid] = new
                bisect.insort(self._firsts, new)

    def _first(self, sid: str) -> int | None:
        members = self.validator.sessions.sessions.get(sid)
        return self.validator.ds.position(members[0]) if members else None

    def _build(self) -> None:
        sessions = self.validator.sessions.sessions
        firsts = self.validator.ds.positions(map(itemgetter(0), sessions.values()))
        self._first_of = dict(zip(sessions, firsts, strict=True))
        self._firsts = sorted(firsts)
