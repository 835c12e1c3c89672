"""Rule messages keep a template and its arguments: English by default (the JSON report, scripts),
rendered in the current language when shown; limits count characters, so Chinese text is measured
the way the targets measure it."""

import gettext
import re

import pytest

from evaleditor.core import i18n
from evaleditor.core.document import document_from_table
from evaleditor.core.i18n import Msg, localized_message, render
from evaleditor.core.report import report_json, report_text
from evaleditor.core.rules import Issue, make_issue
from evaleditor.core.table import RawTable

HEADERS = ["Session_ID", "turn_id", "question", "answer"]
ROWS = [["s1", "1", "", "a"], ["s1", "2", "NA", "b"], ["", "", "Same?", "c"], ["", "", "Same?", "d"]]


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_language("en")


def doc(headers=HEADERS, rows=ROWS, target=None, fmt="csv"):
    return document_from_table(RawTable(list(headers), [list(r) for r in rows], fmt), None, target)


def test_messages_are_english_by_default_and_keep_their_template():
    issues = doc().validator.all_issues()
    by_rule = {i.rule: i for i in issues}
    assert by_rule["empty-question"].message == "The question is empty: every case needs one"
    miss = by_rule["misspelled-session-column"]
    assert miss.template.startswith("Header {header!r} is not read as the session column")
    assert dict(miss.args) == {"header": "Session_ID", "want": "session_id"}
    assert miss.message == ("Header 'Session_ID' is not read as the session column (the target wants 'session_id'): "
                            "the whole file will be evaluated as SINGLE-TURN. Rename it to 'session_id'")
    dup = by_rule["duplicate-question"]
    assert dup.message == ("The same question appears in 1 other single-turn row; duplicates weigh twice in the "
                           "scores")


def test_chinese_rendering_leaves_the_json_report_and_the_english_message_alone():
    d = doc()
    english = report_json(d, "cases.csv")
    assert i18n.set_language("zh_CN") == "zh_CN"
    issue = next(i for i in d.validator.all_issues() if i.rule == "empty-question")
    assert localized_message(issue) == "问题为空：每条用例都需要一个问题"
    assert issue.message == "The question is empty: every case needs one"
    assert report_json(d, "cases.csv") == english  # rule ids, severities and messages stay English
    text = report_text(d, "cases.csv")
    assert "问题为空" in text and "empty-question" in text and "错误" in text
    assert "SINGLE-TURN \u2014 4 rows" in text  # the shape line is the target's wording: never translated
    i18n.set_language("en")
    assert "The question is empty" in report_text(d, "cases.csv")


def test_arguments_and_nested_messages_are_rendered_in_the_language():
    issue = make_issue("invalid-tool-calls", "ground-truth", "Expected tool calls: {problem}. Write a JSON array "
                       "like {example}", 1, 1, args=(("problem", Msg("must be a JSON array of calls, not {kind}",
                                                                     (("kind", Msg("an object")),))),
                                                    ("example", "[]")))
    assert issue.message == "Expected tool calls: must be a JSON array of calls, not an object. Write a JSON array like []"
    i18n.set_language("zh_CN")
    assert localized_message(issue) == "预期工具调用：必须是由调用组成的 JSON 数组，而不是对象。请写成 JSON 数组，例如 []"
    assert str(issue.args[0][1]) == "must be a JSON array of calls, not an object"  # str() of a Msg: English


def test_plural_templates_choose_by_count():
    plural = i18n.NP_("Insert row", "Insert {n} rows", "n")
    assert render(plural, (("n", 1),), translate=False) == "Insert row"
    assert render(plural, (("n", 3),), translate=False) == "Insert 3 rows"
    i18n.set_language("zh_CN")
    assert render(plural, (("n", 3),)) == "插入 3 行"


def test_issue_equality_and_the_legacy_three_field_form():
    a = make_issue("turn-gap", "ground-truth", "Turn numbers jump from {a} to {b}: renumber the session", 4, 2,
                   args=(("a", 1), ("b", 3)))
    b = make_issue("turn-gap", "ground-truth", "Turn numbers jump from {a} to {b}: renumber the session", 4, 2,
                   args=(("a", 1), ("b", 3)))
    c = make_issue("turn-gap", "ground-truth", "Turn numbers jump from {a} to {b}: renumber the session", 4, 2,
                   args=(("a", 1), ("b", 4)))
    assert a == b and hash(a) == hash(b) and a != c
    assert Issue("no-turn-column", "", "").message == ""
    assert make_issue("sdk-not-shown", "sdk", "a note {with braces} from a reader").message == \
        "a note {with braces} from a reader"  # no args: never formatted


