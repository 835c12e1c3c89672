"""`RawTable`: what a reader hands to the core, and what a writer is given back.

It is the contract between `evaleditor.io` and `evaleditor.core`: plain text cells, no pandas, no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evaleditor.core.bulk import ColumnScan


@dataclass
class LoadNote:
    """A finding made while reading (e.g. a formula with no saved value, an SDK schema error).

    `row` is the 0-based index into `RawTable.rows` (None for the whole file); `column` the 0-based
    column index (None when it concerns no column).
    """

    rule: str
    message: str
    row: int | None = None
    column: int | None = None


@dataclass
class RawTable:
    headers: list[str]
    # every row has len(headers) cells; entirely empty rows already dropped, except a row that carries
    # a payload (an SDK case with nothing the table can show, e.g. only an agent trace)
    rows: list[list[str]]
    source_format: str  # "csv", "tsv", "xlsx", "xls", "json"
    sheet: str | None = None  # the sheet read, for workbooks
    sheets: list[str] = field(default_factory=list)  # every sheet of a workbook
    notes: list[LoadNote] = field(default_factory=list)
    # per-row data the table cannot show (SDK JSON); None or one entry per row
    payloads: list[Any] | None = None
    # document-level data the table cannot show (SDK JSON), written back unchanged
    document: Any = None
    encoding: str | None = None
    delimiter: str | None = None
    line_end: str | None = None  # of a delimited text file: "\r\n", "\n" or "\r"
    target: str | None = None  # the target the file's own structure names (a platform's .jsonl), else by headers
    # the row of the file (1-based: a sheet's row number, a text file's record) of the first data rows, at most
    # grid.FIRST_ROWS: a message can name a row as the file's program shows it (a title row above the headers).
    # Not compared: pyarrow's path (io/text/arrow_csv.py) reads the same cells but does not count blank lines.
    source_rows: list[int] = field(default_factory=list, compare=False)
    # what bulk.scan_column(column, checks.SHORT, control=False) finds in each column of `rows`, and the
    # column's texts, where the reader learnt them on the way (io/text/arrow_csv.py), so that validation
    # need not look at every cell again; None otherwise, and whatever changes the rows or columns must set
    # it to None
    scans: list[ColumnScan] | None = field(default=None, compare=False)
