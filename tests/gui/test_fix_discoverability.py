"""Fixes are found from wherever the user stands: Fix all under "All rules" is a menu of the kinds
with a quick fix; advice such as "sort rows by session and turn" has its button in the banner; a fix-all
says what it fixed, what it left and why."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.conftest import make_doc

HEADERS = ["session_id", "turn_id", "question", "answer", "expected_tool_calls"]


def test_fix_all_under_all_rules_offers_every_fixable_kind_with_its_count(window):
    w = window
    panel = w.issues_panel
    assert panel.rule_combo.currentData() is None and panel.current_issue() is None  # "All rules", nothing chosen
    assert panel.fix_button.isEnabled()
    menu = panel.fix_button.menu()
    texts = [a.text() for a in menu.actions()]
    assert any("invalid-tool-calls (1)" in t for t in texts) and any("turn-gap (1)" in t for t in texts)
    action = next(a for a in menu.actions() if "invalid-tool-calls" in a.text())
    action.trigger()
    assert w.doc.validator.rule_counts.get("invalid-tool-calls", 0) == 0
    assert w.doc.dataset.rows[2].cells[4] == '[{"name": "book", "arguments": {}}]'


def test_fix_all_says_what_it_fixed_what_it_left_and_why(window):
    w = window
    rows = [["", "", f"q{i}", "a", cell] for i, cell in enumerate([
        "[{'name': 'a', 'arguments': {}}]", "not a call at all", "[{'name': 'b', 'arguments': {}}]"])]
    w.set_document(make_doc(headers=HEADERS, rows=rows))
    assert w.doc.validator.rule_counts["invalid-tool-calls"] == 3
    w.ops.fix_all("invalid-tool-calls")
    said = w.statusBar().currentMessage()
    assert "Fixed 2 of 3 invalid-tool-calls issues; 1 left (row 2): its tool calls are too damaged to repair " \
           "automatically, edit it by hand" == said
    w.ops.fix_all("invalid-tool-calls")  # nothing more to repair: it says so, and why
    assert "Fixed 0 of 1 invalid-tool-calls issues; 1 left (row 2)" in w.statusBar().currentMessage()


def test_a_repair_that_adds_empty_arguments_says_so(window):
    """[{"name": "search"}] becomes a call with "arguments": {}: a guess (a call whose arguments were left
    out fails the evaluation), said in the status bar and in the undo step, not counted silently."""
    w = window
    rows = [["", "", f"q{i}", "a", cell] for i, cell in enumerate([
        '[{"name": "search"}]', "[{'name': 'a', 'arguments': {}}]", "not a call at all", '[{"name": "x"}]'])]
    w.set_document(make_doc(headers=HEADERS, rows=rows))
    w.ops.fix_all("invalid-tool-calls")
    said = w.statusBar().currentMessage()
    assert said.startswith("Fixed 3 of 4 invalid-tool-calls issues; 1 left (row 3)")
    assert said.endswith("; an empty \u201carguments\u201d object was added where calls in rows 1, 4 named none: "
                         "check that they take no arguments")
    assert w.doc.dataset.rows[0].cells[4] == '[{"name": "search", "arguments": {}}]'
    w.undo_stack.undo()
    issue = next(i for i in w.doc.validator.all_issues() if i.row_id == w.doc.dataset.rows[0].id)
    assert w.ops.fix_issue(issue)
    assert w.statusBar().currentMessage() == ("Repaired the tool calls; an empty \u201carguments\u201d object was "
                                              "added where a call in row 1 named none: check that it takes no "
                                              "arguments")
    assert w.undo_stack.undoText() == 'Repair the tool calls (an empty "arguments" added to 1 call)'
    issue = next(i for i in w.doc.validator.all_issues() if i.row_id == w.doc.dataset.rows[1].id)
    assert w.ops.fix_issue(issue) and w.undo_stack.undoText() == "Repair the tool calls"  # nothing guessed


def test_sort_advice_has_its_button_in_the_banner(window, qtbot):
    w = window
    rows = [["s1", "2", "second", "a", ""], ["s1", "1", "first", "a", ""], ["s2", "1", "other", "a", ""]]
    w.set_document(make_doc(headers=HEADERS, rows=rows))
    w.refresh_banner()
    strip = next((s for s in w.banner.strips if s.isVisibleTo(w.banner)), None)
    assert strip is not None and strip.button.text() == "Sort rows by session and turn"
    QTest.mouseClick(strip.button, Qt.MouseButton.LeftButton)
    assert [r.cells[2] for r in w.doc.dataset.rows] == ["first", "second", "other"]
    w.refresh_banner()
    assert not any(s.isVisibleTo(w.banner) for s in w.banner.strips)


def test_counts_of_one_read_as_one(window):
    """"Fix all (1 kind)", "Fixed the one … issue": never "1 kinds", "all 1 … issues"."""
    w = window
    rows = [["", "", "q", "a", "[{'name': 'a', 'arguments': {}}]"], ["", "", "r", "a", ""]]
    w.set_document(make_doc(headers=HEADERS, rows=rows))
    panel = w.issues_panel
    assert panel.fix_button.text() == "Fix all (1 kind)"
    w.ops.fix_all("invalid-tool-calls")
    assert w.statusBar().currentMessage().startswith("Fixed the one invalid-tool-calls issue")
