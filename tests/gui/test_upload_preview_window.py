"""File ▸ Preview Upload… and Help (F1): the window shows what the target receives and follows edits;
rule ids link to their explanation in Help."""

import json

import pytest
from PySide6.QtCore import Qt, QUrl

from evaleditor.core.rules import RULES
from evaleditor.gui.panels import help_window
from evaleditor.io.convert import as_planned
from evaleditor.io.save import plan_save
from evaleditor.io.sdk.write import dataset_to_sdk
from evaleditor.io.upload_preview import REJECT
from tests.gui.conftest import make_doc


def preview_of(window):
    window.actions.preview.trigger()
    return window.upload_preview


def test_preview_upload_counts_equal_the_shape_line(window):
    p = preview_of(window)
    assert p.isVisible() and p.counts.text() == window.doc.shape.line == window.banner.shape_label.text()
    assert p.model.rowCount() == 4  # s1, s2 and two rows without a session id
    assert "Conversation s1: 2 turns" in p.detail.toPlainText()
    assert "empty session_id is a conversation of one turn" in p.note.text()


def test_the_button_beside_the_shape_line_opens_it(window):
    window.banner.preview_button.click()
    assert window.upload_preview.isVisible()


def test_the_preview_follows_edits(window, qtbot):
    p = preview_of(window)
    m = window.model
    m.setData(m.index(4, 0), "s9")  # the row without a session id joins a new conversation s9
    qtbot.waitUntil(lambda: p.model.rowCount() == 4 and "s9" in [p.model.index(i, 1).data() for i in range(4)])
    assert p.counts.text() == window.doc.shape.line
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: "s9" not in [p.model.index(i, 1).data() for i in range(4)])


def test_a_turns_row_link_selects_the_row_in_the_table(window):
    p = preview_of(window)
    rid = window.doc.dataset.rows[1].id
    p.detail.anchorClicked.emit(QUrl(f"row:{rid}"))
    assert window.view.currentIndex().row() == 1


def test_sdk_cases_browse_one_by_one_with_their_raw_json(window):
    window.documents.set_target("sdk")
    p = preview_of(window)
    written = dataset_to_sdk(as_planned(window.doc, plan_save(window.doc, "json")).dataset)["eval_cases"]  # what a save writes
    assert p.model.rowCount() == len(written) and p.raw.isVisibleTo(p)
    p.list.selectRow(1)
    assert json.loads(p.raw.toPlainText()) == written[1]
    assert "History sent before the prompt" in p.detail.toPlainText()


def test_evaluation_set_verdicts_link_their_rules_to_help(qtbot, dialogs_log):
    from evaleditor.gui import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.set_document(make_doc(["session_id", "request_id", "query", "answer"],
                            [["s1", "1", "a", "b"], ["s1", "3", "c", "d"], ["", "", "ok", "fine"]],
                            target="evaluation-set", fmt="xlsx"))
    p = preview_of(w)
    assert p.model.index(0, 4).data() == "reject" and p.model.case(0).verdict == REJECT
    assert p.model.index(1, 4).data() == "accept"
    assert 'href="rule:turn-gap"' in p.case_html(p.model.case(0))
    p.detail.anchorClicked.emit(QUrl("rule:turn-gap"))
    assert w.help_window.isVisible()


def test_help_holds_every_rule_and_the_shortcuts(window):
    h = help_window.show(window)
    html = h.browser.toHtml()
    for rule in RULES:
        assert f'name="rule-{rule}"' in html
    text = h.browser.toPlainText()
    assert "Ctrl+Shift+U" in text and "Next Issue" in text and "F8" in text


def test_help_explains_each_rule_where_its_link_lands(window):
    """A rule id's link lands on an entry that says when the rule fires and what to do, not only its title."""
    from evaleditor.core.rules import EXPLANATIONS

    text = help_window.show(window, "turn-gap").browser.toPlainText()
    for rule in RULES:
        assert EXPLANATIONS[rule] in text, rule


