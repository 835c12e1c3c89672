"""The fast path of the text reader: pyarrow's CSV parser, used only where it reads the file cell for cell as
the csv module (delimited.py, the reference) would.

Measured on bench_core's 100k-row CSV (175 MB), whole `validate` processes run in turn: 1.18 s of CPU
instead of 1.48 s, peak memory 342 MiB instead of 247 (pyarrow's libraries take 68 MiB of it). Importing
pyarrow costs about 0.15 s, which smaller files do not win back (about 80 MB breaks even): `MIN_BYTES`.
UTF-8 only (pyarrow reads nothing else; both skip a UTF-8 BOM).

Where the two parsers could differ, pyarrow is not trusted and the reference reads the file again from the
start (`arrow_records` returns None): pyarrow refuses a row of another width than the first (the csv module
keeps ragged rows) and bytes that are not UTF-8; a cell longer than the reference allows is refused by it,
and cells that may have swallowed a thousand lines, or the end of the file (a stray quote), are reported by
it with their line, which needs its own line count; a table over the work budget is refused by it, with its own message.
Quotes the csv module reads leniently (`a"b`, `"a"b`, a quote never closed), lone CRs and blank lines
pyarrow reads the same way: tests/io/test_arrow_csv.py compares the two on generated files.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterator
from contextlib import closing, suppress
from typing import NamedTuple

from evaleditor.core.bulk import ColumnScan
from evaleditor.core.checks import SHORT
from evaleditor.core.errors import Cancelled, ReadError
from evaleditor.io import budget
from evaleditor.io.grid import Cancel, Grid, Progress
from evaleditor.io.text.long_cells import MANY_LINES, line_breaks

MIN_BYTES = 96 << 20  # below this, importing pyarrow costs more than it saves (about 80 MB breaks even)
BLOCK_BYTES = 1 << 20  # a record batch (a longer row makes a longer one)


class Refused(Exception):
    """pyarrow's reader refuses the file (a ragged row, bytes not UTF-8), as it would each time it is opened
    (open_records): the reference reads it."""


class Measured(NamedTuple):
    """What C-level passes over one column of a record batch tell of its texts (_measure)."""

    longest: int  # the most bytes a text takes, never fewer than its characters
    short: list[int]  # the data rows whose text is 1 to checks.SHORT characters long
    suspect: bool  # a text may be one the reference refuses or reports (for_the_reference asks Python)


class ColumnsRead:
    """What validation asks of each column (core/bulk.ColumnScan, control characters left out), learnt batch
    by batch (_measure), and, when `keep_texts`, the columns' texts, so that it need not look at every cell
    again (a Python-level pass over 100k rows of 7 columns costs 0.07 s). A window checks the rows later, in
    slices, which do not take them: it keeps no texts (8 bytes a cell)."""

    def __init__(self, width: int, keep_texts: bool = True):
        self.longest = [0] * width
        self.short: list[list[int]] = [[] for _ in range(width)]
        # the data rows' (validation's columns)
        self.texts: list[list[str]] | None = [[] for _ in range(width)] if keep_texts else None
        self.records = 0  # so far; the first is the header

    def add(self, measured: list[Measured], columns: list[list[str]]) -> None:
        """A record batch: its columns as text, and `measured`."""
        header = not self.records
        for c, (found, texts) in enumerate(zip(measured, columns, strict=True)):
            self.longest[c] = max(self.longest[c], found.longest)
            self.short[c] += found.short
            if self.texts is not None:
                self.texts[c] += texts[1:] if header else texts
        self.records += len(columns[0]) if columns else 0

    def scans(self, grid: Grid) -> list[ColumnScan] | None:
        """The scans of the grid's columns, when its data rows are the records after the first, every
        column kept (no blank row dropped, no empty edge column); otherwise None."""
        if grid.header_at or grid.first_column or len(grid.headers) != len(self.longest) or \
                len(grid.rows) != self.records - 1:
            return None
        texts = self.texts or [None] * len(self.longest)
        return [ColumnScan(longest, short, [], kept)
                for longest, short, kept in zip(self.longest, self.short, texts, strict=True)]


def arrow_records(path: str | os.PathLike[str], delimiter: str, width: int, limits: budget.TableBudget,
                  progress: Progress | None = None, cancel: Cancel | None = None,
                  lengths: ColumnsRead | None = None) -> list[list[str]] | None:
    """Every record of the UTF-8 file at `path` (the first `width` cells wide) as lists of text, exactly
    as csv.reader(delimiter=delimiter, strict=False) reads them, less the blank lines (which the grid
    drops anyway); None when pyarrow is missing or cannot read this file that way. `lengths` learns the
    columns' lengths on the way."""
    try:
        import numpy  # noqa: F401 - counts and measures the bytes (pandas, a dependency, needs it too)
        import pyarrow as pa
        import pyarrow.csv  # noqa: F401 - read_ahead reads with it
    except ImportError:  # a platform without its wheel, or the app bundle: the csv module reads it
        return None
    size = os.path.getsize(path)
    rows: list[list[str]] = []
    try:
        with pa.OSFile(os.fspath(path)) as source, closing(read_ahead(source, delimiter, width, BLOCK_BYTES)) as batches:
            for batch, read, measured in batches:
                if cancel is not None and cancel():
                    raise Cancelled()
                columns = [column.to_pylist() for column in batch.columns]
                suspects = (texts for found, texts in zip(measured, columns, strict=True) if found.suspect)
                if any(map(for_the_reference, suspects)):
                    return None
                if lengths is not None:
                    lengths.add(measured, columns)
                rows.extend(map(list, zip(*columns, strict=True)))
                del columns
                limits.check(len(rows), width)
                if progress is not None:
                    progress(min(read, size), size)
    except (pa.ArrowException, ReadError):  # ArrowInvalid: a ragged row, not UTF-8; the budget
        return None
    if rows and may_end_inside_quotes(path, size, rows[-1][-1]):
        return None
    if progress is not None:
        progress(size, size)
    return rows


