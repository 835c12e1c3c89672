"""The window's contract and its main flows: edit → highlight → undo → redo, paste, fix-all,
find-replace, save → reopen, unsaved-changes prompt, keyboard."""

import csv
import sys

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QApplication, QTableView

from evaleditor.gui import MainWindow, dialogs
from tests.gui.conftest import HEADERS, ROWS, make_doc, shown_title

R = Qt.ItemDataRole
Q = 2


def write_csv(path, headers=HEADERS, rows=ROWS):
    with open(path, "w", newline="", encoding="utf-8-sig") as f:
        w = csv.writer(f)
        w.writerow(headers)
        w.writerows(rows)
    return path


def test_contract(qtbot, tmp_path, dialogs_log):
    w = MainWindow()
    qtbot.addWidget(w)
    assert shown_title(w) == "evaleditor"
    path = write_csv(tmp_path / "cases.csv")
    assert w.documents.open_file(path)
    assert isinstance(w.table, QTableView)
    assert isinstance(w.undo_stack, QUndoStack)
    assert shown_title(w) == "cases.csv \u2014 evaleditor"
    model = w.table.model()
    assert model.rowCount() == len(ROWS) and model.columnCount() == len(HEADERS)
    bad = model.index(5, Q)
    for role in (R.BackgroundRole, R.ForegroundRole, R.DecorationRole):
        assert model.data(bad, role) is not None
    assert "question is empty" in model.data(bad, R.ToolTipRole)
    model.setData(model.index(0, Q), "changed")
    assert shown_title(w) == "cases.csv* \u2014 evaleditor" and w.is_modified()
    w.undo_stack.undo()
    assert shown_title(w) == "cases.csv \u2014 evaleditor"


def test_untitled_title(window):
    assert shown_title(window) == "Untitled \u2014 evaleditor"


def test_edit_highlight_undo_redo(window):
    model = window.table.model()
    bad = model.index(5, Q)
    before_bg = model.data(bad, R.BackgroundRole)
    assert before_bg is not None and "empty-question" in model.data(bad, R.ToolTipRole)
    assert model.setData(bad, "Now there is a question")
    assert model.data(bad, R.BackgroundRole) is None and model.data(bad, R.ToolTipRole) is None
    assert window.doc.validator.counts["error"] == 1  # the tool-call error remains
    window.undo_stack.undo()
    assert model.data(bad, R.EditRole) == ""
    assert model.data(bad, R.BackgroundRole).color() == before_bg.color()
    window.undo_stack.redo()
    assert model.data(bad, R.EditRole) == "Now there is a question"
    assert model.data(bad, R.BackgroundRole) is None


def test_paste_tsv_block_with_quoted_multiline_cell_is_one_undo_step(window):
    model = window.model
    window.view.go_to(model.index(4, Q))
    text = 'Q one\t"answer\nwith two lines"\r\nQ "two"\tplain\r\nQ three\tthird\r\n'
    window.ops.paste(text)
    assert window.undo_stack.count() == 1
    assert model.data(model.index(4, Q), R.EditRole) == "Q one"
    assert model.data(model.index(4, 3), R.EditRole) == "answer\nwith two lines"
    assert model.data(model.index(5, Q), R.EditRole) == 'Q "two"'
    assert model.rowCount() == len(ROWS) + 1  # the third row was appended
    assert model.data(model.index(6, Q), R.EditRole) == "Q three"
    window.undo_stack.undo()
    assert model.rowCount() == len(ROWS)
    assert model.data(model.index(4, Q), R.EditRole) == "What is 2+2?"
    assert model.data(model.index(5, Q), R.EditRole) == ""


def test_copy_puts_excel_tsv_on_the_clipboard(window):
    model = window.model
    model.setData(model.index(0, 3), "two\nlines")
    window.view.selectionModel().clear()
    from PySide6.QtCore import QItemSelection, QItemSelectionModel
    window.view.selectionModel().select(QItemSelection(model.index(0, Q), model.index(1, 3)),
                                        QItemSelectionModel.SelectionFlag.Select)
    window.ops.copy()
    assert QApplication.clipboard().text() == 'Weather in Paris?\t"two\nlines"\r\nAnd Lyon?\tCloudy\r\n'