def test_f1_opens_help_at_the_selected_issues_rule(window):
    window.show()
    window.focus.issues()
    panel = window.issues_panel
    issue = panel.current_issue()
    assert issue is not None and window.focusWidget() is panel.view
    assert help_window.focused_rule(window) == issue.rule
    window.actions.help.trigger()
    assert window.help_window.isVisible()


def test_a_click_on_a_rule_id_in_the_issues_panel_opens_its_help(window, qtbot):
    window.show()
    panel = window.issues_panel
    index = panel.model.index(0, 1)
    assert panel.model.data(index, Qt.ItemDataRole.FontRole).underline()
    with qtbot.waitSignal(panel.ruleHelpRequested) as got:
        panel.view.clicked.emit(index)
    assert got.args == [panel.model.issue(0).rule] and window.help_window.isVisible()


def test_the_shape_line_keeps_its_width_beside_the_preview_button(window, qtbot):
    window.resize(1500, 900)
    window.show()
    label = window.banner.shape_label
    qtbot.waitUntil(lambda: label.width() > 0)
    line = label.fontMetrics().lineSpacing()
    assert label.height() < 2 * line  # one line: a wrapping label beside a stretch was a word a line


def test_another_platforms_records_browse_one_by_one_as_the_file_holds_them(window):
    from evaleditor.io.platforms import platform_for
    window.documents.set_target("bedrock")
    p = preview_of(window)
    written = platform_for("bedrock").records(as_planned(window.doc, plan_save(window.doc, "jsonl")).dataset)  # what a save writes
    assert p.model.rowCount() == len(written) and p.raw.isVisibleTo(p)
    assert p.counts.text() == window.doc.shape.line
    p.list.selectRow(1)
    assert json.loads(p.raw.toPlainText()) == written[1] and len(p.raw.toPlainText().splitlines()) == 1
    assert "bedrock evaluates every row on its own" in p.note.text()
    assert "Conversation" not in p.detail.toPlainText()


def test_a_refused_evaluation_set_counts_no_case_accepted(window):
    window.set_document(make_doc(["session_id", "request_id", "prompt text", "answer"],
                                 [["", "", "q1", "a"], ["", "", "q2", "a"], ["", "", "q3", "a"]], "evaluation-set"))
    p = preview_of(window)
    assert "The import refuses the whole file" in p.note.text()
    assert "0 accepted, 3 rejected" in p.note.text()
    assert {p.model.index(i, 4).data() for i in range(p.model.rowCount())} == {"reject"}


def test_a_single_turn_case_shows_no_turn_number(window):
    """Without a session id a row is a case of its own: "Turn 1 (turn cell 2)" named a number that has no
    effect there."""
    window.set_document(make_doc(rows=[["", "2", "alone", "a", ""]]))
    p = preview_of(window)
    p.list.selectRow(0)
    text = p.detail.toPlainText()
    assert "row 1" in text and "Turn" not in text and "turn cell" not in text


@pytest.mark.parametrize("close", ["escape", "ctrl+w", "button"])
@pytest.mark.parametrize("tool", ["help", "preview"])
def test_the_tool_windows_close_as_a_dialog_does(window, qtbot, close, tool):
    """Esc, Ctrl+W and a Close button, in Help (F1's window had none of them) as in the upload preview
    (which had Esc only)."""
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QDialogButtonBox

    h = help_window.show(window) if tool == "help" else preview_of(window)
    with qtbot.waitExposed(h):
        h.show()
    focus = h.browser if tool == "help" else h.list
    focus.setFocus()
    if close == "escape":
        QTest.keyClick(focus, Qt.Key.Key_Escape)
    elif close == "ctrl+w":
        QTest.keyClick(focus, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    else:
        h.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close).click()
    assert not h.isVisible() and window.doc is not None  # Ctrl+W closed the tool window, not the document
