"""The window in Simplified Chinese: the translation loads, View ▸ Language switches live and is
kept, rule messages follow the language while the shape line and the JSON report stay as they are."""

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QApplication

from evaleditor.core import i18n
from evaleditor.core.report import report_json
from evaleditor.gui.window import language, settings
from tests.gui.conftest import make_doc

R = Qt.ItemDataRole


@pytest.fixture(autouse=True)
def english_after(qapp):
    yield
    language.apply("en")
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)


def settle():
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)
    QApplication.processEvents()


def menu_titles(w) -> list[str]:
    return [a.text() for a in w.menuBar().actions()]


def test_the_chinese_translation_loads_into_a_new_window(qtbot):
    from evaleditor.gui import MainWindow

    assert language.apply("zh_CN") == "zh_CN"
    assert i18n.language() == "zh_CN"  # the core's gettext follows the window's language
    w = MainWindow()
    qtbot.addWidget(w)
    w.set_document(make_doc())
    assert menu_titles(w) == ["文件(&F)", "编辑(&E)", "数据(&D)", "视图(&V)", "转到(&G)", "帮助(&H)"]
    assert w.actions.open.text() == "打开(&O)…"
    assert w.issues_dock.windowTitle() == "检查结果"  # not 问题: that is the question column of an evaluation set
    assert w.banner.target_label.text() == "检查目标(&A)："
    assert w.banner.shape_label.text() == "MULTI-TURN \u2014 6 rows, 4 conversations (grouped by session_id)"
    model = w.issues_panel.model
    messages = [model.data(model.index(r, 4)) for r in range(model.rowCount())]
    assert "问题为空：每条用例都需要一个问题" in messages
    assert model.data(model.index(0, 0)) in ("错误", "警告", "提示")
    assert w.counts.labels["error"].text().endswith("个错误")
    bad = w.model.index(5, 2)
    assert "错误：问题为空" in w.model.data(bad, R.ToolTipRole)
    assert "The question is empty: every case needs one" in [  # the JSON report stays English
        i["message"] for i in report_json(w.doc, "cases.csv")["issues"]]


def test_view_language_switches_live_and_is_kept(window, qtbot):
    assert menu_titles(window)[0] == "&File"
    window.set_document(make_doc())
    window.actions.ui_languages["zh_CN"].trigger()
    settle()
    assert settings.ui_language() == "zh_CN"
    assert menu_titles(window)[0] == "文件(&F)"
    assert window.actions.undo.text() == "撤销(&U)"
    assert window.filter_bar.errors.text() == "有错误"
    assert window.issues_panel.rule_combo.itemText(0) == "所有规则"
    header = window.model.headerData(4, Qt.Orientation.Horizontal, R.ToolTipRole)
    assert "expected_tool_calls" in header
    window.view.go_to(window.model.index(0, 2))
    window.ops.delete_cells()
    assert window.actions.undo.text() == "撤销“删除单元格”(&U)"
    window.actions.ui_languages["en"].trigger()
    settle()
    assert menu_titles(window)[0] == "&File" and window.actions.open.text() == "&Open\u2026"
    assert settings.ui_language() == "en"
    window.actions.ui_languages["system"].trigger()
    settle()
    assert settings.ui_language() == "system" and language.current() == language.system_language()


def test_the_system_language_decides_when_nothing_was_chosen(monkeypatch):
    monkeypatch.setattr(language, "system_language", lambda: "zh_CN")
    assert settings.ui_language() == "system"
    assert language.apply() == "zh_CN"
    assert QCoreApplication.translate("Menus", "&File") == "文件(&F)"
    assert language.resolve("en") == "en" and language.resolve("zh-Hans-CN") == "zh_CN"


def test_a_rule_message_renders_in_chinese_and_stays_english_in_json(qapp):
    doc = make_doc()
    issue = next(i for i in doc.validator.all_issues() if i.rule == "turn-gap")
    english = report_json(doc, "x.csv")
    language.apply("zh_CN")
    assert i18n.localized_message(issue) == "轮次编号从 1 跳到 3：请重新编号该会话"
    assert issue.message == "Turn numbers jump from 1 to 3: renumber the session"
    json_messages = [i["message"] for i in report_json(doc, "x.csv")["issues"]]
    assert "Turn numbers jump from 1 to 3: renumber the session" in json_messages
    assert report_json(doc, "x.csv") == english


def test_a_repair_that_guessed_says_so_in_chinese_punctuation_and_all(qtbot):
    """The status line of a tool-call repair that added an empty "arguments" is one translated sentence,
    not English punctuation between two Chinese halves."""
    from evaleditor.gui import MainWindow

    language.apply("zh_CN")
    w = MainWindow()
    qtbot.addWidget(w)
    w.set_document(make_doc(headers=["question", "expected_tool_calls"], rows=[["q", '[{"name": "search"}]']]))
    w.ops.fix_all("invalid-tool-calls")
    said = w.statusBar().currentMessage()
    assert "；" in said and "; " not in said and "“arguments”" in said
