"""Sorting by a column (core/sorting.py): as LibreOffice Calc sorts, and which conversations it would scramble."""

from evaleditor.core.dataset import Dataset
from evaleditor.core.document import Document
from evaleditor.core.sorting import scrambled_sessions, sort_by_column, sorted_by_column


def validator(headers, rows):
    ds = Dataset(headers, rows, "ground-truth")
    return Document.of(ds, "csv").validator


def texts(v, order, col):
    return [v.ds.row(r).cells[col] for r in order]


def test_numbers_before_text_case_folded_and_empty_cells_last_in_both_directions():
    v = validator(["question", "score"], [["a", "10"], ["b", "beta"], ["c", ""], ["d", "9"], ["e", "Alpha"],
                                          ["f", "2.5"], ["g", "alpha"]])
    col = v.ds.columns[1].id
    assert texts(v, sorted_by_column(v, col), 1) == ["2.5", "9", "10", "Alpha", "alpha", "beta", ""]
    assert texts(v, sorted_by_column(v, col, descending=True), 1) == ["beta", "Alpha", "alpha", "10", "9", "2.5", ""]


def test_a_sort_is_one_reorder_undone_by_its_inverse_and_none_when_already_sorted():
    v = validator(["question"], [["b"], ["a"]])
    col = v.ds.columns[0].id
    command = sort_by_column(v, col)
    assert str(command.text) == "Sort by question"
    inverse = command.apply(v.ds)
    assert [r.cells[0] for r in v.ds.rows] == ["a", "b"] and sort_by_column(v, col) is None
    inverse.apply(v.ds)
    assert [r.cells[0] for r in v.ds.rows] == ["b", "a"]


def test_the_conversations_a_sort_would_scramble():
    rows = [["s1", "1", "Where?", "Paris"], ["s1", "2", "And then?", "Lyon"], ["s2", "1", "Hi", "A"],
            ["s2", "2", "Bye", "B"]]
    v = validator(["session_id", "turn_id", "question", "answer"], rows)
    by_answer = sorted_by_column(v, v.ds.columns[3].id)  # A B Lyon Paris: s1's turns reversed
    assert scrambled_sessions(v, by_answer) == ["s1"]
    assert scrambled_sessions(v, sorted_by_column(v, v.ds.columns[0].id)) == []


def test_without_a_turn_column_file_order_is_the_turn_order():
    v = validator(["session_id", "question"], [["s1", "b"], ["s1", "a"]])
    assert scrambled_sessions(v, sorted_by_column(v, v.ds.columns[1].id)) == ["s1"]
