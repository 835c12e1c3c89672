"""Zoom of the cases table, as a spreadsheet zooms its grid (the banner and panels keep their size):
Ctrl+wheel, View ▸ Zoom In / Zoom Out / Actual Size, remembered in the settings.

Keys: Ctrl+Alt+= / Ctrl+Alt+- (Excel's zoom keys) and Ctrl+0. Ctrl++ and Ctrl+- stay Insert / Delete
Rows, as in Excel and LibreOffice Calc, whose users reach for them to edit rows, not to zoom."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics

from evaleditor.gui.window import settings

STEPS = (50, 67, 75, 80, 90, 100, 110, 125, 150, 175, 200, 250, 300)  # percent, as the browsers step
ROW_PADDING = 10  # a row is the font's height plus this (table/view.py)


class TableZoom(QObject):
    changed = Signal(int)  # percent

    def __init__(self, view):
        super().__init__(view)
        self.view = view
        self.base = QFont(view.font())
        self.percent = 100
        view.viewport().installEventFilter(self)
        self.set_percent(settings.zoom(), remember=False)

    def set_percent(self, percent: int, remember: bool = True) -> None:
        percent = max(STEPS[0], min(STEPS[-1], int(percent)))
        ratio = percent / self.percent
        self.percent = percent
        font = QFont(self.base)
        if self.base.pointSizeF() > 0:
            font.setPointSizeF(self.base.pointSizeF() * percent / 100)
        else:
            font.setPixelSize(max(1, round(self.base.pixelSize() * percent / 100)))
        view = self.view
        view.setFont(font)
        for header in (view.horizontalHeader(), view.verticalHeader()):
            header.setFont(font)
        fm = QFontMetrics(font)
        vh = view.verticalHeader()
        vh.setMinimumSectionSize(fm.height() + 4)
        vh.setDefaultSectionSize(fm.height() + ROW_PADDING)
        hh = view.horizontalHeader()
        if ratio != 1:
            for col in range(hh.count()):
                hh.resizeSection(col, max(hh.minimumSectionSize(), round(hh.sectionSize(col) * ratio)))
        if remember:
            settings.set_zoom(percent)
        self.changed.emit(percent)

    def step(self, direction: int) -> None:
        """One step in (1) or out (-1) from the current zoom."""
        if direction > 0:
            self.set_percent(next((s for s in STEPS if s > self.percent), STEPS[-1]))
        else:
            self.set_percent(next((s for s in reversed(STEPS) if s < self.percent), STEPS[0]))

    def reset(self) -> None:
        self.set_percent(100)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Wheel and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            delta = event.angleDelta().y()
            if delta:
                self.step(1 if delta > 0 else -1)
            return True
        return super().eventFilter(obj, event)
