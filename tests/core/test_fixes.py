import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaleditor.core import toolcalls
from evaleditor.core.fixes import fix_all_command, fix_command
from tests.core.conftest import make_doc

CONV = ["session_id", "turn_id", "question"]


def issues(doc, rule):
    return [i for i in doc.validator.all_issues() if i.rule == rule]


def test_rename_misspelled_session_header_makes_the_file_multi_turn():
    doc = make_doc(["Session_ID", "turn_id", "question"], [["s", "1", "a"], ["s", "2", "b"]])
    assert doc.shape.mode == "single-turn"
    inverse = fix_command(doc.validator, issues(doc, "misspelled-session-column")[0]).apply(doc.dataset)
    assert doc.dataset.headers()[0] == "session_id"
    assert doc.shape.line.startswith("MULTI-TURN")
    inverse.apply(doc.dataset)
    assert doc.dataset.headers()[0] == "Session_ID" and doc.shape.mode == "single-turn"


def test_renumber_session_fixes_gap_and_duplicates_in_one_step():
    doc = make_doc(CONV, [["s", "1", "a"], ["s", "4", "b"], ["s", "4", "c"], ["t", "0", "x"], ["t", "1", "y"]])
    cmd = fix_all_command(doc.validator, "turn-gap")
    cmd.apply(doc.dataset)
    assert [r.cells[1] for r in doc.dataset.rows] == ["1", "2", "3", "0", "1"]
    fix_all_command(doc.validator, "turn-not-starting-at-one").apply(doc.dataset)
    assert [r.cells[1] for r in doc.dataset.rows] == ["1", "2", "3", "1", "2"]
    assert doc.validator.counts["error"] == 0 and doc.validator.counts["warning"] == 0


def test_sort_sessions_gathers_conversations_in_turn_order():
    rows = [["s", "2", "b"], ["", "", "solo"], ["t", "1", "x"], ["s", "1", "a"], ["t", "2", "y"]]
    doc = make_doc(CONV, rows)
    assert issues(doc, "turns-out-of-file-order")
    fix_all_command(doc.validator, "turns-out-of-file-order").apply(doc.dataset)
    assert [r.cells[2] for r in doc.dataset.rows] == ["a", "b", "solo", "x", "y"]
    assert not issues(doc, "turns-out-of-file-order") and not issues(doc, "session-rows-not-contiguous")


def test_add_turn_numbers_from_file_order():
    doc = make_doc(["session_id", "question"], [["s", "a"], ["t", "x"], ["s", "b"]])
    fix_all_command(doc.validator, "no-turn-column").apply(doc.dataset)
    assert doc.dataset.headers() == ["session_id", "turn_id", "question"]
    assert [r.cells[1] for r in doc.dataset.rows] == ["1", "1", "2"]
    assert not issues(doc, "no-turn-column")


def test_fix_all_trim_and_control_characters_is_one_command():
    doc = make_doc(["session_id", "question"], [[" s", "a\x01"], ["s ", "b\x02"]], fmt="xlsx")
    fix_all_command(doc.validator, "whitespace-in-session-id").apply(doc.dataset)
    fix_all_command(doc.validator, "control-character").apply(doc.dataset)
    assert [r.cells for r in doc.dataset.rows] == [["s", "a"], ["s", "b"]]


@pytest.mark.parametrize(("broken", "calls"), [
    ("[{'name': 'search', 'arguments': {'q': 'x'}}]", [{"name": "search", "arguments": {"q": "x"}}]),
    ('[{"name": "f", "arguments": {"a": True}},]', [{"name": "f", "arguments": {"a": True}}]),
    ('{"name": "f", "arguments": {}}', [{"name": "f", "arguments": {}}]),
    ('[{"name": "f", "args": {"n": 1}}]', [{"name": "f", "arguments": {"n": 1}}]),
    ('[{"name": "f", "parameters": {"n": null}},]', [{"name": "f", "arguments": {"n": None}}]),
    ("[{'name': 'f', 'arguments': {'ok': True, 'v': None}}]", [{"name": "f", "arguments": {"ok": True, "v": None}}]),
])
def test_repair_common_tool_call_slips(broken, calls):
    assert toolcalls.problem(broken) is not None
    repaired = toolcalls.repair(broken)
    assert json.loads(repaired) == calls and toolcalls.problem(repaired) is None


