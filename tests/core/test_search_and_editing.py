"""Find/replace, row filters, the editor's command builders and the replay order (no Qt)."""

import pytest

from evaleditor.core import editing
from evaleditor.core.conversation import replay_order, transcript
from evaleditor.core.search import FindQuery, RowFilter, filter_rows, find_cells, replace_all_command
from tests.core.conftest import make_doc

H = ["session_id", "turn_id", "question", "answer"]
ROWS = [
    ["s1", "2", "Second", "b"],
    ["s1", "1", "First", "a"],
    ["", "", "Alone", "x"],
    ["s2", "1", "", "no question"],
    ["s1", "3", "Third", "c"],
]


def doc():
    return make_doc(H, ROWS)


def cells(d, col):
    return [r.cells[col] for r in d.dataset.rows]


def test_find_counts_matches_and_cells_case_insensitively():
    d = doc()
    found = find_cells(d.dataset, FindQuery("s"))
    assert found.matches == 7  # s1 ×3, s2, "Second", "First", "no question"
    q = find_cells(d.dataset, FindQuery("S", match_case=True))
    assert q.matches == 1 and q.cells == [(d.dataset.rows[0].id, d.dataset.columns[2].id)]


def test_find_whole_cell_and_column():
    d = doc()
    col = d.dataset.columns[0].id
    assert len(find_cells(d.dataset, FindQuery("s1", whole_cell=True, column_id=col)).cells) == 3
    assert find_cells(d.dataset, FindQuery("s", whole_cell=True)).matches == 0


def test_replace_all_is_one_command_and_undoes():
    d = doc()
    cmd, n = replace_all_command(d.dataset, FindQuery(r"s(\d)", regex=True), r"conv-\1")
    assert n == 4
    inverse = cmd.apply(d.dataset)
    assert cells(d, 0) == ["conv-1", "conv-1", "", "conv-2", "conv-1"]
    inverse.apply(d.dataset)
    assert cells(d, 0) == [r[0] for r in ROWS]


def test_literal_replacement_is_not_a_template():
    d = doc()
    cmd, n = replace_all_command(d.dataset, FindQuery("First"), r"\1 $&")
    cmd.apply(d.dataset)
    assert d.dataset.rows[1].cells[2] == r"\1 $&"


def test_bad_regex_and_bad_template_raise_value_error():
    d = doc()
    with pytest.raises(ValueError, match="invalid regular expression"):
        find_cells(d.dataset, FindQuery("(", regex=True))
    with pytest.raises(ValueError, match="invalid replacement"):
        replace_all_command(d.dataset, FindQuery("First", regex=True), r"\9")


def test_filters():
    d = doc()
    ids = [r.id for r in d.dataset.rows]
    assert filter_rows(d.validator, RowFilter()) is None
    assert filter_rows(d.validator, RowFilter(text="IR")) == [ids[1], ids[4]]
    assert filter_rows(d.validator, RowFilter(session="s1")) == [ids[0], ids[1], ids[4]]
    assert filter_rows(d.validator, RowFilter(has_errors=True)) == [ids[3]]
    warned = filter_rows(d.validator, RowFilter(has_warnings=True))
    assert ids[1] in warned  # turns out of file order


def test_paste_sets_cells_appends_rows_and_adds_columns_as_one_command():
    d = doc()
    ds = d.dataset
    ids = [r.id for r in ds.rows]
    cmd, dropped = editing.paste(ds, ids[3:], 2, [["q4", "a4", "extra"], ["q5"], ["new", "", "", "far"]])
    assert dropped == 0
    inverse = cmd.apply(ds)
    assert ds.headers() == H + ["column_5", "column_6"]
    assert ds.row_count() == 6 and ds.rows[3].cells[2:] == ["q4", "a4", "extra", ""]
    assert ds.rows[5].cells == ["", "", "new", "", "", "far"] and ds.rows[0].cells == ROWS[0] + ["", ""]
    inverse.apply(ds)
    assert [r.cells for r in ds.rows] == ROWS and ds.headers() == H


