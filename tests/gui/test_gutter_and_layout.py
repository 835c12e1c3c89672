"""Layout: the row gutter keeps one width whatever the rows' state and shows both ends of a long
session id; the window fits the screen on first start and no data column hides behind a panel."""

from PySide6.QtWidgets import QApplication

from evaleditor.gui.window.checking import finish_now
from tests.gui.conftest import make_doc
from tests.gui.test_window import show_active

HEADERS = ["session_id", "turn_id", "question", "answer"]
VALID = [[f"conversation-{i // 3:04d}", str(i % 3 + 1), f"question {i}", "an answer"] for i in range(30)]


def gutter_width(w) -> int:
    QApplication.processEvents()
    return w.view.verticalHeader().width()


def test_the_gutter_keeps_its_width_when_rows_become_invalid_and_valid_again(window, qtbot):
    w = window
    w.set_document(make_doc(headers=HEADERS, rows=VALID))
    show_active(w, qtbot)
    before = gutter_width(w)
    for row in (0, 29):
        w.model.setData(w.model.index(row, 2), "")  # an empty question: the row gets an error icon
        finish_now(w.doc)
        assert w.model.headerData(row, 2, 1) is not None  # the icon is there (Qt.Vertical, DecorationRole)
        assert gutter_width(w) == before
    w.undo_stack.undo()
    w.undo_stack.undo()
    assert gutter_width(w) == before


def test_the_gutter_shows_both_ends_of_a_long_session_id(window):
    w = window
    w.set_document(make_doc(headers=HEADERS, rows=VALID))
    text = w.model.headerData(4, 2, 0)  # Qt.Vertical, DisplayRole: row 5 of conversation-0001
    assert text.startswith("5  con") and "\u2026" in text and "0001\u00b72" in text


def test_the_window_fits_the_screen_on_first_start(qtbot, dialogs_log):
    from evaleditor.gui import MainWindow
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    available = w.screen().availableGeometry()
    assert w.frameGeometry().width() <= available.width() and w.frameGeometry().height() <= available.height()
    assert available.contains(w.frameGeometry().topLeft())


def test_no_data_column_hides_behind_a_panel_on_first_start(qtbot, dialogs_log):
    """The window as it starts on a 1600x1000 screen (the offscreen screen is smaller)."""
    from evaleditor.gui import MainWindow
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1560, 940)
    w.show()
    from evaleditor.gui.window.app import open_demo
    assert open_demo(w)
    QApplication.processEvents()
    view = w.view
    right = view.viewport().width()
    for col in range(w.model.columnCount()):
        assert view.columnViewportPosition(col) + view.columnWidth(col) <= right, w.doc.dataset.headers()[col]