@pytest.mark.parametrize(("text", "needle"), [
    ("[1]", "call 1 is a number"),
    ('[{"arguments": {}}]', 'no string "name"'),
    ('[{"name": "f", "args": {}}]', '(it has "args")'),
    ('[{"name": "f", "arguments": []}]', "not an object"),
    ("{bad", "not valid JSON"),
    ('{"name": "f", "arguments": {}}', "must be a JSON array"),
])
def test_tool_call_problem_says_which_part_is_wrong(text, needle):
    assert needle in toolcalls.problem(text)


def test_unrepairable_tool_calls_offer_no_fix():
    doc = make_doc(["question", "expected_tool_calls"], [["q", "call the search tool"]])
    (issue,) = issues(doc, "invalid-tool-calls")
    assert fix_command(doc.validator, issue) is None


def test_a_misspelled_turn_column_is_renamed_not_doubled_by_a_new_one():
    doc = make_doc(["session_id", "Turn_ID", "question"], [["s", "2", "a"], ["s", "1", "b"]])
    rules = {i.rule for i in doc.validator.all_issues()}
    assert {"misspelled-turn-column", "no-turn-column"} <= rules
    assert fix_all_command(doc.validator, "no-turn-column") is None  # would add turn_id 1, 2 beside 2, 1
    fix_all_command(doc.validator, "misspelled-turn-column").apply(doc.dataset)
    assert doc.dataset.headers() == ["session_id", "turn_id", "question"]
    assert [r.cells[1] for r in doc.dataset.rows] == ["2", "1"]


def test_a_chinese_file_is_told_the_chinese_header():
    doc = make_doc(["会话id", "请求顺序", "问题", "答案"], [["s", "1", "a", "b"], ["s", "2", "c", "d"]],
                   "evaluation-set", fmt="xlsx")
    issue = next(i for i in doc.validator.all_issues() if i.rule == "misspelled-session-column")
    assert "'会话ID'" in issue.message
    fix_command(doc.validator, issue).apply(doc.dataset)
    assert doc.dataset.headers() == ["会话ID", "请求顺序", "问题", "答案"]
    english = make_doc(["Session ID", "request_id", "query", "answer"], [["s", "1", "a", "b"]], "evaluation-set")
    assert "'session_id'" in next(i for i in english.validator.all_issues()
                                  if i.rule == "misspelled-session-column").message


def test_an_english_file_with_one_chinese_column_is_told_english_headers():
    doc = make_doc(["Question", "answer", "Session_ID", "turn_id", "备注"], [["a", "b", "s", "1", "x"]],
                   "evaluation-set", fmt="xlsx")
    wanted = {i.rule: i.message for i in doc.validator.all_issues()}
    assert "'request_id'" in wanted["misspelled-turn-column"]
    assert "'query'" in wanted["missing-question-column"]
    assert not any("请求顺序" in m or "会话ID" in m for m in wanted.values())
    fix_command(doc.validator, next(i for i in doc.validator.all_issues() if i.rule == "misspelled-turn-column")
                ).apply(doc.dataset)
    assert doc.dataset.headers()[3] == "request_id"
    chinese = make_doc(["问题", "session", "备注"], [["a", "s", "x"]], "evaluation-set", fmt="xlsx")
    assert "'会话ID'" in next(i.message for i in chinese.validator.all_issues() if i.rule == "misspelled-session-column")


def test_a_chinese_near_miss_in_a_file_with_english_headers_is_told_the_english_header():
    """A Chinese evaluation set written with `--headers en`: its recognised headers are English, so the
    session header it lacks is `session_id` (its near miss `会话id` was not renamed: it is not read)."""
    doc = make_doc(["会话id", "query", "answer"], [["s", "a", "b"], ["s", "c", "d"]], "evaluation-set", fmt="xlsx")
    issue = next(i for i in doc.validator.all_issues() if i.rule == "misspelled-session-column")
    assert "'session_id'" in issue.message and "会话ID" not in issue.message
    fix_command(doc.validator, issue).apply(doc.dataset)
    assert doc.dataset.headers() == ["session_id", "query", "answer"] and doc.shape.conversations == 1


