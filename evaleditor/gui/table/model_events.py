"""How CasesModel follows the core (ModelEvents, the model's listener): dataset before/after events become exact Qt model signals;
validator reports become dataChanged over contiguous blocks of rows with the issue roles only.

The validator subscribes to the dataset before the model, so it reports while a structural change
is still open (between beginInsertRows and endInsertRows): such reports are held and replayed after
the model's end* call.
"""

from __future__ import annotations

import bisect

from PySide6.QtCore import QModelIndex, Qt

from evaleditor.core.dataset import Change
from evaleditor.core.targets import SESSION, TURN

R = Qt.ItemDataRole
ISSUE_ROLES = [R.BackgroundRole, R.ForegroundRole, R.DecorationRole, R.ToolTipRole, R.AccessibleDescriptionRole]
TEXT_ROLES = [R.DisplayRole, R.EditRole, R.ToolTipRole]
HEADER_SAMPLE = 100  # QHeaderView::sizeHint measures the first and the last 100 sections
BULK_CELLS = 2000  # an edit of more cells than this repaints the screen, not cell by cell
MAX_BLOCKS = 16  # more blocks of rows with new issues than this are reported as the one span around them


class ModelEvents:
    """CasesModel's listener on its dataset and validator (`model.events`): handed the model it signals
    through; it keeps only the bookkeeping of a change in progress."""

    def __init__(self, model):
        self.model = model
        self._in_change = False
        self._sessions_left: list[str] = []  # sessions of the session_id cells being edited, before the edit
        self._deferred: tuple[set[int], bool] = (set(), False)
        self._pending: tuple[int, int] | None = None
        self._persistent: list[tuple[QModelIndex, int]] = []

    def before_change(self, ch: Change) -> None:
        if ch.kind == "cells":  # not structural: nothing to hold back
            self._sessions_left = self._sessions_of(ch.cells) if len(ch.cells) <= BULK_CELLS else []
            return
        self._in_change = True
        root = QModelIndex()
        if ch.kind == "insert_rows":
            at = ch.first if self.model._visible is None else bisect.bisect_left(self.model._visible, ch.first,
                                                                            key=self.model.ds.position)
            self._pending = (at, at + len(ch.row_ids) - 1)
            self.model.beginInsertRows(root, *self._pending)
        elif ch.kind == "remove_rows":
            if self.model._visible is None:
                self._pending = (ch.first, ch.last)
            else:
                shown = [p for p in (self.model.row_of(r) for r in ch.row_ids) if p is not None]
                self._pending = (min(shown), max(shown)) if shown else None
            if self._pending is not None:
                self.model.beginRemoveRows(root, *self._pending)
        elif ch.kind == "reorder":
            self.model.layoutAboutToBeChanged.emit()
            self._persistent = [(i, self.model.row_id(i.row())) for i in self.model.persistentIndexList()]
        elif ch.kind == "insert_column":
            self.model.beginInsertColumns(root, ch.first, ch.last)
        elif ch.kind == "remove_column":
            self.model.beginRemoveColumns(root, ch.first, ch.last)

    def after_change(self, ch: Change) -> None:
        kind = ch.kind
        if kind == "cells":
            self._cells_changed(ch.cells)
        elif kind == "insert_rows":
            if self.model._visible is not None:
                at = self._pending[0]
                self.model._visible[at:at] = ch.row_ids
                self.model._visible_pos = None
            self.model.cache.bands.reset()
            self.model.endInsertRows()
        elif kind == "remove_rows":
            for rid in ch.row_ids:
                self.model.cache.marks_by_row.pop(rid, None)
            if self.model._visible is not None:
                gone = set(ch.row_ids)
                self.model._visible = [r for r in self.model._visible if r not in gone]
                self.model._visible_pos = None
            self.model.cache.bands.reset()
            if self._pending is not None:
                self.model.endRemoveRows()
        elif kind == "reorder":
            self._reordered()
        elif kind in ("insert_column", "remove_column"):
            self.model.cache.clear()
            (self.model.endInsertColumns if kind == "insert_column" else self.model.endRemoveColumns)()
        elif kind in ("rename_column", "target", "reset"):
            self.model.cache.labels = None
            self.model.cache.bands.reset()
            if self.model.columnCount():
                self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.model.columnCount() - 1)
        self._in_change = False
        self._pending = None
        rows, file_changed = self._deferred
        self._deferred = (set(), False)
        if rows or file_changed:
            self.on_issues(rows, file_changed)
        if kind != "cells":
            self._repaint_bands()
            self.model.structureChanged.emit()

    def _cells_changed(self, cells: list[tuple[int, int]]) -> None:
        ds = self.model.ds
        if len(cells) > BULK_CELLS:  # a replace-all: one repaint of what is on screen, bands again
            self.model.cache.previews.clear()
            self.model.cache.bands.reset()
            last_row, last_col = self.model.rowCount() - 1, self.model.columnCount() - 1
            if last_row >= 0:
                self.model.dataChanged.emit(self.model.index(0, 0), self.model.index(last_row, last_col), [*TEXT_ROLES, R.BackgroundRole])
                self._gutter_changed(0, last_row)
            return
        by_row: dict[int, list[int]] = {}
        session_pos, turn_pos = ds.field_position(SESSION), ds.field_position(TURN)
        bands = False
        for rid, cid in cells:
            self.model.cache.previews.pop((rid, cid), None)
            row = self.model.row_of(rid)
            if row is not None:
                col = ds.column_position(cid)
                by_row.setdefault(row, []).append(col)
                bands = bands or col == session_pos
        for a, b in _blocks(sorted(by_row)):
            cols = [c for r in range(a, b + 1) for c in by_row[r]]
            self.model.dataChanged.emit(self.model.index(a, min(cols)), self.model.index(b, max(cols)), TEXT_ROLES)
            if session_pos in cols or turn_pos in cols:  # the gutter shows "row  session·turn"
                self._gutter_changed(a, b)
        if bands:  # the rows whose conversation band may have changed: repainted, no others
            spans = self.model.cache.bands.moved(self._sessions_left + self._sessions_of(cells))
            sid_column = ds.columns[session_pos].id
            spans += [(p, p) for p in ds.positions(rid for rid, cid in cells if cid == sid_column)]
            last_col = self.model.columnCount() - 1
            for a, b in self._shown_spans(spans):
                self.model.dataChanged.emit(self.model.index(a, 0), self.model.index(b, last_col), [R.BackgroundRole])
                self.model.gutterChanged.emit(a, b)

    def _shown_spans(self, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Spans of row positions in the dataset -> the merged spans of model rows showing them."""
        merged: list[tuple[int, int]] = []
        for a, b in sorted(spans):
            if self.model._visible is not None:
                a = bisect.bisect_left(self.model._visible, a, key=self.model.ds.position)
                b = bisect.bisect_right(self.model._visible, b, key=self.model.ds.position) - 1
            if a > b:
                continue
            if merged and a <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
            else:
                merged.append((a, b))
        return merged

    def _reordered(self) -> None:
        if self.model._visible is not None:
            self.model._visible.sort(key=self.model.ds.position)
            self.model._visible_pos = None
        self.model.cache.bands.reset()
        olds, news = [], []
        for old, rid in self._persistent:
            row = self.model.row_of(rid)
            olds.append(old)
            news.append(QModelIndex() if row is None else self.model.index(row, old.column()))
        self.model.changePersistentIndexList(olds, news)
        self._persistent = []
        self.model.layoutChanged.emit()

    def _gutter_changed(self, first: int, last: int) -> None:
        """Row headers first..last show something new. headerDataChanged makes the header re-measure the
        sections it samples for its width (the first and last 100: ~20 ms at 100k rows), so it is sent
        only when those are among the rows; otherwise a repaint shows the change just as well."""
        if first < HEADER_SAMPLE or last >= self.model.rowCount() - HEADER_SAMPLE:
            self.model.headerDataChanged.emit(Qt.Orientation.Vertical, first, last)
        else:
            self.model.gutterChanged.emit(first, last)

    def _sessions_of(self, cells: list[tuple[int, int]]) -> list[str]:
        """The sessions of the rows whose session_id cell is among `cells`."""
        pos = self.model.ds.field_position(SESSION)
        if pos is None:
            return []
        cid = self.model.ds.columns[pos].id
        session_of = self.model.validator.sessions.session_of
        return [sid for rid, c in cells if c == cid and (sid := session_of.get(rid)) is not None]

    def _repaint_bands(self) -> None:
        """Conversation bands can shift for every later row: repaint backgrounds (viewport only)."""
        n = self.model.rowCount()
        if n and self.model.columnCount():
            self.model.dataChanged.emit(self.model.index(0, 0), self.model.index(n - 1, self.model.columnCount() - 1), [R.BackgroundRole])
            self.model.headerDataChanged.emit(Qt.Orientation.Vertical, 0, n - 1)

    # ----- validator reports ---------------------------------------------------------------------------------
    def on_issues(self, rows: set[int], file_changed: bool) -> None:
        if self._in_change:  # mid-structure change: report after end*Rows/Columns
            old_rows, old_file = self._deferred
            self._deferred = (old_rows | rows, old_file or file_changed)
            return
        for rid in rows:
            self.model.cache.marks_by_row.pop(rid, None)
        shown = sorted(p for p in (self.model.row_of(r) for r in rows) if p is not None)
        last_col = self.model.columnCount() - 1
        if last_col >= 0:
            blocks = _blocks(shown)
            if len(blocks) > MAX_BLOCKS:  # a block of a check pass, a fix-all: one span, of which Qt
                blocks = [(shown[0], shown[-1])]  # repaints what is on screen
            for a, b in blocks:
                self.model.dataChanged.emit(self.model.index(a, 0), self.model.index(b, last_col), ISSUE_ROLES)
                self._gutter_changed(a, b)
        if file_changed:
            self.model.cache.labels = None
            if last_col >= 0:
                self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, last_col)
            self.model.fileIssuesChanged.emit()
        self.model.issuesChanged.emit()


def _blocks(sorted_rows: list[int]) -> list[tuple[int, int]]:
    blocks: list[tuple[int, int]] = []
    for r in sorted_rows:
        if blocks and r == blocks[-1][1] + 1:
            blocks[-1] = (blocks[-1][0], r)
        elif not blocks or r != blocks[-1][1]:
            blocks.append((r, r))
    return blocks