def test_columns_added_by_a_paste_take_the_next_free_name():
    ds = make_doc(["question", "column_4"], [["q", "x"]]).dataset
    cmd, _ = editing.paste(ds, [ds.rows[0].id], 1, [["a", "b", "c"]])
    cmd.apply(ds)
    assert ds.headers() == ["question", "column_4", "column_3", "column_5"]
    assert ds.rows[0].cells == ["q", "a", "b", "c"]


def test_move_rows_up_and_down_as_a_block():
    d = doc()
    ds = d.dataset
    ids = [r.id for r in ds.rows]
    editing.move_rows(ds, [ids[1], ids[2]], -1).apply(ds)
    assert [r.id for r in ds.rows] == [ids[1], ids[2], ids[0], ids[3], ids[4]]
    assert editing.move_rows(ds, [ids[1]], -1) is None
    editing.move_rows(ds, [ids[1], ids[2]], 1).apply(ds)
    assert [r.id for r in ds.rows] == ids


def test_sort_and_renumber():
    d = doc()
    ds = d.dataset
    editing.sort_by_session_and_turn(d.validator).apply(ds)
    assert cells(d, 2) == ["First", "Second", "Third", "Alone", ""]
    assert editing.sort_by_session_and_turn(d.validator) is None
    ds.rows[2].cells[1] = "7"  # via a command in real use; here straight
    d.validator.full()
    editing.renumber_turns(d.validator).apply(ds)
    assert cells(d, 1) == ["1", "2", "3", "", "1"]


def test_add_turn_and_new_conversation():
    d = doc()
    ds = d.dataset
    cmd = editing.add_turn(d.validator, ds.rows[0].id)
    cmd.apply(ds)
    assert ds.rows[5].cells[:2] == ["s1", "4"]
    cmd = editing.new_conversation(d.validator, 0)
    cmd.apply(ds)
    assert ds.rows[0].cells[:2] == ["s3", "1"]


def test_new_conversation_adds_session_columns_when_missing_but_not_next_to_a_near_miss():
    d = make_doc(["question"], [["q"]])
    cmd = editing.new_conversation(d.validator, 1)
    inverse = cmd.apply(d.dataset)
    assert d.dataset.headers() == ["session_id", "turn_id", "question"]
    assert d.dataset.rows[1].cells == ["s1", "1", ""]
    inverse.apply(d.dataset)
    assert d.dataset.headers() == ["question"] and d.dataset.row_count() == 1
    typo = make_doc(["Session_ID", "question"], [["s", "q"]])
    assert editing.new_conversation(typo.validator, 1) is None


def test_duplicate_and_clear():
    d = doc()
    ds = d.dataset
    editing.duplicate_rows(ds, [ds.rows[2].id, ds.rows[0].id]).apply(ds)
    assert [r.cells[2] for r in ds.rows][3:5] == ["Second", "Alone"]
    cmd = editing.clear_cells(ds, [(ds.rows[0].id, ds.columns[2].id)])
    cmd.apply(ds)
    assert ds.rows[0].cells[2] == ""


def test_replay_order_and_transcript():
    d = doc()
    ds = d.dataset
    sid, order = replay_order(d.validator, ds.rows[4].id)
    assert sid == "s1" and [ds.row(r).cells[2] for r in order] == ["First", "Second", "Third"]
    assert replay_order(d.validator, ds.rows[2].id) == (None, [ds.rows[2].id])
    _, turns = transcript(d.validator, ds.rows[0].id)
    assert [t.number for t in turns] == [1, 2, 3] and turns[0].answer == "a"


def test_find_and_replace_all_within_a_selection_touch_only_its_cells():
    ds = doc().dataset
    ids = [r.id for r in ds.rows]
    text_col = ds.columns[2].id
    within = {(ids[0], ds.columns[3].id), (ids[2], text_col)}  # row 0's answer, row 2's question
    found = find_cells(ds, FindQuery("o"), [ids[0], ids[2]], within)
    assert found.cells == [(ids[2], text_col)]  # "Second" matches too, but is not in the selection
    command, n = replace_all_command(ds, FindQuery("o"), "0", [ids[0], ids[2]], within)
    command.apply(ds)
    assert n == 1 and [r.cells[2] for r in ds.rows] == ["Second", "First", "Al0ne", "", "Third"]
