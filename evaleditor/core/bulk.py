"""Whole-column helpers for a full validation: the cells column by column, the empty rows, the cells
that hold a control character, the conversations with nothing to report — each mostly C-level calls,
so that opening a 100k-row file costs little Python-level work per cell."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import compress, count, filterfalse
from operator import attrgetter, itemgetter, ne
from typing import NamedTuple

from evaleditor.core.dataset import Row

CONTROL_CHARS = "".join(chr(i) for i in range(32) if chr(i) not in "\t\n\r")  # a workbook cannot hold them
CONTROL = re.compile(f"[{re.escape(CONTROL_CHARS)}]")
_NOT_CONTROL = bytes(sorted(set(range(256)) - set(CONTROL_CHARS.encode("ascii"))))  # what a translate deletes
PIECE = 1024  # texts scan_column looks at a time
_cells = attrgetter("cells")


def where(flags) -> list[int]:
    """The positions of the true values of `flags` (an iterable), at C speed."""
    return list(compress(count(), flags))


def columns_of(rows: Sequence[Row], width: int) -> list[Sequence[str]]:
    """The cells column by column (`width` columns)."""
    cells = list(map(_cells, rows))
    if not cells:
        return [[] for _ in range(width)]
    try:  # every row `width` cells long, as every reader leaves them: one C call
        columns = list(zip(*cells, strict=True))
    except ValueError:  # rows of different lengths
        columns = []
    return columns if len(columns) == width else [list(map(itemgetter(c), cells)) for c in range(width)]


def empty_rows(rows: Sequence[Row], columns: Sequence[Sequence[str]] = ()) -> set[int]:
    """Ids of the rows that are entirely empty (`Row.is_empty`): none when one of their `columns` (the
    cells column by column, when known) is filled in every row, else one C-level pass when there are none."""
    if any(map(all, columns)) or all(map(any, map(_cells, rows))):
        return set()
    return {r.id for r in rows if r.is_empty()}


class ColumnScan(NamedTuple):
    longest: int  # no text is longer (scan_column: the longest text's length; a reader may say more)
    short: list[int]  # the positions of the texts 1 to `short` characters long
    control: list[int]  # the positions of the texts that hold a control character (when asked)
    texts: Sequence[str] | None = None  # the column's texts, where a reader kept them as it read (columns_of's)


def scan_column(texts: Sequence[str], short: int, control: bool = True) -> ColumnScan:
    """What the row rules ask of a whole column, in one pass: each pass over a column's texts costs a
    memory access per text (60 ms for 7 columns of 100k long texts), whatever C-level work it does.
    PIECE texts at a time, so that the texts are still in the processor's cache for the second look
    and the buffers stay small (a 100 MB join of a column spends as much time faulting in fresh memory
    as the search does).

    Control characters other than tab, newline and carriage return: a control character is ASCII, so
    deleting every other byte from the texts' ASCII characters leaves something only where one is (a
    translate that keeps next to nothing: a third faster than one that deletes the control bytes and
    keeps the rest). The ASCII texts (most) are joined apart, so that their join and encoding are copies
    of one byte per character; the others are encoded with every non-ASCII character left out. Only a
    piece that holds one is searched text by text."""
    longest = 0
    shorts: list[int] = []
    found: list[int] = []
    is_short = range(1, short + 1).__contains__
    for start in range(0, len(texts), PIECE):
        part = texts[start:start + PIECE]
        lengths = list(map(len, part))
        top, low = max(lengths), min(lengths)
        longest = max(longest, top)
        if top and low <= short:  # the filled texts' shortest, found at C speed, decides most pieces
            at = range(start, start + len(part))
            if top <= short:  # every filled one is short (a turn column)
                shorts += compress(at, lengths)
            elif low or min(filter(None, lengths)) <= short:
                shorts += compress(at, map(is_short, lengths))
        if not control:
            continue
        ascii_ = list(map(str.isascii, part))
        hit = "".join(compress(part, ascii_)).encode("ascii").translate(None, _NOT_CONTROL)
        if not hit and not all(ascii_):
            hit = "".join(filterfalse(str.isascii, part)).encode("ascii", "ignore").translate(None, _NOT_CONTROL)
        if hit:
            found += compress(range(start, start + len(part)), map(CONTROL.search, part))
    return ColumnScan(longest, shorts, found)


def run_bounds(texts: Sequence[str]) -> list[int]:
    """Where each run of equal neighbouring texts starts, then len(texts): [0, …, len(texts)]."""
    if not texts:
        return [0]
    return [0, *map((1).__add__, where(map(ne, texts[1:], texts))), len(texts)]


def plain_sessions(turns: Sequence[str] | None, sessions: dict[str, list[int]], firsts: Sequence[int],
                   lasts: Sequence[int], max_turns: int | None) -> tuple[set[str], set[str]]:
    """Conversations whose checks find at most that they are single-turn, from where each one's first and
    last rows are (`firsts`, `lasts`: positions, in the order of `sessions`), not from their rows (`regular`:
    rows together, turns "1" … "n" as text in file order, 1 < n <= `max_turns`: nothing to report; `single`:
    one row, turn "1" or no turn column). `turns`: the turn column's texts, by position."""
    regular, single = set(), set()
    kind = type(turns)
    for (sid, members), start, last in zip(sessions.items(), firsts, lasts, strict=True):
        n = len(members)
        if n == 1:
            if turns is None or turns[start] == "1":
                single.add(sid)
        elif last - start == n - 1 and n <= (max_turns or n) and \
                (turns is None or turns[start:last + 1] == _numbered(n, kind)):
            regular.add(sid)
    return regular, single


_NUMBERED: dict[tuple[type, int], Sequence[str]] = {}


def _numbered(n: int, kind: type) -> Sequence[str]:
    """("1", …, str(n)) as a `kind` (tuple or list: a slice of the column compares equal to it); kept
    for the usual lengths of a conversation."""
    found = _NUMBERED.get((kind, n))
    if found is None:
        found = kind(map(str, range(1, n + 1)))
        if n <= 64:
            _NUMBERED[(kind, n)] = found
    return found
