"""One turn order: the Conversation panel's replay, Sort by session and turn, Renumber turns and the
SDK JSON writer all order a conversation's turns by core/sessions.turn_key."""

from evaleditor.core.conversation import replay_order
from evaleditor.core.document import document_from_table
from evaleditor.core.editing import renumber_turns
from evaleditor.core.sessions import sorted_order
from evaleditor.core.table import RawTable
from evaleditor.io.sdk.conversations import conversation_layout

TURNS = ["3", "x", "1", "2.0", "", "1", " 02 "]


def test_every_ordering_of_turns_agrees():
    rows = [["s", t, f"q{i}"] for i, t in enumerate(TURNS)] + [["", "", "single"]]
    doc = document_from_table(RawTable(["session_id", "turn_id", "question"], rows, "csv"))
    ds, v = doc.dataset, doc.validator
    ids = [r.id for r in ds.rows]
    expected = [ids[i] for i in (2, 5, 3, 6, 0, 1, 4)]  # 1, 1, 2.0, 02, 3, then x and "" in file order
    assert replay_order(v, ids[0]) == ("s", expected)
    assert sorted_order(ds, v.sessions) == [*expected, ids[-1]]
    assert [ids[i] for i in conversation_layout(["s"] * 7 + [""], TURNS + [""])["s"]] == expected
    renumber_turns(v).apply(ds)
    assert [ds.row(r).cells[1] for r in expected] == ["1", "2", "3", "4", "5", "6", "7"]
