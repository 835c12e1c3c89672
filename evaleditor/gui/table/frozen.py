"""View ▸ Freeze First Column: the first data column stays in view while the table scrolls right, as
Freeze Panes does in a spreadsheet (the gutter with conversation and turn always stays).

Qt's frozen-column pattern: a second table view lies over the first column of the cases table, showing
only that column, sharing its model, selection and delegate, scrolled with it and sized with it (row
heights too, so Wrap Text and zoom keep the rows aligned). It never takes the keyboard focus: keys go
to the table; a click selects through the shared selection model."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractItemView, QFrame, QTableView


class FrozenColumn(QObject):
    def __init__(self, view):
        super().__init__(view)
        self.view = view
        self.overlay: QTableView | None = None
        view.installEventFilter(self)
        view.verticalScrollBar().valueChanged.connect(self._scrolled)
        view.horizontalHeader().sectionResized.connect(self._column_resized)
        view.verticalHeader().sectionResized.connect(self._row_resized)
        model = view.model()
        for signal in (model.modelReset, model.columnsInserted, model.columnsRemoved, model.layoutChanged,
                       model.dataChanged):
            signal.connect(self.sync)
        view.selectionModel().currentChanged.connect(self._uncover)

    @property
    def enabled(self) -> bool:
        return self.overlay is not None

    def set_enabled(self, on: bool) -> None:
        if on == self.enabled:
            return
        view = self.view
        if not on:
            self.overlay.deleteLater()
            self.overlay = None
            return
        overlay = QTableView(view)
        overlay.setObjectName("frozen_column")
        overlay.setModel(view.model())
        overlay.setSelectionModel(view.selectionModel())
        overlay.setItemDelegate(view.itemDelegate())
        overlay.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        overlay.setFrameShape(QFrame.Shape.NoFrame)
        overlay.verticalHeader().hide()
        overlay.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        overlay.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        overlay.setVerticalScrollMode(view.verticalScrollMode())
        overlay.setSelectionBehavior(view.selectionBehavior())
        overlay.setSelectionMode(view.selectionMode())
        overlay.setEditTriggers(view.editTriggers())
        overlay.setWordWrap(view.wordWrap())
        overlay.setTextElideMode(view.textElideMode())
        overlay.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        overlay.customContextMenuRequested.connect(
            lambda pos: view.customContextMenuRequested.emit(view.viewport().mapFromGlobal(
                overlay.viewport().mapToGlobal(pos))))
        self.overlay = overlay
        view.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        overlay.verticalScrollBar().valueChanged.connect(view.verticalScrollBar().setValue)
        self.sync()
        overlay.show()

    def sync(self, *_args) -> None:
        """Show only the first column, with the table's sizes, fonts and scroll position."""
        overlay, view = self.overlay, self.view
        if overlay is None:
            return
        columns = view.model().columnCount()
        for col in range(columns):
            overlay.setColumnHidden(col, col != 0)
        if columns:
            overlay.setColumnWidth(0, view.columnWidth(0))
        overlay.setWordWrap(view.wordWrap())
        overlay.setTextElideMode(view.textElideMode())
        overlay.horizontalHeader().setFont(view.horizontalHeader().font())
        vh = overlay.verticalHeader()
        vh.setMinimumSectionSize(view.verticalHeader().minimumSectionSize())
        vh.setDefaultSectionSize(view.verticalHeader().defaultSectionSize())
        for row in range(max(view.rowAt(0), 0), max(view.rowAt(view.viewport().height() - 1), 0) + 1):
            if row < view.model().rowCount():
                overlay.setRowHeight(row, view.rowHeight(row))
        overlay.verticalScrollBar().setValue(view.verticalScrollBar().value())
        self._place()

    def _place(self) -> None:
        overlay, view = self.overlay, self.view
        if overlay is None:
            return
        overlay.horizontalHeader().setFixedHeight(view.horizontalHeader().height())
        width = view.columnWidth(0) if view.model().columnCount() else 0
        frame = view.frameWidth()
        overlay.setGeometry(view.verticalHeader().width() + frame, frame, width,
                            view.viewport().height() + view.horizontalHeader().height())
        overlay.setVisible(width > 0)

    def _scrolled(self, value: int) -> None:
        if self.overlay is not None:
            self.sync()
            self.overlay.verticalScrollBar().setValue(value)

    def _column_resized(self, column: int, _old: int, new: int) -> None:
        if self.overlay is not None and column == 0:
            self.overlay.setColumnWidth(0, new)
            self._place()

    def _row_resized(self, row: int, _old: int, new: int) -> None:
        if self.overlay is not None:
            self.overlay.setRowHeight(row, new)

    def _uncover(self, current, _previous=None) -> None:
        """A cell moved to by the keyboard may lie under the frozen column: scroll it out."""
        if self.overlay is None or not current.isValid() or current.column() == 0:
            return
        hidden = self.view.columnWidth(0) - self.view.visualRect(current).left()
        if hidden > 0:
            bar = self.view.horizontalScrollBar()
            bar.setValue(bar.value() - hidden)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if self.overlay is not None and event.type() in (QEvent.Type.Resize, QEvent.Type.FontChange,
                                                         QEvent.Type.LayoutRequest):
            self.sync()
        return super().eventFilter(obj, event)
