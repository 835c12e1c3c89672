"""CasesModel: the Qt table model over a Document. An adapter — it keeps no copy of the data.

Dataset events become exact begin/endInsertRows, begin/endRemoveRows, layoutChanged (reorder) and
dataChanged (cells, Display/Edit roles). Validator reports become dataChanged over contiguous blocks
of the rows whose issues changed, with the issue roles only. `data()` does no validation: it reads a
per-row cache of {column id: (severity, tooltip)} built from `validator.row_issues`, dropped when the
validator says the row changed. A row filter is a list of visible row ids mapped here (no proxy).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QFont

from evaleditor.core.commands import SetCells
from evaleditor.core.document import Document
from evaleditor.gui.table import headers as table_headers
from evaleditor.gui.table.cell_cache import CellCache, is_short, tooltip
from evaleditor.gui.table.model_events import ISSUE_ROLES, TEXT_ROLES, ModelEvents  # noqa: F401
from evaleditor.gui.window import theme
from evaleditor.gui.window.undo import push

log = logging.getLogger(__name__)
R = Qt.ItemDataRole
DISPLAY, EDIT, TOOLTIP = int(R.DisplayRole), int(R.EditRole), int(R.ToolTipRole)
BACKGROUND, FOREGROUND, DECORATION = int(R.BackgroundRole), int(R.ForegroundRole), int(R.DecorationRole)
ALIGN, FONT = int(R.TextAlignmentRole), int(R.FontRole)
ACCESSIBLE_DESCRIPTION = int(R.AccessibleDescriptionRole)
_ROOT = QModelIndex()
WRAP_CHARS = 3000  # characters of a long cell shown with Wrap Text on (the editor holds it all)
_CELL_ROLES = frozenset((DISPLAY, EDIT, TOOLTIP, BACKGROUND, FOREGROUND, DECORATION, ACCESSIBLE_DESCRIPTION))
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_READ_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_EDIT_FLAGS = _READ_FLAGS | Qt.ItemFlag.ItemIsEditable


class CasesModel(QAbstractTableModel):
    fileIssuesChanged = Signal()
    issuesChanged = Signal()  # any issue changed (counts, issues panel)
    structureChanged = Signal()  # rows or columns inserted, removed, moved
    gutterChanged = Signal(int, int)  # row headers first..last changed text or band colour (a repaint will do)

    def __init__(self, doc: Document | None = None, parent=None):
        super().__init__(parent)
        self.doc: Document | None = None
        self.undo_stack = None  # QUndoStack, set by the window; edits apply directly without one
        self.read_only = False
        self.wrap = False  # show long and multi-line cells whole (View ▸ Wrap Text)
        self._visible: list[int] | None = None  # None: every row, in file order
        self._visible_pos: dict[int, int] | None = None
        self.cache: CellCache | None = None
        self.events = ModelEvents(self)  # dataset and validator reports become Qt model signals
        if doc is not None:
            self.set_document(doc)

    # ----- the document ---------------------------------------------------------------------------
    def set_document(self, doc: Document | None) -> None:
        self.beginResetModel()
        if self.doc is not None:
            self.doc.dataset.unsubscribe(self.events)
            self.doc.validator.listeners.remove(self.events.on_issues)
        self.doc = doc
        if doc is not None:
            doc.dataset.subscribe(self.events)
            doc.validator.listeners.append(self.events.on_issues)
        self.cache = CellCache(doc.validator) if doc is not None else None
        self._visible = self._visible_pos = None
        self.endResetModel()

    def set_wrap(self, on: bool) -> None:
        """Long cells shown whole or as their one-line preview: every cell's text may change."""
        if on != self.wrap:
            self.wrap = on
            if self.rowCount() and self.columnCount():
                self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1),
                                      [DISPLAY])

    @property
    def ds(self):
        return self.doc.dataset

    @property
    def validator(self):
        return self.doc.validator

    def set_visible(self, row_ids: list[int] | None) -> None:
        """Show only these rows (file order), or every row. Resets the visible mapping only."""
        self.beginResetModel()
        self._visible = row_ids
        self._visible_pos = None
        self.endResetModel()

    @property
    def filtered(self) -> bool:
        return self._visible is not None

    # ----- mapping ----------------------------------------------------------------------------------
    def row_id(self, row: int) -> int:
        return self.ds.rows[row].id if self._visible is None else self._visible[row]

    def visible_row_ids(self) -> list[int]:
        return [r.id for r in self.ds.rows] if self._visible is None else list(self._visible)

    def row_of(self, row_id: int) -> int | None:
        """The model row showing `row_id`, or None when it is filtered out or gone."""
        if self._visible is None:
            return self.ds.position(row_id) if self.ds.has_row(row_id) else None
        if self._visible_pos is None:
            self._visible_pos = {rid: i for i, rid in enumerate(self._visible)}
        return self._visible_pos.get(row_id)

    def index_of(self, row_id: int, column_id: int | None = None) -> QModelIndex:
        row = self.row_of(row_id)
        if row is None:
            return QModelIndex()
        col = 0 if column_id is None else self.ds.column_position(column_id)
        return self.index(row, col)

    def cell_ids(self, index: QModelIndex) -> tuple[int, int]:
        return self.row_id(index.row()), self.ds.columns[index.column()].id

    # ----- Qt model API -------------------------------------------------------------------------------
    def rowCount(self, parent=_ROOT) -> int:
        if parent.isValid() or self.doc is None:
            return 0
        return len(self.ds.rows) if self._visible is None else len(self._visible)

    def columnCount(self, parent=_ROOT) -> int:
        if parent.isValid() or self.doc is None:
            return 0
        return len(self.ds.columns)

    def flags(self, index):
        if not index.isValid():
            return _NO_FLAGS
        return _READ_FLAGS if self.read_only else _EDIT_FLAGS

    def data(self, index, role=DISPLAY):
        role = int(role)
        if role not in _CELL_ROLES or not index.isValid():
            return None
        ds = self.doc.dataset
        r = index.row()
        row = ds.rows[r] if self._visible is None else ds.row(self._visible[r])
        c = index.column()
        if role == DISPLAY:
            text = row.cells[c]
            if is_short(text):
                return text
            if self.wrap:  # View ▸ Wrap Text: the lines in full (bounded), the row grows (table/wrap.py)
                return text if len(text) <= WRAP_CHARS else text[:WRAP_CHARS] + "\u2026"
            return self.cache.preview(row.id, ds.columns[c].id, text)
        if role == EDIT:
            return row.cells[c]
        if role in (BACKGROUND, FOREGROUND, DECORATION, TOOLTIP, ACCESSIBLE_DESCRIPTION):
            marks = self.cache.marks(row.id)
            mark = marks.get(ds.columns[c].id) if marks else None
            if role == ACCESSIBLE_DESCRIPTION:  # a screen reader hears "Error: …" (not just a colour)
                return mark[1] if mark is not None else None
            if role == BACKGROUND:
                if mark is not None:
                    return theme.scheme().background[mark[0]]
                band = self.cache.band(row.id)
                return None if band is None else theme.scheme().band[band]
            if role == FOREGROUND:
                return theme.scheme().foreground[mark[0]] if mark is not None else None
            if role == DECORATION:
                return theme.severity_icon(mark[0]) if mark is not None else None
            return tooltip(mark, row.cells[c])
        return None

    def setData(self, index, value, role=EDIT) -> bool:
        """Store what was typed (even if invalid: it becomes an issue) as one undoable edit."""
        try:
            if int(role) != EDIT or not index.isValid() or self.read_only:
                return False
            text = "" if value is None else str(value)
            row_id, column_id = self.cell_ids(index)
            if self.ds.cell(row_id, column_id) == text:
                return True
            push(self.undo_stack, self.ds, SetCells([(row_id, column_id, text)]), typing=True)
            return True
        except Exception:  # never raise into Qt
            log.exception("setData failed")
            return False

    def retranslate(self) -> None:
        """After a language change: column labels and issue tooltips are rebuilt in the new language."""
        if self.cache is not None:
            self.cache.clear()
        if self.columnCount():
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.columnCount() - 1)

    def headerData(self, section, orientation, role=DISPLAY):
        if self.doc is None:
            return None
        role = int(role)
        if orientation == Qt.Orientation.Horizontal:
            if not 0 <= section < len(self.ds.columns):
                return None
            label = self.cache.column_label(section)
            if role == DISPLAY:
                return label.text
            if role in (TOOLTIP, ACCESSIBLE_DESCRIPTION):
                return label.tooltip
            if role == DECORATION and label.severity:
                return theme.severity_icon(label.severity)
            if role in (BACKGROUND, FOREGROUND) and label.severity in ("error", "warning"):
                table = theme.scheme().background if role == BACKGROUND else theme.scheme().foreground
                return table[label.severity]
            if role == FONT and not label.recognised:
                return _italic()
            return None
        if not 0 <= section < self.rowCount():
            return None
        row_id = self.row_id(section)
        if role == DISPLAY:
            return table_headers.gutter_text(self.validator, row_id, self.ds.position(row_id))
        if role == DECORATION:
            marks = self.cache.marks(row_id)
            return theme.severity_icon(marks["row"]) if marks else None
        if role == BACKGROUND:
            band = self.cache.band(row_id)
            return None if band is None else theme.scheme().header_band[band]
        if role == ALIGN:
            return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        return None

def _italic() -> QFont:
    global _ITALIC
    if _ITALIC is None:
        _ITALIC = QFont()
        _ITALIC.setItalic(True)
    return _ITALIC


_ITALIC: QFont | None = None