def test_a_broken_translation_falls_back_to_english(monkeypatch):
    class Broken(gettext.NullTranslations):
        def gettext(self, message):
            return "{nonexistent} 坏了"

    monkeypatch.setattr(i18n, "_translations", Broken())
    issue = make_issue("turn-gap", "ground-truth", "Turn numbers jump from {a} to {b}: renumber the session",
                       args=(("a", 1), ("b", 3)))
    assert localized_message(issue) == "Turn numbers jump from 1 to 3: renumber the session"


def test_building_issues_renders_nothing(monkeypatch):
    """Opening a file with many issues formats no message: only showing one does."""
    calls = []
    monkeypatch.setattr(i18n, "render", lambda *a, **k: calls.append(a) or "")
    rows = [[f"s{i % 50}", str(i % 7), "" if i % 3 else "NA", "x"] for i in range(3000)]
    d = doc(["session_id", "turn_id", "question", "answer"], rows)
    assert d.validator.counts["error"] > 1000
    assert calls == []


@pytest.mark.parametrize(("env", "expected"), [
    ({"LANG": "zh_CN.UTF-8"}, "zh_CN"), ({"LANG": "en_US.UTF-8"}, "en"), ({"LANG": "C"}, "en"),
    ({"LANGUAGE": "fr:zh_CN", "LANG": "en_US.UTF-8"}, "zh_CN"), ({"LC_ALL": "zh_SG.UTF-8", "LANG": "en_GB"}, "zh_CN"),
    ({"LC_MESSAGES": "zh_CN.GB18030"}, "zh_CN"), ({"LANG": "de_DE.UTF-8"}, "en"),
])
def test_the_language_comes_from_the_environment_like_gettext(monkeypatch, env, expected):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    assert i18n.set_language(None) == expected


def test_normalize_understands_qt_and_windows_names():
    assert i18n.normalize("zh-Hans-CN") == "zh_CN"
    assert i18n.normalize("zh_Hans") == "zh_CN"
    assert i18n.normalize("Chinese (Simplified)_China") == "zh_CN"
    assert i18n.normalize("en-US") == "en"
    assert i18n.normalize("ja_JP") is None


# ----- Chinese text against the character limits (evaluation-set: question ≤ 2,000, answer ≤ 5,000) ------------------
def es_doc(question: str, answer: str = "答"):
    return doc(["会话ID", "请求顺序", "问题", "答案"], [["", "", question, answer]], "evaluation-set", "xlsx")


def test_cjk_question_at_the_limit_counts_characters_not_bytes():
    at_limit = "问" * 2000  # 6,000 bytes in UTF-8: still 2,000 characters
    assert len(at_limit.encode("utf-8")) == 6000
    assert not [i for i in es_doc(at_limit).validator.all_issues() if i.rule == "question-too-long"]
    over = [i for i in es_doc(at_limit + "，").validator.all_issues() if i.rule == "question-too-long"]
    assert [i.message for i in over] == ["The question has 2,001 characters; the limit is 2,000"]
    i18n.set_language("zh_CN")
    assert localized_message(over[0]) == "问题有 2,001 个字符；上限为 2,000"


def test_cjk_answer_at_the_limit_and_full_width_punctuation():
    answer = ("好的，已为您预订。" * 600)[:5000]
    assert len(answer) == 5000
    assert not [i for i in es_doc("订票？", answer).validator.all_issues() if i.rule == "answer-too-long"]
    assert [i.rule for i in es_doc("订票？", answer + "！").validator.all_issues()] == ["answer-too-long"]


@pytest.mark.parametrize("text", ['[{"a" 1}]', '[{a: 1}]', '["a', '[1] x', '["\\q"]', "[1,"])
def test_the_json_reason_in_a_tool_call_message_is_translated_too(text):
    from evaleditor.core import toolcalls

    found = toolcalls.problem_msg(text)
    assert "JSON" in render(found.template, found.args, translate=False)
    i18n.set_language("zh_CN")
    shown = render(found.template, found.args)
    assert not re.search(r"[A-Za-z]{4,}", shown.replace("JSON", "")), shown  # no English word left
