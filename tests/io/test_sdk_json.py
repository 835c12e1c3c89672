"""SDK JSON: the reader, the writer, and the SDK's own types as the judge of what we write.

"Exact" round trips:
- table -> SDK JSON -> table: cell for cell, for *canonical* tables — the columns the reader would
  produce (question always; answer/context/expected_tool_calls only when some cell is filled; session_id
  and turn_id together when there is a conversation; eval_case_id only with ids other than the
  generated ones; extra columns with at least one filled cell), in the reader's order, conversations
  contiguous with turn ids 1..N, tool calls in canonical JSON text.
- SDK JSON -> table -> SDK JSON: the same object as the SDK sees it
  (`EvaluationDataset.model_validate(x).model_dump(mode="json", exclude_none=True)`).
"""

from __future__ import annotations

import base64
import json
import math
import random
import re
import struct
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from evaleditor.core import toolcalls
from evaleditor.core.commands import SetCells
from evaleditor.core.dataset import Dataset
from evaleditor.core.document import document_from_table
from evaleditor.core.errors import ReadError, WriteError
from evaleditor.io.sdk import SdkCase, dataset_to_sdk, read_sdk_json, write_sdk_json
from evaleditor.io.sdk.check import KEPT, field_name

pytest.importorskip("agentplatform")
from agentplatform import types  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "resources" / "samples" / "sdk_agent_cases.json"
HYPO = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                         HealthCheck.too_slow])


