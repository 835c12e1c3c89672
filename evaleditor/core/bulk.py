"""Whole-column helpers for a full validation: the cells column by column, the empty rows, the cells
that hold a control character, the conversations with nothing to report — each mostly C-level calls,
so that opening a 100k-row file costs little Python-level work per cell."""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from itertools import compress, count, filterfalse
from operator import attrgetter, itemgetter

from evaleditor.core.dataset import Row

CONTROL_CHARS = "".join(chr(i) for i in range(32) if chr(i) not in "\t\n\r")  # a workbook cannot hold them
CONTROL = re.compile(f"[{re.escape(CONTROL_CHARS)}]")
_CONTROL_BYTES = CONTROL_CHARS.encode("ascii")
PIECE = 1024  # texts joined at a time by control_cells
_cells = attrgetter("cells")


def where(flags) -> list[int]:
    """The positions of the true values of `flags` (an iterable), at C speed."""
    return list(compress(count(), flags))


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


def scan_column(texts: Sequence[str], control: bool = True) -> tuple[array, list[int]]:
    """The length of each text, and (when `control`) the positions of the texts that hold a control
    character other than tab, newline and carriage return, in one pass: each pass over a column's
    texts costs a memory access per text (60 ms for 7 columns of 100k long texts), whatever C-level
    work it does. PIECE texts at a time, so that the texts are still in the processor's cache for the
    second look and the buffers stay small (a 100 MB join of a column spends as much time faulting in
    fresh memory as the search does).

    A control character is ASCII, so deleting the control bytes from the texts' ASCII characters
    changes their length only where one is. The ASCII texts (most) are joined apart, so that their join
    and encoding are copies of one byte per character; the others are encoded with every non-ASCII
    character left out. Only a piece that holds one is searched text by text."""
    lengths = array("L")
    found: list[int] = []
    for start in range(0, len(texts), PIECE):
        part = texts[start:start + PIECE]
        lengths.extend(map(len, part))
        if not control:
            continue
        ascii_ = list(map(str.isascii, part))
        data = "".join(compress(part, ascii_)).encode("ascii")
        hit = len(data.translate(None, _CONTROL_BYTES)) != len(data)
        if not hit and not all(ascii_):
            data = "".join(filterfalse(str.isascii, part)).encode("ascii", "ignore")
            hit = len(data.translate(None, _CONTROL_BYTES)) != len(data)
        if hit:
            found += compress(range(start, start + len(part)), map(CONTROL.search, part))
    return lengths, found


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
