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

from evaleditor.core.bulk import ColumnScan
from evaleditor.core.checks import SHORT
from evaleditor.core.errors import Cancelled, ReadError
from evaleditor.io import budget
from evaleditor.io.grid import Cancel, Grid, Progress
from evaleditor.io.text.long_cells import MANY_LINES, line_breaks

MIN_BYTES = 96 << 20  # below this, importing pyarrow costs more than it saves (about 80 MB breaks even)
BLOCK_BYTES = 1 << 20  # a record batch (a longer row makes a longer one)


class ColumnLengths:
    """What validation asks of each column (core/bulk.ColumnScan, control characters left out), learnt from
    the byte lengths pyarrow keeps beside the text (its offsets), so that it need not look at every cell
    again (a Python-level pass over 100k rows of 7 columns costs 0.07 s). `longest`: the most bytes a text
    takes, never fewer than its characters; `short`: the data rows whose text is 1 to checks.SHORT
    characters long, asked of Python only where the bytes may be fewer characters (SHORT+1 to 4×SHORT)."""

    def __init__(self, width: int):
        self.longest = [0] * width
        self.short: list[list[int]] = [[] for _ in range(width)]
        self.records = 0  # so far; the first is the header

    def add(self, columns, cells: list[list[str]]) -> None:
        """A record batch: its pyarrow `columns`, and their `cells` as text."""
        import numpy as np

        first = self.records - 1  # the data row of the batch's first record (-1: the header)
        for c, (column, texts) in enumerate(zip(columns, cells, strict=True)):
            if not texts:
                continue
            offsets = np.frombuffer(column.buffers()[1], dtype=np.int32)
            sizes = np.diff(offsets[column.offset:column.offset + len(texts) + 1])
            self.longest[c] = max(self.longest[c], int(sizes.max()))
            if sizes.min() > 4 * SHORT:  # a column of long texts
                continue
            short = (sizes >= 1) & (sizes <= SHORT)
            unsure = np.flatnonzero((sizes > SHORT) & (sizes <= 4 * SHORT)).tolist()
            if unsure:
                short[[i for i in unsure if len(texts[i]) <= SHORT]] = True
            rows = (np.flatnonzero(short) + first).tolist()
            self.short[c] += rows[1:] if rows and rows[0] < 0 else rows
        self.records += len(cells[0]) if cells else 0

    def scans(self, grid: Grid) -> list[ColumnScan] | None:
        """The scans of the grid's columns, when its data rows are the records after the first, every
        column kept (no blank row dropped, no empty edge column); otherwise None."""
        if grid.header_at or grid.first_column or len(grid.headers) != len(self.longest) or \
                len(grid.rows) != self.records - 1:
            return None
        return [ColumnScan(longest, short, []) for longest, short in zip(self.longest, self.short, strict=True)]


def arrow_records(path: str | os.PathLike[str], delimiter: str, width: int, limits: budget.TableBudget,
                  progress: Progress | None = None, cancel: Cancel | None = None,
                  lengths: ColumnLengths | None = None) -> list[list[str]] | None:
    """Every record of the UTF-8 file at `path` (the first `width` cells wide) as lists of text, exactly
    as csv.reader(delimiter=delimiter, strict=False) reads them, less the blank lines (which the grid
    drops anyway); None when pyarrow is missing or cannot read this file that way. `lengths` learns the
    columns' lengths on the way."""
    try:
        import numpy  # noqa: F401 - counts and measures the bytes (pandas, a dependency, needs it too)
        import pyarrow as pa
        import pyarrow.csv  # noqa: F401 - _batches reads with it
    except ImportError:  # a platform without its wheel, or the app bundle: the csv module reads it
        return None
    size = os.path.getsize(path)
    rows: list[list[str]] = []
    try:
        with pa.OSFile(os.fspath(path)) as source, closing(_batches(source, delimiter, width)) as batches:
            for batch, read in batches:
                if cancel is not None and cancel():
                    raise Cancelled()
                columns = [column.to_pylist() for column in batch.columns]
                if any(map(_for_the_reference, batch.columns, columns)):
                    return None
                if lengths is not None:
                    lengths.add(batch.columns, columns)
                rows.extend(map(list, zip(*columns, strict=True)))
                del columns
                limits.check(len(rows), width)
                if progress is not None:
                    progress(min(read, size), size)
    except (pa.ArrowException, ReadError):  # ArrowInvalid: a ragged row, not UTF-8; the budget
        return None
    if rows and _may_end_inside_quotes(path, size, rows[-1][-1]):
        return None
    if progress is not None:
        progress(size, size)
    return rows


def _batches(source, delimiter: str, width: int) -> Iterator[tuple[object, int]]:
    """The record batches of the file `source` (a pyarrow file, read without the GIL), every column text,
    each with how many bytes of the file were read by then; ArrowInvalid when the first record is not
    `width` cells. A thread parses them while the caller turns the one before into text: pyarrow parses without
    the GIL (0.3 s of the 1 s a 175 MB file takes), so the two overlap. Closing it stops the thread."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    reader = pcsv.open_csv(
        source,
        read_options=pcsv.ReadOptions(autogenerate_column_names=True, use_threads=False, block_size=BLOCK_BYTES),
        parse_options=pcsv.ParseOptions(delimiter=delimiter, newlines_in_values=True),
        convert_options=pcsv.ConvertOptions(column_types={f"f{i}": pa.string() for i in range(width)},
                                            strings_can_be_null=False, quoted_strings_can_be_null=False))
    if reader.schema.names != [f"f{i}" for i in range(width)] or any(t != pa.string() for t in reader.schema.types):
        raise pa.ArrowInvalid(f"the first record is not {width} cells")  # as a ragged row: the reference reads it
    ahead: queue.Queue = queue.Queue(maxsize=2)
    stop = threading.Event()

    def parse() -> None:
        try:
            for batch in reader:
                ahead.put((batch, source.tell()))
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


def _may_end_inside_quotes(path: str | os.PathLike[str], size: int, cell: str) -> bool:
    """Whether the file ends with `cell` as a quote left open would leave it: its text, quotes doubled, after
    a `"`. A closed cell does only when it holds nothing but quotes (`,""` at the very end): the reference
    tells them apart."""
    tail = ('"' + cell.replace('"', '""')).encode()
    if len(tail) > size:
        return False
    with open(path, "rb") as f:
        f.seek(size - len(tail))
        return f.read() == tail


def _for_the_reference(column, cells: list[str]) -> bool:
    """Whether a cell is one the reference refuses (over budget.MAX_CELL_CHARS) or reports (spanning
    MANY_LINES lines: long_cells.py). One C-level look at the column's bytes first, where they lie (numpy
    comes with pyarrow; a copy to count them in would cost four times as much); each cell only when they
    hold that many characters or line ends."""
    import numpy as np

    data = column.buffers()[2]
    if data is None:
        return False
    if data.size > budget.MAX_CELL_CHARS and max(map(len, cells)) > budget.MAX_CELL_CHARS:
        return True
    text = np.frombuffer(data, dtype=np.uint8)
    if np.count_nonzero(text == 10) + np.count_nonzero(text == 13) < MANY_LINES - 1:
        return False
    return any(len(cell) >= MANY_LINES and line_breaks(cell) >= MANY_LINES - 1 for cell in cells)