# ----- helpers ------------------------------------------------------------------------------------
def sdk_view(obj: object) -> dict:
    """What the SDK makes of a JSON object (it also proves the object validates)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return types.EvaluationDataset.model_validate(obj).model_dump(mode="json", exclude_none=True)


def write_json(path: Path, obj: object) -> Path:
    path.write_text(json.dumps(obj, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


def open_doc(path: Path):
    return document_from_table(read_sdk_json(path), path)


def save(ds: Dataset, path: Path) -> dict:
    write_sdk_json(path, ds)
    obj = json.loads(path.read_text(encoding="utf-8"))
    sdk_view(obj)
    return obj


def table_round_trip(tmp_path: Path, headers: list[str], rows: list[list[str]]) -> tuple[list, list]:
    path = tmp_path / "t.json"
    save(Dataset(headers, rows, "sdk"), path)
    raw = read_sdk_json(path)
    return raw.headers, raw.rows


def file_round_trip(tmp_path: Path, obj: object) -> tuple[dict, dict]:
    """(the SDK's view of `obj`, the SDK's view of what the editor saves after opening it)."""
    src = write_json(tmp_path / "in.json", obj)
    doc = open_doc(src)
    out = save(doc.dataset, tmp_path / "out.json")
    return sdk_view(obj), sdk_view(out)


def rules(raw) -> list[str]:
    return [n.rule for n in raw.notes]


def text(t: str) -> dict:
    return {"text": t}


def user(*parts) -> dict:
    return {"role": "user", "parts": list(parts)}


def model(*parts) -> dict:
    return {"role": "model", "parts": list(parts)}


def paris_booking_turn() -> dict:
    """A multi-agent turn: a transfer, a tool call and its response, an event time and a state delta."""
    return {"turn_index": 0, "turn_id": "t0", "events": [
        {"author": "user", "content": user(text("Book me to Paris"))},
        {"author": "root", "content": model({"function_call": {"name": "transfer", "args": {"to": "flights"}}})},
        {"author": "flights", "content": model({"function_call": {"id": "c1", "name": "book", "args": {"city": "Paris"}}})},
        {"author": "flights", "content": user({"function_response": {"id": "c1", "name": "book",
                                                                     "response": {"ok": True}}})},
        {"author": "flights", "content": model(text("Booked.")), "event_time": "2025-01-02T03:04:05Z",
         "state_delta": {"booked": True}}]}


# ----- table -> SDK JSON -> table ------------------------------------------------------------------------
CALLS = toolcalls.dumps([{"name": "search_flights", "arguments": {"to": "Paris", "adults": 2}}])

TABLES = {
    "single": (["question", "answer"], [["What is 2+2?", "4"], ["Capital of France?", "Paris"]]),
    "tricky text": (["question", "answer", "context"], [
        ["=1+1", "007", "line 1\nline 2"], ["NA", "", "TRUE"], ["中文问题？", "答案 ✓", ""], ["  spaced  ", "null", ""]]),
    "tool calls": (["question", "answer", "expected_tool_calls"], [
        ["Find a flight", "Found one", CALLS], ["Hello", "Hi", ""], ["Nothing", "", "[]"]]),
    "conversations": (["session_id", "turn_id", "question", "answer", "expected_tool_calls"], [
        ["", "", "single one", "a", ""],
        ["s1", "1", "Book a flight", "Where to?", ""],
        ["s1", "2", "Paris", "Which day?", CALLS],
        ["s1", "3", "Friday", "", ""],
        ["s 2", "1", "Only turn", "ok", ""],
        ["", "", "last single", "", ""]]),
    "ids and extras": (["eval_case_id", "question", "answer", "lang", "备注"], [
        ["q-1", "one", "1", "en", ""], ["q-2", "two", "", "", "x"], ["case-3", "three", "3", "fr", ""]]),
    "extras with empty cells": (["question", "category", "lang"], [["a", "", "en"], ["b", "geo", ""]]),
}


@pytest.mark.parametrize("name", list(TABLES))
def test_table_round_trip_fixtures(tmp_path, name):
    headers, rows = TABLES[name]
    assert table_round_trip(tmp_path, headers, rows) == (headers, rows)


def test_written_file_shape(tmp_path):
    headers, rows = TABLES["conversations"]
    obj = save(Dataset(headers, rows, "sdk"), tmp_path / "c.json")
    raw_text = (tmp_path / "c.json").read_text(encoding="utf-8")
    assert raw_text.startswith('{\n  "eval_cases": [\n    {\n      "eval_case_id"') and "null" not in raw_text
    cases = obj["eval_cases"]
    assert [c["eval_case_id"] for c in cases] == ["case-1", "s1-turn-1", "s1-turn-2", "s1-turn-3", "s 2-turn-1",
                                                  "case-6"]
    single = cases[0]
    assert single == {"eval_case_id": "case-1", "prompt": user(text("single one")),
                      "reference": {"response": model(text("a"))}}
    third = cases[3]
    assert "reference" not in third and third["source_case_id"] == "s1" and third["source_turn_index"] == 2
    turns = third["agent_data"]["turns"]
    assert [t["turn_index"] for t in turns] == [0, 1, 2]
    assert turns[-1]["events"] == [{"author": "user", "content": user(text("Friday"))}]
    assert turns[1]["events"][1] == {"author": "agent", "content": model(text("Which day?"))}
    assert third["agent_data"]["agents"] == {"agent": {"agent_id": "agent"}}
    assert cases[2]["reference_trajectory"] == [
        {"role": "model", "parts": [{"function_call": {"name": "search_flights", "args": {"to": "Paris", "adults": 2}}}]}]
    # the same table always gives the same bytes
    first = (tmp_path / "c.json").read_bytes()
    write_sdk_json(tmp_path / "c.json", Dataset(headers, rows, "sdk"))
    assert (tmp_path / "c.json").read_bytes() == first


def test_conversation_order_follows_turn_ids(tmp_path):
    headers = ["session_id", "turn_id", "question", "answer"]
    rows = [["s", "2", "second", "b"], ["s", "1", "first", "a"]]
    obj = dataset_to_sdk(Dataset(headers, rows, "sdk"))
    cases = obj["eval_cases"]
    assert [c["source_turn_index"] for c in cases] == [1, 0]  # written in row order, indexed by turn
    assert cases[0]["agent_data"]["turns"][0]["events"][0]["content"] == user(text("first"))
    assert table_round_trip(tmp_path, headers, rows) == (headers, [rows[1], rows[0]])


def test_ids_generated_unique_and_column_taken_from_any_target(tmp_path):
    ds = Dataset(["eval_case_id", "Question"], [["case-2", "a"], ["", "b"], ["", "c"]], "ground-truth")
    ids = [c["eval_case_id"] for c in dataset_to_sdk(ds)["eval_cases"]]
    assert ids == ["case-2", "case-2-2", "case-3"]


def test_empty_rows_skipped_and_empty_template(tmp_path):
    ds = Dataset(["question", "answer"], [["", ""], ["q", ""], ["", ""]], "sdk")
    assert [c["prompt"] for c in dataset_to_sdk(ds)["eval_cases"]] == [user(text("q"))]
    obj = save(Dataset(["eval_case_id", "question", "answer"], [], "sdk"), tmp_path / "e.json")
    assert obj == {"eval_cases": []}
    raw = read_sdk_json(tmp_path / "e.json")
    assert raw.headers == ["question"] and raw.rows == [] and raw.notes == []


def test_invalid_tool_calls_kept_as_typed(tmp_path):
    bad = "[{'name': 'f'}"
    headers, rows = ["question", "expected_tool_calls"], [["q", bad], ["r", "{\"name\": \"f\"}"]]
    obj = save(Dataset(headers, rows, "sdk"), tmp_path / "b.json")
    assert obj["eval_cases"][0]["expected_tool_calls"] == bad and "reference_trajectory" not in obj["eval_cases"][0]
    assert table_round_trip(tmp_path, headers, rows) == (headers, rows)


def test_a_table_saved_as_sdk_json_reads_back_in_its_column_order(tmp_path):
    """A turn typed outside a conversation is kept as the extra turn_id: written among the other extras
    where its column stood, and read back there (it was written after them, and read as the first column)."""
    headers = ["Session_ID", "turn_id", "question", "answer", "Notes "]
    rows = [["007", "2", "What about tomorrow?", "Rain likely.", ""], ["007", "1", "Weather?", "Sunny", "first"]]
    obj = save(Dataset(headers, rows, "ground-truth"), tmp_path / "t.json")
    assert [k for k in obj["eval_cases"][0] if k[0].isupper() or k == "turn_id"] == ["Session_ID", "turn_id", "Notes "]
    raw = read_sdk_json(tmp_path / "t.json")
    assert (raw.headers, raw.rows) == (headers, rows)


def test_an_extra_given_before_the_prompt_is_a_column_before_the_question(tmp_path):
    path = write_json(tmp_path / "in.json", {"eval_cases": [
        {"id": "a", "prompt": user(text("q1")), "notes": "n"}, {"prompt": user(text("q2")), "rank": 2}]})
    raw = read_sdk_json(path)
    assert raw.headers == ["id", "question", "notes", "rank"]
    assert raw.rows == [["a", "q1", "n", ""], ["", "q2", "", "2"]]


@pytest.mark.parametrize("header", ["prompt", "agentData", "reference_trajectory", "source_case_id"])
def test_clashing_extra_column_refused(tmp_path, header):
    ds = Dataset(["question", header], [["q", "x"]], "sdk")
    with pytest.raises(WriteError, match=header):
        write_sdk_json(tmp_path / "x.json", ds)
    assert not (tmp_path / "x.json").exists()


# ----- hypothesis: canonical tables ----------------------------------------------------------------
TEXT = st.one_of(st.text(max_size=12), st.sampled_from(["=1+1", "007", "NA", "line\nbreak", "中文", "é ✓", " x "]))
FILLED = TEXT.filter(bool)
JSON_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                        st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=6))
JSON_VALUE = st.recursive(JSON_SCALAR, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)), max_leaves=6)
ARGS = st.dictionaries(st.text(max_size=6), JSON_VALUE, max_size=3)
CALL_TEXT = st.one_of(st.just(""), st.lists(st.builds(lambda n, a: {"name": n, "arguments": a}, FILLED, ARGS),
                                             max_size=3).map(toolcalls.dumps))
EXTRA_NAMES = ["lang", "category", "备注", "difficulty"]


@st.composite
def canonical_tables(draw):
    items = draw(st.lists(st.one_of(st.just(1), st.integers(1, 4).map(lambda n: -n)), min_size=1, max_size=6))
    sessions = iter(draw(st.lists(FILLED, min_size=len(items), max_size=len(items), unique=True)))
    extras = draw(st.lists(st.sampled_from(EXTRA_NAMES), unique=True, max_size=2))
    with_ids = draw(st.booleans())
    records = []
    for item in items:
        sid = next(sessions) if item < 0 else ""
        for turn in range(1, (-item if item < 0 else 1) + 1):
            records.append({
                "eval_case_id": "#" + draw(st.text(max_size=6)) if with_ids else "",
                "session_id": sid, "turn_id": str(turn) if sid else "",
                "question": draw(FILLED), "answer": draw(TEXT), "context": draw(TEXT),
                "expected_tool_calls": draw(CALL_TEXT), **{x: draw(TEXT) for x in extras}})
    if with_ids:
        for n, r in enumerate(records):
            r["eval_case_id"] += f"-{n}"  # unique
    fields = ["eval_case_id", "session_id", "turn_id", "question", "answer", "context", "expected_tool_calls"]
    headers = [f for f in fields if f == "question" or any(r[f] for r in records)]
    if "session_id" in headers:
        headers.insert(headers.index("session_id") + 1, "turn_id") if "turn_id" not in headers else None
    headers += [x for x in extras if any(r[x] for r in records)]
    return headers, [[r[h] for h in headers] for r in records]


@HYPO
@given(canonical_tables())
def test_table_round_trip_generated(tmp_path, table):
    headers, rows = table
    assert table_round_trip(tmp_path, headers, rows) == (headers, rows)


# ----- SDK JSON -> table -> SDK JSON ------------------------------------------------------------------
IMAGE = {"inline_data": {"mime_type": "image/png", "data": base64.b64encode(b"\x89PNG fake").decode()}}
FILES = {
    "single-turn": {"eval_cases": [
        {"eval_case_id": "c1", "prompt": user(text("What is 2+2?")), "reference": {"response": model(text("4"))}},
        {"prompt": user(text("No id, no reference"))},
        {"eval_case_id": "c3", "prompt": user(text("Tools?")), "context": "docs",
         "reference_trajectory": [model({"function_call": {"name": "f", "args": {"x": [1, None]}}})],
         "score": 3, "flag": True, "ratio": 0.5, "tags": ["a", "b"], "meta": {"k": None}}]},
    "agent traces": {"eval_cases": [{
        "eval_case_id": "trace-1",
        "agent_data": {
            "agents": {"root": {"agent_id": "root", "instruction": "Route", "sub_agents": ["flights"]},
                       "flights": {"agent_id": "flights", "description": "Books flights",
                                   "tools": [{"function_declarations": [{"name": "book", "description": "Book"}]}]}},
            "turns": [
                paris_booking_turn(),
                {"turn_index": 1, "events": [{"author": "user", "content": user(text("Thanks"))}]}]},
        "prompt": user(text("Thanks")),
        "reference": {"response": model(text("You're welcome"))}}]},
    "responses and rubrics": {"eval_cases": [{
        "prompt": user(text("Write a haiku")),
        "responses": [{"response": model(text("candidate one"))}, {"response": model(text("two"))}],
        "rubric_groups": {"quality": {"group_id": "quality", "display_name": "Quality", "rubrics": [
            {"rubric_id": "r1", "type": "FORMAT", "importance": "HIGH",
             "content": {"property": {"description": "Has 3 lines"}}}]}},
        "system_instruction": user(text("Be brief")),
        "conversation_history": [{"author": "user", "content": user(text("hi")), "turn_id": "0"}],
        "user_scenario": {"starting_prompt": "hello", "conversation_plan": "ask"}}]},
    "image part": {"eval_cases": [{
        "eval_case_id": "img",
        "prompt": user(IMAGE, text("What is in the picture?"),
                       {"file_data": {"file_uri": "gs://b/cat.png", "mime_type": "image/png"}}),
        "reference": {"response": model(text("A cat"), {"text": "thinking", "thought": True})}}]},
    "root keys": {"candidate_name": "gemini", "gcs_source": {"uris": ["gs://x/y.jsonl"]},
                  "eval_cases": [{"prompt": user(text("q"))}]},
    "trace only": {"eval_cases": [
        {"agent_data": {"turns": [{"turn_index": 0, "events": [{"author": "user", "content": user(text("hi"))}]}]}},
        {"eval_case_id": "case-2", "agent_data": {"turns": [{"turn_index": 0, "events": []}]}}]},
    "foreign conversation": {"eval_cases": [
        {"eval_case_id": "x", "prompt": user(text("a")), "source_case_id": "conv", "source_turn_index": 0},
        {"eval_case_id": "y", "prompt": user(text("b")), "source_case_id": "conv", "source_turn_index": 1,
         "agent_data": {"agents": {"bot": {}}, "turns": [{"turn_index": 0, "events": []}]}}]},
}


@pytest.mark.parametrize("name", list(FILES))
def test_file_round_trip_fixtures(tmp_path, name):
    before, after = file_round_trip(tmp_path, FILES[name])
    assert after == before


def test_own_output_round_trip_and_sample(tmp_path):
    for headers, rows in TABLES.values():
        obj = dataset_to_sdk(Dataset(headers, rows, "sdk"))
        before, after = file_round_trip(tmp_path, obj)
        assert after == before
        raw = read_sdk_json(write_json(tmp_path / "own.json", obj))
        assert raw.notes == []  # nothing hidden, nothing wrong
    sample = json.loads(SAMPLE.read_text(encoding="utf-8"))
    before, after = file_round_trip(tmp_path, sample)
    assert after == before
    assert len(sample["eval_cases"]) in range(6, 11)
    save(open_doc(SAMPLE).dataset, tmp_path / "s.json")
    assert (tmp_path / "s.json").read_bytes() == SAMPLE.read_bytes()  # saved back byte for byte


def test_what_the_table_shows(tmp_path):
    raw = read_sdk_json(write_json(tmp_path / "f.json", FILES["single-turn"]))
    assert raw.headers == ["eval_case_id", "question", "answer", "context", "expected_tool_calls", "score", "flag",
                           "ratio"]
    assert raw.rows[0] == ["c1", "What is 2+2?", "4", "", "", "", "", ""]
    assert raw.rows[2] == ["c3", "Tools?", "", "docs", '[{"name": "f", "arguments": {"x": [1, null]}}]', "3",
                           "true", "0.5"]
    assert all(isinstance(p, SdkCase) for p in raw.payloads)
    notes = [(n.rule, n.row) for n in raw.notes]
    assert notes == [("sdk-not-shown", 2)]
    assert "'tags'" in raw.notes[0].message and "'meta'" in raw.notes[0].message


def test_camel_case_input(tmp_path):
    camel = {"evalCases": [{
        "evalCaseId": "c", "prompt": {"role": "user", "parts": [{"text": "hi"}, {"inlineData": IMAGE["inline_data"]}]},
        "reference": {"response": {"role": "model", "parts": [{"text": "hello"}]}},
        "agentData": {"agents": {"myAgent": {"agentId": "myAgent", "subAgents": []}},
                      "turns": [{"turnIndex": 0, "events": [
                          {"author": "myAgent", "content": {"parts": [{"functionCall": {
                              "name": "f", "args": {"userId": 1}}}]}}]}]},
        "rubricGroups": {"someGroup": {"displayName": "G"}}, "customExtra": "kept as is"}]}
    before, after = file_round_trip(tmp_path, camel)
    assert after == before
    out = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    case = out["eval_cases"][0]
    assert list(case) == ["eval_case_id", "prompt", "reference", "agent_data", "rubric_groups", "customExtra"]
    event = case["agent_data"]["turns"][0]["events"][0]
    assert event["content"]["parts"][0]["function_call"]["args"] == {"userId": 1}  # user data keeps its keys
    assert case["agent_data"]["agents"] == {"myAgent": {"agent_id": "myAgent", "sub_agents": []}}
    assert case["rubric_groups"] == {"someGroup": {"display_name": "G"}}
    assert read_sdk_json(tmp_path / "in.json").rows[0][:3] == ["c", "hi", "hello"]


def _edit(doc, row: int, header: str, value: str) -> None:
    ds = doc.dataset
    col = ds.columns[ds.headers().index(header)]
    SetCells([(ds.rows[row].id, col.id, value)]).apply(ds)


def test_edit_one_question_changes_only_that_prompt(tmp_path):
    obj = {"eval_cases": [FILES["image part"]["eval_cases"][0], *FILES["single-turn"]["eval_cases"]]}
    src = write_json(tmp_path / "in.json", obj)
    doc = open_doc(src)
    _edit(doc, 0, "question", "Describe the picture")
    out = save(doc.dataset, tmp_path / "out.json")
    expected = json.loads(json.dumps(obj))
    expected["eval_cases"][0]["prompt"]["parts"][1] = text("Describe the picture")
    assert sdk_view(out) == sdk_view(expected)


def test_edits_replace_only_their_part(tmp_path):
    src = write_json(tmp_path / "in.json", FILES["single-turn"])
    doc = open_doc(src)
    _edit(doc, 0, "answer", "four")
    _edit(doc, 1, "answer", "new reference")
    _edit(doc, 2, "expected_tool_calls", '[{"name": "g", "arguments": {}}]')
    _edit(doc, 2, "score", "4")
    _edit(doc, 2, "context", "")
    out = save(doc.dataset, tmp_path / "out.json")["eval_cases"]
    orig = FILES["single-turn"]["eval_cases"]
    assert out[0] == {**orig[0], "reference": {"response": model(text("four"))}}
    assert out[1] == {**orig[1], "reference": {"response": model(text("new reference"))}}
    expect = {k: v for k, v in orig[2].items() if k != "context"}
    expect.update(score=4, reference_trajectory=[model({"function_call": {"name": "g", "args": {}}})])
    assert out[2] == expect


def test_edit_in_conversation_updates_later_histories(tmp_path):
    headers, rows = TABLES["conversations"]
    src = tmp_path / "conv.json"
    original = save(Dataset(headers, rows, "sdk"), src)
    doc = open_doc(src)
    _edit(doc, 1, "answer", "Where would you like to go?")
    out = save(doc.dataset, tmp_path / "out.json")["eval_cases"]
    changed = [i for i, (a, b) in enumerate(zip(original["eval_cases"], out, strict=True)) if a != b]
    assert changed == [1, 2, 3]  # turn 1's reference, and the history of turns 2 and 3
    assert out[2]["agent_data"]["turns"][0]["events"][1]["content"] == model(text("Where would you like to go?"))


def test_foreign_agent_data_kept_until_conversation_edited(tmp_path):
    src = write_json(tmp_path / "in.json", FILES["foreign conversation"])
    raw = read_sdk_json(src)
    assert raw.headers[:4] == ["eval_case_id", "session_id", "turn_id", "question"]
    assert [r[:3] for r in raw.rows] == [["x", "conv", "1"], ["y", "conv", "2"]]
    assert [(n.rule, n.row) for n in raw.notes] == [("sdk-not-shown", 0), ("sdk-not-shown", 1)]
    doc = open_doc(src)
    from evaleditor.io.sdk.write import replaced_traces

    assert replaced_traces(doc.dataset) == []
    _edit(doc, 0, "question", "a2")
    assert replaced_traces(doc.dataset) == [doc.dataset.rows[1].id]  # the window can warn
    out = save(doc.dataset, tmp_path / "out.json")["eval_cases"]
    # the history turns are regenerated; the agents the case declared are kept, with the writer's own
    assert out[1]["agent_data"]["agents"] == {"bot": {}, "agent": {"agent_id": "agent"}}
    assert out[1]["agent_data"]["turns"][0]["events"] == [{"author": "user", "content": user(text("a2"))}]


def test_removing_a_column_removes_its_values(tmp_path):
    src = write_json(tmp_path / "in.json", FILES["single-turn"])
    doc = open_doc(src)
    from evaleditor.core.commands import RemoveColumn

    RemoveColumn(doc.dataset.columns[doc.dataset.headers().index("score")].id).apply(doc.dataset)
    out = save(doc.dataset, tmp_path / "out.json")["eval_cases"]
    assert "score" not in out[2] and out[2]["flag"] is True


def test_new_rows_get_fresh_unique_ids(tmp_path):
    headers, rows = TABLES["single"]
    src = tmp_path / "own.json"
    save(Dataset(headers, rows, "sdk"), src)
    doc = open_doc(src)
    assert doc.dataset.headers() == ["question", "answer"]  # generated ids need no column
    from evaleditor.core.commands import InsertRows, ReorderRows

    ds = doc.dataset
    ReorderRows([r.id for r in reversed(ds.rows)]).apply(ds)
    InsertRows(0, [ds.new_row(["new question", ""])]).apply(ds)
    cases = save(ds, tmp_path / "out.json")["eval_cases"]
    assert [c["eval_case_id"] for c in cases] == ["case-1-2", "case-2", "case-1"]  # read ids stay with their case
    assert [c["prompt"]["parts"][0]["text"] for c in cases] == ["new question", "Capital of France?", "What is 2+2?"]


def test_evaluation_set_headers(tmp_path):
    ds = Dataset(["会话ID", "请求顺序", "问题", "答案"], [["s", "2", "第二", "b"], ["s", "1", "第一", "a"]],
                 "evaluation-set")
    cases = dataset_to_sdk(ds)["eval_cases"]
    assert [(c["source_case_id"], c["source_turn_index"]) for c in cases] == [("s", 1), ("s", 0)]
    assert cases[1]["prompt"] == user(text("第一"))


def test_progress_and_cancel(tmp_path):
    headers, rows = TABLES["conversations"]
    seen = []
    write_sdk_json(tmp_path / "p.json", Dataset(headers, rows, "sdk"), progress=lambda done, total: seen.append(
        (done, total)))
    assert seen[-1] == (6, 6)
    seen.clear()
    read_sdk_json(tmp_path / "p.json", progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (6, 6)
    from evaleditor.core.errors import Cancelled

    with pytest.raises(Cancelled):
        read_sdk_json(tmp_path / "p.json", cancel=lambda: True)


@HYPO
@given(st.dictionaries(st.text(max_size=4), JSON_VALUE, max_size=4))
def test_fast_encoder_matches_json_module(value):
    from evaleditor.io.sdk.json_text import dumps

    assert dumps(value) == (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


# ----- hypothesis: arbitrary valid EvaluationDatasets ----------------------------------------------------
NAME = st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=6)
B64 = st.binary(max_size=8).map(lambda b: base64.b64encode(b).decode())
PART = st.one_of(
    st.builds(text, TEXT),
    st.fixed_dictionaries({"text": TEXT, "thought": st.booleans()}),
    st.fixed_dictionaries({"inline_data": st.fixed_dictionaries({"mime_type": st.just("image/png"), "data": B64})}),
    st.fixed_dictionaries({"file_data": st.fixed_dictionaries({"file_uri": NAME.map("gs://b/{}".format)})}),
    st.fixed_dictionaries({"function_call": st.fixed_dictionaries({"name": NAME, "args": ARGS})}),
    st.fixed_dictionaries({"function_response": st.fixed_dictionaries({"name": NAME, "response": ARGS})}),
)


def content(role: str) -> st.SearchStrategy:
    return st.lists(PART, min_size=1, max_size=3).map(lambda parts: {"role": role, "parts": parts})


@st.composite
def agent_data(draw):
    agents = draw(st.lists(NAME, min_size=1, max_size=3, unique=True))
    turns = []
    for i in range(draw(st.integers(1, 3))):
        events = [{"author": draw(st.sampled_from(["user", *agents])), "content": draw(content("model"))}
                  for _ in range(draw(st.integers(1, 3)))]
        turns.append({"turn_index": i, "events": events})
    return {"agents": {a: {"agent_id": a} for a in agents}, "turns": turns}


EXTRA_KEY = st.text(st.characters(categories=["L"]), min_size=1, max_size=8).filter(
    lambda k: field_name("EvalCase", k) is None)
CASE = st.fixed_dictionaries({}, optional={
    "eval_case_id": TEXT,
    "prompt": content("user"),
    "reference": content("model").map(lambda c: {"response": c}),
    "responses": st.lists(content("model").map(lambda c: {"response": c}), max_size=2),
    "rubric_groups": st.dictionaries(NAME, st.fixed_dictionaries({}, optional={
        "display_name": TEXT, "rubrics": st.lists(st.fixed_dictionaries({"rubric_id": NAME}), max_size=2)}),
        max_size=2),
    "agent_data": agent_data(),
    "context": st.one_of(TEXT, JSON_VALUE),
    "reference_trajectory": st.lists(content("model"), max_size=2),
    "expected_tool_calls": TEXT,
    "extras": st.dictionaries(EXTRA_KEY, JSON_VALUE, max_size=3),
})


def _flatten(case: dict) -> dict:
    extras = case.pop("extras", {})
    return {**case, **{k: v for k, v in extras.items() if k not in case}}


def camelise(obj: object, model_name: str, seed: int) -> object:
    """Spell some declared fields in camelCase (free-form objects keep their keys)."""
    from evaleditor.io.sdk.schema import MODELS

    if not isinstance(obj, dict):
        return obj
    out = {}
    for i, (key, value) in enumerate(obj.items()):
        spec = MODELS[model_name].get(key)
        if spec is None:
            out[key] = value
            continue
        alias, kind = spec
        out[alias if (seed >> (i % 16)) & 1 else key] = _camel_value(value, kind, seed + i)
    return out


def _camel_value(value, kind, seed):
    from evaleditor.io.sdk.schema import MODELS

    if isinstance(kind, tuple) and kind[0] == "list" and isinstance(value, list):
        return [_camel_value(v, kind[1], seed + j) for j, v in enumerate(value)]
    if isinstance(kind, tuple) and kind[0] == "dict" and isinstance(value, dict):
        return {k: _camel_value(v, kind[1], seed) for k, v in value.items()}
    if isinstance(kind, str) and kind in MODELS:
        return camelise(value, kind, seed)
    return value


@HYPO
@given(st.lists(CASE.map(_flatten), max_size=5), st.integers(0, 1 << 16))
def test_file_round_trip_generated(tmp_path, cases, seed):
    obj = camelise({"eval_cases": cases}, "EvaluationDataset", seed)
    before, after = file_round_trip(tmp_path, obj)
    assert after == before
    assert {n.rule for n in read_sdk_json(tmp_path / "in.json").notes} <= {"sdk-not-shown"}
    written = (tmp_path / "out.json").read_text(encoding="utf-8")
    assert not any(f'"{key}":' in written for key in ("evalCases", "functionCall", "agentData"))  # as keys: a
    # generated text may be the word itself (case_id "functionCall")


# ----- rules while reading ----------------------------------------------------------------------------
BAD = {
    "sdk-schema-error": [
        ({"eval_cases": [{"prompt": "hello"}]}, "eval_cases.0.prompt"),
        ({"eval_cases": [{"reference": "hi"}]}, "eval_cases.0.reference"),
        ({"eval_cases": [{"reference": model(text("hi"))}]}, "eval_cases.0.reference"),
        ({"eval_cases": [{"prompt": user({"txt": "x", "text": "y"})}]}, "eval_cases.0.prompt.parts.0.txt"),
        ({"eval_cases": [{"agent_data": {"turns": [{"turn_index": 0, "speaker": "x"}]}}]},
         "eval_cases.0.agent_data.turns.0.speaker"),
        ({"eval_cases": [{"agent_data": {"turns": [{"turn_index": 0, "events": [{"author": 3}]}]}}]},
         "eval_cases.0.agent_data.turns.0.events.0.author"),
        ({"eval_cases": [], "extra_root": 1}, "extra_root"),
        ([{"prompt": user(text("q"))}], "root is an array"),
        ({"eval_cases": [1, {"prompt": user(text("q"))}]}, "eval_cases.0"),
        ({"eval_cases": [{"prompt": user(text(5))}]}, "eval_cases.0.prompt.parts.0.text"),
    ],
    "sdk-empty-content": [
        ({"eval_cases": [{"prompt": user()}]}, "eval_cases.0.prompt"),
        ({"eval_cases": [{"prompt": user(text("q")), "reference": {"response": model()}}]},
         "eval_cases.0.reference.response"),
        ({"eval_cases": [{"prompt": user({"thought": True})}]}, "eval_cases.0.prompt.parts.0"),
        ({"eval_cases": [{"agent_data": {"turns": [{"turn_index": 0, "events": [{"author": "user"}]}]}}]},
         "eval_cases.0.agent_data.turns.0.events.0"),
    ],
    "sdk-turn-index": [
        ({"eval_cases": [{"agent_data": {"turns": [{"turn_index": 1}, {"turn_index": 2}]}}]},
         "eval_cases.0.agent_data.turns"),
        ({"eval_cases": [{"agent_data": {"turns": [{"turn_index": 0}, {}]}}]}, "eval_cases.0.agent_data.turns"),
    ],
    "sdk-unknown-author": [
        ({"eval_cases": [{"agent_data": {"agents": {"a": {}}, "turns": [{"turn_index": 0, "events": [
            {"author": "b", "content": model(text("x"))}]}]}}]}, "eval_cases.0.agent_data.turns.0.events.0"),
    ],
    "sdk-not-shown": [
        ({"eval_cases": [{"prompt": user(text("q"), IMAGE)}]}, "inline_data"),
        ({"eval_cases": [{"prompt": user(text("q")), "rubric_groups": {"g": {}}}]}, "rubric group"),
        ({"eval_cases": [{"prompt": user(text("q")), "responses": [{"response": model(text("r"))}]}]},
         "candidate response"),
        (FILES["agent traces"], "agent trace"),
    ],
}
CASES = [(rule, obj, where) for rule, items in BAD.items() for obj, where in items]


@pytest.mark.parametrize("rule,obj,where", CASES, ids=[f"{r}-{i}" for i, (r, _, _) in enumerate(CASES)])
def test_rules_fire(tmp_path, rule, obj, where):
    raw = read_sdk_json(write_json(tmp_path / "bad.json", obj))
    hits = [n for n in raw.notes if n.rule == rule]
    assert hits and any(where in n.message for n in hits), raw.notes
    doc = document_from_table(raw, tmp_path / "bad.json")
    if rule != "sdk-schema-error":
        save(doc.dataset, tmp_path / "saved.json")  # what the SDK accepts, we save so that it still does
        return
    # what the SDK rejects is saved as it was read, and said again when the file is opened again
    write_sdk_json(tmp_path / "saved.json", doc.dataset)
    kept = {n.message for n in hits if n.message.endswith(KEPT)}
    assert kept <= {n.message for n in read_sdk_json(tmp_path / "saved.json").notes}


def test_note_positions(tmp_path):
    obj = {"eval_cases": [{"prompt": user(text("a"))}, {"prompt": "bare", "reference": {"response": model()}}]}
    raw = read_sdk_json(write_json(tmp_path / "bad.json", obj))
    by_rule = {n.rule: n for n in raw.notes}
    assert by_rule["sdk-schema-error"].row == 1 and by_rule["sdk-schema-error"].column == raw.headers.index("question")
    assert by_rule["sdk-empty-content"].row == 1
    assert raw.rows[1][raw.headers.index("question")] == "bare"
    doc = document_from_table(raw, tmp_path / "bad.json")
    assert {i.rule for i in doc.validator.all_issues()} >= {"sdk-schema-error", "sdk-empty-content"}
    saved = save(doc.dataset, tmp_path / "saved.json")["eval_cases"][1]
    assert saved["prompt"] == user(text("bare"))


def test_good_files_have_no_error_notes(tmp_path):
    for name, obj in FILES.items():
        raw = read_sdk_json(write_json(tmp_path / "f.json", obj))
        assert {n.rule for n in raw.notes} <= {"sdk-not-shown"}, (name, raw.notes)


# ----- unreadable files -------------------------------------------------------------------------------
@pytest.mark.parametrize("data,reason", [
    (b'{"eval_cases": [\n  {"a": 1}\n  {"b": 2}]}', "not valid JSON: Expecting ',' delimiter at line 3 column 3"),
    (b"question,answer\nq,a\n", "not valid JSON: Expecting value at line 1 column 1"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "not valid JSON"),
    (b"   \n", "empty"),
    (b"", "empty"),
    (b'"just a string"', "not an SDK EvaluationDataset"),
    (b'{"name": "package", "version": "1"}', 'no "eval_cases" (keys: name, version)'),
    (b'{"eval_cases": {"a": 1}}', "eval_cases is an object, not an array"),
    (b"[1, 2]", "not an SDK EvaluationDataset"),
    (b'{"eval_cases": [NaN]}', "not valid JSON"),
    (b"[" * 100000, "not valid JSON"),
])
def test_unreadable_json(tmp_path, data, reason):
    path = tmp_path / "x.json"
    path.write_bytes(data)
    with pytest.raises(ReadError) as err:
        read_sdk_json(path)
    message = str(err.value)
    assert reason in message and "\n" not in message


def test_bom_and_utf16_accepted(tmp_path):
    obj = {"eval_cases": [{"prompt": user(text("héllo"))}]}
    for encoding in ("utf-8-sig", "utf-16"):
        path = tmp_path / f"{encoding}.json"
        path.write_bytes(json.dumps(obj, ensure_ascii=False).encode(encoding))
        assert read_sdk_json(path).rows == [["héllo"]]


# ----- packaging and layering ---------------------------------------------------------------------------
def test_schema_matches_installed_sdk():
    from tests.io import sdk_schema_gen

    generated = sdk_schema_gen.render()
    current = (ROOT / "evaleditor" / "io" / "sdk" / "schema.py").read_text(encoding="utf-8")
    assert current == generated, "regenerate: python -m tests.io.sdk_schema_gen > evaleditor/io/sdk/schema.py"


def test_sdk_not_imported_at_run_time(tmp_path):
    path = write_json(tmp_path / "f.json", FILES["agent traces"])
    code = ("import sys, json\n"
            "from evaleditor.io.sdk import read_sdk_json, write_sdk_json\n"
            "from evaleditor.core.document import document_from_table\n"
            f"doc = document_from_table(read_sdk_json({str(path)!r}), {str(path)!r})\n"
            f"write_sdk_json({str(tmp_path / 'o.json')!r}, doc.dataset)\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('agentplatform', 'google', 'pandas', 'PySide6')]\n"
            "assert not bad, bad\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# ----- hypothesis: any JSON shaped roughly like a dataset -------------------------------------------------
def _vocabulary() -> list[str]:
    from evaleditor.io.sdk.schema import MODELS

    names = {n for fields in MODELS.values() for n in fields} | {a for fields in MODELS.values()
                                                                 for a, _ in fields.values()}
    return sorted(names | {"context", "reference_trajectory", "source_case_id", "source_turn_index",
                           "expected_tool_calls", "question", "x"})


KEY = st.sampled_from(_vocabulary())
LOOSE = st.recursive(JSON_SCALAR, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(KEY, inner, max_size=4)), max_leaves=25)


def _a_case_field_given_twice(cases) -> bool:
    """Whether a case gives one of its fields under both spellings, both not null (the known defect of
    test_a_case_field_given_twice_saves_the_same_twice, left out of the test below until it is fixed)."""
    from evaleditor.io.sdk.check import field_name

    for case in cases:
        names = [field_name("EvalCase", k) for k, v in case.items() if v is not None]
        if len({n for n in names if n}) != len([n for n in names if n]):
            return True
    return False


@pytest.mark.xfail(strict=True, reason="known: a case field given under both spellings (the first valid, the second "
                   "rejected) beside another rejected field is not written back in the order read, so the next "
                   "read takes the other value")
def test_a_case_field_given_twice_saves_the_same_twice(tmp_path):
    cases = [{"interactionsDataSource": {}, "accessToken": None, "access_token": [], "interactions_data_source": []}]
    path = write_json(tmp_path / "twice.json", {"eval_cases": cases})
    write_sdk_json(tmp_path / "saved.json", document_from_table(read_sdk_json(path), path).dataset)
    again = read_sdk_json(tmp_path / "saved.json")
    write_sdk_json(tmp_path / "again.json", document_from_table(again, tmp_path / "saved.json").dataset)
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "saved.json").read_bytes()


@HYPO
@given(st.lists(st.dictionaries(KEY, LOOSE, max_size=6), max_size=4))
def test_any_input_reads_and_saves_back_what_the_sdk_rejects(tmp_path, cases):
    """Whatever the input, a save keeps what the SDK rejects as it was read: the saved file says the same
    of it, and saving that file again changes nothing (the SDK's view: test_sdk_rejected_kept.py)."""
    assume(not _a_case_field_given_twice(cases))
    path = write_json(tmp_path / "loose.json", {"eval_cases": cases})
    first = read_sdk_json(path)
    write_sdk_json(tmp_path / "saved.json", document_from_table(first, path).dataset)
    again = read_sdk_json(tmp_path / "saved.json")
    write_sdk_json(tmp_path / "again.json", document_from_table(again, tmp_path / "saved.json").dataset)
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "saved.json").read_bytes()

    def kept(raw):  # what each read says it keeps, its case numbered as in its file (a non-case is left out)
        return Counter(re.sub(r"^eval_cases\.\d+", "", n.message) for n in raw.notes if n.message.endswith(KEPT))

    if not any("more values the SDK would reject" in n.message for n in first.notes):  # all listed
        assert kept(again) == kept(first)


