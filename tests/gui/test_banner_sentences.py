"""The banner's strip says each sentence once: its bold line, then the issue's message only when that says more."""

from __future__ import annotations

from tests.gui.conftest import make_doc


def test_a_chinese_csv_under_evaluation_set_is_told_to_save_as_xlsx_in_one_sentence(window):
    window.set_document(make_doc(headers=["会话ID", "请求顺序", "问题", "答案"],
                                 rows=[["s1", "1", "你好", "好"]], fmt="csv"))
    assert window.doc.dataset.target.name == "evaluation-set"
    [strip] = [s for s in window.banner.strips if not s.isHidden() and s.issue.rule == "unsupported-file-type"]
    text = strip.text.text()
    assert text.count("accepts only Excel workbooks") == 1, text
    assert "save as .xlsx" in text and strip.button.text() == "Save as .xlsx\u2026"


def test_the_question_strip_keeps_its_message_under_the_bold_line(window):
    window.set_document(make_doc(headers=["prompt", "answer"], rows=[["hi", "x"]]))
    [strip] = [s for s in window.banner.strips if not s.isHidden() and s.issue.rule == "missing-question-column"]
    text = strip.text.text()
    assert "No question column: every case needs a question." in text and "rename the question column" in text
