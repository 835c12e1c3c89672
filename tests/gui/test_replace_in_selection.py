"""Replace All with several cells selected replaces in the selection only, as Excel and LibreOffice Calc
do: the dialog's "In selection only" box is checked when it opens over a multi-cell selection (and off,
disabled, over a single cell); one undo step; the count says so, and the status bar how many."""

from evaleditor.core.search import FindQuery, RowFilter, replace_all_command
from evaleditor.gui import dialogs
from tests.gui.conftest import ROWS, make_doc
from tests.gui.test_fill_down import column, select

SESSION, TURN, Q, A, TOOLS = range(5)


def find(w, text):
    """The Find dialog opened over the selection as it is, looking for `text`."""
    w.show_find()
    dlg = w.find_dialog
    dlg.find_edit.setText(text)
    return dlg


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
    dlg = find(w, "n")
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
    dlg = find(w, "x")
    assert dlg.update_count().matches == 2
    select(w, 0, Q, 2, A)
    assert dlg.in_selection.isChecked()
    assert dlg.update_count().matches == 6
    assert dlg.replace_all() == 6 and column(w, TOOLS) == ["", "", ""]


# ----- the selection the dialog remembers goes with the rows shown: Qt clears a selection silently on a reset -----
def test_a_filter_that_hides_the_selection_leaves_its_cells_alone(window, qtbot):
    """The current cell is filtered out, so nothing is selected after the filter (no selectionChanged):
    Replace All replaces in the rows shown, not in the hidden, formerly selected, cells."""
    w = window
    w.set_document(make_doc(rows=[["s1", "1", "x", "x", ""], ["s1", "2", "x", "x", ""],
                                  ["s2", "1", "x", "x", ""], ["s2", "2", "x", "x", ""]]))
    select(w, 0, Q, 1, A)
    dlg = find(w, "x")
    dlg.replace_edit.setText("y")
    assert dlg.update_count().matches == 4
    w.navigation.apply_filter(RowFilter(session="s2"))
    assert not dlg.in_selection.isChecked() and not dlg.in_selection.isEnabled()
    assert dlg.replace_all() == 4  # the two rows shown, both columns
    assert column(w, Q) == ["x", "x", "y", "y"] and column(w, A) == ["x", "x", "y", "y"]


def test_a_selection_made_after_a_filter_is_the_one_replaced_in(window, qtbot):
    w = window
    w.set_document(make_doc(rows=[["s1", "1", "x", "x", ""], ["s2", "1", "x", "x", ""], ["s2", "2", "x", "x", ""]]))
    select(w, 0, Q, 0, A)
    dlg = find(w, "x")
    w.navigation.apply_filter(RowFilter(session="s2"))
    select(w, 0, Q, 1, Q)  # the two s2 rows' questions
    assert dlg.in_selection.isEnabled()
    dlg.in_selection.setChecked(True)  # the filter left no cell selected, which unchecked it
    assert dlg.replace_all() == 2
    assert column(w, Q) == ["x", "", ""] and column(w, A) == ["x", "x", "x"]


def test_opening_another_file_forgets_the_old_files_selection(window, qtbot):
    """A file with no rows gets no current cell (no selectionChanged): the old file's row ids are not
    searched in it (they raised KeyError)."""
    w = window
    select(w, 0, SESSION, 3, A)
    dlg = find(w, "s")
    dlg.replace_edit.setText("S")
    assert dlg.update_count().matches > 0
    w.set_document(make_doc(rows=[]))
    assert not dlg.in_selection.isChecked()
    assert dlg.replace_all() == 0
    assert dlg.update_count().matches == 0


def test_the_scope_drops_rows_the_file_no_longer_has(window, qtbot):
    """A row removed under the remembered selection is not searched (nor looked up: KeyError)."""
    w = window
    select(w, 0, Q, 2, Q)
    dlg = find(w, "?")
    dlg.replace_edit.setText("!")
    assert dlg.update_count().matches == 2
    w.doc.dataset.remove_block(1, 1)  # "And Lyon?"
    assert dlg.replace_all() == 1
    assert column(w, Q)[0] == "Weather in Paris!"


def test_after_a_sort_the_selected_cells_are_the_ones_searched(window, dialogs_log):
    """A sort moves the selection with its cells (layoutChanged): the scope is read again, from there."""
    w = window
    select(w, 0, Q, 1, Q)  # "Weather in Paris?", "And Lyon?"
    dlg = find(w, "?")
    dlg.replace_edit.setText("!")
    dlg.scope.cells()
    dialogs_log.answers["ask_sort_scrambles"] = dialogs.SORT_ANYWAY
    w.header_sort.sort(w.doc.dataset.columns[Q].id, descending=True)
    assert w.find_dialog.in_selection.isChecked()
    assert dlg.replace_all() == 2
    assert sorted(column(w, Q)) == sorted(["Weather in Paris!", "And Lyon!", "Book a train", "Thanks",
                                           "What is 2+2?", ""])


def test_overlapping_and_separate_ranges_are_searched_once_each(window, qtbot):
    w = window
    select(w, 0, SESSION, 1, TURN, (1, TURN, 3, TURN), (0, SESSION, 0, SESSION))
    dlg = find(w, "s")
    dlg.replace_edit.setText("S")
    assert dlg.update_count().cells == [(w.model.row_id(0), w.doc.dataset.columns[SESSION].id),
                                        (w.model.row_id(1), w.doc.dataset.columns[SESSION].id)]
    assert dlg.replace_all() == 2 and column(w, SESSION)[:3] == ["S1", "S1", "s2"]
