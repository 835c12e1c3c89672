"""Sort by clicking a header: one undo step, the sort indicator, and a warning (with the session-and-
turn sort offered) when the sort would scramble a conversation's turns."""

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from evaleditor.gui import dialogs

A = 3  # answer


def click_header(window, column, button=Qt.MouseButton.LeftButton):
    hh = window.view.horizontalHeader()
    QTest.mouseClick(hh.viewport(), button, Qt.KeyboardModifier.NoModifier,
                     QPoint(hh.sectionViewportPosition(column) + 10, hh.height() // 2))


def column(window, col):
    return [r.cells[col] for r in window.doc.dataset.rows]


def test_a_header_click_sorts_as_one_undo_step_with_the_indicator(window, dialogs_log):
    window.show()
    dialogs_log.answers["ask_sort_scrambles"] = dialogs.SORT_ANYWAY
    hh = window.view.horizontalHeader()
    click_header(window, A)
    assert column(window, A) == ["4", "Cloudy", "Done", "no question", "Sunny", "Welcome"]  # numbers first
    assert hh.isSortIndicatorShown() and hh.sortIndicatorSection() == A
    assert hh.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder
    assert window.undo_stack.count() == 1 and "Sort by answer" in window.undo_stack.undoText()
    click_header(window, A)
    assert column(window, A) == ["Welcome", "Sunny", "no question", "Done", "Cloudy", "4"]
    assert hh.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert column(window, A) == ["Sunny", "Cloudy", "Done", "Welcome", "4", "no question"]
    assert not hh.isSortIndicatorShown()


def test_a_sort_that_scrambles_turns_offers_the_session_and_turn_sort(window, dialogs_log):
    window.show()
    click_header(window, A)  # answers: s1's "Sunny" after its "Cloudy"
    assert dialogs_log.names()[-1] == "ask_sort_scrambles"
    assert dialogs_log.calls[-1][1][1] == ["s1"]
    assert column(window, 0) == ["s1", "s1", "s2", "s2", "", ""]  # the session-and-turn sort: nothing moved
    dialogs_log.answers["ask_sort_scrambles"] = dialogs.CANCEL
    click_header(window, A)
    assert column(window, A) == ["Sunny", "Cloudy", "Done", "Welcome", "4", "no question"]
    assert window.undo_stack.count() == 0


def test_a_right_click_on_a_header_does_not_sort(window, dialogs_log):
    window.show()
    click_header(window, A, Qt.MouseButton.RightButton)
    assert window.undo_stack.count() == 0 and "ask_sort_scrambles" not in dialogs_log.names()
