"""View ▸ Wrap Text: multi-line and long cells shown in full, on rows as tall as their text.

Only the rows on screen are measured (a 100k-row file costs what one screen does): after a scroll, a
resize, an edit or a column resize, each visible row gets the height of its tallest cell wrapped at
its column's width, at most most of the viewport, so that a row never hides the table. Rows measured
earlier keep their height until shown again. Turning it off gives every row the one-line height back.
`measured` counts the rows measured, so that a test can bound the work."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, Qt, QTimer
from PySide6.QtGui import QFontMetrics

CELL_PADDING = 12  # the delegate's margins and the severity icon's room, at the default font
MAX_SHARE = 0.8  # a row is at most this share of the viewport's height


class WrapRows(QObject):
    def __init__(self, view, model):
        super().__init__(view)
        self.view, self.model = view, model
        self.enabled = False
        self.measured = 0
        self._tall: set[int] = set()  # rows given a height of their own
        self._timer = QTimer(self, singleShot=True, interval=0, timeout=self.fit_visible)
        view.verticalScrollBar().valueChanged.connect(self.schedule)
        view.horizontalHeader().sectionResized.connect(self.schedule)
        for signal in (model.dataChanged, model.layoutChanged, model.modelReset, model.rowsInserted,
                       model.rowsRemoved):
            signal.connect(self.schedule)
        view.viewport().installEventFilter(self)

    def set_enabled(self, on: bool) -> None:
        self.enabled = on
        self.model.set_wrap(on)
        self.view.setWordWrap(on)
        self.view.setTextElideMode(Qt.TextElideMode.ElideNone if on else Qt.TextElideMode.ElideRight)
        if on:
            self.fit_visible()
        else:
            default = self.view.verticalHeader().defaultSectionSize()
            for row in sorted(self._tall):
                if row < self.model.rowCount():
                    self.view.setRowHeight(row, default)
            self._tall.clear()

    def schedule(self, *_args) -> None:
        if self.enabled:
            self._timer.start()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize:
            self.schedule()
        return super().eventFilter(obj, event)

    def visible_rows(self) -> range:
        view = self.view
        n = self.model.rowCount()
        if n == 0:
            return range(0)
        first = max(view.rowAt(0), 0)
        last = view.rowAt(view.viewport().height() - 1)
        return range(first, (n - 1 if last < 0 else last) + 1)

    def fit_visible(self) -> None:
        """Give each row on screen the height of its text (twice at most: taller rows show fewer)."""
        if not self.enabled:
            return
        done: set[int] = set()
        for _ in range(2):
            rows = [r for r in self.visible_rows() if r not in done]
            if not rows:
                break
            for row in rows:
                self._fit(row)
            done.update(rows)

    def _fit(self, row: int) -> None:
        view = self.view
        fm = QFontMetrics(view.font())
        default = view.verticalHeader().defaultSectionSize()
        cap = max(default, int(view.viewport().height() * MAX_SHARE))
        height = default
        for col in range(self.model.columnCount()):
            if view.isColumnHidden(col):
                continue
            text = self.model.index(row, col).data()
            if not text or ("\n" not in text and fm.horizontalAdvance(text) < view.columnWidth(col) - CELL_PADDING):
                continue
            width = max(view.columnWidth(col) - CELL_PADDING * max(1.0, fm.height() / 16), 20)
            rect = fm.boundingRect(QRect(0, 0, int(width), cap), int(Qt.TextFlag.TextWordWrap), text)
            height = max(height, min(cap, rect.height() + 10))
        self.measured += 1
        if height != view.rowHeight(row):
            view.setRowHeight(row, height)
        if height != default:
            self._tall.add(row)
        else:
            self._tall.discard(row)
