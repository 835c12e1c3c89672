"""Find next, Find previous and Replace with "In selection only", as in Excel and Calc: they walk the
matches inside the selection the find started with, going round inside it; the selection stays as it
is (the current cell moves inside it), and a Replace never changes a cell outside it."""

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtTest import QTest

from tests.gui.conftest import ROWS
from tests.gui.test_fill_down import column, select

SESSION, TURN, Q, A, TOOLS = range(5)


def here(w) -> tuple[int, int]:
    cur = w.view.currentIndex()
    return cur.row(), cur.column()


def selected(w) -> set[tuple[int, int]]:
    return {(i.row(), i.column()) for i in w.view.selectionModel().selectedIndexes()}


def block(top, left, bottom, right) -> set[tuple[int, int]]:
    return {(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)}


@pytest.fixture
def finding(window):
    """Questions and answers of the first three rows selected, Find open on "n": in the selection
    "Weather in Paris?", "Sunny", "And Lyon?", "Book a train", "Done" ("Cloudy" has none); outside it
    "Thanks" and "no question" match too."""
    select(window, 0, Q, 2, A)
    window.show_find()
    dlg = window.find_dialog
    assert dlg.in_selection.isChecked()
    dlg.find_edit.setText("n")
    return dlg


def test_find_next_walks_the_selections_matches_round_inside_it_and_keeps_it(window, finding):
    spots = []
    for _ in range(5):
        assert finding.find_next()
        spots.append(here(window))
    assert spots == [(0, A), (1, Q), (2, Q), (2, A), (0, Q)]  # round to the selection's first, not to "Thanks"
    assert selected(window) == block(0, Q, 2, A)  # still the selection searched
    assert finding.in_selection.isChecked() and finding.in_selection.isEnabled()
    assert finding.update_count().matches == 7  # the count is still the selection's


def test_find_previous_walks_them_backwards(window, finding):
    spots = []
    for _ in range(3):
        assert finding.find_previous()
        spots.append(here(window))
    assert spots == [(2, A), (2, Q), (1, Q)]  # from the first cell: round to the selection's last
    assert selected(window) == block(0, Q, 2, A)


def test_replace_replaces_in_the_selection_only(window, finding):
    finding.replace_edit.setText("N")
    for _ in range(8):  # more presses than matches in the selection
        finding.replace_current()
    assert column(window, Q)[:3] == ["Weather iN Paris?", "ANd LyoN?", "Book a traiN"]
    assert column(window, A)[:3] == ["SuNNy", "Cloudy", "DoNe"]
    assert column(window, Q)[3:] == [r[Q] for r in ROWS[3:]] and column(window, A)[3:] == [r[A] for r in ROWS[3:]]
    assert selected(window) == block(0, Q, 2, A)


def test_replace_leaves_a_current_cell_outside_the_selection_alone(window):
    """The current cell may lie outside the selection (Ctrl+click): Replace goes to the selection's next
    match instead of replacing it."""
    select(window, 0, Q, 1, Q)
    window.view.selectionModel().setCurrentIndex(window.model.index(3, Q), QItemSelectionModel.SelectionFlag.NoUpdate)
    window.show_find()
    dlg = window.find_dialog
    assert dlg.in_selection.isChecked()
    dlg.find_edit.setText("n")
    dlg.replace_edit.setText("N")
    dlg.replace_current()
    assert column(window, Q)[3] == "Thanks"  # outside: left alone
    assert here(window) == (0, Q)  # the selection's next match after row 3 is round at its top
    dlg.replace_current()
    assert column(window, Q)[:4] == ["Weather iN Paris?", "And Lyon?", "Book a train", "Thanks"]
    assert here(window) == (1, Q)


def test_unchecked_find_next_goes_everywhere_and_selects_the_cell_found(window, finding):
    finding.in_selection.setChecked(False)
    spots = []
    for _ in range(7):
        assert finding.find_next()
        spots.append(here(window))
    assert spots == [(0, A), (0, TOOLS), (1, Q), (2, Q), (2, A), (2, TOOLS), (3, Q)]  # the tool "name"s too
    assert selected(window) == {(3, Q)}
    assert not finding.in_selection.isEnabled()  # one cell selected now


def test_keys_find_next_and_previous(window, qtbot, finding):
    with qtbot.waitActive(finding):
        finding.activateWindow()
    QTest.keyClick(finding.find_edit, Qt.Key.Key_Return)
    assert here(window) == (0, A)
    QTest.keyClick(finding.find_edit, Qt.Key.Key_F3)
    assert here(window) == (1, Q)
    QTest.keyClick(finding.find_edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert here(window) == (0, A)
    QTest.keyClick(finding.find_edit, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert here(window) == (0, Q)
    assert selected(window) == block(0, Q, 2, A)


def test_the_cell_found_stands_out_inside_the_selection(window, finding):
    """Drawn as Excel and Calc draw the active cell: not in the selection's colour, framed in it; the
    other selected cells keep the selection's colour."""
    w = window
    w.show()
    assert finding.find_next() and here(w) == (0, A)  # "Sunny"

    def colour_at_the_right_of(row, col):  # where the text does not reach
        rect = w.view.visualRect(w.model.index(row, col))
        image = w.view.viewport().grab().toImage()
        return image.pixelColor(rect.right() - 6, rect.center().y())

    highlight = w.view.palette().highlight().color()
    assert colour_at_the_right_of(1, A) == highlight  # "Cloudy": selected
    assert colour_at_the_right_of(0, A) != highlight  # the cell found
    assert colour_at_the_right_of(3, A) != highlight  # not selected
