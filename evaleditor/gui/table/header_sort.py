"""Sort by clicking a column header: ascending, then descending on the next click of the same header,
as one undo step, with the header's sort indicator. A sort that would put a conversation's turns out of
order says so first and offers Sort by Session and Turn instead (core/sorting.py).

The indicator stays while the rows are in the order the sort made (an edit of a cell keeps it, as in a
spreadsheet; undoing the sort, or any other reorder, clears it)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt

from evaleditor.core import sorting
from evaleditor.gui import dialogs


class HeaderSort(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.w = window
        self.sorted: tuple[int, bool, list[int]] | None = None  # column id, descending, the order made
        header = window.view.horizontalHeader()
        header.setSortIndicatorShown(False)
        header.sectionClicked.connect(self.clicked)
        for signal in (window.model.modelReset, window.model.layoutChanged, window.model.structureChanged):
            signal.connect(self._check_indicator)

    def clicked(self, column: int) -> None:
        w = self.w
        if not w.ops.ready() or not 0 <= column < w.model.columnCount():
            return
        v = w.model.validator
        column_id = v.ds.columns[column].id
        descending = self.sorted is not None and self.sorted[0] == column_id and not self.sorted[1]
        self.sort(column_id, descending)

    def sort(self, column_id: int, descending: bool = False) -> bool:
        w = self.w
        v = w.model.validator
        command = sorting.sort_by_column(v, column_id, descending)
        order = command.order if command is not None else [r.id for r in v.ds.rows]
        scrambled = sorting.scrambled_sessions(v, order) if command is not None else []
        if scrambled:
            header = v.ds.columns[v.ds.column_position(column_id)].header
            answer = dialogs.ask_sort_scrambles(w, header, scrambled)
            if answer == dialogs.SORT_SESSIONS:
                w.ops.sort_by_session_and_turn()
                return False
            if answer != dialogs.SORT_ANYWAY:
                return False
        if command is not None and not w.ops.push(command):
            return False
        self.sorted = (column_id, descending, [r.id for r in v.ds.rows])
        self._show_indicator()
        return True

    def _show_indicator(self) -> None:
        header = self.w.view.horizontalHeader()
        if self.sorted is None or self.w.model.doc is None:
            header.setSortIndicatorShown(False)
            return
        column_id, descending, _ = self.sorted
        ds = self.w.model.ds
        if not any(c.id == column_id for c in ds.columns):
            self.sorted = None
            header.setSortIndicatorShown(False)
            return
        header.setSortIndicator(ds.column_position(column_id),
                                Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder)
        header.setSortIndicatorShown(True)

    def _check_indicator(self, *_args) -> None:
        """Rows reordered otherwise (undo, a move, another sort, a new document): the indicator goes."""
        if self.sorted is None:
            return
        doc = self.w.model.doc
        if doc is None or [r.id for r in doc.dataset.rows] != self.sorted[2]:
            self.sorted = None
        self._show_indicator()
