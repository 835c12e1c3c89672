"""The column-wise pass that opens a file (bulk.py) finds exactly what the one-row check finds."""

from hypothesis import given, settings
from hypothesis import strategies as st

from evaleditor.core import bulk, checks
from evaleditor.core.dataset import Dataset

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
def test_bulk_pass_equals_the_row_check(rows, target, workbook):
    ds = Dataset(HEADERS, rows, target)
    ctx = checks.RowContext(ds, workbook)
    empty = bulk.empty_rows(ds.rows)
    assert empty == {r.id for r in ds.rows if r.is_empty()}
    found = bulk.check_all(ctx, ds.rows, bulk.columns_of(ds.rows, len(HEADERS)), empty)
    assert found == per_row(ds, workbook)


def test_control_characters_are_found_in_any_script():
    assert bulk._has_control(["中文", "ok\x0bok"]) and bulk._has_control(["\ud800\x1f"])
    assert not bulk._has_control(["中文\t\n\r", "\ud800", "é" * 1000])
