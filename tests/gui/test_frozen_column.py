"""View ▸ Freeze First Column: the first data column stays in view while the table scrolls right."""

from evaleditor.gui import MainWindow
from tests.gui.conftest import make_doc

HEADERS = ["question"] + [f"extra {i}" for i in range(12)]


def wide_window(qtbot, rows=200):
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(900, 600)
    w.show()
    w.set_document(make_doc(HEADERS, [[f"question {r}"] + [f"cell {r}.{c}" for c in range(12)] for r in range(rows)]))
    for col in range(len(HEADERS)):
        w.view.setColumnWidth(col, 160)
    return w


def test_the_first_column_stays_while_the_table_scrolls(qtbot, dialogs_log):
    w = wide_window(qtbot)
    w.actions.freeze.trigger()
    overlay = w.frozen.overlay
    view = w.view
    assert overlay.isVisible() and overlay.selectionModel() is view.selectionModel()
    assert [overlay.isColumnHidden(c) for c in range(3)] == [False, True, True]
    assert overlay.x() == view.verticalHeader().width() + view.frameWidth() and overlay.width() == view.columnWidth(0)
    view.horizontalScrollBar().setValue(view.horizontalScrollBar().maximum())
    view.verticalScrollBar().setValue(100)
    assert view.columnViewportPosition(0) < 0  # the table's own first column scrolled away …
    assert overlay.columnViewportPosition(0) == 0 and overlay.verticalScrollBar().value() == 100  # … not this one
    assert overlay.indexAt(overlay.viewport().rect().topLeft()).row() == view.rowAt(0)


def test_a_cell_reached_by_keyboard_is_not_left_under_the_frozen_column(qtbot, dialogs_log):
    w = wide_window(qtbot)
    w.actions.freeze.trigger()
    view = w.view
    view.horizontalScrollBar().setValue(view.horizontalScrollBar().maximum())
    view.go_to(w.model.index(0, 1))
    assert view.visualRect(view.currentIndex()).left() >= view.columnWidth(0)


def test_row_heights_follow_the_table(qtbot, dialogs_log):
    w = wide_window(qtbot, rows=5)
    w.actions.freeze.trigger()
    w.view.setRowHeight(2, 90)
    assert w.frozen.overlay.rowHeight(2) == 90


def test_unfreezing_removes_it(qtbot, dialogs_log):
    w = wide_window(qtbot, rows=5)
    w.actions.freeze.trigger()
    w.actions.freeze.trigger()
    assert w.frozen.overlay is None and not w.actions.freeze.isChecked()
