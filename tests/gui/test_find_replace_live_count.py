"""Find and replace: the live count runs on the event loop a slice at a time (typing stays
responsive on a big file) and ends exact, starting again when the text, the data or the filter changes;
Replace all says what a row filter leaves alone; a bad replacement is said instead of the question; the
keyboard goes back to the table when the dialog closes."""

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from evaleditor.core.search import FindQuery, RowFilter, find_cells
from evaleditor.gui import dialogs
from evaleditor.gui.dialogs import confirm_replace as real_confirm_replace  # before conftest replaces it
from evaleditor.gui.dialogs import match_count
from tests.gui.conftest import make_doc

Q = 2  # the question column


def big_doc(n=2000):
    rows = [[f"s{i // 4}", str(i % 4 + 1), f"question {i} about a refund" if i % 3 else f"question {i}",
             "refund, refund" if i % 5 == 0 else "ok", ""] for i in range(n)]
    return make_doc(rows=rows)


@pytest.fixture
def sliced(monkeypatch):
    """Tiny slices (one chunk of 50 cells each), so that a 2,000-row count takes many turns of the loop."""
    monkeypatch.setattr(match_count, "SLICE_SECONDS", 0.0)
    monkeypatch.setattr(match_count, "CHUNK_CELLS", 50)


@pytest.fixture
def big(window, sliced):
    window.set_document(big_doc())
    window.show_find()
    return window


def expected(window, text, rows=None):
    found = find_cells(window.doc.dataset, FindQuery(text), rows)
    return match_count.count_text(found.matches, len(found.cells))


def counted(dlg) -> bool:
    return "Counting" not in dlg.count_label.text() and "cell" in dlg.count_label.text()


# ----- 1. the live count ------------------------------------------------------------------------------------
def test_the_count_of_a_big_file_goes_on_between_events_and_ends_exact(big, qtbot):
    dlg = big.find_dialog
    dlg.find_edit.setText("refund")
    seen_by_other_events = []
    QTimer.singleShot(0, lambda: seen_by_other_events.append(dlg.count_label.text()))
    dlg.start_count()  # what the pause after typing starts
    first = dlg.count_label.text()
    assert first.startswith("Counting\u2026") and first.endswith("so far")
    qtbot.waitUntil(lambda: counted(dlg), timeout=10000)
    # an event queued behind the count was handled while it was still counting: the window did not block
    assert seen_by_other_events and seen_by_other_events[0].startswith("Counting\u2026")
    assert dlg.count_label.text() == expected(big, "refund")


def test_a_small_file_shows_the_total_at_once(window, qtbot):
    window.show_find()
    dlg = window.find_dialog
    dlg.find_edit.setText("s")
    dlg.column.setCurrentIndex(dlg.column.findData(window.doc.dataset.columns[0].id))
    qtbot.waitUntil(lambda: bool(dlg.count_label.text().strip()), timeout=3000)  # the first thing it says …
    assert dlg.count_label.text() == "4 matches in 4 cells"  # … is the total, with no "Counting…"


def test_typing_on_during_a_count_starts_it_again_for_the_new_text(big, qtbot):
    dlg = big.find_dialog
    dlg.find_edit.setText("refund")
    dlg.start_count()
    assert dlg.count_label.text().startswith("Counting")
    QTest.keyClicks(dlg.find_edit, ", ref")  # "refund, ref"
    qtbot.waitUntil(lambda: counted(dlg), timeout=10000)
    assert dlg.count_label.text() == expected(big, "refund, ref")
    assert expected(big, "refund, ref") != expected(big, "refund")


def test_an_edit_during_a_count_starts_it_again(big, qtbot):
    dlg = big.find_dialog
    dlg.find_edit.setText("refund")
    dlg.start_count()
    assert dlg.count_label.text().startswith("Counting")
    model = big.model
    model.setData(model.index(0, Q), "refund refund refund")  # a row already counted
    qtbot.waitUntil(lambda: counted(dlg), timeout=10000)
    assert dlg.count_label.text() == expected(big, "refund")
    assert dlg.update_count().matches == find_cells(big.doc.dataset, FindQuery("refund")).matches


def test_a_finished_count_follows_an_edit_an_undo_and_a_filter(big, qtbot):
    dlg = big.find_dialog
    dlg.find_edit.setText("refund")
    dlg.start_count()
    qtbot.waitUntil(lambda: counted(dlg), timeout=10000)
    before = dlg.count_label.text()
    model = big.model
    model.setData(model.index(0, Q), "refund refund refund refund refund")
    qtbot.waitUntil(lambda: counted(dlg) and dlg.count_label.text() != before, timeout=10000)
    assert dlg.count_label.text() == expected(big, "refund")
    big.undo_stack.undo()
    qtbot.waitUntil(lambda: counted(dlg) and dlg.count_label.text() == before, timeout=10000)
    big.filter_bar.text.setText("question 1")
    qtbot.waitUntil(lambda: "filtered rows" in dlg.count_label.text(), timeout=10000)


def test_a_filter_during_a_count_starts_it_again_and_counts_the_hidden_rows_too(big, qtbot):
    dlg = big.find_dialog
    dlg.find_edit.setText("refund")
    dlg.start_count()
    big.navigation.apply_filter(RowFilter(text="s1"))  # s1, s10…s19, s100…
    rows = big.model.visible_row_ids()
    qtbot.waitUntil(lambda: "hidden rows" in dlg.count_label.text(), timeout=10000)
    hidden = find_cells(big.doc.dataset, FindQuery("refund")).matches - find_cells(
        big.doc.dataset, FindQuery("refund"), rows).matches
    assert dlg.count_label.text() == (f"{expected(big, 'refund', rows)} in the filtered rows; "
                                      f"{hidden:,} matches in hidden rows")


