"""A quoted cell of a text file that swallowed the rows after it: found cheaply, said with its line.

One stray `"` opens a quoted cell that runs to the next quote, or to the end of the file: everything in
between — thousands of rows — becomes the text of one cell, and nothing else looks wrong. The reader
counts, per thousand records, how many more lines than records it read (reader.line_num, free); only a
batch where one cell may span `MANY_LINES` lines is looked at, and only a cell that does is reported,
with the line its quote opened on (found by reading the file again up to that record: rare, so the
cost is paid only then).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator
from contextlib import contextmanager

from evaleditor.core.table import LoadNote
from evaleditor.io.grid import Grid

MANY_LINES = 1000  # a cell spanning this many lines is taken for a stray quote's work
RULE = "unclosed-quote"
MESSAGE = ("a quoted cell opens on line {line:,} and runs over {lines:,} lines ({chars:,} characters): a quote "
           "that is never closed? The rows after it are read as the text of this one cell")



@contextmanager
def _reader(path: str | os.PathLike[str], encoding: str, delimiter: str) -> Iterator:
    with open(path, encoding=encoding, newline="") as f:
        yield csv.reader(f, delimiter=delimiter, strict=False)


def line_breaks(text: str) -> int:
    return text.count("\n") + text.count("\r") - text.count("\r\n")


class LongCellWatch:
    def __init__(self) -> None:
        self.start()

    def start(self) -> None:
        self._batches: list[tuple[int, int, int]] = []  # (records before, records after, lines read)
        self._records = self._lines = 0

    def batch(self, records: int, line_num: int) -> None:
        """`records` read so far, up to line `line_num`."""
        if records == self._records:
            return
        if (line_num - self._lines) - (records - self._records) >= MANY_LINES:
            self._batches.append((self._records, records, line_num))
        self._records, self._lines = records, line_num

    def suspects(self, records: list[list[str]]) -> list[tuple[int, int, int, int]]:
        """(record index, column, lines, characters) of each cell spanning MANY_LINES lines or more."""
        found = []
        for start, stop, _ in self._batches:
            for i in range(start, min(stop, len(records))):
                for col, cell in enumerate(records[i]):
                    if len(cell) >= MANY_LINES and (lines := line_breaks(cell)) >= MANY_LINES - 1:
                        found.append((i, col, lines + (not cell.endswith(("\n", "\r"))), len(cell)))
        return found


def long_cell_notes(found: list[tuple[int, int, int, int]], grid: Grid | None, path: str | os.PathLike[str],
                    encoding: str, delimiter: str) -> list[LoadNote]:
    """The warnings for `found` (LongCellWatch.suspects), placed in `grid`."""
    if not found or grid is None:
        return []
    position = {src: n for n, src in enumerate(grid.kept)}
    notes = []
    with _reader(path, encoding, delimiter) as reader:
        lines_at = opening_lines(reader, [f[0] for f in found])
    for (record, col, lines, chars), line in zip(found, lines_at, strict=False):
        row = None if record == grid.header_at else position.get(record)
        notes.append(LoadNote(RULE, MESSAGE.format(line=line, lines=lines, chars=chars), row,
                              col - grid.first_column))
    return notes


def opening_lines(reader, records: list[int]) -> list[int]:
    """The line each of `records` (0-based, ascending) starts on, read again by csv `reader`."""
    wanted = iter(records)
    target = next(wanted, None)
    out: list[int] = []
    last = 0
    for n, _ in enumerate(reader):
        if n == target:
            out.append(last + 1)
            target = next(wanted, None)
            if target is None:
                break
        last = reader.line_num  # type: ignore[attr-defined]
    return out


def failing_record_line(path: str | os.PathLike[str], encoding: str, delimiter: str) -> int:
    """The line on which the record that the csv module refuses (a cell over its limit) starts."""
    last = 0
    with _reader(path, encoding, delimiter) as reader:
        try:
            for _ in reader:
                last = reader.line_num
        except csv.Error:
            pass
    return last + 1
