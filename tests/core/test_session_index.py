"""The SessionIndex (core/sessions.py) is the document's, not the validator's: it listens to the dataset
itself, is current before the validator hears of a change, and says where an edited row was before."""

import pytest

from evaleditor.core.commands import InsertRows, RemoveRows, RenameColumn, ReorderRows, SetCells
from evaleditor.core.dataset import Dataset
from evaleditor.core.sessions import SessionIndex
from tests.core.conftest import make_doc

HEADERS = ["session_id", "turn_id", "question", "answer"]


def conversations(index):
    return {sid: index.ds.positions(rows) for sid, rows in index.sessions.items()}


def fresh(ds):
    return conversations(SessionIndex(ds.copy()))


def test_the_index_follows_every_kind_of_edit_with_no_validator():
    ds = Dataset(HEADERS, [["s1", "1", "a", ""], ["s2", "1", "b", ""], ["s1", "2", "c", ""], ["", "", "d", ""]])
    index = SessionIndex(ds)
    assert conversations(index) == {"s1": [0, 2], "s2": [1]}
    sid = ds.columns[0].id
    steps = [lambda: SetCells([(ds.rows[3].id, sid, "s2")]),  # a row joins a conversation
             lambda: SetCells([(ds.rows[1].id, sid, "")]),  # and one leaves it
             lambda: InsertRows(1, [ds.new_row(["s1", "3", "e", ""]), ds.new_row(["s3", "1", "f", ""])]),
             lambda: RemoveRows([ds.rows[0].id]),
             lambda: ReorderRows([r.id for r in reversed(ds.rows)]),
             lambda: RenameColumn(sid, "notes")]  # no session column: no conversations
    undo = []
    for step in steps:
        undo.append(step().apply(ds))
        assert conversations(index) == fresh(ds)
    assert index.sessions == {}
    for inverse in reversed(undo):
        inverse.apply(ds)
        assert conversations(index) == fresh(ds)
    assert conversations(index) == {"s1": [0, 2], "s2": [1]}


def test_the_index_says_which_conversation_an_edited_row_left():
    ds = Dataset(HEADERS, [["s1", "1", "a", ""], ["s1", "2", "b", ""], ["", "", "c", ""]])
    index = SessionIndex(ds)
    a, b, c = (r.id for r in ds.rows)
    SetCells([(b, ds.columns[0].id, "s2"), (c, ds.columns[0].id, "s2")]).apply(ds)
    assert (index.session_before(a), index.session_before(b), index.session_before(c)) == ("s1", "s1", "")
    assert index.session_of[b] == index.session_of[c] == "s2"
    RemoveRows([b]).apply(ds)
    assert index.session_before(b) == "s2" and b not in index.session_of
    SetCells([(a, ds.columns[2].id, "edited")]).apply(ds)  # a row that did not move
    assert index.session_before(a) == "s1"


def test_the_document_builds_the_index_and_hands_it_to_the_validator():
    doc = make_doc(HEADERS, [["s1", "1", "a", ""], ["s1", "3", "b", ""]])
    assert doc.validator.sessions is doc.sessions
    SetCells([(doc.dataset.rows[1].id, doc.dataset.columns[1].id, "2")]).apply(doc.dataset)
    assert doc.validator.rule_counts["turn-gap"] == 0  # the validator read the index the edit updated


def test_one_session_id_edit_moves_one_row_and_most_of_them_index_once(monkeypatch):
    """Work, not time: an edit moves the rows it touched; a replace-all of the session column is one
    pass over the rows rather than a move per row (each a search in its conversation)."""
    rows = [[f"s{i // 3}", str(i % 3 + 1), f"q{i}", ""] for i in range(600)]
    doc = make_doc(HEADERS, rows)
    ds, index = doc.dataset, doc.sessions
    rebuilt = []
    real = index._rebuild
    monkeypatch.setattr(index, "_rebuild", lambda: rebuilt.append(1) or real())
    sid = ds.columns[0].id
    SetCells([(ds.rows[5].id, sid, "s0")]).apply(ds)
    SetCells([(ds.rows[9].id, ds.columns[2].id, "new question")]).apply(ds)
    assert rebuilt == []
    SetCells([(r.id, sid, "one") for r in ds.rows[:400]]).apply(ds)
    assert rebuilt == [1]
    assert conversations(index) == fresh(ds)
    assert index.session_before(ds.rows[0].id) == "s0" and index.session_before(ds.rows[599].id) == "s199"
    assert doc.validator.rule_counts == make_doc(HEADERS, [r.cells for r in ds.rows]).validator.rule_counts


def test_positions_of_rows_as_read_and_after_a_move():
    """Row ids 1 … n in order (as a file is read) need no map; once rows move, a map answers alike."""
    ds = Dataset(HEADERS, [[f"s{i}", "1", "q", ""] for i in range(5)])
    ids = [r.id for r in ds.rows]
    assert ds.positions(iter(ids[::-1])) == [4, 3, 2, 1, 0] == [ds.position(rid) for rid in ids[::-1]]
    for missing in (0, ids[-1] + 1):
        with pytest.raises(KeyError):
            ds.positions([ids[0], missing])
    ReorderRows(ids[::-1]).apply(ds)
    assert ds.positions(ids) == [4, 3, 2, 1, 0]
    with pytest.raises(KeyError):
        ds.positions([ids[-1] + 1])
