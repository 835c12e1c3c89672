"""Editors, row and column operations, quick fixes, filters, panels and settings, through the window."""

import json

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from evaleditor.gui.table.delegates import TextEditor, ToolCallsEditor
from evaleditor.gui.window import settings
from tests.gui.conftest import ROWS, make_doc, shown_title
from tests.gui.test_window import show_active, write_csv

R = Qt.ItemDataRole
Q, TOOLS = 2, 4


def open_editor(window, qtbot, row, col):
    show_active(window, qtbot)
    index = window.model.index(row, col)
    window.view.go_to(index)
    window.view.edit(index)
    editor = window.view.indexWidget(index)
    assert editor is not None
    return editor


def test_long_text_editor_counts_characters_against_the_target_limit(window, qtbot):
    window.set_document(make_doc(headers=["session_id", "request_id", "query", "answer", "x"],
                                 target="evaluation-set"))
    editor = open_editor(window, qtbot, 0, Q)
    assert isinstance(editor, TextEditor)
    assert editor.count.text().startswith("17 / 2,000")
    editor.edit.setPlainText("x" * 2001)
    assert "too long" in editor.count.text()
    editor.edit.setPlainText("line 1")
    editor.edit.moveCursor(editor.edit.textCursor().MoveOperation.End)
    qtbot.keyClick(editor.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(editor.edit, "line 2")
    qtbot.keyClick(editor.edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.doc.dataset.rows[0].cells[Q] == "line 1\nline 2")
    assert window.view.currentIndex().row() == 1  # Enter finished and moved down


def test_escape_cancels_the_multiline_editor(window, qtbot):
    editor = open_editor(window, qtbot, 0, Q)
    editor.edit.setPlainText("never stored")
    qtbot.keyClick(editor.edit, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: window.view.indexWidget(window.model.index(0, Q)) is None)
    assert window.doc.dataset.rows[0].cells[Q] == ROWS[0][Q]


def test_tool_calls_editor_pretty_prints_checks_and_adds_a_call(window, qtbot):
    editor = open_editor(window, qtbot, 0, TOOLS)
    assert isinstance(editor, ToolCallsEditor)
    assert '\n  {\n    "name": "weather"' in editor.edit.toPlainText()
    assert "1 valid call" in editor.status.text()
    editor.name.setText("search")
    editor.arguments.setText('{"q": "\u5df4\u9ece"}')
    editor.add_button.click()
    assert "2 valid calls" in editor.status.text()
    editor.edit.setPlainText('[{"name": "x", "args": {}}]')
    assert "no \"arguments\"" in editor.status.text() and editor.repair_button.isEnabled()
    editor.repair_button.click()
    assert "1 valid call" in editor.status.text()
    editor.submitted.emit()
    qtbot.waitUntil(lambda: window.doc.dataset.rows[0].cells[TOOLS] == '[{"name": "x", "arguments": {}}]')


def test_tool_calls_editor_fields_show_what_they_are_for(window, qtbot):
    """The add-a-call fields are wide enough to read their placeholders ("tool name", "arguments, e.g. …"),
    and the key hint does not take their room."""
    editor = open_editor(window, qtbot, 0, TOOLS)
    qtbot.waitUntil(editor.name.isVisible)
    for field in (editor.name, editor.arguments):
        assert field.width() >= field.fontMetrics().horizontalAdvance(field.placeholderText())
    assert editor.edit.height() >= editor.edit.fontMetrics().lineSpacing() * 3  # the JSON still has room


def test_unchanged_tool_calls_are_stored_as_they_were(window, qtbot):
    window.doc.dataset.rows[0].cells[TOOLS] = '[ {"name":"weather","arguments":{"city":"Paris"}} ]'
    editor = open_editor(window, qtbot, 0, TOOLS)
    editor.submitted.emit()
    qtbot.waitUntil(lambda: window.view.indexWidget(window.model.index(0, TOOLS)) is None)
    assert window.undo_stack.count() == 0


def test_invalid_tool_calls_are_stored_as_typed(window, qtbot):
    editor = open_editor(window, qtbot, 1, TOOLS)
    editor.edit.setPlainText("[{'name': oops")
    assert "\u2716" in editor.status.text()
    editor.submitted.emit()
    qtbot.waitUntil(lambda: window.doc.dataset.rows[1].cells[TOOLS] == "[{'name': oops")


def test_row_operations_are_undoable(window):
    ops, ds, model = window.ops, window.doc.dataset, window.model
    window.view.go_to(model.index(1, Q))
    ops.insert_row(below=True)
    assert ds.row_count() == 7 and ds.rows[2].cells == [""] * 5
    assert window.view.currentIndex().row() == 2
    window.undo_stack.undo()
    window.view.go_to(model.index(0, Q))
    ops.add_turn()
    assert ds.rows[2].cells[:2] == ["s1", "3"]
    window.undo_stack.undo()
    window.view.go_to(model.index(4, Q))
    ops.duplicate_rows()
    assert ds.rows[5].cells == ROWS[4]
    window.undo_stack.undo()
    ops.move_rows(-1)
    assert ds.rows[3].cells == ROWS[4] and window.view.currentIndex().row() == 3
    window.undo_stack.undo()
    assert [r.cells for r in ds.rows] == ROWS
    window.view.go_to(model.index(5, Q))
    ops.delete_rows()
    assert ds.row_count() == 5
    window.undo_stack.undo()
    ops.new_conversation()
    assert ds.row_count() == 7 and sum(r.cells[:2] == ["s3", "1"] for r in ds.rows) == 1
    assert window.undo_stack.count() == 1


def test_sort_and_renumber_are_explicit_single_steps(window):
    rows = [["s1", "2", "b", "", ""], ["s1", "1", "a", "", ""], ["s2", "5", "c", "", ""]]
    window.set_document(make_doc(rows=rows))
    ds = window.doc.dataset
    window.ops.sort_by_session_and_turn()
    assert [r.cells[2] for r in ds.rows] == ["a", "b", "c"]
    window.ops.renumber_turns()
    assert [r.cells[1] for r in ds.rows] == ["1", "2", "1"]
    assert window.undo_stack.count() == 2
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert [r.cells for r in ds.rows] == rows


def test_columns_add_rename_remove(window, dialogs_log):
    ds = window.doc.dataset
    dialogs_log.answers["ask_text"] = "notes"
    window.ops.add_column(5)
    assert ds.headers()[-1] == "notes" and window.model.columnCount() == 6
    dialogs_log.answers["ask_text"] = "Query"
    window.ops.rename_column(2)
    assert ds.headers()[2] == "Query"
    assert window.model.headerData(2, Qt.Orientation.Horizontal) == "Query\n\u2192 question"
    window.ops.remove_column(5)
    assert window.model.columnCount() == 5
    for _ in range(3):
        window.undo_stack.undo()
    assert ds.headers()[2] == "question" and window.model.columnCount() == 5


def test_banner_renames_a_near_miss_session_header_in_one_click(window, qtbot):
    window.set_document(make_doc(headers=["Session_ID", "turn_id", "question", "answer", "expected_tool_calls"]))
    banner = window.banner
    assert banner.shape_label.text().startswith("SINGLE-TURN")
    strip = banner.strips[0]
    assert not strip.isHidden() and "SINGLE-TURN" in strip.text.text()
    strip.button.click()
    assert window.doc.dataset.headers()[0] == "session_id"
    qtbot.waitUntil(lambda: banner.shape_label.text().startswith("MULTI-TURN"))
    assert strip.isHidden()
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: banner.shape_label.text().startswith("SINGLE-TURN"))


