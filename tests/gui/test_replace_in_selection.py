"""Replace All with several cells selected replaces in the selection only, as Excel and LibreOffice Calc
do: the dialog's "In selection only" box is checked when it opens over a multi-cell selection (and off,
disabled, over a single cell); one undo step; the count says so, and the status bar how many."""

from evaleditor.core.search import FindQuery, replace_all_command
from tests.gui.conftest import ROWS, make_doc
from tests.gui.test_fill_down import column, select

SESSION, TURN, Q, A, TOOLS = range(5)


def test_replace_all_over_a_selection_of_a_column_changes_only_those_cells(window, qtbot):
    w = window
    select(w, 0, SESSION, 1, SESSION)  # s1, s1 of the first conversation
    dlg = w.show_find() or w.find_dialog
    assert dlg.in_selection.isChecked() and dlg.in_selection.isEnabled()
    dlg.find_edit.setText("s")
    dlg.replace_edit.setText("conv")
    assert dlg.replace_all() == 2
    assert column(w, SESSION) == ["conv1", "conv1", "s2", "s2", "", ""]
    assert column(w, Q) == [r[Q] for r in ROWS]  # "Weather in Paris?" keeps its s
    assert w.undo_stack.count() == 1
    assert "Replaced 2" in w.statusBar().currentMessage()
    w.undo_stack.undo()
    assert column(w, SESSION) == [r[SESSION] for r in ROWS]


def test_the_count_says_it_is_the_selections(window, qtbot):
    w = window
    select(w, 0, Q, 2, A)
    w.show_find()
    dlg = w.find_dialog
    dlg.find_edit.setText("n")
    found = dlg.update_count()
    # "Weather in Paris?" 1, "Sunny" 2, "And Lyon?" 2, "Cloudy" 0, "Book a train" 1, "Done" 1
    assert (found.matches, len(found.cells)) == (7, 5)
    assert dlg.count_label.text() == "7 matches in 5 cells in the selection"


def test_unchecked_or_a_single_cell_selected_replaces_everywhere(window, qtbot):
    w = window
    select(w, 0, SESSION, 1, SESSION)
    w.show_find()
    dlg = w.find_dialog
    dlg.in_selection.setChecked(False)
    dlg.find_edit.setText("s")
    dlg.replace_edit.setText("S")
    everywhere = replace_all_command(w.doc.dataset, FindQuery("s"), "S")[1]
    assert dlg.replace_all() == everywhere
    w.undo_stack.undo()
    w.view.go_to(w.model.index(2, Q))  # one cell: the box goes off, and cannot be ticked
    assert not dlg.in_selection.isChecked() and not dlg.in_selection.isEnabled()
    w.show_find()
    assert not dlg.in_selection.isChecked()
    assert dlg.replace_all() == everywhere


def test_changing_the_selection_while_the_dialog_is_open_counts_the_new_one(window, qtbot):
    w = window
    w.set_document(make_doc(rows=[["s1", "1", "x", "x", ""], ["s1", "2", "x", "x", ""], ["s1", "3", "x", "x", ""]]))
    select(w, 0, Q, 1, Q)
    w.show_find()
    dlg = w.find_dialog
    dlg.find_edit.setText("x")
    assert dlg.update_count().matches == 2
    select(w, 0, Q, 2, A)
    assert dlg.in_selection.isChecked()
    assert dlg.update_count().matches == 6
    assert dlg.replace_all() == 6 and column(w, TOOLS) == ["", "", ""]
