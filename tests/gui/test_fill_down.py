"""Edit ▸ Fill Down (Ctrl+D) and Fill Right (Ctrl+R), as a spreadsheet user expects from Excel and
LibreOffice Calc: three cells of a column selected and Ctrl+D copies the top one into the two below, as
one undo step; one row selected copies the row above. Duplicate Rows moved to Ctrl+Shift+D."""

from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt

from tests.gui.conftest import ROWS
from tests.gui.test_pending_edits_keys_and_save_as import key
from tests.gui.test_window import show_active

K = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
SESSION, TURN, Q, A, TOOLS = range(5)


def select(w, top, left, bottom, right, *more):
    """Select the rectangle (and `more` rectangles), its top-left cell current."""
    m = w.model
    selection = QItemSelection()
    for t, lf, b, r in [(top, left, bottom, right), *more]:
        selection.select(m.index(t, lf), m.index(b, r))
    sm = w.view.selectionModel()
    sm.setCurrentIndex(m.index(top, left), QItemSelectionModel.SelectionFlag.NoUpdate)
    sm.select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)


def column(w, col):
    return [r.cells[col] for r in w.doc.dataset.rows]


def test_ctrl_d_fills_three_cells_of_a_column_down_as_one_undo_step(window, qtbot):
    w = window
    show_active(w, qtbot)
    select(w, 1, Q, 3, Q)
    key(K.Key_D, CTRL)
    assert w.model.rowCount() == len(ROWS)  # no row duplicated
    assert column(w, Q)[:5] == ["Weather in Paris?", "And Lyon?", "And Lyon?", "And Lyon?", "What is 2+2?"]
    assert column(w, A) == [r[A] for r in ROWS]
    assert w.undo_stack.count() == 1 and w.undo_stack.undoText() == "Fill down"
    assert "3" not in w.statusBar().currentMessage() and "2" in w.statusBar().currentMessage()
    w.undo_stack.undo()
    assert column(w, Q) == [r[Q] for r in ROWS]


def test_fill_down_copies_each_columns_top_cell_and_one_row_copies_the_row_above(window, qtbot):
    w = window
    show_active(w, qtbot)
    select(w, 0, Q, 2, A)
    w.actions.fill_down.trigger()
    assert [r.cells[Q:A + 1] for r in w.doc.dataset.rows[:3]] == [["Weather in Paris?", "Sunny"]] * 3
    select(w, 4, SESSION, 4, TURN)  # one row: from the row above, as Excel does
    w.actions.fill_down.trigger()
    assert w.doc.dataset.rows[4].cells[:2] == ["s2", "3"]
    assert w.undo_stack.count() == 2


def test_fill_down_on_the_first_row_changes_nothing_and_says_why(window, qtbot):
    w = window
    show_active(w, qtbot)
    select(w, 0, Q, 0, Q)
    w.actions.fill_down.trigger()
    assert w.undo_stack.count() == 0
    assert w.statusBar().currentMessage()


def test_fill_down_in_a_filtered_table_fills_only_the_rows_shown(window, qtbot):
    w = window
    show_active(w, qtbot)
    w.filter_bar.text.setText("s2")
    qtbot.waitUntil(lambda: w.model.rowCount() == 2)
    select(w, 0, A, 1, A)
    key(K.Key_D, CTRL)
    w.filter_bar.text.setText("")
    qtbot.waitUntil(lambda: w.model.rowCount() == len(ROWS))
    assert column(w, A) == ["Sunny", "Cloudy", "Done", "Done", "4", "no question"]


def test_ctrl_r_fills_right(window, qtbot):
    w = window
    show_active(w, qtbot)
    select(w, 0, Q, 1, A)
    key(K.Key_R, CTRL)
    assert column(w, A)[:2] == ["Weather in Paris?", "And Lyon?"]
    assert w.undo_stack.undoText() == "Fill right"


def test_duplicate_rows_is_ctrl_shift_d(window, qtbot):
    w = window
    show_active(w, qtbot)
    assert [s.toString() for s in w.actions.duplicate.shortcuts()] == ["Ctrl+Shift+D"]
    assert [s.toString() for s in w.actions.fill_down.shortcuts()] == ["Ctrl+D"]
    w.view.go_to(w.model.index(2, Q))
    key(K.Key_D, CTRL | SHIFT)
    assert w.model.rowCount() == len(ROWS) + 1
    assert w.doc.dataset.rows[3].cells == ROWS[2]


def test_the_edit_menu_says_the_keys_the_readme_table_gives(window):
    """Ctrl+F finds, Ctrl+H replaces, Ctrl++ inserts a row above the selection (Excel's keys); the menu
    shows each action's first key, which is the one the README's key table gives."""
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    a = window.actions
    shown = {name: getattr(a, name).shortcut().toString() for name in
             ("find", "replace", "fill_down", "fill_right", "insert_above", "insert_below", "delete_rows", "duplicate")}
    assert shown == {"find": "Ctrl+F", "replace": "Ctrl+H", "fill_down": "Ctrl+D", "fill_right": "Ctrl+R",
                     "insert_above": "Ctrl++", "insert_below": "Ctrl+=", "delete_rows": "Ctrl+-",
                     "duplicate": "Ctrl+Shift+D"}
    assert (a.find.text(), a.replace.text()) == ("&Find\u2026", "R&eplace\u2026")
    assert "| Ctrl+F, Ctrl+H | find, replace |" in readme
    assert "| Ctrl++ (Ctrl+Shift+=) / Ctrl+= / Ctrl+- | insert a row above / below / delete rows |" in readme
    assert "| Ctrl+D / Ctrl+R | fill down / right" in readme and "| Ctrl+Shift+D | duplicate rows |" in readme


def test_ctrl_plus_inserts_a_row_above_the_selection_as_in_excel(window, qtbot):
    w = window
    show_active(w, qtbot)
    w.view.go_to(w.model.index(2, Q))
    key(K.Key_Plus, CTRL)
    assert w.model.rowCount() == len(ROWS) + 1
    assert w.doc.dataset.rows[2].cells == [""] * len(ROWS[0]) and w.doc.dataset.rows[3].cells == ROWS[2]


def test_ctrl_h_opens_replace_at_the_replacement_once_there_is_a_text_to_find(window, qtbot):
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication
    w = window
    show_active(w, qtbot)
    key(K.Key_F, CTRL)
    dialog = w.find_dialog
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.find_edit)
    dialog.find_edit.setText("Sunny")
    dialog.close()
    show_active(w, qtbot)
    QTest.keyClick(w.view, K.Key_H, CTRL)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.replace_edit)
