"""`Document.left_out` numbers the rows whose agent trace a save as SDK JSON holds only in part as the
file written numbers its cases: as `evaleditor convert` names them and as the Document that `save`
returns numbers its issues, so that a user finds them in what was written. A save as SDK JSON gathers
each conversation and leaves empty rows out, so the source's numbers would point at other rows."""


from evaleditor.api import Document
from evaleditor.core.commands import ReorderRows, SetCells
from evaleditor.core.targets import QUESTION
from evaleditor.io.load import load_document
from evaleditor.io.sdk.conversations import conversation_data
from evaleditor.io.sdk.json_text import dumps


def prompt(text: str) -> dict:
    return {"prompt": {"role": "user", "parts": [{"text": text}]}}


def foreign_turn() -> dict:
    """Turn 2 of conversation s1 whose history another tool wrote (not the conversation's first turn)."""
    case = {**prompt("s1 second"), **conversation_data("s1", [("s1 first", "")], "s1 second", 1)}
    case["agent_data"] = {"agents": {"bot": {"agent_id": "bot"}}, "turns": [
        {"turn_index": 0, "events": [{"author": "user", "content": {"role": "user", "parts": [{"text": "elsewhere"}]}},
                                     {"author": "bot", "content": {"role": "model", "parts": [{"text": "hi"}]}}]},
        {"turn_index": 1, "events": [{"author": "user", "content": {"role": "user", "parts": [{"text": "s1 second"}]}}]}]}
    return case


def test_left_out_names_the_row_of_the_written_file_that_lost_its_trace(tmp_path):
    path = tmp_path / "in.json"
    first = {**prompt("s1 first"), **conversation_data("s1", [], "s1 first", 0)}
    path.write_bytes(dumps({"eval_cases": [prompt("alone"), first, foreign_turn()]}))
    core = load_document(path)
    ds = core.dataset
    q = ds.field_position(QUESTION)
    assert [r.cells[q] for r in ds.rows] == ["alone", "s1 first", "s1 second"]
    by_text = {r.cells[q]: r.id for r in ds.rows}
    # as a user may leave it in the window: the first turn edited, the turns apart (a sort)
    SetCells([(by_text["s1 first"], ds.columns[q].id, "s1 first, edited")]).apply(ds)
    ReorderRows([by_text["s1 second"], by_text["alone"], by_text["s1 first"]]).apply(ds)
    assert [r.cells[q] for r in ds.rows] == ["s1 second", "alone", "s1 first, edited"]  # "s1 second": row 1
    doc = Document(core, str(path))
    out = tmp_path / "out.json"
    rows = doc.left_out(out).replaced_traces
    saved = doc.save(out)
    assert rows == [2]  # the file gathers the conversation: its first turn, then this one
    assert saved.to_pandas().loc[rows[0], "question"] == "s1 second"
