"""Tab never carries typing somewhere the user did not look: inside the tool-call editor it moves
between the editor's own fields, in the multi-line editor opened with F2 it types a tab, Ctrl+Tab is
the way out to the next cell; Tab on the table's last cell stays there instead of wrapping to row 1."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from evaleditor.gui.table.editors import TextEditor, ToolCallsEditor
from tests.gui.conftest import ROWS
from tests.gui.test_pending_edits_keys_and_save_as import EDITING, TOOLS, A, Q, cell, key, type_text
from tests.gui.test_window import show_active

K = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def open_editor(w, row, col):
    w.view.go_to(w.model.index(row, col))
    key(K.Key_F2)
    assert w.view.state() == EDITING
    return w.view.indexWidget(w.view.currentIndex())


def test_tab_in_the_tool_call_editor_moves_to_its_own_fields_and_typing_stays_there(window, qtbot):
    """The reported steps: F2, Ctrl+A, Delete, Tab, get_weather, Tab, arguments, Enter."""
    w = window
    show_active(w, qtbot)
    editor = open_editor(w, 0, TOOLS)
    assert isinstance(editor, ToolCallsEditor)
    key(K.Key_A, CTRL)
    key(K.Key_Delete)
    key(K.Key_Tab)
    assert w.view.state() == EDITING and QApplication.focusWidget() is editor.name
    type_text("get_weather")
    key(K.Key_Tab)
    assert QApplication.focusWidget() is editor.arguments
    type_text('{"location": "Seattle"}')
    key(K.Key_Return)  # adds the call, back in the JSON
    assert w.view.state() == EDITING and QApplication.focusWidget() is editor.edit
    key(K.Key_Return)
    assert cell(w, 0, TOOLS) == '[{"name": "get_weather", "arguments": {"location": "Seattle"}}]'
    assert [r.cells for r in w.doc.dataset.rows][:1] == [ROWS[0][:TOOLS] + [cell(w, 0, TOOLS)]]
    assert [r.cells for r in w.doc.dataset.rows][1:] == ROWS[1:]  # no other cell was typed into


def test_shift_tab_cycles_back_and_ctrl_tab_leaves_the_tool_call_editor(window, qtbot):
    w = window
    show_active(w, qtbot)
    editor = open_editor(w, 1, TOOLS)
    key(K.Key_Backtab, SHIFT)
    assert w.view.state() == EDITING and editor.isAncestorOf(QApplication.focusWidget())
    key(K.Key_Tab)
    assert QApplication.focusWidget() is editor.edit
    type_text("[]")
    key(K.Key_Tab, CTRL)
    assert w.view.state() != EDITING and cell(w, 1, TOOLS) == "[]"
    assert (w.view.currentIndex().row(), w.view.currentIndex().column()) == (2, 0)  # next cell, wrapping the row


def test_tab_in_the_multiline_editor_opened_with_f2_types_a_tab(window, qtbot):
    w = window
    show_active(w, qtbot)
    editor = open_editor(w, 0, Q)
    assert isinstance(editor, TextEditor)
    key(K.Key_Tab)
    type_text("x")
    assert w.view.state() == EDITING and QApplication.focusWidget() is editor.edit
    key(K.Key_Tab, CTRL | SHIFT)
    assert w.view.state() != EDITING and w.view.currentIndex().column() == Q - 1
    assert cell(w, 0, Q) == ROWS[0][Q] + "\tx" and cell(w, 0, A) == ROWS[0][A]


def test_tab_on_the_last_cell_stays_there(window, qtbot):
    w = window
    show_active(w, qtbot)
    last = w.model.index(w.model.rowCount() - 1, w.model.columnCount() - 1)
    w.view.go_to(last)
    key(K.Key_Tab)
    assert w.view.currentIndex() == last
    type_text("[]")
    key(K.Key_Tab)  # finishing an edit with Tab on the last cell stays too
    assert w.view.currentIndex() == last and w.view.state() != EDITING
    assert cell(w, 0, 0) == ROWS[0][0] and cell(w, w.model.rowCount() - 1, TOOLS) == "[]"


def test_shift_tab_on_the_first_cell_stays_there(window, qtbot):
    w = window
    show_active(w, qtbot)
    first = w.model.index(0, 0)
    w.view.go_to(first)
    key(K.Key_Backtab, SHIFT)
    assert w.view.currentIndex() == first
