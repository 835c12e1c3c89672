"""Zoom (Ctrl+wheel, View ▸ Zoom, remembered) and Wrap Text (long cells whole, rows as tall as their
text, only the rows on screen measured)."""

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QKeySequence, QWheelEvent
from PySide6.QtWidgets import QApplication

from evaleditor.gui import MainWindow
from evaleditor.gui.window import settings
from tests.gui.conftest import HEADERS, make_doc

Q = 2


def wheel(widget, up: bool, modifiers=Qt.KeyboardModifier.ControlModifier):
    pos = QPointF(20, 20)
    event = QWheelEvent(pos, widget.mapToGlobal(pos), QPoint(0, 0), QPoint(0, 120 if up else -120),
                        Qt.MouseButton.NoButton, modifiers, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_ctrl_wheel_zooms_the_table_and_it_is_remembered(window, qtbot):
    view = window.view
    size, row, width = view.font().pointSizeF(), view.verticalHeader().defaultSectionSize(), view.columnWidth(Q)
    wheel(view.viewport(), up=True)
    assert window.zoom.percent == 110 and settings.zoom() == 110
    assert view.font().pointSizeF() > size and view.verticalHeader().defaultSectionSize() > row
    assert view.columnWidth(Q) > width
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.zoom.percent == 110 and again.view.font().pointSizeF() == view.font().pointSizeF()


def test_a_wheel_without_ctrl_scrolls_and_does_not_zoom(window):
    wheel(window.view.viewport(), up=False, modifiers=Qt.KeyboardModifier.NoModifier)
    assert window.zoom.percent == 100


def test_zoom_keys_leave_ctrl_minus_to_delete_rows(window):
    a = window.actions
    assert QKeySequence("Ctrl+-") in a.delete_rows.shortcuts()
    assert QKeySequence("Ctrl+Alt+=") in a.zoom_in.shortcuts() and QKeySequence("Ctrl+Alt+-") in a.zoom_out.shortcuts()
    a.zoom_out.trigger()
    a.zoom_out.trigger()
    assert window.zoom.percent == 80
    a.zoom_reset.trigger()
    assert window.zoom.percent == 100 and QKeySequence("Ctrl+0") in a.zoom_reset.shortcuts()


def test_wrap_text_shows_multi_line_cells_whole_on_taller_rows(window, qtbot):
    window.show()
    m, view = window.model, window.view
    m.setData(m.index(0, Q), "first line\nsecond line\nthird line")
    default = view.verticalHeader().defaultSectionSize()
    assert "\u23ce" in m.index(0, Q).data()  # one line with a return mark
    window.actions.wrap_text.trigger()
    assert m.index(0, Q).data() == "first line\nsecond line\nthird line" and view.wordWrap()
    assert view.rowHeight(0) >= 3 * view.fontMetrics().height() and view.rowHeight(1) == default
    m.setData(m.index(1, Q), "a\nb\nc\nd")  # an edit grows its row
    qtbot.waitUntil(lambda: view.rowHeight(1) > default)
    window.actions.wrap_text.trigger()
    assert view.rowHeight(0) == default and view.rowHeight(1) == default and "\u23ce" in m.index(0, Q).data()


def test_wrap_text_measures_only_the_rows_on_screen(qtbot, dialogs_log):
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    rows = [[f"s{i // 3}", str(i % 3 + 1), "line one\nline two", "answer", ""] for i in range(100_000)]
    w.set_document(make_doc(HEADERS, rows))
    w.actions.wrap_text.trigger()
    shown = len(w.wrap_rows.visible_rows())
    assert 0 < w.wrap_rows.measured <= 2 * shown + 2 < 200
    before = w.wrap_rows.measured
    w.view.verticalScrollBar().setValue(50_000)
    qtbot.waitUntil(lambda: w.wrap_rows.measured > before)
    assert w.wrap_rows.measured - before <= 2 * len(w.wrap_rows.visible_rows()) + 2
    assert w.view.rowHeight(w.view.rowAt(5)) > w.view.verticalHeader().defaultSectionSize()
