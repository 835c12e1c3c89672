"""The SDK JSON writer keeps what a case carries (io/sdk/write.py, io/sdk/mapping.py).

A. A case carrying its own agent trace keeps it when it is given a session id: whole when it is alone in
   its conversation or its first turn; as a later turn its history must be the conversation's, so only
   its agents and its evaluated turn are kept, and `replaced_traces` names the row before the save.
B. An extra field keeps its JSON type (number, boolean) when its cell is edited to a text the reader
   shows for that type, and when its column is renamed.
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaleditor.core.commands import InsertColumn, RemoveColumn, RenameColumn, SetCells
from evaleditor.core.dataset import Dataset
from evaleditor.io.save import plan_save
from evaleditor.io.sdk import dataset_to_sdk, read_sdk_json
from evaleditor.io.sdk.mapping import scalar_text, typed_extra
from evaleditor.io.sdk.write import replaced_traces
from tests.io.test_sdk_json import (
    HYPO,
    model,
    open_doc,
    paris_booking_turn,
    save,
    sdk_view,
    text,
    user,
    write_json,
)

pytest.importorskip("agentplatform")

TRACE = {
    "eval_case_id": "trace-1",
    "agent_data": {
        "agents": {
            "root": {"agent_id": "root", "instruction": "Route", "sub_agents": ["flights", "hotels"]},
            "flights": {"agent_id": "flights", "description": "Books flights",
                        "tools": [{"function_declarations": [{"name": "book", "description": "Book"}]}]},
            "hotels": {"agent_id": "hotels", "description": "Hotels"}},
        "turns": [
            paris_booking_turn(),
            {"turn_index": 1, "events": [
                {"author": "user", "content": user(text("And a hotel"))},
                {"author": "hotels", "content": model(text("Hotel booked"))}]},
            {"turn_index": 2, "turn_id": "t2", "events": [{"author": "user", "content": user(text("Thanks"))}]}]},
    "prompt": user(text("Thanks")),
    "reference": {"response": model(text("You're welcome"))},
    "custom_case_key": {"nested": [1, 2, {"a": None}]},
    "priority": 7,
}


def rich() -> dict:
    """rich.json of the QA report, in short: a multi-agent trace, a case with a number extra, a
    conversation of two turns as the editor writes it, a case with number and boolean extras."""
    conv = dataset_to_sdk(Dataset(["session_id", "turn_id", "question", "answer"],
                                  [["conv-a", "1", "Hi there", "Hello!"], ["conv-a", "2", "Weather?", "Sunny"]],
                                  "sdk"))["eval_cases"]
    return {"candidate_name": "gemini-x", "eval_cases": [
        copy.deepcopy(TRACE),
        {"eval_case_id": "cand-1", "prompt": user(text("Write a haiku")), "context": "poetry docs", "priority": 2},
        *conv,
        {"eval_case_id": "plain", "prompt": user(text("2+2?")), "reference": {"response": model(text("4"))},
         "score": 3, "flag": True, "ratio": 0.5, "note": ""}]}


def opened(tmp_path: Path, obj: dict | None = None):
    return open_doc(write_json(tmp_path / "in.json", obj if obj is not None else rich()))


def edit(doc, row: int, header: str, value: str) -> None:
    ds = doc.dataset
    SetCells([(ds.rows[row].id, ds.columns[ds.headers().index(header)].id, value)]).apply(ds)


def column_id(doc, header: str) -> int:
    return doc.dataset.columns[doc.dataset.headers().index(header)].id


def case_of(obj: dict, case_id: str) -> dict:
    return next(c for c in obj["eval_cases"] if c.get("eval_case_id") == case_id)


def undeclared(case: dict) -> set[str]:
    agent_data = case.get("agent_data") or {}
    authors = {e.get("author") for t in agent_data.get("turns") or [] for e in t.get("events") or []}
    return authors - {"user", None} - set(agent_data.get("agents") or {})


def row_of(raw, case_id: str) -> dict[str, str]:
    return next(dict(zip(raw.headers, r, strict=True)) for r in raw.rows if r[0] == case_id)


# ----- A: a case with its own trace given a session id -------------------------------------------------
@pytest.mark.parametrize("turn", ["", "1"])
def test_trace_alone_in_new_conversation_kept_whole(tmp_path, turn):
    doc = opened(tmp_path)
    assert doc.dataset.headers()[:3] == ["eval_case_id", "session_id", "turn_id"]
    edit(doc, 0, "session_id", "newsess")
    edit(doc, 0, "turn_id", turn)
    assert replaced_traces(doc.dataset) == []
    out = save(doc.dataset, tmp_path / "out.json")  # (save proves EvaluationDataset takes it)
    case = case_of(out, "trace-1")
    assert case["agent_data"] == TRACE["agent_data"]  # 3 agents, 3 turns, calls, event_time, state_delta
    assert (case["source_case_id"], case["source_turn_index"]) == ("newsess", 0)
    assert {k: v for k, v in case.items() if not k.startswith("source_")} == TRACE
    # reads back as a conversation of one; saved again with no edit: the same bytes
    raw = read_sdk_json(tmp_path / "out.json")
    shown = row_of(raw, "trace-1")
    assert (shown["session_id"], shown["turn_id"], shown["question"]) == ("newsess", "1", "Thanks")
    again = open_doc(tmp_path / "out.json")
    assert replaced_traces(again.dataset) == []
    save(again.dataset, tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "out.json").read_bytes()
    # an edit of its question afterwards keeps the trace as well (as for a case in no conversation)
    edit(again, 0, "question", "Thanks a lot")
    case = case_of(save(again.dataset, tmp_path / "edited.json"), "trace-1")
    assert case["agent_data"] == TRACE["agent_data"] and case["prompt"] == user(text("Thanks a lot"))


def test_a_document_restored_from_the_crash_journal_still_reports_the_replaced_trace(tmp_path):
    """The crash journal rebuilds the document from its table: the plan still names the row whose own
    trace the SDK JSON save replaces in part (the window asks, convert warns, left_out lists it)."""
    from evaleditor.core.report import left_out_json
    from evaleditor.io.journal import read_journal, write_journal

    doc = opened(tmp_path)
    edit(doc, 0, "session_id", "conv-a")
    edit(doc, 0, "turn_id", "3")
    write_journal(tmp_path / "doc.journal", doc)
    restored = read_journal(tmp_path / "doc.journal").document
    plan = plan_save(restored, "json")
    assert plan.replaced_traces == [restored.dataset.rows[0].id] == plan_save(doc, "json").replaced_traces
    assert left_out_json(plan, restored.dataset)["replaced_traces"] == [1]


def test_trace_joining_a_conversation_keeps_what_it_can_and_is_reported(tmp_path):
    doc = opened(tmp_path)
    edit(doc, 0, "session_id", "conv-a")
    edit(doc, 0, "turn_id", "3")
    assert replaced_traces(doc.dataset) == [doc.dataset.rows[0].id]
    # the save plan lists it, for the window to ask and convert to warn; a table keeps no trace at all
    assert plan_save(doc, "json").replaced_traces == [doc.dataset.rows[0].id]
    assert plan_save(doc, "csv").replaced_traces == [] and plan_save(doc, "csv").hidden_cases == 1
    from evaleditor.cli import _left_out_warnings
    from evaleditor.io.convert import write_converted

    # convert's warning, of the document as written (the plan's turn order: conv-a's third turn is row 3)
    plan = plan_save(doc, "json")
    written, refused = write_converted(doc, tmp_path / "out.json", plan)
    assert refused == [] and written.path == tmp_path / "out.json"
    said = _left_out_warnings(plan, written, "out.json")
    assert said == ["evaleditor: warning: 1 row is now a later turn of a conversation, whose history replaces the "
                    "earlier turns of its own agent trace in out.json (row 3)"]
    assert [r[0] for r in read_sdk_json(tmp_path / "out.json").rows].index("trace-1") == 2  # the file's row 3
    out = save(doc.dataset, tmp_path / "out.json")
    case = case_of(out, "trace-1")
    agent_data = case["agent_data"]
    # its agents (instructions, tools, sub-agents) are kept, with the author of the history declared
    assert agent_data["agents"] == {**TRACE["agent_data"]["agents"], "agent": {"agent_id": "agent"}}
    assert undeclared(case) == set()
    # the history is conv-a's (as for any turn 3 of conv-a); its own evaluated turn is kept, with its turn_id
    history = case_of(out, "conv-a-turn-2")["agent_data"]["turns"]
    assert agent_data["turns"][:1] == history[:1]
    assert agent_data["turns"][1]["events"][1] == {"author": "agent", "content": model(text("Sunny"))}
    assert agent_data["turns"][2] == {**TRACE["agent_data"]["turns"][2], "turn_index": 2}
    assert (case["source_case_id"], case["source_turn_index"]) == ("conv-a", 2)
    assert case["custom_case_key"] == TRACE["custom_case_key"] and case["priority"] == 7
    raw = read_sdk_json(tmp_path / "out.json")
    shown = row_of(raw, "trace-1")
    assert (shown["session_id"], shown["turn_id"], shown["question"], shown["answer"]) == \
        ("conv-a", "3", "Thanks", "You're welcome")
    assert "sdk-unknown-author" not in [n.rule for n in raw.notes]
    # reopened: its history is the one made from conv-a's rows, which follows an edit of them unreported
    again = open_doc(tmp_path / "out.json")
    assert replaced_traces(again.dataset) == []
    edit(again, 0, "answer", "Hello again!")
    assert row_of(read_sdk_json(tmp_path / "out.json"), "conv-a-turn-1")["answer"] == "Hello!"
    assert again.dataset.rows[0].cells[0] == "conv-a-turn-1"
    assert replaced_traces(again.dataset) == []
    case = case_of(save(again.dataset, tmp_path / "again.json"), "trace-1")
    assert case["agent_data"]["agents"] == agent_data["agents"]
    assert case["agent_data"]["turns"][0]["events"][1] == {"author": "agent", "content": model(text("Hello again!"))}
    assert case["agent_data"]["turns"][2] == agent_data["turns"][2]


def test_trace_as_first_turn_of_a_conversation_kept_whole(tmp_path):
    doc = opened(tmp_path)
    edit(doc, 0, "session_id", "conv-a")
    edit(doc, 0, "turn_id", "0")
    assert replaced_traces(doc.dataset) == []
    out = save(doc.dataset, tmp_path / "out.json")
    case = case_of(out, "trace-1")
    assert case["agent_data"] == TRACE["agent_data"] and case["source_turn_index"] == 0
    # the conversation's other turns now follow it: their history starts with its question and answer
    later = case_of(out, "conv-a-turn-1")
    assert later["source_turn_index"] == 1
    assert later["agent_data"]["turns"][0]["events"] == [
        {"author": "user", "content": user(text("Thanks"))}, {"author": "agent", "content": model(text("You're welcome"))}]


def test_foreign_conversation_data_kept_out_of_its_conversation(tmp_path):
    own = {"agents": {"bot": {"agent_id": "bot"}}, "turns": [
        {"turn_index": 0, "events": [{"author": "user", "content": user(text("a"))},
                                     {"author": "bot", "content": model({"function_call": {"name": "f", "args": {}}})}]},
        {"turn_index": 1, "events": [{"author": "user", "content": user(text("b"))}]}]}
    obj = {"eval_cases": [
        {"eval_case_id": "x", "prompt": user(text("a")), "source_case_id": "conv", "source_turn_index": 0},
        {"eval_case_id": "y", "prompt": user(text("b")), "source_case_id": "conv", "source_turn_index": 1,
         "agent_data": own}]}
    doc = opened(tmp_path, obj)
    edit(doc, 1, "session_id", "")
    assert replaced_traces(doc.dataset) == []
    y = save(doc.dataset, tmp_path / "out.json")["eval_cases"][1]
    assert y["agent_data"] == own and "source_case_id" not in y and "source_turn_index" not in y
    # … and in a conversation again as turn 2, its history is replaced: that is said before
    doc = opened(tmp_path, obj)
    edit(doc, 0, "question", "a2")
    assert replaced_traces(doc.dataset) == [doc.dataset.rows[1].id]
    y = save(doc.dataset, tmp_path / "out.json")["eval_cases"][1]
    assert y["agent_data"]["agents"] == {"bot": {"agent_id": "bot"}, "agent": {"agent_id": "agent"}}
    assert y["agent_data"]["turns"][1] == own["turns"][1]


def test_conversation_data_the_editor_made_is_not_reported(tmp_path):
    doc = opened(tmp_path)
    edit(doc, 2, "answer", "Hello again!")  # changes conv-a turn 2's history: made by the editor
    edit(doc, 3, "session_id", "")  # leaves the conversation: its history goes, as before
    assert replaced_traces(doc.dataset) == []
    out = save(doc.dataset, tmp_path / "out.json")
    left = case_of(out, "conv-a-turn-2")
    assert not {"agent_data", "source_case_id", "source_turn_index"} & set(left)
    assert replaced_traces(Dataset(["question"], [["q"]], "sdk")) == []


SESSIONS = st.sampled_from(["", "conv-a", "newsess"])
TURNS = st.sampled_from(["", "0", "1", "2", "3", "9"])


@HYPO
@given(SESSIONS, TURNS, SESSIONS, TURNS, st.booleans())
def test_trace_in_any_conversation(tmp_path, sid, turn, other_sid, other_turn, edit_history):
    """Wherever a trace case goes, the file validates, its agents are kept, the row reads back as it
    is shown, and its trace is kept whole unless `replaced_traces` named it."""
    doc = opened(tmp_path)
    edit(doc, 0, "session_id", sid)
    edit(doc, 0, "turn_id", turn)
    edit(doc, 1, "session_id", other_sid)
    edit(doc, 1, "turn_id", other_turn)
    if edit_history:
        edit(doc, 2, "answer", "Hi!")
    reported = replaced_traces(doc.dataset)
    assert set(reported) <= {doc.dataset.rows[0].id}
    out = save(doc.dataset, tmp_path / "out.json")
    case = case_of(out, "trace-1")
    own = TRACE["agent_data"]
    assert case["agent_data"]["agents"].items() >= own["agents"].items()
    assert undeclared(case) == set()
    if not reported:
        assert case["agent_data"] == own
    else:
        assert case["source_turn_index"] >= 1 and case["agent_data"]["turns"][-1]["turn_id"] == "t2"
    raw = read_sdk_json(tmp_path / "out.json")
    shown = row_of(raw, "trace-1")
    assert (shown["session_id"], shown["question"], shown["priority"]) == (sid, "Thanks", "7")


# ----- B: extra values keep their JSON type ----------------------------------------------------------
def test_edited_extras_keep_their_type(tmp_path):
    doc = opened(tmp_path)
    ds = doc.dataset
    assert [r.cells[ds.headers().index("priority")] for r in ds.rows[:2]] == ["7", "2"]
    edit(doc, 0, "priority", "8")
    edit(doc, 1, "priority", "high")
    edit(doc, 4, "score", "12345678901234567890123")
    edit(doc, 4, "flag", "false")
    edit(doc, 4, "ratio", "1.0")
    out = save(ds, tmp_path / "out.json")
    assert case_of(out, "trace-1")["priority"] == 8 and isinstance(case_of(out, "trace-1")["priority"], int)
    assert case_of(out, "cand-1")["priority"] == "high"  # no longer a number: a string, as typed
    plain = case_of(out, "plain")
    assert plain["score"] == 12345678901234567890123 and plain["flag"] is False
    assert plain["ratio"] == 1.0 and isinstance(plain["ratio"], float)
    assert '"ratio": 1.0' in (tmp_path / "out.json").read_text(encoding="utf-8")
    assert [row_of(read_sdk_json(tmp_path / "out.json"), "plain")[h] for h in ("score", "flag", "ratio")] == \
        ["12345678901234567890123", "false", "1.0"]


@pytest.mark.parametrize(("original", "typed", "written"), [
    (7, "8", 8), (7, "-3", -3), (7, "8.5", 8.5), (7, "1e+16", 1e16), (0.5, "1", 1), (0.5, "1.0", 1.0),
    (0.5, "2.5e-07", 2.5e-07), (True, "false", False), (False, "true", True),
    # what the reader shows no number or boolean as stays a string: reopening shows it as typed
    (7, "1e5", "1e5"), (7, " 8", " 8"), (7, "08", "08"), (7, "-0", "-0"), (7, "NaN", "NaN"),
    (7, "Infinity", "Infinity"), (7, "1e999", "1e999"), (7, "", ""), (7, "true", "true"), (True, "1", "1"),
    (True, "True", "True"), (None, "null", "null"), ("7", "8", "8"), ({"a": 1}, '{"a": 2}', '{"a": 2}'),
    ([1], "[1, 2]", "[1, 2]")])
def test_typed_extra(original, typed, written):
    from evaleditor.io.sdk.json_text import ReprFloat

    value = typed_extra(typed, original)
    # a float orjson spells otherwise than repr (under 1e-4) is marked for the writer (json_text.ReprFloat)
    marked = isinstance(written, float) and "e-" in repr(written)
    assert value == written and type(value) is (ReprFloat if marked else type(written))


def test_renamed_column_keeps_values_types_and_place(tmp_path):
    doc = opened(tmp_path)
    ds = doc.dataset
    RenameColumn(column_id(doc, "priority"), "prio").apply(ds)
    RenameColumn(column_id(doc, "flag"), "ok").apply(ds)
    edit(doc, 1, "prio", "3")
    out = save(ds, tmp_path / "out.json")
    trace = case_of(out, "trace-1")
    assert trace["prio"] == 7 and "priority" not in trace
    assert list(trace) == [k if k != "priority" else "prio" for k in TRACE]  # in its place
    assert case_of(out, "cand-1")["prio"] == 3
    plain = case_of(out, "plain")
    assert plain["ok"] is True and "flag" not in plain and list(plain).index("ok") == 4
    assert (plain["score"], plain["ratio"]) == (3, 0.5)
    assert all("prio" not in c and "priority" not in c for c in out["eval_cases"][2:])
    raw = read_sdk_json(tmp_path / "out.json")
    assert [h for h in raw.headers if h in ("prio", "ok", "priority", "flag")] == ["prio", "ok"]


def test_removed_and_new_columns_are_not_a_rename(tmp_path):
    doc = opened(tmp_path)
    ds = doc.dataset
    RemoveColumn(column_id(doc, "score")).apply(ds)
    RemoveColumn(column_id(doc, "note")).apply(ds)
    InsertColumn(len(ds.columns), ds.new_column("level"), {ds.rows[4].id: "9", ds.rows[0].id: "3"}).apply(ds)
    out = save(ds, tmp_path / "out.json")
    plain = case_of(out, "plain")
    assert "score" not in plain and plain["level"] == "9"
    assert "note" not in plain  # a removed column takes its empty values too (else it would come back)
    assert case_of(out, "trace-1")["level"] == "3"


def test_new_rows_write_strings(tmp_path):
    doc = opened(tmp_path)
    ds = doc.dataset
    from evaleditor.core.commands import InsertRows

    cells = [""] * len(ds.columns)
    cells[ds.headers().index("question")] = "new"
    cells[ds.headers().index("priority")] = "5"
    InsertRows(len(ds.rows), [ds.new_row(cells)]).apply(ds)
    assert save(ds, tmp_path / "out.json")["eval_cases"][-1]["priority"] == "5"


def test_unedited_file_round_trips(tmp_path):
    obj = rich()
    doc = opened(tmp_path, obj)
    assert replaced_traces(doc.dataset) == []
    out = save(doc.dataset, tmp_path / "out.json")
    assert out == obj


# ----- B, generated: any extra value -> cell text -> edited or not -> the value written -------------
NUMBER = st.one_of(st.integers(), st.integers(-10**30, 10**30),
                   st.floats(allow_nan=False, allow_infinity=False))
EXTRA = st.one_of(st.none(), st.booleans(), NUMBER, st.text(max_size=8),
                  st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
TYPED = st.one_of(st.text(max_size=8), EXTRA.map(scalar_text).filter(lambda t: t is not None),
                  st.sampled_from(["1e5", "1E5", "-0", " 1", "1 ", "true", "false", "null", "NaN", "08", "1.50"]))


def _same_json(a: object, b: object) -> bool:
    def kind(x: object) -> type:  # a float marked for the writer (json_text.ReprFloat) is a float
        return float if isinstance(x, float) else type(x)

    return kind(a) is kind(b) and (a == b or isinstance(a, float) and math.isnan(a) and math.isnan(b))


@HYPO
@given(EXTRA, st.one_of(st.none(), TYPED), st.booleans())
def test_extra_value_through_a_cell(tmp_path, value, typed, rename):
    obj = {"eval_cases": [{"eval_case_id": "a", "prompt": user(text("q")), "x": value},
                          {"eval_case_id": "b", "prompt": user(text("r")), "x": "s"}]}
    doc = opened(tmp_path, obj)
    ds = doc.dataset
    shown = ds.rows[0].cells[ds.headers().index("x")]
    assert shown == (scalar_text(value) or "")
    if typed is not None:
        edit(doc, 0, "x", typed)
    name = "y" if rename else "x"
    if rename:
        RenameColumn(column_id(doc, "x"), "y").apply(ds)
    out = save(ds, tmp_path / "out.json")["eval_cases"][0]
    sdk_view({"eval_cases": [out]})
    cell = shown if typed is None else typed
    hidden = scalar_text(value) is None  # null, array, object: kept under its key, not shown
    if cell == shown:
        if value is None:
            assert "x" not in out and name not in out  # a null extra is dropped on reading (as before)
        elif hidden:
            assert _same_json(out["x"], value) and (name == "x" or name not in out)
        else:
            assert _same_json(out[name], value)  # unchanged: exactly the value read, renamed or not
    else:
        written = out[name]
        if isinstance(value, bool) and cell in ("true", "false"):
            assert written is (cell == "true")
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and not isinstance(written, str):
            assert isinstance(written, (int, float)) and not isinstance(written, bool)
        else:
            assert written == cell
        assert typed_extra(cell, value) == written
    if rename and not hidden:
        assert "x" not in out
    # reopening shows what the cell held
    raw = read_sdk_json(tmp_path / "out.json")
    assert dict(zip(raw.headers, raw.rows[0], strict=True)).get(name, "") == cell


@HYPO
@given(st.one_of(st.booleans(), NUMBER))
def test_typed_extra_inverts_scalar_text(value):
    shown = scalar_text(value)
    assert _same_json(typed_extra(shown, value), value)
    if not isinstance(value, bool):  # a number for a number, int or float alike
        assert _same_json(typed_extra(shown, 0), value) and _same_json(typed_extra(shown, 0.5), value)
        assert json.loads(shown) == value


def test_after_crash_recovery(tmp_path):
    """A recovery journal holds headers and payloads, not column ids: a rename, a typed edit and a
    trace in a new conversation save the same after the document is restored."""
    from evaleditor.io.journal import read_journal, write_journal

    doc = opened(tmp_path)
    RenameColumn(column_id(doc, "priority"), "prio").apply(doc.dataset)
    edit(doc, 4, "ratio", "2")
    edit(doc, 0, "session_id", "newsess")
    expected = save(doc.dataset, tmp_path / "before.json")
    write_journal(tmp_path / "j.json", doc)
    restored = read_journal(tmp_path / "j.json").document
    assert save(restored.dataset, tmp_path / "after.json") == expected
    assert case_of(expected, "trace-1")["prio"] == 7 and case_of(expected, "plain")["ratio"] == 2
    assert case_of(expected, "trace-1")["agent_data"] == TRACE["agent_data"]


def test_turn_numbers_outside_a_conversation_survive_sdk_json(tmp_path):
    """The demo's `Session_ID` is not read as the session column: its turn_id cells are in no conversation."""
    from evaleditor.io.load import load_document
    from evaleditor.io.save import save_document
    headers = ["Session_ID", "turn_id", "question", "answer"]
    rows = [["a", "2", "q1", "x"], ["a", "1", "q2", "y"], ["", "", "q3", "z"]]
    doc = Dataset(headers, rows, "ground-truth")
    obj = save(doc, tmp_path / "out.json")
    assert [c.get("turn_id") for c in obj["eval_cases"]] == ["2", "1", None]
    again = load_document(tmp_path / "out.json")
    t = again.dataset.field_position("turn_id")
    assert [r.cells[t] for r in again.dataset.rows] == ["2", "1", ""]
    save_document(again, tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "out.json").read_bytes()
    in_conversation = save(Dataset(["session_id", "turn_id", "question"], [["s", "1", "q"]], "ground-truth"),
                           tmp_path / "conv.json")
    assert "turn_id" not in in_conversation["eval_cases"][0]


def test_a_completed_trace_joining_a_conversation_keeps_its_evaluated_turn(tmp_path):
    """The sample's hotel trace ends with the agents' reply: its turn (calls, response, turn_id) stays."""
    import shutil

    src = tmp_path / "cases.json"
    shutil.copy(Path(__file__).resolve().parents[2] / "resources" / "samples" / "sdk_agent_cases.json", src)
    doc = open_doc(src)
    ids = [r.cells[0] for r in doc.dataset.rows]
    row = ids.index("trace-hotel-1")
    before = next(c for c in json.loads(src.read_text(encoding="utf-8"))["eval_cases"]
                  if c.get("eval_case_id") == "trace-hotel-1")["agent_data"]["turns"][-1]
    edit(doc, row, "session_id", "trip-42")
    edit(doc, row, "turn_id", "4")
    case = case_of(save(doc.dataset, tmp_path / "out.json"), "trace-hotel-1")
    assert case["agent_data"]["turns"][-1] == {**before, "turn_index": 3}
    assert (case["source_case_id"], case["source_turn_index"]) == ("trip-42", 3)