def test_target_change_rechecks_and_updates_the_banner(window):
    window.documents.set_target("evaluation-set")
    assert window.doc.dataset.target.name == "evaluation-set"
    assert window.banner.target_combo.currentData() == "evaluation-set"
    assert settings.last_target() == "evaluation-set"
    assert window.doc.validator.rule_counts["misspelled-turn-column"] == 1  # turn_id wants request_id


def test_cell_context_menu_offers_the_quick_fix(window):
    from evaleditor.gui.window.menus import cell_menu
    window.show()
    rect = window.view.visualRect(window.model.index(2, TOOLS))
    menu = cell_menu(window, rect.center())
    texts = [a.text() for a in menu.actions()]
    assert "Fix: Repair the tool calls" in texts
    next(a for a in menu.actions() if a.text() == "Fix: Repair the tool calls").trigger()
    menu.close()
    assert json.loads(window.doc.dataset.rows[2].cells[TOOLS]) == [{"name": "book", "arguments": {}}]


def test_filter_bar_filters_rows_and_edits_still_work(window):
    bar = window.filter_bar
    bar.errors.setChecked(True)
    assert window.model.rowCount() == 2
    assert "Showing 2 of 6" in bar.summary.text()
    window.model.setData(window.model.index(1, Q), "fixed")  # row 6: empty question
    assert window.model.rowCount() == 2  # the row stays in view while filtered
    bar.clear()
    assert window.model.rowCount() == 6
    bar.set_session("s2")
    assert [window.model.row_id(r) for r in range(window.model.rowCount())] == [r.id for r in window.doc.dataset.rows[2:4]]
    bar.clear()
    bar.text.setText("paris")
    bar._changed_now()
    assert window.model.rowCount() == 1


