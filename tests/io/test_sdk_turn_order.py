"""Saving as SDK JSON stores each conversation's turns by place, not by the number typed: the editor
puts the dataset in that order first (core/editing.sdk_turn_order), so what the window shows after the
save is what reopening the file shows."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaleditor.core.document import document_from_table
from evaleditor.core.editing import sdk_turn_order
from evaleditor.core.table import RawTable
from evaleditor.io.load import load_document
from evaleditor.io.sdk import write_sdk_json

HEADERS = ["session_id", "turn_id", "question"]
row = st.one_of(st.just(("", "")), st.tuples(st.sampled_from(["a", "b", "c"]),
                                             st.sampled_from(["1", "2", "3", "7", "0", "two", "", "2.0"])))


def shown(ds) -> list[tuple[str, str, str]]:
    """(session, turn, question) of each row; a file without conversations has no session column."""
    s, t, q = (ds.field_position(f) for f in HEADERS)
    out = []
    for r in ds.rows:
        sid = r.cells[s] if s is not None else ""
        out.append((sid, r.cells[t] if sid else "", r.cells[q]))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(row, min_size=1, max_size=12))
def test_after_the_turn_order_step_the_json_reads_back_as_the_window_shows(tmp_path, pairs):
    rows = [[sid, turn, f"q{i}"] for i, (sid, turn) in enumerate(pairs)]
    doc = document_from_table(RawTable(HEADERS, rows, "csv"), None, "ground-truth")
    command = sdk_turn_order(doc.validator)
    if command is not None:
        command.apply(doc.dataset)
    assert sdk_turn_order(doc.validator) is None  # done once, nothing is left to do
    path = tmp_path / "cases.json"
    write_sdk_json(path, doc.dataset)
    assert shown(load_document(path).dataset) == shown(doc.dataset)


def test_the_step_is_what_a_user_sees_and_is_undone_as_one():
    rows = [["s1", "2", "second"], ["s1", "1", "first"], ["", "", "alone"], ["s2", "1", "x"], ["s2", "3", "y"]]
    doc = document_from_table(RawTable(HEADERS, rows, "csv"), None, "ground-truth")
    inverse = sdk_turn_order(doc.validator).apply(doc.dataset)
    assert [r.cells for r in doc.dataset.rows] == [["s1", "1", "first"], ["s1", "2", "second"], ["", "", "alone"],
                                                   ["s2", "1", "x"], ["s2", "2", "y"]]
    inverse.apply(doc.dataset)
    assert [r.cells for r in doc.dataset.rows] == rows
