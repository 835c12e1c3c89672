"""The row rules are defined once (checks.RULES); the whole-file pass made from them finds exactly what
the one-row check made from them finds, and does per-cell work only where a column can hold a finding."""

from hypothesis import given, settings
from hypothesis import strategies as st

from evaleditor.core import bulk, checks, file_checks
from evaleditor.core.dataset import Dataset
from evaleditor.core.validation import Validator

HEADERS = ["session_id", "turn_id", "question", "answer", "expected_tool_calls", "notes"]
PIECES = ["", " ", "q", "NA", "null", "中文", "\t", "\n", "\r", "\x00", "\x07", "\x1f", "\ud800", "é",
          "1", "2", "x", '[{"name": "f", "arguments": {}}]', "[", "{}", "s1", "s1 "]
cell = st.lists(st.sampled_from(PIECES), max_size=4).map("".join)


def per_row(ds, workbook):
    ctx = checks.RowContext(ds, workbook)
    return {r.id: tuple(found) for r in ds.rows if not r.is_empty() and (found := ctx.check(r))}


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.lists(cell, min_size=6, max_size=6), max_size=12),
       target=st.sampled_from(["ground-truth", "evaluation-set"]), workbook=st.booleans())
def test_whole_file_pass_equals_the_row_check(rows, target, workbook):
    ds = Dataset(HEADERS, rows, target)
    ctx = checks.RowContext(ds, workbook)
    empty = bulk.empty_rows(ds.rows)
    assert empty == {r.id for r in ds.rows if r.is_empty()}
    found = ctx.check_all(ds.rows, bulk.columns_of(ds.rows, len(HEADERS)), empty)
    assert found == per_row(ds, workbook)


def test_control_characters_are_found_in_any_script():
    assert bulk.has_control(["中文", "ok\x0bok"]) and bulk.has_control(["\ud800\x1f"])
    assert bulk.has_control(["abc", "中文\x1f"]) and bulk.has_control(["a\x00", "中文"])
    assert not bulk.has_control(["中文\t\n\r", "\ud800", "é" * 1000, "plain"])


def test_a_rule_looks_at_cells_only_in_columns_that_can_hold_a_finding(monkeypatch):
    """A clean column costs the rule's column filter (C-level), not one call per cell."""
    looked = []
    rules = []
    for rule in checks.RULES:
        def finds(ctx, text, rule=rule):
            looked.append((rule.rule, text))
            return rule.finds(ctx, text)
        rules.append(checks.CellRule(rule.rule, rule.cells, finds, rule.issue, rule.column_may_find,
                                     rule.workbook, rule.needs, rule.repeats))
    monkeypatch.setattr(checks, "RULES", tuple(rules))
    rows = [[f"s{i}", "1", f"question {i}", "answer", "", "ok"] for i in range(200)]
    rows[7][5] = "NA"
    rows[9][3] = "bell\x07"
    ds = Dataset(HEADERS, rows, "ground-truth")
    ctx = checks.RowContext(ds, workbook=True)
    found = ctx.check_all(ds.rows, bulk.columns_of(ds.rows, len(HEADERS)), set())
    assert {(i.rule, i.row_id) for f in found.values() for i in f} == {
        ("literal-null-text", ds.rows[7].id), ("control-character", ds.rows[9].id)}
    assert {rule for rule, _ in looked} == {"literal-null-text", "control-character"}
    assert len(looked) == 2 * len(rows)  # the notes column and the answer column, once each


def test_single_turn_conversations_cost_no_session_check(monkeypatch):
    checked = []
    real = file_checks.check_session
    monkeypatch.setattr(file_checks, "check_session", lambda ds, ctx, members, c: checked.append(members) or
                        real(ds, ctx, members, c))
    rows = [[f"s{i}", "1", f"q{i}", "a", "", ""] for i in range(50)] + [["t", "1", "q", "a", "", ""],
                                                                        ["t", "3", "q2", "a", "", ""]]
    v = Validator(Dataset(HEADERS, rows, "ground-truth"))
    assert len(checked) == 1  # the conversation with a turn gap only
    assert v.rule_counts["single-turn-session"] == 50 and v.rule_counts["turn-gap"] == 1
