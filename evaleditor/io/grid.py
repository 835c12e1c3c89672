"""From a grid of cells to headers + rows: shared by every tabular reader.

The header is the first row with a non-empty cell; rows whose cells are all "" are dropped (Excel's
trailing formatted rows, blank lines); columns that are empty in the header and in every row are dropped
at the left and right edges only (a table placed at B3 reads as if it were at A1; a blank column in the
middle stays, so that positions are kept). Rows are padded with "" to the common width, so a row longer
than the header adds columns with an empty header and nothing is lost.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import compress, islice
from typing import TYPE_CHECKING

from evaleditor.core.errors import Cancelled

if TYPE_CHECKING:
    import datetime as _dt

Progress = Callable[[int, int], None]
Cancel = Callable[[], bool]
EVERY = 1000  # rows between progress reports and cancel checks
FIRST_ROWS = 5  # data rows whose row in the file a table keeps (RawTable.source_rows)


@dataclass
class Grid:
    headers: list[str]
    rows: list[list[str]]
    header_at: int  # index of the header row in the source grid
    kept: Sequence[int]  # source index of each data row
    first_column: int  # source index of column 0

    def source_rows(self) -> list[int]:
        """The file's row (1-based) of the first FIRST_ROWS data rows (RawTable.source_rows)."""
        return [i + 1 for i in self.kept[:FIRST_ROWS]]


def _first_used(row: list[str]) -> int:
    for i, value in enumerate(row):
        if value:
            return i
    return len(row)


def _last_used(row: list[str]) -> int:
    for i in range(len(row) - 1, -1, -1):
        if row[i]:
            return i
    return -1


def _edges(headers: list[str], rows: list[list[str]]) -> tuple[int, int]:
    """The first used column and one past the last. The usual table — a header in the first cell and
    the last, no row longer than the header — is recognised without looking at each row."""
    lead = 0 if headers and headers[0] else min(map(_first_used, [headers, *rows]))
    if headers and headers[-1] and max(map(len, rows), default=0) <= len(headers):
        return lead, len(headers)
    return lead, max(map(_last_used, [headers, *rows])) + 1


def build_grid(source: Iterable[list[str]], cancel: Cancel | None = None) -> Grid | None:
    """Headers and rows from `source` rows of text; None when every row is empty. Most of the work
    is C-level passes over the rows (`map`, `compress`), not a Python loop: 100k rows in ~20 ms."""
    rows = source if isinstance(source, list) else collect(source, cancel)
    if cancel is not None and cancel():
        raise Cancelled()
    used = list(map(any, rows))
    try:
        header_at = used.index(True)
    except ValueError:
        return None
    headers = rows[header_at]
    start = header_at + 1
    if all(used[start:]):  # no blank row: the common case
        data, kept = rows[start:], range(start, len(rows))
    else:
        data = list(compress(rows[start:], used[start:]))
        kept = list(compress(range(start, len(rows)), used[start:]))
    del used
    lead, stop = _edges(headers, data)
    width = stop - lead

    def fit(row: list[str]) -> list[str]:
        if lead or len(row) != width:
            row = row[lead:stop]
            if len(row) < width:
                row.extend([""] * (width - len(row)))
        return row

    if lead or (data and not min(map(len, data)) == max(map(len, data)) == width):
        data = [fit(r) for r in data]
    return Grid(fit(list(headers)), data, header_at, kept, lead)


def collect(source: Iterable[list[str]], cancel: Cancel | None = None,
            progress: Callable[[int], None] | None = None) -> list[list[str]]:
    """`list(source)`, a thousand rows at a time (C-level), asking `cancel` and telling `progress`
    (rows so far) in between."""
    rows: list[list[str]] = []
    it = iter(source)
    while True:
        if cancel is not None and cancel():
            raise Cancelled()
        before = len(rows)
        rows.extend(islice(it, EVERY))
        if len(rows) == before:
            return rows
        if progress is not None:
            progress(len(rows))


_EXACT = 2.0**53  # every whole number up to this is a double exactly


def number_text(value: float) -> str:
    """A spreadsheet number as a person sees it: 3.0 -> "3", 0.1 -> "0.1", no float noise. A whole
    number keeps every digit while a double holds it exactly (up to 2**53: a 16-digit id stays
    1234567890123456, not 1.23456789012346e+15, which a save would then make the cell's text)."""
    if value != value or value in (float("inf"), float("-inf")):
        return repr(value)
    if value.is_integer() and abs(value) <= _EXACT:
        return str(int(value))
    text = repr(value)
    mantissa = text.split("e")[0].lstrip("-").replace(".", "").lstrip("0")
    if len(mantissa) > 15:  # beyond Excel's 15 significant digits: binary noise like 0.1+0.2
        text = f"{value:.15g}"
    return text


def duration_text(value: _dt.timedelta) -> str:
    seconds = round(value.total_seconds())
    sign = "-" if seconds < 0 else ""
    hours, rest = divmod(abs(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}"


def datetime_text(value: _dt.datetime) -> str:
    if value.hour == value.minute == value.second == value.microsecond == 0:
        return value.date().isoformat()
    if value.microsecond:
        return value.isoformat(sep=" ", timespec="milliseconds")
    return value.isoformat(sep=" ", timespec="seconds")


def time_text(value: _dt.time) -> str:
    return value.isoformat(timespec="milliseconds" if value.microsecond else "seconds")


def cell_text(value: object) -> str:
    """Any value a workbook library returns, as the text a user sees."""
    kind = type(value)
    if kind is str:
        return value  # type: ignore[return-value]
    if value is None:
        return ""
    if kind is float:
        return number_text(value)  # type: ignore[arg-type]
    if kind is bool:
        return "TRUE" if value else "FALSE"
    if kind is int:
        return str(value)
    import datetime as _dt  # here: a workbook of text and numbers (most) does not import it

    if isinstance(value, _dt.datetime):
        return datetime_text(value)
    if isinstance(value, _dt.date):
        return value.isoformat()
    if isinstance(value, _dt.time):
        return time_text(value)
    if isinstance(value, _dt.timedelta):
        return duration_text(value)
    return str(value)


def column_letter(index: int) -> str:
    """0 -> "A", 25 -> "Z", 26 -> "AA"."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters
