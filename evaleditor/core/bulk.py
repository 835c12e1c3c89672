"""Whole-column helpers for a full validation: the cells column by column, the empty rows, a control
character anywhere in a column, the conversations with nothing to report — each mostly one C-level
call, so that opening a 100k-row file costs little Python-level work per cell."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress, filterfalse
from operator import attrgetter, itemgetter

from evaleditor.core.dataset import Row

_CONTROL_BYTES = bytes(c for c in range(32) if c not in (9, 10, 13))  # in UTF-8 these bytes stand only for themselves
_cells = attrgetter("cells")


def columns_of(rows: Sequence[Row], width: int) -> list[Sequence[str]]:
    """The cells column by column (`width` columns)."""
    cells = list(map(_cells, rows))
    if not cells:
        return [[] for _ in range(width)]
    if min(map(len, cells)) == max(map(len, cells)) == width:  # as every reader leaves them: one C call
        return list(zip(*cells, strict=True))
    return [list(map(itemgetter(c), cells)) for c in range(width)]


def empty_rows(rows: Sequence[Row]) -> set[int]:
    """Ids of the rows that are entirely empty (`Row.is_empty`): one C-level pass when there are none."""
    if all(map(any, map(_cells, rows))):
        return set()
    return {r.id for r in rows if r.is_empty()}


def has_control(texts: Sequence[str]) -> bool:
    """Whether any of `texts` holds a control character other than tab, newline and carriage return,
    at C speed: deleting those bytes from the UTF-8 changes its length. The ASCII texts (most) are
    joined apart, so that their join and encoding are copies of one byte per character; the others
    are encoded as UTF-8 (a lone surrogate kept as its bytes)."""
    ascii_ = list(map(str.isascii, texts))
    data = "".join(compress(texts, ascii_)).encode("ascii")
    if len(data.translate(None, _CONTROL_BYTES)) != len(data):
        return True
    if all(ascii_):
        return False
    data = "".join(filterfalse(str.isascii, texts)).encode("utf-8", "surrogatepass")
    return len(data.translate(None, _CONTROL_BYTES)) != len(data)


def plain_sessions(sids: Sequence[str], turns: Sequence[str] | None, sessions: dict[str, list[int]],
                   max_turns: int | None) -> tuple[set[str], set[str]]:
    """Conversations whose checks find at most that they are single-turn, in one pass over the
    session and turn columns: (`regular`: rows together, turns "1" … "n" as text in file order,
    1 < n <= `max_turns`: nothing to report; `single`: one row, turn "1" or no turn column)."""
    seen: set[str] = set()
    broken: set[str] = set()
    previous = ""
    k = 0
    for i, sid in enumerate(sids):
        if sid != previous:
            previous, k = sid, 0
            if sid:
                if sid in seen:
                    broken.add(sid)  # its rows are not together
                seen.add(sid)
        if sid:
            k += 1
            if turns is not None and turns[i] != str(k):
                broken.add(sid)
    regular, single = set(), set()
    for sid in seen - broken:
        n = len(sessions.get(sid, ()))
        if n == 1:
            single.add(sid)
        elif 1 < n <= (max_turns or n):
            regular.add(sid)
    return regular, single
