"""A document: a dataset read from a file, its conversations (SessionIndex), its validator (the issues),
and the facts of its file (format, sheet, encoding, delimiter, the targets it was checked against).
`Document.of` builds the index before the validator, so that after an edit the index is current when
the validator (which reads it for the session rules) hears of it. What a save writes is decided by
io.save.plan_save for the window, convert and the Python API alike (core/saving.core_save_plan is the
core's part of it); `saved_as` records it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from evaleditor.core.bulk import ColumnScan
from evaleditor.core.dataset import Dataset, Row
from evaleditor.core.rules import Issue, make_issue
from evaleditor.core.sessions import SessionIndex
from evaleditor.core.shape import Shape, shape_of
from evaleditor.core.table import RawTable
from evaleditor.core.targets import infer_target
from evaleditor.core.validation import Validator

# reader findings about how a text file's bytes were read: not true of the file a save writes in another
# format or encoding
READ_AS_TEXT = frozenset({"encoding-guessed"})
# reader findings that the file's name says another format than its bytes: a save writes the format its name says
MISNAMED = frozenset({"text-named-as-workbook", "workbook-named-as-text"})


@dataclass
class Document:
    dataset: Dataset
    sessions: SessionIndex  # the conversations: which rows form each, their turn order (in_turn_order)
    validator: Validator  # the issues; reads `sessions`
    path: Path | None = None
    source_format: str | None = None
    sheet: str | None = None
    sheets: list[str] = field(default_factory=list)
    encoding: str | None = None
    delimiter: str | None = None  # of a delimited text file as read
    line_end: str | None = None  # of a delimited text file as read (Save keeps all three)
    # the targets it was checked against before the current one, oldest first: its headers may be
    # spelt as one of them reads them (core/export.recognised_fields)
    header_targets: list[str] = field(default_factory=list)
    display_name: str | None = None  # the window's name for a document never saved (the demo's)

    @classmethod
    def of(cls, ds: Dataset, source_format: str | None = None, file_size: int | None = None,
           static: Iterable[Issue] = (), deferred: bool = False, scans: list[ColumnScan] | None = None,
           **facts) -> Document:
        """`ds` as a document: its conversations indexed, then checked (`deferred`: in slices, later; see
        core/check_pass.py). `static`: what the reader found; `scans`: what it learnt of the columns
        (RawTable.scans); `facts`: the other fields."""
        sessions = SessionIndex(ds)
        return cls(ds, sessions, Validator(ds, sessions, source_format, file_size, static, deferred, scans),
                   source_format=source_format, **facts)

    @property
    def shape(self) -> Shape:
        return shape_of(self.validator)

    def saved_as(self, path: str | Path, fmt: str, csv_style: tuple[str, str, str] | None = None) -> None:
        """The document is now the .`fmt` file at `path`: a workbook of its one sheet, a .csv in UTF-8
        with BOM, commas and CRLF (formats.md) unless Save kept its own `csv_style` (encoding, delimiter,
        line end), checked by the rules of its new file type."""
        self.path = Path(path)
        if self.dataset.source_rows:  # the rows of the file read: the file written has its rows one after another
            self.dataset.source_rows = {}
            self.validator.refresh_file_issues()
        if self.validator.awaiting_first_case:  # a file now: an empty one is an error
            self.validator.await_first_case(False)
        read_as = (self.source_format, self.encoding)
        if fmt == "xlsx":
            self.sheets = [self.sheet] if self.sheet else []
        elif fmt != self.source_format:
            self.sheet, self.sheets = None, []
        if fmt == "csv":
            self.encoding, self.delimiter, self.line_end = csv_style or ("utf-8-sig", ",", "\r\n")
        elif fmt != self.source_format:  # a workbook or JSON: no text encoding to reopen it in
            self.encoding = self.delimiter = self.line_end = None
        if (fmt, self.encoding) != read_as:  # "read as GB18030, its bytes also read as …" was of the old file
            self.validator.forget_file_findings(READ_AS_TEXT)
        self.validator.forget_file_findings(MISNAMED)  # the file is now what its name says
        if fmt != self.source_format:
            self.source_format = fmt
            self.validator.saved_as(fmt)


def document_from_table(raw: RawTable, path: str | Path | None = None, target: str | None = None,
                        file_size: int | None = None, deferred: bool = False) -> Document:
    """Build the dataset from what a reader returned, and validate it (`deferred`: in slices, later; see
    core/check_pass.py)."""
    suffix = Path(path).suffix if path else f".{raw.source_format}"
    target = target or raw.target or infer_target(raw.headers, suffix)
    ds = Dataset(raw.headers, (), target)
    payloads = raw.payloads or []
    if payloads:
        rows = [Row(i + 1, cells, payloads[i] if i < len(payloads) else None) for i, cells in enumerate(raw.rows)]
    else:
        rows = list(map(Row, range(1, len(raw.rows) + 1), raw.rows))
    ds.take_read_rows(rows)
    ds.document = raw.document
    ds.source_rows = {row.id: n for row, n in zip(rows, raw.source_rows, strict=False)}
    col_ids = [c.id for c in ds.columns]
    static = []
    formulas: dict[int, set[int]] = {}
    for note in raw.notes:
        row_id = rows[note.row].id if note.row is not None else None
        col_id = col_ids[note.column] if note.column is not None else None
        if note.rule == "formula-without-value" and row_id is not None and col_id is not None:
            formulas.setdefault(row_id, set()).add(col_id)
        else:
            static.append(make_issue(note.rule, target, note.message, row_id, col_id))
    for row_id, cols in formulas.items():
        ds.rows[row_id - 1].formulas = frozenset(cols)
    scans = raw.scans if raw.scans is not None and len(raw.scans) == len(raw.headers) else None
    return Document.of(ds, raw.source_format, file_size, static, deferred, scans, path=Path(path) if path else None,
                       sheet=raw.sheet, sheets=raw.sheets, encoding=raw.encoding, delimiter=raw.delimiter,
                       line_end=raw.line_end)