def read_ahead(source, delimiter: str, width: int, block_bytes: int) -> Iterator[tuple[object, int, list[Measured]]]:
    """The record batches of the file `source` (a pyarrow file, read without the GIL), every column text,
    each with how many bytes of the file were read by then and its columns _measure'd; ArrowInvalid when
    the first record is not `width` cells. A thread parses and measures them while the caller turns the one
    before into text: pyarrow and numpy work without the GIL (0.4 s of the 1 s a 175 MB file took), so the
    two overlap. Closing it stops the thread. `block_bytes`: a record batch's (a longer row makes a longer one)."""
    reader = open_records(source, delimiter, width, block_bytes)
    ahead: queue.Queue = queue.Queue(maxsize=2)
    stop = threading.Event()

    def parse() -> None:
        try:
            first = -1  # the data row of the batch's first record
            for batch in reader:
                ahead.put((batch, source.tell(), [_measure(column, first) for column in batch.columns]))
                first += batch.num_rows
                if stop.is_set():
                    return
            ahead.put(None)
        except BaseException as err:  # noqa: BLE001 - raised again by the caller's thread
            ahead.put(err)

    thread = threading.Thread(target=parse, name="csv read-ahead", daemon=True)
    thread.start()
    try:
        while (item := ahead.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        while thread.is_alive():  # a batch it may be waiting to hand over
            with suppress(queue.Empty):
                ahead.get(timeout=0.01)
        thread.join()


def open_records(source, delimiter: str, width: int, block_bytes: int):
    """pyarrow's reader of the records of the file `source`, every column text, as the csv module would read
    them where it reads them alike (the module's docstring); ArrowInvalid when the first record is not
    `width` cells (as a ragged row: the reference reads it)."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    reader = pcsv.open_csv(
        source,
        read_options=pcsv.ReadOptions(autogenerate_column_names=True, use_threads=False, block_size=block_bytes),
        parse_options=pcsv.ParseOptions(delimiter=delimiter, newlines_in_values=True),
        convert_options=pcsv.ConvertOptions(column_types={f"f{i}": pa.string() for i in range(width)},
                                            strings_can_be_null=False, quoted_strings_can_be_null=False))
    if reader.schema.names != [f"f{i}" for i in range(width)] or any(t != pa.string() for t in reader.schema.types):
        raise pa.ArrowInvalid(f"the first record is not {width} cells")
    return reader


def may_end_inside_quotes(path: str | os.PathLike[str], size: int, cell: str) -> bool:
    """Whether the file ends with `cell` as a quote left open would leave it: its text, quotes doubled, after
    a `"`. A closed cell does only when it holds nothing but quotes (`,""` at the very end): the reference
    tells them apart."""
    tail = ('"' + cell.replace('"', '""')).encode()
    if len(tail) > size:
        return False
    with open(path, "rb") as f:
        f.seek(size - len(tail))
        return f.read() == tail


def _measure(column, first: int) -> Measured:
    """What C-level passes over a column of a record batch tell of its texts, from the byte lengths pyarrow
    keeps beside them (its offsets) and the bytes themselves, where they lie (numpy leaves the GIL: the
    parsing thread takes them). `first`: the data row of the batch's first record (-1: the header). Only
    the texts of SHORT+1 to 4×SHORT bytes may have few enough characters to be short and not be: numpy
    counts their characters (pyarrow.compute would, but takes 0.1 s to import)."""
    import numpy as np

    n = len(column)
    if not n:
        return Measured(0, [], False)
    offsets = np.frombuffer(column.buffers()[1], dtype=np.int32)[column.offset:column.offset + n + 1]
    text = np.frombuffer(column.buffers()[2] or b"", dtype=np.uint8)[offsets[0]:offsets[-1]]
    sizes = np.diff(offsets)
    longest = int(sizes.max())
    short: list[int] = []
    if sizes.min() <= 4 * SHORT:  # else a column of long texts
        is_short = (sizes >= 1) & (sizes <= SHORT)
        unsure = np.flatnonzero((sizes > SHORT) & (sizes <= 4 * SHORT))
        if len(unsure) and text.max() >= 0x80:  # ASCII: a byte a character
            is_short[unsure[_characters(text, offsets[unsure] - offsets[0], sizes[unsure]) <= SHORT]] = True
        short = (np.flatnonzero(is_short) + first).tolist()
        if short and short[0] < 0:
            del short[0]  # the header
    suspect = longest > budget.MAX_CELL_CHARS
    if not suspect and longest >= MANY_LINES:  # a text of fewer bytes spans fewer lines
        suspect = bool(np.count_nonzero(text <= 13) >= MANY_LINES - 1 and  # one pass, the first
                       np.count_nonzero(text == 10) + np.count_nonzero(text == 13) >= MANY_LINES - 1)
    return Measured(longest, short, suspect)


def _characters(text, starts, sizes):
    """The characters of the UTF-8 texts of `sizes` bytes (at most 4×SHORT) at `starts` in `text`: their
    bytes that do not continue a character."""
    import numpy as np

    at = np.arange(4 * SHORT)
    inside = at < sizes[:, None]
    data = text[np.minimum(starts[:, None] + at, len(text) - 1)]
    return np.count_nonzero(inside & ((data & 0xC0) != 0x80), axis=1)


def for_the_reference(cells: list[str]) -> bool:
    """Whether a cell is one the reference refuses (over budget.MAX_CELL_CHARS) or reports (spanning
    MANY_LINES lines: long_cells.py), asked of a column whose bytes say it may hold one (_measure)."""
    return max(map(len, cells)) > budget.MAX_CELL_CHARS or \
        any(len(cell) >= MANY_LINES and line_breaks(cell) >= MANY_LINES - 1 for cell in cells)