def test_fix_all_is_one_undo_step(window):
    rows = [r[:] for r in ROWS]
    rows[1][4] = '{"name": "weather", "args": {"city": "Lyon"}}'
    window.set_document(make_doc(rows=rows))
    v = window.doc.validator
    assert v.rule_counts["invalid-tool-calls"] == 2
    assert window.ops.fix_all("invalid-tool-calls")
    assert v.rule_counts["invalid-tool-calls"] == 0
    assert window.undo_stack.count() == 1
    window.undo_stack.undo()
    assert v.rule_counts["invalid-tool-calls"] == 2


def test_fix_all_from_the_issues_panel(window):
    panel = window.issues_panel
    panel.refresh()
    at = panel.rule_combo.findData("turn-gap")
    panel.rule_combo.setCurrentIndex(at)
    assert panel.model.rowCount() == 1
    assert panel.fix_button.isEnabled()
    panel.fix_button.click()
    assert window.doc.validator.rule_counts["turn-gap"] == 0
    assert window.undo_stack.count() == 1


def test_find_replace_is_one_undo_step_with_the_count(window, dialogs_log):
    window.show_find()
    dlg = window.find_dialog
    dlg.find_edit.setText("s")
    dlg.whole_cell.setChecked(False)
    dlg.column.setCurrentIndex(dlg.column.findData(window.doc.dataset.columns[0].id))
    dlg.replace_edit.setText("conv")
    found = dlg.update_count()
    assert found.matches == 4 and "4 matches in 4 cells" in dlg.count_label.text()
    assert dlg.replace_all() == 4
    assert ("confirm_replace", (4, 4, None)) in dialogs_log.calls  # None: no row filter
    assert window.undo_stack.count() == 1
    assert [r.cells[0] for r in window.doc.dataset.rows][:4] == ["conv1", "conv1", "conv2", "conv2"]
    window.undo_stack.undo()
    assert [r.cells[0] for r in window.doc.dataset.rows][:4] == ["s1", "s1", "s2", "s2"]


def test_find_replace_regex_and_refusal(window, dialogs_log):
    window.show_find()
    dlg = window.find_dialog
    dlg.regex.setChecked(True)
    dlg.find_edit.setText(r"(\w+) in Paris")
    dlg.replace_edit.setText(r"\1 in Rome")
    dialogs_log.answers["confirm_replace"] = False
    assert dlg.replace_all() == 0 and window.undo_stack.count() == 0
    dialogs_log.answers["confirm_replace"] = True
    assert dlg.replace_all() == 1
    assert window.doc.dataset.rows[0].cells[Q] == "Weather in Rome?"
    dlg.find_edit.setText("(")
    assert dlg.update_count() is None and "invalid regular expression" in dlg.count_label.text()


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_save_then_reopen_gives_the_same_cells(qtbot, tmp_path, dialogs_log, suffix):
    from evaleditor.io.load import load_document

    w = MainWindow()
    qtbot.addWidget(w)
    src = write_csv(tmp_path / "src.csv")
    assert w.documents.open_file(src)
    out = tmp_path / f"out{suffix}"
    w.model.setData(w.model.index(5, Q), "multi\nline, \"quoted\" \u4e2d\u6587")
    assert w.documents.save_as(out)
    assert shown_title(w) == f"out{suffix} \u2014 evaleditor" and not w.is_modified()
    again = load_document(out)
    assert again.dataset.headers() == w.doc.dataset.headers()
    assert [r.cells for r in again.dataset.rows] == [r.cells for r in w.doc.dataset.rows]
    w.model.setData(w.model.index(0, Q), "edited again")
    assert w.documents.save()
    assert load_document(out).dataset.rows[0].cells[Q] == "edited again"


def test_save_warns_when_the_file_changed_on_disk(qtbot, tmp_path, dialogs_log):
    w = MainWindow()
    qtbot.addWidget(w)
    path = write_csv(tmp_path / "cases.csv")
    w.documents.open_file(path)
    w.model.setData(w.model.index(0, Q), "mine")
    write_csv(path, rows=ROWS[:2])  # another program rewrites it
    dialogs_log.answers["ask_file_changed"] = dialogs.CANCEL
    assert not w.documents.save()
    assert "ask_file_changed" in dialogs_log.names() and w.is_modified()
    dialogs_log.answers["ask_file_changed"] = dialogs.KEEP_MINE
    assert w.documents.save() and not w.is_modified()