@pytest.mark.parametrize("value", [
    {"small": [1e-05, 1.5e-07, 2.5e-300, -3e-5, 0.0001, 1e16, 1e-10]},  # orjson writes 0.00001, 1.5e-7
    {"big": 2**70, "neg": -(2**64)},  # beyond orjson's 64 bits
    {"records": [{"score": 1e16, "other": 2.5e20}]},  # no e- for the scan: orjson < 3.11.7 wrote 1e16
    {"lone": "a\ud800b"},  # orjson refuses lone surrogates
    {"text": "e-mail 3e-5 null 0.00001", "ctl": "\x00\x1f\x7f\u2028\"\\\b\f\n\r\t", "empty": [{}, []]},
])
def test_writer_bytes_are_the_json_modules_where_orjson_would_differ(value):
    from evaleditor.io.sdk.json_text import dumps

    try:
        want = (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        want = (json.dumps(value, ensure_ascii=True, indent=2) + "\n").encode("ascii")
    assert dumps(value) == want


def test_orjson_spells_every_float_it_is_given_as_repr_does():
    """json_text.marked leaves a float to orjson only where orjson's text is repr's (json.dumps's):
    checked over floats of every exponent, 1e16 … 1e308 and subnormals included. It marks every float
    under 1e-4, where orjson spells some otherwise (0.00001 for 1e-05, 1.5e-7 for 1.5e-07)."""
    import orjson

    from evaleditor.io.sdk.json_text import ReprFloat, marked

    rng = random.Random(16)
    floats = [5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1e16, -1e16, 9999999999999998.0,
              1e-4, 9.999999999999999e-05, -0.0, 0.0, 1e22, 1e21, 123456789012345678.0]
    floats += [struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0] for _ in range(100_000)]
    floats += [m * 10.0 ** e for e in range(-323, 309) for m in (1.0, 1.5, 9.87654321)]
    floats += [10 ** rng.uniform(16, 308) for _ in range(20_000)]
    floats += [struct.unpack("<d", rng.getrandbits(52).to_bytes(8, "little"))[0] for _ in range(5_000)]  # subnormal
    differ = 0
    for value in filter(math.isfinite, floats):
        same = orjson.dumps(value) == float.__repr__(value).encode()
        if value and abs(value) < 1e-4:
            assert isinstance(marked(value), ReprFloat)
            differ += not same
        else:  # orjson writes it as repr does: left to orjson, unmarked
            assert same and type(marked(value)) is float, value
    assert differ > 500  # the mark is needed: orjson's text differs for many of them