def test_conversation_panel_shows_replay_order_and_selects_rows(window):
    rows = [["s1", "2", "second", "b", ""], ["s1", "1", "first", "a", ""]]
    window.set_document(make_doc(rows=rows))
    window.view.go_to(window.model.index(0, Q))
    panel = window.conversation_panel
    panel.render()
    text = panel.browser.toPlainText()
    assert text.index("first") < text.index("second")
    panel._clicked(__import__("PySide6.QtCore").QtCore.QUrl(f"row:{window.doc.dataset.rows[1].id}"))
    assert window.view.currentIndex().row() == 1


def test_recent_files_and_geometry_persist(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow
    path = write_csv(tmp_path / "cases.csv")
    w = MainWindow()
    qtbot.addWidget(w)
    w.documents.open_file(path)
    assert settings.recent_files()[0] == str(path.resolve())
    w.show()
    w.resize(760, 560)
    w.close()
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.size().width() == 760


def test_new_from_template(window, dialogs_log):
    assert window.documents.new_from_template("evaluation-set")
    assert window.doc.dataset.headers() == ["session_id", "request_id", "query", "answer"]
    assert shown_title(window) == "Untitled \u2014 evaleditor"
    assert window.doc.dataset.target.name == "evaluation-set"


def test_save_as_keeps_the_headers_unless_asked_for_the_target_headers_then_undoable(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow
    from evaleditor.io.load import load_document
    w = MainWindow()
    qtbot.addWidget(w)
    headers = ["session_id", "turn_id", "Query", "Expected", "tools"]
    src = write_csv(tmp_path / "in.csv", headers=headers)
    w.documents.open_file(src)
    dialogs_log.answers["save_file_name"] = str(tmp_path / "kept.xlsx")
    assert w.documents.save_as()  # Data ▸ Headers When Saving As ▸ Keep As They Are, as convert does
    assert load_document(tmp_path / "kept.xlsx").dataset.headers() == headers == w.doc.dataset.headers()
    w.actions.languages["en"].trigger()
    dialogs_log.answers["save_file_name"] = str(tmp_path / "out.xlsx")
    assert w.documents.save_as()
    assert load_document(tmp_path / "out.xlsx").dataset.headers() == [
        "session_id", "turn_id", "question", "answer", "expected_tool_calls"]
    assert w.doc.dataset.headers()[2] == "question" and not w.is_modified()
    assert w.doc.path.name == "out.xlsx"
    w.undo_stack.undo()  # the renaming is one step
    assert w.doc.dataset.headers() == headers


def test_save_as_after_switching_target_writes_the_headers_convert_writes(qtbot, tmp_path, dialogs_log, capsys):
    """Session_ID is a near miss for ground-truth: single-turn. Switched to evaluation-set (which reads it
    as its session column: the banner's shape line says MULTI-TURN at once) and saved with the target's
    Chinese headers, the window writes the headers `convert --target evaluation-set --headers zh` writes:
    one save plan (core/saving.py)."""
    from evaleditor.cli import main
    from evaleditor.gui import MainWindow
    from evaleditor.io import read_table
    w = MainWindow()
    qtbot.addWidget(w)
    src = write_csv(tmp_path / "messy.csv", headers=["Session_ID", "turn_id", "Question", "answer", "notes"])
    w.documents.open_file(src)
    assert w.doc.shape.mode == "single-turn"
    w.documents.set_target("evaluation-set")
    assert w.doc.shape.line.startswith("MULTI-TURN") and "grouped by Session_ID" in w.banner.shape_label.text()
    w.actions.languages["zh"].trigger()
    dialogs_log.answers["save_file_name"] = str(tmp_path / "window.xlsx")
    assert w.documents.save_as()
    assert main(["convert", str(src), str(tmp_path / "convert.xlsx"), "--target", "evaluation-set",
                 "--headers", "zh"]) == 1  # written: ROWS have a turn gap and an empty question
    assert "reads the file as conversations" in capsys.readouterr().err
    written = read_table(tmp_path / "window.xlsx")
    assert written.headers == read_table(tmp_path / "convert.xlsx").headers == ["会话ID", "请求顺序", "问题", "答案",
                                                                                "notes"]


def test_paste_single_value_fills_the_selection(window):
    from PySide6.QtCore import QItemSelection, QItemSelectionModel
    m = window.model
    window.view.selectionModel().select(QItemSelection(m.index(0, 3), m.index(2, 3)),
                                        QItemSelectionModel.SelectionFlag.ClearAndSelect)
    window.ops.paste("same\r\n")
    assert [r.cells[3] for r in window.doc.dataset.rows[:3]] == ["same"] * 3
    assert window.undo_stack.count() == 1


def test_delete_cells_and_cut(window):
    m = window.model
    window.view.go_to(m.index(0, 3))
    window.ops.cut()
    assert QApplication.clipboard().text() == "Sunny\r\n"
    assert window.doc.dataset.rows[0].cells[3] == ""
    window.view.go_to(m.index(1, 3))
    window.ops.delete_cells()
    assert window.doc.dataset.rows[1].cells[3] == ""
    assert window.undo_stack.count() == 2


def test_header_context_menu_offers_rename_for_a_near_miss(window):
    from evaleditor.gui.window.menus import header_menu
    window.set_document(make_doc(headers=["Session_ID", "turn_id", "question", "answer", "expected_tool_calls"]))
    window.show()
    header = window.view.horizontalHeader()
    menu = header_menu(window, QPoint(header.sectionViewportPosition(0) + 5, 5))
    act = next(a for a in menu.actions() if a.text() == "Rename to session_id")
    act.trigger()
    menu.close()
    assert window.doc.dataset.headers()[0] == "session_id"


def test_demo_opens_the_bundled_sample_untitled(qtbot, dialogs_log):
    from evaleditor.gui import MainWindow
    from evaleditor.gui.window.app import demo_sample, open_demo
    assert demo_sample() is not None
    w = MainWindow()
    qtbot.addWidget(w)
    assert open_demo(w)
    assert w.doc.path is None and "(demo)" in shown_title(w)
    assert w.model.rowCount() > 0


def test_banner_offers_to_choose_the_question_column(window, dialogs_log):
    window.set_document(make_doc(headers=["session_id", "turn_id", "prompt", "answer", "expected_tool_calls"]))
    strip = window.banner.strips[0]
    assert not strip.isHidden() and strip.button.text() == "Choose the question column\u2026"
    dialogs_log.answers["choose_item"] = "prompt"
    strip.button.click()
    assert window.doc.dataset.headers()[2] == "question"
    assert window.doc.validator.rule_counts["missing-question-column"] == 0


def test_conversation_panel_names_the_turn_column_as_the_file_does(window):
    rows = [["s1", "1", "first", "a", ""], ["s1", "4", "second", "b", ""]]
    window.set_document(make_doc(headers=["会话ID", "请求顺序", "问题", "答案", "x"], rows=rows))
    window.view.go_to(window.model.index(1, Q))
    panel = window.conversation_panel
    panel.render()
    text = panel.browser.toPlainText()
    assert "(请求顺序 4)" in text and "turn_id" not in text


def test_a_case_without_a_session_shows_no_turn_number_and_a_target_s_fields_only(window):
    """A row of its own is a single-turn case: "Turn 1 (turn_id 2)" named a number that has no effect.
    Under evaluation-set, which has no expected tool calls, no "Expected tool calls (empty)" either."""
    rows = [["", "2", "alone", "a", ""], ["s1", "1", "first", "b", ""]]
    window.set_document(make_doc(rows=rows))
    panel = window.conversation_panel
    window.view.go_to(window.model.index(0, Q))
    panel.render()
    text = panel.browser.toPlainText().strip()
    assert text.startswith("row 1") and "Turn" not in text and "turn_id" not in text
    assert "Expected tool calls" in text  # ground-truth has the field
    window.view.go_to(window.model.index(1, Q))
    panel.render()
    assert panel.browser.toPlainText().strip().startswith("Turn 1 \u00b7 row 2")  # a conversation's turn: numbered
    window.documents.set_target("evaluation-set")
    panel.render()
    assert "Expected tool calls" not in panel.browser.toPlainText()


@pytest.mark.parametrize("width", [1200, 640])
@pytest.mark.parametrize("typed", ["Order 12345\nsecond line", "x" * 40_000])
def test_the_cell_editor_s_hint_is_never_cut_by_its_count(window, qtbot, typed, width):
    """"Esc: cancel" read "Esc: cance" beside "23 / 32,767 (Excel cell limit)": the count had grown since
    the editor was sized."""
    window.set_document(make_doc(fmt="xlsx"))
    window.resize(width, 800)  # shot50's window, and a narrow one
    editor = open_editor(window, qtbot, 0, Q)
    assert isinstance(editor, TextEditor)
    editor.edit.setPlainText(typed)
    qtbot.waitUntil(lambda: editor.count.text().startswith(f"{len(typed):,} / 32,767"))
    for label in (editor.hint, editor.count):
        assert label.width() >= label.fontMetrics().horizontalAdvance(label.text())


def test_a_new_turn_or_conversation_puts_the_cursor_on_its_question(window):
    """Ctrl+T left the cursor in the column it was pressed in (the session id): the next thing to type
    is the new turn's question."""
    window.view.go_to(window.model.index(1, 0))  # s1's second turn, in the session column
    window.actions.add_turn.trigger()
    cur = window.view.currentIndex()
    assert (cur.row(), cur.column()) == (2, Q) and window.doc.dataset.rows[2].cells[:2] == ["s1", "3"]
    window.view.go_to(window.model.index(0, 1))
    window.actions.new_conversation.trigger()
    cur = window.view.currentIndex()
    assert cur.column() == Q and window.doc.dataset.rows[cur.row()].cells[:2] == ["s3", "1"]