def test_the_opened_message_with_the_shape_goes_after_an_edit(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow
    w = MainWindow()
    qtbot.addWidget(w)
    w.documents.open_file(write_csv(tmp_path / "g.csv"))
    said = w.statusBar().currentMessage()
    assert said.startswith("Opened g.csv: ") and w.doc.shape.line in said
    w.model.setData(w.model.index(0, 0), "s9")  # the shape may change: the old one is not left saying otherwise
    assert w.statusBar().currentMessage() == ""


def test_unsaved_changes_prompt_on_open_and_close(qtbot, tmp_path, dialogs_log):
    w = MainWindow()
    qtbot.addWidget(w)
    first = write_csv(tmp_path / "first.csv")
    second = write_csv(tmp_path / "second.csv", rows=ROWS[:1])
    w.documents.open_file(first)
    w.model.setData(w.model.index(0, Q), "unsaved")
    dialogs_log.answers["ask_save_changes"] = dialogs.CANCEL
    assert not w.documents.open_file(second)
    assert dialogs_log.names().count("ask_save_changes") == 1
    assert w.doc.path.name == "first.csv" and w.is_modified()
    w.show()
    w.close()
    assert w.isVisible()  # cancelled again
    dialogs_log.answers["ask_save_changes"] = dialogs.SAVE
    assert w.documents.open_file(second)
    assert w.doc.path.name == "second.csv"
    from evaleditor.io.load import load_document
    assert load_document(first).dataset.rows[0].cells[Q] == "unsaved"
    w.model.setData(w.model.index(0, Q), "again")
    dialogs_log.answers["ask_save_changes"] = dialogs.DISCARD
    w.close()
    assert not w.isVisible()


def test_open_error_is_reported_and_keeps_the_document(qtbot, tmp_path, dialogs_log):
    w = MainWindow()
    qtbot.addWidget(w)
    good = write_csv(tmp_path / "good.csv")
    w.documents.open_file(good)
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"\x00\x01 neither a workbook nor text \x02\x00" * 50)  # text under .xlsx opens as text
    assert not w.documents.open_file(bad)
    assert "show_error" in dialogs_log.names()
    assert w.doc.path.name == "good.csv"


def test_background_open_shows_progress_then_the_document(qtbot, tmp_path, dialogs_log):
    w = MainWindow()
    qtbot.addWidget(w)
    path = write_csv(tmp_path / "big.csv", rows=ROWS * 50)
    assert w.documents.open_file(path, background=True)
    assert w.tasks.current is not None and w.model.read_only
    qtbot.waitUntil(lambda: w.tasks.current is None, timeout=10000)
    assert w.model.rowCount() == len(ROWS) * 50 and not w.model.read_only
    assert w.actions.save.isEnabled()


def test_a_file_read_before_the_window_existed_opens_without_a_second_read(qtbot, tmp_path, monkeypatch):
    """`evaleditor FILE` starts reading a big file before Qt is imported (io.load.Preload): the window
    shows that document, read once, in the background as any big file."""
    from evaleditor.io import load

    path = write_csv(tmp_path / "big.csv", rows=ROWS * 50)
    reads, read = [], load.load_document
    monkeypatch.setattr(load, "load_document", lambda *a, **k: reads.append(a) or read(*a, **k))
    preloaded = load.Preload(path)
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path, preloaded=preloaded)
    assert w.tasks.current is not None and w.model.read_only
    qtbot.waitUntil(lambda: w.tasks.current is None, timeout=10000)
    assert w.doc.path == path and w.model.rowCount() == len(ROWS) * 50 and not w.model.read_only
    assert len(reads) == 1


def test_background_task_cancel(qtbot):
    import time

    from evaleditor.core.errors import Cancelled
    from evaleditor.gui.window.loader import BackgroundTask

    def slow(progress, cancel):
        for i in range(1000):
            if cancel():
                raise Cancelled()
            progress(i, 1000)
            time.sleep(0.005)
        return "done"

    task = BackgroundTask(slow)
    with qtbot.waitSignal(task.cancelled, timeout=5000):
        task.start()
        task.cancel()
    assert not task.is_running()


def show_active(window, qtbot):
    with qtbot.waitActive(window):
        window.show()
        window.activateWindow()
    window.view.setFocus()