def test_big_floats_of_a_file_keep_orjsons_writer(tmp_path, monkeypatch):
    """A file holding floats from 1e16 up (orjson writes them as repr does, 1e+16) saves without the
    json module's slower rules, and its text is still json.dumps's."""
    from evaleditor.io.sdk import json_text

    used = []
    real = json_text._encode
    monkeypatch.setattr(json_text, "_encode", lambda *a: used.append(1) or real(*a))
    case = {"prompt": user(text("q")), "score": 1e16, "trace": {"x": [2.5e300, -1e22, 0.5]}}
    doc = open_doc(write_json(tmp_path / "in.json", {"eval_cases": [case]}))
    write_sdk_json(tmp_path / "out.json", doc.dataset)
    data = (tmp_path / "out.json").read_bytes()
    assert b"1e+16" in data and b"2.5e+300" in data and data == json_modules_text(data)
    assert used == []


def json_modules_text(data: bytes) -> bytes:
    return (json.dumps(json.loads(data), ensure_ascii=False, indent=2) + "\n").encode("utf-8")


@pytest.mark.parametrize("small", [1e-05, 1.5e-07, 1e16, -2.5e-300])
@pytest.mark.parametrize("enters", ["read", "edited extra", "tool call"])
def test_floats_orjson_spells_otherwise_keep_the_json_modules_text_wherever_they_enter(tmp_path, small, enters):
    """A save does not look through its output for floats orjson spells otherwise (0.00001 for 1e-05):
    each is marked where it enters — the reader, an edited number extra, a tool call's arguments
    (the recovery journal: test_journal.py) — and the file is still json.dumps's text."""
    if enters == "tool call":
        ds = Dataset(["question", "expected_tool_calls"], [["q", f'[{{"name": "f", "arguments": {{"t": {small!r}}}}}]']],
                     "sdk")
    else:
        extra = {"trace": {"x": [small, 0.25]}} if enters == "read" else {"score": 2.0}
        ds = open_doc(write_json(tmp_path / "in.json", {"eval_cases": [{"prompt": user(text("q")), **extra}]})).dataset
        if enters == "edited extra":  # was the number 2.0: written as a number
            ds.rows[0].cells[ds.headers().index("score")] = repr(small)
    write_sdk_json(tmp_path / "out.json", ds)
    data = (tmp_path / "out.json").read_bytes()
    assert repr(small).encode() in data
    assert data == json_modules_text(data)


