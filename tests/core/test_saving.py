"""core/saving.py: what a save writes is decided once, without changing the document."""

import pytest

from evaleditor.core.document import document_from_table
from evaleditor.core.saving import core_save_plan, default_format, target_problem
from evaleditor.core.table import RawTable
from evaleditor.core.targets import TARGETS

HEADERS = ["Session_ID", "turn_id", "Question", "answer"]
ROWS = [["s1", "2", "later", "b"], ["", "", "single", "c"], ["s1", "1", "first", "a"]]


def doc(headers=HEADERS, rows=ROWS, fmt="csv", target=None):
    return document_from_table(RawTable(list(headers), [list(r) for r in rows], fmt), None, target)


def test_preparing_a_save_changes_nothing():
    d = doc(headers=["session_id", "turn_id", "Question", "answer"])
    before = (d.dataset.headers(), [list(r.cells) for r in d.dataset.rows])
    plan = core_save_plan(d, "json", headers="en")
    assert plan.command is not None and plan.turns_ordered
    assert (d.dataset.headers(), [list(r.cells) for r in d.dataset.rows]) == before


def test_the_plan_spells_headers_and_orders_turns_as_one_undoable_command():
    d = doc(headers=["session_id", "turn_id", "Question", "answer"])
    plan = core_save_plan(d, "json", headers="en")
    inverse = plan.command.apply(d.dataset)
    assert d.dataset.headers() == ["session_id", "turn_id", "question", "answer"]
    assert [r.cells[:3] for r in d.dataset.rows] == [["s1", "1", "first"], ["s1", "2", "later"], ["", "", "single"]]
    inverse.apply(d.dataset)
    assert [r.cells[2] for r in d.dataset.rows] == ["later", "single", "first"]
    assert d.dataset.headers() == ["session_id", "turn_id", "Question", "answer"]


def test_without_target_or_language_a_table_keeps_its_headers():
    assert core_save_plan(doc(), "xlsx").command is None
    assert core_save_plan(doc(), "csv", headers="en").command is not None


def test_the_other_sheets_are_left_out_only_when_the_workbook_itself_is_replaced(tmp_path):
    d = doc(fmt="xlsx")
    d.path, d.sheet, d.sheets = tmp_path / "a.xlsx", "Cases", ["Cases", "Notes"]
    assert core_save_plan(d, "xlsx", path=tmp_path / "a.xlsx").other_sheets == ["Notes"]
    assert core_save_plan(d, "xlsx", path=tmp_path / "b.xlsx").other_sheets == []
    assert core_save_plan(d, "csv", path=tmp_path / "a.csv").other_sheets == []
    d.path = tmp_path / "named.csv"  # a workbook named .csv: saved as the text its name says
    assert core_save_plan(d, "csv", path=tmp_path / "named.csv").other_sheets == ["Notes"]


@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("fmt", ["xlsx", "csv", "json", "jsonl"])
def test_one_table_says_which_formats_each_target_accepts(target, fmt):
    accepted = {"ground-truth": {"xlsx", "csv"}, "evaluation-set": {"xlsx"}, "sdk": {"json"},
                "sdk-flat": {"jsonl", "csv"}, "azure-foundry": {"jsonl", "csv"}, "bedrock": {"jsonl"},
                "langsmith": {"jsonl", "csv"}, "promptfoo": {"csv"}}[target]
    assert (target_problem(target, fmt) is None) == (fmt in accepted)


def test_save_as_proposes_the_files_own_format_when_its_target_accepts_it():
    assert default_format(doc()) == "csv"
    assert default_format(doc(target="evaluation-set")) == "xlsx"
    assert default_format(doc(fmt="json", target="sdk")) == "json"
    assert core_save_plan(doc(fmt="json", target="sdk"), "csv").target == "ground-truth"
    assert default_format(doc(target="bedrock")) == "jsonl"  # the one format Bedrock takes
    assert core_save_plan(doc(), "jsonl").target == "sdk-flat"  # a table written as .jsonl: the SDK's flat form


def test_a_document_switched_to_another_target_is_saved_with_that_targets_headers():
    """The window's Save As keeps the headers by default, as convert does; but after Data ▸ Target
    the headers are the old target's spelling (会话ID), which the new one does not read as a session:
    kept, the conversations would be lost. They are spelt as the new target spells them, as
    `convert --target` does."""
    d = doc(headers=["会话ID", "请求顺序", "问题", "答案"], fmt="xlsx", target="evaluation-set")
    assert core_save_plan(d, "xlsx").command is None  # its own target: kept as they are
    d.header_targets.append("evaluation-set")
    d.dataset.set_target("sdk")
    plan = core_save_plan(d, "json")
    plan.command.apply(d.dataset)
    assert d.dataset.fields() == ["session_id", "turn_id", "question", "answer"]


@pytest.mark.parametrize(("lang", "session", "turn"), [("zh", "会话ID", "请求顺序"), ("en", "session_id", "request_id")])
def test_a_column_the_output_target_reads_is_spelt_its_way_and_the_new_shape_said(lang, session, turn):
    """ground-truth does not read Session_ID (a near miss: single-turn); evaluation-set reads it, case
    folded, as its session column. Converted, the file is spelt as the output's target spells it (not
    left as Session_ID beside 请求顺序 and 问题), and the plan says the file now reads as conversations."""
    d = doc()
    assert d.shape.mode == "single-turn"
    plan = core_save_plan(d, "xlsx", "evaluation-set", lang)
    out = d.dataset.copy()
    plan.command.apply(out)
    assert out.headers()[:2] == [session, turn]
    assert plan.shape_change == ("single-turn", "multi-turn", "Session_ID")


def test_a_save_that_keeps_the_shape_says_nothing_of_it_and_a_lost_session_column_is_said():
    assert core_save_plan(doc(), "csv", "ground-truth", "en").shape_change is None
    assert core_save_plan(doc(), "json").shape_change is None  # sdk reads no Session_ID either
    es = doc(target="evaluation-set", fmt="xlsx")  # Session_ID read: conversations
    assert es.shape.mode == "multi-turn"
    assert core_save_plan(es, "csv", "ground-truth").shape_change is None  # spelt session_id: still read
    only_es = doc(headers=["request_id", "Session_ID", "query", "answer"], target="evaluation-set", fmt="xlsx")
    assert core_save_plan(only_es, "csv", "ground-truth").shape_change is None
    shadowed = doc(headers=["Session_ID", "session_id", "question"], rows=[["", "s1", "a"], ["", "s1", "b"]])
    assert shadowed.shape.mode == "multi-turn"  # ground-truth groups by session_id; evaluation-set by Session_ID
    assert core_save_plan(shadowed, "xlsx", "evaluation-set").shape_change == (
        "multi-turn", "single-turn", "session_id")
