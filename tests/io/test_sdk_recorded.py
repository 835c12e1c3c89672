"""SDK JSON the SDK accepts opens meaningfully: a conversation recorded only in a case's agent_data
shows one row per turn, and the records form {"eval_dataset_df": [...]} opens as rows; both save back
in their own form, judged by the SDK's own EvaluationDataset.model_validate."""

from __future__ import annotations

import copy
import json

import pytest

from evaleditor.core.commands import InsertRows, RemoveRows, SetCells
from evaleditor.io.load import load_document
from evaleditor.io.save import save_document

pytest.importorskip("agentplatform")
from agentplatform import types  # noqa: E402


def _event(author, *parts, role=None):
    return {"author": author, "content": {"role": role or ("user" if author == "user" else "model"), "parts": list(parts)}}


RECORDED = {"eval_cases": [
    {"eval_case_id": "booking-1",
     "agent_data": {"agents": {"travel": {"agent_id": "travel"}}, "turns": [
         {"turn_index": 0, "events": [
             _event("user", {"text": "Find me a flight to Oslo"}),
             _event("travel", {"function_call": {"name": "search_flights", "args": {"to": "OSL"}}}),
             _event("travel", {"function_response": {"name": "search_flights", "response": {"n": 2}}}, role="user"),
             _event("travel", {"text": "I found two flights."})]},
         {"turn_index": 1, "events": [
             _event("user", {"text": "Book the first"}),
             _event("travel", {"function_call": {"name": "book", "args": {"id": 1}}}),
             _event("travel", {"text": "Booked."})]}]},
     "turn_references": [{"text": "two flights"}, {"text": "booked"}]},
]}


def sdk_view(obj):
    """The object as the SDK sees it (what it accepts, snake_case, no nulls)."""
    return types.EvaluationDataset.model_validate(obj).model_dump(mode="json", exclude_none=True)


@pytest.fixture
def recorded(tmp_path):
    path = tmp_path / "recorded.json"
    path.write_text(json.dumps(RECORDED), encoding="utf-8")
    types.EvaluationDataset.model_validate(RECORDED)  # the SDK accepts the file
    return path


def _column(ds, header):
    return ds.columns[ds.headers().index(header)].id


def test_recorded_conversation_shows_one_row_per_turn(recorded):
    doc = load_document(recorded)
    ds = doc.dataset
    rows = [dict(zip(ds.headers(), r.cells, strict=True)) for r in ds.rows]
    assert [(r["session_id"], r["turn_id"], r["question"], r["answer"]) for r in rows] == [
        ("booking-1", "1", "Find me a flight to Oslo", "I found two flights."),
        ("booking-1", "2", "Book the first", "Booked.")]
    assert [json.loads(r["expected_tool_calls"]) for r in rows] == [
        [{"name": "search_flights", "arguments": {"to": "OSL"}}], [{"name": "book", "arguments": {"id": 1}}]]
    assert doc.shape.mode == "multi-turn"
    errors = [i for i in doc.validator.all_issues() if i.severity == "error"]
    assert errors == []  # the SDK accepts the file: no error


def test_recorded_conversation_saved_with_no_edit_is_the_same_object(recorded, tmp_path):
    out = tmp_path / "out.json"
    save_document(load_document(recorded), out)
    assert json.loads(out.read_text(encoding="utf-8")) == RECORDED


def test_an_edit_changes_only_what_was_edited_inside_the_trace(recorded, tmp_path):
    doc = load_document(recorded)
    ds = doc.dataset
    first, second = ds.rows
    SetCells([(second.id, _column(ds, "answer"), "Booked seat 1A."),
              (first.id, _column(ds, "question"), "A flight to Oslo, please"),
              (first.id, _column(ds, "expected_tool_calls"),
               '[{"name": "search_flights", "arguments": {"to": "OSL", "day": "mon"}}]')]).apply(ds)
    out = tmp_path / "out.json"
    save_document(doc, out)
    want = copy.deepcopy(RECORDED)
    turns = want["eval_cases"][0]["agent_data"]["turns"]
    turns[0]["events"][0]["content"]["parts"][0]["text"] = "A flight to Oslo, please"
    turns[0]["events"][1]["content"]["parts"][0]["function_call"]["args"]["day"] = "mon"
    turns[1]["events"][2]["content"]["parts"][0]["text"] = "Booked seat 1A."
    got = json.loads(out.read_text(encoding="utf-8"))
    assert got == want  # turn_references and the tool response kept
    assert sdk_view(got) == sdk_view(want)


def test_a_row_added_to_the_conversation_is_a_new_turn_and_a_removed_row_removes_its_turn(recorded, tmp_path):
    doc = load_document(recorded)
    ds = doc.dataset
    cells = {"session_id": "booking-1", "turn_id": "3", "question": "Thanks!", "answer": "You're welcome."}
    new = ds.new_row([cells.get(h, "") for h in ds.headers()])
    InsertRows(2, [new]).apply(ds)
    out = tmp_path / "out.json"
    save_document(doc, out)
    turns = json.loads(out.read_text(encoding="utf-8"))["eval_cases"][0]["agent_data"]["turns"]
    assert turns[2] == {"turn_index": 2, "events": [_event("user", {"text": "Thanks!"}),
                                                    _event("travel", {"text": "You're welcome."})]}
    sdk_view(json.loads(out.read_text(encoding="utf-8")))
    RemoveRows([ds.rows[0].id]).apply(ds)
    save_document(doc, out)
    turns = json.loads(out.read_text(encoding="utf-8"))["eval_cases"][0]["agent_data"]["turns"]
    assert [t["turn_index"] for t in turns] == [0, 1]
    assert turns[0]["events"][0]["content"]["parts"][0]["text"] == "Book the first"


RECORDS = {"eval_dataset_df": [{"prompt": "What is 2+2?", "reference": "4"},
                               {"prompt": "Capital of France?", "reference": "Paris", "difficulty": 2}]}


def test_records_form_opens_as_rows_and_saves_back_in_the_same_form(tmp_path):
    path = tmp_path / "records.json"
    path.write_text(json.dumps(RECORDS), encoding="utf-8")
    types.EvaluationDataset.model_validate(RECORDS)
    doc = load_document(path)
    ds = doc.dataset
    assert ds.headers() == ["prompt", "reference", "difficulty"]
    assert [r.cells for r in ds.rows] == [["What is 2+2?", "4", ""], ["Capital of France?", "Paris", "2"]]
    assert not [i for i in doc.validator.all_issues() if i.severity == "error"]
    save_document(doc, path)
    assert json.loads(path.read_text(encoding="utf-8")) == RECORDS
    SetCells([(ds.rows[0].id, _column(ds, "reference"), "four")]).apply(ds)
    save_document(doc, path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved == {"eval_dataset_df": [{"prompt": "What is 2+2?", "reference": "four"}, RECORDS["eval_dataset_df"][1]]}
    frame = types.EvaluationDataset.model_validate(saved).eval_dataset_df
    assert list(frame["reference"]) == ["four", "Paris"]


def test_upload_preview_shows_the_recorded_conversation_as_one_case_of_its_turns(recorded):
    from evaleditor.io.upload_preview import sdk_preview

    doc = load_document(recorded)
    preview = sdk_preview(doc)
    assert [(kind, name, len(rows)) for kind, name, rows in preview.entries] == [("conversation", "booking-1", 2)]
    case = preview.make(0)
    assert [(t.question, t.answer) for t in case.turns] == [("Find me a flight to Oslo", "I found two flights."),
                                                            ("Book the first", "Booked.")]
    assert json.loads(case.raw) == RECORDED["eval_cases"][0]