def test_enter_moves_down_and_f8_goes_to_next_issue(window, qtbot):
    view = window.view
    show_active(window, qtbot)
    view.go_to(window.model.index(0, Q))
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert view.currentIndex().row() == 1 and view.currentIndex().column() == Q
    view.go_to(window.model.index(0, 0))
    qtbot.keyClick(view, Qt.Key.Key_F8)
    assert (view.currentIndex().row(), view.currentIndex().column()) == (2, 4)  # invalid tool calls
    qtbot.keyClick(view, Qt.Key.Key_F8)
    assert (view.currentIndex().row(), view.currentIndex().column()) == (3, 1)  # turn gap
    qtbot.keyClick(view, Qt.Key.Key_F8, Qt.KeyboardModifier.ShiftModifier)
    assert (view.currentIndex().row(), view.currentIndex().column()) == (2, 4)


def test_typing_edits_and_enter_commits_and_moves_down(window, qtbot):
    view = window.view
    show_active(window, qtbot)
    view.go_to(window.model.index(4, 0))  # session_id: a one-line editor
    qtbot.keyClick(view, Qt.Key.Key_S)  # typing starts an edit
    editor = QApplication.focusWidget()
    assert editor is not view
    qtbot.keyClicks(editor, "9")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.doc.dataset.rows[4].cells[0] == "s9")
    assert view.currentIndex().row() == 5
    assert window.undo_stack.count() == 1


def test_none_refcount_stays_stable_across_event_processing(window):
    """PySide6 6.12 on Python < 3.12 leaks a None reference per event until the interpreter aborts."""
    window.show()
    app = QApplication.instance()
    for _ in range(200):
        app.processEvents()
    before = sys.getrefcount(None)
    for _ in range(5000):
        app.processEvents()
    assert abs(sys.getrefcount(None) - before) < 200


def test_issues_model_passes_qtmodeltester_and_filters(window, qtmodeltester):
    panel = window.issues_panel
    panel.refresh()
    qtmodeltester.check(panel.model)
    total = panel.model.rowCount()
    panel.toggles["error"].setChecked(False)
    assert panel.model.rowCount() < total
    assert all(i.severity != "error" for i in panel.model.issues())


def test_clicking_an_issue_selects_its_cell(window):
    panel = window.issues_panel
    panel.refresh()
    row = next(r for r in range(panel.model.rowCount()) if panel.model.issue(r).rule == "empty-question")
    panel._activated(panel.model.index(row, 0))
    cur = window.view.currentIndex()
    assert (cur.row(), cur.column()) == (5, Q)


def test_tab_moves_right_and_input_method_text_starts_an_edit(window, qtbot):
    from PySide6.QtGui import QInputMethodEvent
    view = window.view
    show_active(window, qtbot)
    view.go_to(window.model.index(4, 0))
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert view.currentIndex().column() == 1
    view.go_to(window.model.index(4, 0))
    event = QInputMethodEvent()
    event.setCommitString("\u4f1a\u8bdd")
    QApplication.sendEvent(view, event)
    editor = QApplication.focusWidget()
    assert editor is not view and editor.text() == "\u4f1a\u8bdd"
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.doc.dataset.rows[4].cells[0] == "\u4f1a\u8bdd")


def test_input_method_composition_then_commit_goes_into_the_editor(window, qtbot):
    from PySide6.QtGui import QInputMethodEvent
    view = window.view
    show_active(window, qtbot)
    view.go_to(window.model.index(4, Q))  # question: the multi-line editor
    QApplication.sendEvent(view, QInputMethodEvent("wen", []))
    commit = QInputMethodEvent()
    commit.setCommitString("\u95ee\u9898")
    QApplication.sendEvent(QApplication.focusWidget(), commit)
    editor = view.indexWidget(window.model.index(4, Q))
    assert "\u95ee\u9898" in editor.edit.toPlainText()