def test_writer_refuses_nan_as_the_json_module_does(tmp_path):
    from evaleditor.io.sdk.json_text import dumps

    with pytest.raises(ValueError):
        dumps({"calls": [{"name": "f", "arguments": {"x": float("nan")}}]})
    ds = Dataset(["question", "expected_tool_calls"], [["q", '[{"name": "f", "arguments": {"x": NaN}}]']], "sdk")
    with pytest.raises(WriteError, match="Out of range float"):  # not null: a tool call's NaN is marked
        write_sdk_json(tmp_path / "nan.json", ds)


def test_text_null_in_a_cell_keeps_the_fast_writer(monkeypatch):
    """The words null or NaN in cells are strings: orjson's bytes stand (the fallback encoder would take
    16x longer at 100k cases); a real null value is still checked for NaN by the fallback."""
    from evaleditor.io.sdk import json_text

    used = []
    real = json_text._encode
    monkeypatch.setattr(json_text, "_encode", lambda *a: used.append(1) or real(*a))
    value = {"eval_cases": [{"notes": "null", "other": "NaN", "list": ["null"]}]}
    assert json_text.dumps(value) == (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode()
    assert used == []
    value = {"eval_cases": [{"notes": None, "list": [None]}]}
    assert json_text.dumps(value) == (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode()
    assert used