def test_find_next_walks_the_visible_matches_and_counts(window, qtbot):
    window.show_find()
    dlg = window.find_dialog
    dlg.find_edit.setText("?")
    view = window.view
    spots = []
    for _ in range(4):
        assert dlg.find_next()
        spots.append((view.currentIndex().row(), view.currentIndex().column()))
    assert spots == [(0, Q), (1, Q), (4, Q), (0, Q)]  # round to the first
    assert dlg.count_label.text() == "3 matches in 3 cells"
    window.navigation.apply_filter(RowFilter(session="s1"))
    view.go_to(window.model.index(0, Q))
    assert dlg.find_next() and view.currentIndex().row() == 1
    assert dlg.find_next() and view.currentIndex().row() == 0  # "What is 2+2?" is hidden
    dlg.find_edit.setText("no such text")
    assert not dlg.find_next() and view.currentIndex().row() == 0
    assert dlg.count_label.text() == "0 matches in 0 cells in the filtered rows"


# ----- 2. Replace all with a filter ---------------------------------------------------------------------------
def test_replace_all_with_a_filter_says_how_many_matches_the_hidden_rows_keep(window, dialogs_log):
    window.navigation.apply_filter(RowFilter(session="s1"))  # rows 0 and 1; "What is 2+2?" (row 4) is hidden
    window.show_find()
    dlg = window.find_dialog
    dlg.find_edit.setText("?")
    dlg.replace_edit.setText("!")
    assert dlg.replace_all() == 2
    assert ("confirm_replace", (2, 2, 1)) in dialogs_log.calls
    questions = [r.cells[Q] for r in window.doc.dataset.rows]
    assert questions[:2] == ["Weather in Paris!", "And Lyon!"] and questions[4] == "What is 2+2?"
    assert window.undo_stack.count() == 1


def test_the_confirmation_names_the_filtered_rows_and_what_is_left(monkeypatch):
    asked = []

    class Box:
        StandardButton = QMessageBox.StandardButton

        @staticmethod
        def question(parent, title, text):
            asked.append(text)
            return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(dialogs, "QMessageBox", Box)
    assert real_confirm_replace(None, 4, 4, 12)
    assert asked[-1] == ("Replace 4 matches in 4 cells in the filtered rows?\n12 matches in the rows hidden by "
                         "the filter are left as they are.\nThis is one step in Undo.")
    real_confirm_replace(None, 1, 1, 1)
    assert "Replace 1 match in 1 cell in the filtered rows?\n1 match in the rows hidden by the filter is left" \
        in asked[-1]
    real_confirm_replace(None, 2, 1, 0)
    assert "The rows hidden by the filter have no matches." in asked[-1]
    real_confirm_replace(None, 4, 4)
    assert asked[-1] == "Replace 4 matches in 4 cells?\nThis is one step in Undo."


# ----- 3. a bad replacement -----------------------------------------------------------------------------------
def test_a_bad_group_reference_is_said_instead_of_asking(window, dialogs_log):
    window.show_find()
    dlg = window.find_dialog
    dlg.regex.setChecked(True)
    dlg.find_edit.setText(r"(\w+) in Paris")
    dlg.replace_edit.setText(r"\3 in Rome")
    before = [list(r.cells) for r in window.doc.dataset.rows]
    assert dlg.replace_all() == 0
    assert "confirm_replace" not in dialogs_log.names()  # not asked, then refused
    assert "invalid replacement" in dlg.count_label.text() and "group reference 3" in dlg.count_label.text()
    assert [list(r.cells) for r in window.doc.dataset.rows] == before and window.undo_stack.count() == 0
    dlg.replace_edit.setText(r"\1 in Rome")
    assert dlg.replace_all() == 1 and "confirm_replace" in dialogs_log.names()


def test_replace_with_a_bad_group_reference_says_so(window):
    window.show_find()
    dlg = window.find_dialog
    dlg.regex.setChecked(True)
    dlg.find_edit.setText(r"(\w+) in Paris")
    dlg.replace_edit.setText(r"\3")
    window.view.go_to(window.model.index(0, Q))
    dlg.replace_current()  # raised re.error before
    assert "invalid replacement" in dlg.count_label.text()
    assert window.doc.dataset.rows[0].cells[Q] == "Weather in Paris?"


# ----- 4. the focus after closing -----------------------------------------------------------------------------
@pytest.fixture
def shown(window, qtbot):
    with qtbot.waitActive(window):
        window.show()
        window.activateWindow()
    window.view.setFocus()
    return window


@pytest.mark.parametrize("how", ["escape", "close button"])
def test_closing_find_gives_the_keyboard_back_to_the_table(shown, qtbot, dialogs_log, how):
    w = shown
    w.view.go_to(w.model.index(3, 1))
    w.show_find()
    dlg = w.find_dialog
    qtbot.waitUntil(lambda: dlg.find_edit.hasFocus(), timeout=3000)
    QTest.keyClicks(dlg.find_edit, "Lyon")
    QTest.keyClick(dlg.find_edit, Qt.Key.Key_Return)  # Find next: the cell "And Lyon?"
    assert (w.view.currentIndex().row(), w.view.currentIndex().column()) == (1, Q)
    if how == "escape":
        QTest.keyClick(dlg.find_edit, Qt.Key.Key_Escape)
    else:
        dlg.close_button.click()
    assert not dlg.isVisible()
    qtbot.waitUntil(lambda: w.view.hasFocus(), timeout=3000)
    assert QApplication.activeWindow() is w
    assert (w.view.currentIndex().row(), w.view.currentIndex().column()) == (1, Q)  # the cell found
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert "save_file_name" in dialogs_log.names()  # Ctrl+S works straight away (a new file: Save As)
