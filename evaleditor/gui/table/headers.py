"""What the table's headers say: each column's source text and what it was recognised as, each
row's number with its session and turn. Pure functions of the core's state (and the language); the
model caches them. HeaderFit keeps each column wide enough to read its header."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtWidgets import QTableView

from evaleditor.core.rules import SEVERITY_RANK
from evaleditor.core.targets import TURN
from evaleditor.core.validation import Validator
from evaleditor.gui.panels.issues_model import describe

GUTTER_SESSION_CHARS = 10
HEADER_MAX_CHARS = 48  # a column grows for its header up to this many average characters (the tooltip has it all)
translate = QCoreApplication.translate


@dataclass(frozen=True)
class ColumnLabel:
    text: str  # two lines: the header as in the file, then what it means to the target
    severity: str | None  # the worst file-level issue about this column
    tooltip: str
    recognised: bool


def column_labels(v: Validator) -> list[ColumnLabel]:
    ds = v.ds
    target = ds.target
    by_column: dict[int, list] = {}
    for issue in v.file_issues():
        if issue.column_id is not None:
            by_column.setdefault(issue.column_id, []).append(issue)
    labels = []
    seen: set[str] = set()
    for col, fld in zip(ds.columns, ds.fields(), strict=True):
        issues = by_column.get(col.id, [])
        header = col.header if col.header.strip() else translate("ColumnHeaders", "(no header)")
        if fld is None:
            miss = target.near_miss(col.header)
            if miss is not None:
                meaning = "\u26a0 " + translate("ColumnHeaders", "NOT read as {want}").format(want=target.header_in(miss, ds.headers()))
            else:
                meaning = translate("ColumnHeaders", "unknown \u00b7 kept")
        elif fld in seen:
            meaning = "\u2192 " + translate("ColumnHeaders", "{field} (duplicate)").format(field=fld)
        else:
            meaning = f"\u2192 {fld}"
            seen.add(fld)
        worst = max(issues, key=lambda i: SEVERITY_RANK[i.severity]).severity if issues else None
        read = (translate("ColumnHeaders", "read as {field}").format(field=fld) if fld and not issues
                else meaning.strip("\u26a0 "))
        tip_lines = [translate("ColumnHeaders", "Header {header!r}: {meaning}").format(header=col.header, meaning=read)]
        tip_lines += [describe(i) for i in issues]
        labels.append(ColumnLabel(f"{header}\n{meaning}", worst, "\n".join(tip_lines), fld is not None))
    return labels


def gutter_text(v: Validator, row_id: int, position: int) -> str:
    """`12  s1·2`: the 1-based data row number, then the session and turn when the row has a session."""
    sid = v.sessions.session_of.get(row_id)
    if sid is None:
        return str(position + 1)
    # ids often share a prefix ("conversation-0001"): both ends stay, the end (which tells them apart) longer
    head = (GUTTER_SESSION_CHARS - 1) // 3
    short = sid if len(sid) <= GUTTER_SESSION_CHARS else \
        sid[:head] + "\u2026" + sid[-(GUTTER_SESSION_CHARS - 1 - head):]
    ds = v.ds
    tpos = ds.field_position(TURN)
    turn = ds.row(row_id).cells[tpos].strip() if tpos is not None else ""
    if len(turn) > 4:
        turn = turn[:3] + "\u2026"
    return f"{position + 1}  {short}\u00b7{turn}" if turn else f"{position + 1}  {short}"


class HeaderFit(QObject):
    """Column widths that show the whole header (both lines, the severity icon, the bold font of the
    current column), measured by the header itself (QHeaderView.sectionSizeHint: header text only,
    never the cells, so it costs the same for 10 rows or 100k), capped at HEADER_MAX_CHARS average
    characters.

    `fit_all()` after a document is shown; then a column is re-fitted only when its header text
    changes: a rename, a target switch, a header recognised or not any more, the language. Growing
    is all it does to a column whose width the user (or the content fit) chose — except that a column
    it widened and nobody resized since goes back to its earlier width when the header gets short again.
    `on_renamed(position, header)` is called for a column whose header itself changed (not only what
    it is read as), whoever changed it (Rename Column, the banner, a quick fix, Undo)."""

    def __init__(self, view: QTableView, on_renamed=None):
        super().__init__(view)
        self.view = view
        self.on_renamed = on_renamed
        self._texts: dict[int, tuple[str, str]] = {}  # column id -> (header, label) last fitted
        self._grown: dict[int, tuple[int, int]] = {}  # column id -> (width before growing, width set)
        model = view.model()
        model.headerDataChanged.connect(self._header_changed)
        model.columnsInserted.connect(lambda _parent, first, last: self._fit(range(first, last + 1)))

    def fit_all(self) -> None:
        self._texts.clear()
        self._grown.clear()
        self._fit(range(self.view.model().columnCount()))

    def _header_changed(self, orientation, first: int, last: int) -> None:
        if orientation == Qt.Orientation.Horizontal:
            self._fit(range(first, last + 1))

    def _fit(self, columns) -> None:
        model, header = self.view.model(), self.view.horizontalHeader()
        ds = model.ds if model.doc is not None else None
        if ds is None:
            return
        cap = header.fontMetrics().averageCharWidth() * HEADER_MAX_CHARS + 2 * header.fontMetrics().height()
        for col in columns:
            if not 0 <= col < len(ds.columns):
                continue
            column = ds.columns[col]
            label = str(model.headerData(col, Qt.Orientation.Horizontal) or "")
            before = self._texts.get(column.id)
            if before == (column.header, label):
                continue
            self._texts[column.id] = (column.header, label)
            if before is not None and before[0] != column.header and self.on_renamed is not None:
                self.on_renamed(col, column.header)
            width = header.sectionSize(col)
            base, grown_to = self._grown.pop(column.id, (width, None))
            if grown_to != width:  # resized since it was grown: the user's width is the base now
                base = width
            wanted = max(base, min(header.sectionSizeHint(col), cap))
            if wanted != width:
                header.resizeSection(col, wanted)
            if wanted != base:
                self._grown[column.id] = (base, wanted)
