"""A quoted cell of a text file that swallowed the rows after it: found cheaply, said with its line.

One stray `"` opens a quoted cell that runs to the next quote, or to the end of the file: everything in
between — one row or thousands — becomes the text of one cell, and nothing else looks wrong. Reported:
- a quote still open at the end of the file (the reader is fed `END` after the file's last line, which
  lands inside the cell only then: exact, and free);
- a cell spanning `MANY_LINES` lines or more;
- a multi-line cell of a record wider or narrower than the header, whose first line holds the delimiter (the rest
  of its row, swallowed) and another line enough delimiters to be a whole row. An Excel-exported
  multi-line cell is in a record as wide as the header, so it never is.
The reader counts, per thousand records, how many more lines than records it read (reader.line_num,
free); only a batch with a multi-line cell is looked at. A cell's opening line is found by reading the
file again up to that record: rare, so the cost is paid only then.
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
AT_END = ("a quote opens on line {line:,} and is never closed: the rest of the file ({span}) is read as the text "
          "of this one cell. Close or remove the stray quote")
ROWS = ("a quoted cell opens on line {line:,} and holds {rows:,} lines that look like rows of this file: a stray "
        "quote? They are read as the text of this one cell, not as rows")
END = "\ufdd0"  # a noncharacter: fed to the reader after the file's last line (delimited.py)



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
        self._batches: list[tuple[int, int, int]] = []  # (records before, records after, extra lines)
        self._records = self._lines = 0

    def batch(self, records: int, line_num: int) -> None:
        """`records` read so far, up to line `line_num`."""
        if records == self._records:
            return
        if extra := (line_num - self._lines) - (records - self._records):
            self._batches.append((self._records, records, extra))
        self._records, self._lines = records, line_num

    def suspects(self, records: list[list[str]], delimiter: str) -> list[tuple[int, int, int, int, str]]:
        """(record index, column, lines, characters, message) of each cell that may hold a stray quote's
        work; a quote left open at the end is taken off the last cell (`END`)."""
        found = []
        end = open_at_end(records)
        width = next((len(r) for r in records if any(r)), 0)
        for start, stop, extra in self._batches:
            for i in range(start, min(stop, len(records))):
                record = records[i]
                if extra < MANY_LINES - 1 and len(record) == width:
                    continue
                for col, cell in enumerate(record):
                    if (i, col) == end:
                        continue
                    if len(cell) >= MANY_LINES and (lines := line_breaks(cell)) >= MANY_LINES - 1:
                        found.append((i, col, lines + (not cell.endswith(("\n", "\r"))), len(cell), MESSAGE))
                    elif len(record) != width and (rows := _rows_inside(cell, delimiter, width)):
                        found.append((i, col, rows, len(cell), ROWS))
        if end is not None:
            cell = records[end[0]][end[1]]
            found.append((*end, line_breaks(cell) + (not cell.endswith(("\n", "\r"))), len(cell), AT_END))
        return sorted(found)


def open_at_end(records: list[list[str]]) -> tuple[int, int] | None:
    """Takes `END` off `records`: the record it made alone, or the end of the cell it was read into (a quote
    still open at the end of the file), whose (record, column) is returned."""
    if not records:
        return None
    last = records[-1]
    if last == [END]:
        records.pop()
        return None
    if last and last[-1].endswith(END):
        last[-1] = last[-1][:-len(END)]
        return len(records) - 1, len(last) - 1
    return None


def _rows_inside(cell: str, delimiter: str, width: int) -> int:
    """How many lines after the first of `cell` hold a row's worth of delimiters, when its first line holds
    one (the rest of the row a stray quote swallowed); 0 otherwise."""
    lines = cell.splitlines()
    if len(lines) < 2 or delimiter not in lines[0]:
        return 0
    return sum(1 for line in lines[1:] if line.count(delimiter) >= width - 1)


def long_cell_notes(found: list[tuple[int, int, int, int, str]], grid: Grid | None, path: str | os.PathLike[str],
                    encoding: str, delimiter: str) -> list[LoadNote]:
    """The warnings for `found` (LongCellWatch.suspects), placed in `grid`."""
    if not found or grid is None:
        return []
    position = {src: n for n, src in enumerate(grid.kept)}
    notes = []
    with _reader(path, encoding, delimiter) as reader:
        lines_at = opening_lines(reader, [f[0] for f in found])
    for (record, col, lines, chars, message), line in zip(found, lines_at, strict=False):
        row = None if record == grid.header_at else position.get(record)
        notes.append(LoadNote(RULE, message.format(line=line, lines=lines, rows=lines, chars=chars,
                                                     span=f"{lines:,} line{'s' * (lines != 1)}"), row,
                              col - grid.first_column))
    return notes


def opening_lines(reader, records: list[int]) -> list[int]:
    """The line each of `records` (0-based, ascending) starts on, read again by csv `reader`."""
    wanted = iter(records)
    target = next(wanted, None)
    out: list[int] = []
    last = 0
    for n, _ in enumerate(reader):
        while n == target:  # one record may hold several such cells
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
