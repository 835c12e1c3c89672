"""What the user did not ask for does not happen: the unsaved-changes question comes before the Open
dialog; a refused Save As leaves the document, its undo stack and its issues exactly as they were;
an action that is not a text field (the banner's Rename, its Fix, the target) gives the keyboard back
to the table."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from evaleditor.gui import dialogs
from tests.gui.conftest import ROWS, make_doc
from tests.gui.test_window import show_active, write_csv

NEAR_MISS = ["Session_ID", "turn_id", "Query", "answer", "expected_tool_calls"]


def test_the_unsaved_changes_question_comes_before_the_open_dialog(window, dialogs_log):
    window.model.setData(window.model.index(0, 2), "edited")
    dialogs_log.answers["ask_save_changes"] = dialogs.CANCEL
    window.documents.open_dialog()
    assert dialogs_log.names() == ["ask_save_changes"]  # cancelled: no file dialog at all
    dialogs_log.answers["ask_save_changes"] = dialogs.DISCARD
    window.documents.open_dialog()
    assert dialogs_log.names()[1:] == ["ask_save_changes", "open_file_name"]  # asked once, then the dialog
    assert window.is_modified()  # the Open dialog was cancelled: nothing is dropped


def test_the_open_dialog_after_discard_opens_without_asking_again(window, dialogs_log, tmp_path):
    window.model.setData(window.model.index(0, 2), "edited")
    dialogs_log.answers["open_file_name"] = str(write_csv(tmp_path / "other.csv"))
    window.documents.open_dialog()
    assert dialogs_log.names() == ["ask_save_changes", "open_file_name"]
    assert window.doc.path == tmp_path / "other.csv" and not window.is_modified()


def state(w):
    stack = w.undo_stack
    return {
        "headers": w.doc.dataset.headers(),
        "rows": [r.cells for r in w.doc.dataset.rows],
        "undo": (stack.count(), stack.index(), stack.cleanIndex(), [stack.text(i) for i in range(stack.count())]),
        "issues": sorted((i.rule, i.row_id or -1, i.column_id or -1, i.message) for i in w.doc.validator.all_issues()),
        "workbook": w.doc.validator.is_workbook(),
        "format": (w.doc.path, w.doc.source_format),
    }


def test_a_refused_save_as_leaves_document_undo_stack_and_issues_as_they_were(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow
    rows = [list(r) for r in ROWS]
    rows[1][2] = "x" * 40_000  # over Excel's 32,767 characters
    rows[2][2] = "control \x01 character"
    src = write_csv(tmp_path / "cases.csv", headers=NEAR_MISS, rows=rows)
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(src)
    w.model.setData(w.model.index(0, 3), "an edit")
    before = state(w)
    assert not w.documents.save_as(tmp_path / "cases.xlsx", "xlsx")
    assert not (tmp_path / "cases.xlsx").exists()
    assert state(w) == before
    (title, message), = [args for name, args in dialogs_log.calls if name == "show_error"]
    assert "2 cells cannot be stored in a workbook" in message  # how many, not only the first


def test_banner_rename_gives_the_keyboard_back_to_the_table(window, qtbot):
    w = window
    w.set_document(make_doc(headers=NEAR_MISS))
    show_active(w, qtbot)
    w.view.go_to(w.model.index(0, 2))
    w.refresh_banner()
    strip = next(s for s in w.banner.strips if s.isVisible())
    QTest.mouseClick(strip.button, Qt.MouseButton.LeftButton)
    assert w.doc.dataset.headers()[0] == "session_id"
    assert w.view.hasFocus()
    QTest.keyClick(w.view, Qt.Key.Key_Down)
    assert w.view.currentIndex().row() == 1  # arrow keys move in the table again


def test_choosing_the_target_gives_the_keyboard_back_to_the_table(window, qtbot):
    w = window
    show_active(w, qtbot)
    w.banner.target_combo.setFocus()
    w.banner.targetChosen.emit("evaluation-set")
    assert w.doc.dataset.target.name == "evaluation-set" and w.view.hasFocus()