def test_background_save_is_read_only_while_it_runs(qtbot, tmp_path, dialogs_log):
    from evaleditor.io.load import load_document
    w = MainWindow()
    qtbot.addWidget(w)
    w.documents.open_file(write_csv(tmp_path / "cases.csv"))
    w.documents.background_rows = 1  # force the threaded path
    w.model.setData(w.model.index(0, Q), "saved in the background")
    assert w.documents.save_as(tmp_path / "out.xlsx")
    assert w.tasks.current is not None and w.model.read_only and not w.model.setData(w.model.index(1, Q), "no")
    qtbot.waitUntil(lambda: w.tasks.current is None, timeout=20000)
    assert not w.is_modified() and not w.model.read_only
    assert shown_title(w) == "out.xlsx \u2014 evaleditor"
    assert load_document(tmp_path / "out.xlsx").dataset.rows[0].cells[Q] == "saved in the background"


def test_opening_another_file_frees_the_first_without_the_cycle_collector(qtbot, tmp_path, dialogs_log):
    """A big document is frozen out of the garbage collector's walks (core/alloc.py), so only reference
    counting can free it: nothing in the window may hold it in a reference cycle."""
    import gc
    import weakref

    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    first = write_csv(tmp_path / "first.csv")
    second = write_csv(tmp_path / "second.csv", rows=ROWS[:1])
    assert w.documents.open_file(first)
    old = weakref.ref(w.doc.dataset), weakref.ref(w.doc.validator)
    w.model.setData(w.model.index(0, Q), "edited")  # an undo step, a journal, a repaint
    w.issues_panel.setFocus()
    QApplication.processEvents()
    gc.disable()
    try:
        dialogs_log.answers["ask_save_changes"] = dialogs.DISCARD
        assert w.documents.open_file(second)
        QApplication.processEvents()
        assert [r() for r in old] == [None, None]
    finally:
        gc.enable()


def test_the_status_bar_names_the_current_cell_after_a_rename(window):
    window.view.setCurrentIndex(window.model.index(2, 0))
    assert window.position_label.text() == "Row 3 \u00b7 session_id"
    window.ops.rename_column_to(window.doc.dataset.columns[0].id, "conversation")
    assert window.position_label.text() == "Row 3 \u00b7 conversation"  # no longer read as session_id
    window.undo_stack.undo()
    assert window.position_label.text() == "Row 3 \u00b7 session_id"


def test_a_finished_save_is_saved_even_if_cancel_came_late(qtbot):
    """A save cannot be cancelled once it has replaced its file: it then reports success, not Cancelled."""
    from evaleditor.gui.window.loader import BackgroundTask

    def replaced_then_cancelled(progress, cancel):
        task.cancel()  # the user's click arrives just after the rename
        return "written"

    task = BackgroundTask(replaced_then_cancelled, done_is_done=True)
    with qtbot.waitSignal(task.succeeded, timeout=5000) as got:
        task.start()
    assert got.args == ["written"]


def test_cancelling_a_background_save_leaves_the_file_and_the_window_as_they_were(qtbot, tmp_path, dialogs_log):
    from evaleditor.io.load import load_document
    path = write_csv(tmp_path / "cases.csv", rows=[[f"s{i // 3}", str(i % 3 + 1), f"q{i}", "a", ""]
                                                   for i in range(30000)])
    before = path.read_bytes()
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path, background=False)
    w.documents.background_rows = 1
    w.model.setData(w.model.index(0, Q), "not to be saved")
    assert w.documents.save() and w.tasks.current is not None
    w.tasks.cancel()  # at once, while it is still writing
    qtbot.waitUntil(lambda: w.tasks.current is None, timeout=30000)
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["cases.csv"]
    assert w.is_modified() and w.doc.dataset.rows[0].cells[Q] == "not to be saved"
    assert w.documents.disk_watch.check() is None  # no "changed by another program" false alarm
    assert w.documents.save(wait=True) and load_document(path).dataset.rows[0].cells[Q] == "not to be saved"


def test_a_refused_background_open_takes_its_progress_down_before_saying_why(qtbot, tmp_path, dialogs_log):
    """The refusal showed while "Opening huge.csv… N s" and its Cancel went on counting behind it."""
    path = tmp_path / "huge.csv"
    path.write_bytes(b"\x00\x01\x02binary\x00" * 1000)
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    seen = []
    dialogs_log.answers["show_error"] = lambda *args, **kwargs: seen.append(
        (w.progress.isVisible(), w.progress._ticker.isActive(), w.model.read_only))
    assert w.documents.open_file(path, background=True)
    qtbot.waitUntil(lambda: w.tasks.current is None, timeout=30000)  # a hang guard
    assert seen == [(False, False, False)] and w.doc is None