TOKENS = ['[', ']', '{', '}', ', ', ': ', '"name"', '"arguments"', '"a"', '" "', '"\\u0007"', '"\x07"', '"x\\"y"',
          '1', '-0', '1.5e-3', '01', 'true', 'null', 'NaN', '"\u3000"', '"中"', '[{"name": "f", "arguments": {}}]']


STRINGS = ['"a"', '" "', '"\u0007"', '"\x07"', '"x\\"y"', '"\u3000"', '"中"', '""', '"\\n"', '"a\tb"']
VALUES = [*STRINGS, "1", "-0", "1.5e-3", "01", "1.", "true", "null", "NaN", "[]", "{}"]
CALL = st.builds('{{"name": {}, "arguments": {{{}}}}}'.format, st.sampled_from([*STRINGS, "1", "null"]),
                 st.lists(st.builds("{}: {}".format, st.sampled_from(STRINGS), st.sampled_from(VALUES)),
                          max_size=3).map(", ".join))
NEAR_CALLS = st.lists(CALL, min_size=1, max_size=3).map(lambda calls: "[" + ", ".join(calls) + "]")


@settings(max_examples=400, deadline=None)
@given(st.one_of(NEAR_CALLS, st.lists(st.sampled_from(TOKENS), max_size=14).map("".join)))
def test_the_quick_tool_call_form_accepts_only_what_the_full_check_accepts(text):
    """problem_msg skips the JSON parse for the usual form (PLAIN_CALLS); whatever that form lets
    through, the parse and the shape check accept too."""
    if toolcalls.PLAIN_CALLS.fullmatch(text.strip(" \t\n\r")):
        value = json.loads(text)
        assert toolcalls.shape_problem(value) is None


def test_the_usual_tool_call_cells_are_not_parsed(monkeypatch):
    parsed = []
    real = toolcalls._SCAN
    monkeypatch.setattr(toolcalls, "_SCAN", lambda text, i: parsed.append(text) or real(text, i))
    usual = [json.dumps([{"name": "lookup_order", "arguments": {"order_id": f"{i:05d}", "n": i, "ok": True}}])
             for i in range(20)] + ['[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": null}}]']
    assert all(toolcalls.problem(t) is None for t in usual) and parsed == []
    assert toolcalls.problem('[{"name": "a\x07", "arguments": {}}]') is not None  # raw control character
    assert toolcalls.problem('[{"name": "\u3000", "arguments": {}}]') is not None  # blank name
    assert len(parsed) == 2


def test_fix_all_tool_calls_reads_each_cell_once_and_names_the_guessed_rows(monkeypatch):
    """Fix all over many broken tool-call cells runs on the window's thread: each cell is parsed once
    while the command is made, which also tells the rows whose repair added an empty "arguments"."""
    cells = ['[{"name": "search"}]', "[{'name': 'a', 'arguments': {}}]", "not a call at all", '[{"name": "x"}]']
    doc = make_doc(["question", "expected_tool_calls"], [[f"q{i}", c] for i, c in enumerate(cells)])
    loads = []
    lenient = toolcalls._lenient_load
    monkeypatch.setattr(toolcalls, "_lenient_load", lambda text: loads.append(text) or lenient(text))
    guessed: list[int] = []
    command = fix_all_command(doc.validator, "invalid-tool-calls", guessed)
    assert sorted(loads) == sorted(cells)
    rows = doc.dataset.rows
    assert guessed == [rows[0].id, rows[3].id]
    command.apply(doc.dataset)
    assert [r.cells[1] for r in rows] == ['[{"name": "search", "arguments": {}}]', '[{"name": "a", "arguments": {}}]',
                                          "not a call at all", '[{"name": "x", "arguments": {}}]']
