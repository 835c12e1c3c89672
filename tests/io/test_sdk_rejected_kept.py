"""SDK JSON the SDK would reject (an unknown key, a value of the wrong type, an object of the wrong shape)
survives a save: what the editor cannot show is written back as it was read, and every message says so.
Only an edit that replaces such content leaves it out, and the save plan lists it (the window asks, convert
warns, left_out reports it).

Each file here is opened and saved with no edit; the saved JSON (parsed) must be the JSON read."""

from __future__ import annotations

import copy
import json

import pytest

import evaleditor
from evaleditor.core.commands import RenameColumn, SetCells
from evaleditor.core.errors import WriteError
from evaleditor.io.load import load_document
from evaleditor.io.save import plan_save, save_document


def user(text):
    return {"role": "user", "parts": [{"text": text}]}


def model(text):
    return {"role": "model", "parts": [{"text": text}]}


def case(**fields):
    return {"eval_case_id": "c1", "prompt": user("q"), "reference": {"response": model("a")}, **fields}


# a Content where the SDK wants a Message {author, content}: the QA walk's file
HISTORY_AS_CONTENTS = [user("first q"), model("first a")]

REJECTED = {
    "history as contents": case(conversation_history=HISTORY_AS_CONTENTS),
    "history message with an unknown key": case(conversation_history=[
        {"author": "user", "content": user("q0"), "speaker": "me"}]),
    "history not a list": case(conversation_history={"author": "user"}),
    "event with an unknown key": case(intermediate_events=[
        {"author": "agent", "content": model("thinking"), "tool": "search"}]),
    "event of the wrong type": case(intermediate_events=["called search", {"author": "agent"}]),
    "event content of the wrong shape": case(intermediate_events=[{"author": "agent", "content": "text"}]),
    "part with an unknown key": case(prompt={"role": "user", "parts": [{"text": "q", "lang": "en"}]}),
    "part of the wrong type": case(prompt={"role": "user", "parts": ["q", {"text": "q2"}]}),
    "parts not a list": case(prompt={"role": "user", "parts": {"text": "q"}}),
    "prompt of the wrong type": case(prompt=5),
    "reference with an unknown key": case(reference={"response": model("a"), "score": 1}),
    "rubric group of the wrong shape": case(rubric_groups={"g": [{"content": {"property": {"description": "d"}}}]}),
    "rubric with an unknown key": case(rubric_groups={"g": {"rubrics": [
        {"rubric_id": "r", "content": {"property": {"description": "d"}}, "weight": 2}]}}),
    "agent_data with an unknown key": case(agent_data={"turns": [{"turn_index": 0, "events": [
        {"author": "user", "content": user("q")}]}], "session": "s1"}),
    "agent_data event with an unknown key": case(agent_data={"turns": [{"turn_index": 0, "events": [
        {"author": "user", "content": user("q"), "latency_ms": 12}]}]}),
    "agent_data turn index of the wrong type": case(agent_data={"turns": [{"turn_index": "first", "events": [
        {"author": "user", "content": user("q")}]}]}),
    "agent_data turns not a list": case(agent_data={"turns": "none"}),
    "agent_info with an unknown key": case(agent_info={"name": "bot", "version": 3}),
    "responses of the wrong shape": case(responses=[model("r")]),
    "system instruction with an unknown key": case(system_instruction={"role": "system", "parts": [{"text": "be"}],
                                                                       "lang": "en"}),
    "user scenario of the wrong type": case(user_scenario="book a flight"),
    "id of the wrong type": case(eval_case_id=7),
}
# a recorded conversation (a case that is its agent_data) whose events hold what the SDK rejects
TRACE = {"eval_case_id": "t1", "agent_data": {"agents": {"bot": {}}, "turns": [
    {"turn_index": 0, "events": [{"author": "user", "content": user("hi")},
                                 {"author": "bot", "content": model("hello"), "mood": "glad"}]}]}}


def write(tmp_path, name, obj):
    path = tmp_path / name
    path.write_text(json.dumps(obj, indent=2), encoding="utf-8")
    return path


def read(path):
    return json.loads(path.read_text(encoding="utf-8"))


def messages(doc):
    return [i.message for i in doc.issues if i.rule in ("sdk-schema-error", "sdk-not-shown")]


@pytest.mark.parametrize("name", list(REJECTED))
def test_content_the_sdk_rejects_is_written_back_as_read(tmp_path, name):
    obj = {"eval_cases": [REJECTED[name], case(eval_case_id="c2")]}
    src = write(tmp_path, "in.json", obj)
    doc = evaleditor.open(src)
    assert any(i.rule == "sdk-schema-error" for i in doc.issues)  # still said: the SDK rejects the file
    assert not any("dropped" in m or "left out" in m for m in messages(doc)), messages(doc)
    left = doc.left_out(tmp_path / "out.json")
    assert left.format_limits == [] and left.replaced_traces == []
    doc.save(tmp_path / "out.json")
    assert read(tmp_path / "out.json") == obj


def test_the_qa_walks_history_survives_saving_in_place_and_convert(tmp_path, capsys):
    obj = {"eval_cases": [{"eval_case_id": "c2", "prompt": user("q"), "reference": {"response": model("a")},
                           "conversation_history": HISTORY_AS_CONTENTS}]}
    src = write(tmp_path, "bh.json", obj)
    doc = evaleditor.open(src)
    said = messages(doc)
    assert any("unknown key 'role' in Message" in m and "kept as it is" in m for m in said), said
    assert any("2 conversation history messages" in m for m in said), said
    doc.save(src)
    assert read(src) == obj
    from evaleditor.cli import main

    assert main(["convert", str(src), str(tmp_path / "out.json"), "--format", "json"]) == 1  # the SDK's error stays
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["written"] and report["left_out"]["format_limits"] == []
    assert "kept as it is" in err and "dropped" not in err
    assert read(tmp_path / "out.json") == obj


def test_a_recorded_conversation_keeps_what_the_sdk_rejects(tmp_path):
    obj = {"eval_cases": [TRACE]}
    src = write(tmp_path, "in.json", obj)
    evaleditor.open(src).save(tmp_path / "out.json")
    assert read(tmp_path / "out.json") == obj


def test_keys_given_twice_and_unknown_root_keys_are_kept(tmp_path):
    obj = {"eval_cases": [{**case(), "evalCaseId": "other"},
                          case(eval_case_id="c2", conversation_history=[
                              {"author": "user", "turn_id": "1", "turnId": "2", "content": user("x")}])],
           "candidate_name": "m1", "notes": "by hand"}
    src = write(tmp_path, "in.json", obj)
    doc = evaleditor.open(src)
    assert not any("dropped" in m for m in messages(doc)), messages(doc)
    doc.save(tmp_path / "out.json")
    assert read(tmp_path / "out.json") == obj


def test_a_field_given_twice_with_one_null_is_read_once_and_saves_the_same_twice(tmp_path):
    """A null is an absent value (a save leaves nulls out), not a second value of the field: no "given
    twice" note, and the saved file saves again byte for byte (hypothesis found the null kept once and
    lost at the next save)."""
    obj = {"eval_cases": [{**case(), "intermediateEvents": [], "intermediate_events": None}]}
    src = write(tmp_path, "in.json", obj)
    doc = evaleditor.open(src)
    assert not any("given twice" in m for m in messages(doc)), messages(doc)
    doc.save(tmp_path / "once.json")
    evaleditor.open(tmp_path / "once.json").save(tmp_path / "twice.json")
    assert (tmp_path / "twice.json").read_bytes() == (tmp_path / "once.json").read_bytes()


def test_a_field_given_twice_is_named_by_both_spellings(tmp_path):
    src = write(tmp_path, "in.json", {"eval_cases": [{**case(), "intermediateEvents": [], "intermediate_events": []}]})
    said = messages(evaleditor.open(src))
    assert any("given twice (as 'intermediateEvents' and 'intermediate_events')" in m for m in said), said


def _edit_question(doc, row, text):
    ds = doc.dataset
    SetCells([(ds.rows[row].id, ds.columns[ds.headers().index("question")].id, text)]).apply(ds)


def test_an_edit_that_replaces_rejected_content_is_listed_before_the_save(tmp_path, capsys):
    """The question shows the prompt's text; typing over it writes a new prompt, which cannot hold the
    prompt's part the SDK rejects: the plan lists it, so the window asks and convert warns."""
    obj = {"eval_cases": [case(prompt={"role": "user", "parts": [{"text": "q", "lang": "en"}]}),
                          case(eval_case_id="c2", conversation_history=HISTORY_AS_CONTENTS)]}
    src = write(tmp_path, "in.json", obj)
    doc = load_document(src)
    untouched = plan_save(doc, "json")
    assert untouched.format_limits == []
    _edit_question(doc, 0, "new question")
    _edit_question(doc, 1, "another question")
    plan = plan_save(doc, "json")
    said = [str(m) for m in plan.format_limits]
    assert len(said) == 1 and "eval_cases.0.prompt" in said[0] and "conversation_history" not in said[0], said
    save_document(doc, tmp_path / "out.json", plan=plan)
    saved = read(tmp_path / "out.json")["eval_cases"]
    assert saved[0]["prompt"]["parts"][-1] == {"text": "new question"}
    want = copy.deepcopy(obj["eval_cases"][1])
    want["prompt"] = user("another question")
    assert saved[1] == want  # the history the edit did not touch is kept as read


def test_a_column_the_sdk_json_cannot_hold_is_said_by_the_save_not_raised_by_its_plan(tmp_path):
    """A file holding what the SDK rejects, whose column is renamed to a key the writer uses: planning the
    save raises nothing (the window's save slot would swallow it), and the save refuses with one line."""
    src = write(tmp_path, "in.json", {"eval_cases": [case(conversation_history=HISTORY_AS_CONTENTS)]})
    doc = load_document(src)
    ds = doc.dataset
    RenameColumn(ds.columns[ds.headers().index("answer")].id, "source_case_id").apply(ds)
    plan = plan_save(doc, "json")
    with pytest.raises(WriteError, match="'source_case_id' cannot be saved as SDK JSON.*rename it"):
        save_document(doc, tmp_path / "out.json", plan=plan)
    assert not (tmp_path / "out.json").exists()

def test_a_recovered_document_keeps_what_the_sdk_rejects(tmp_path):
    """The journal (crash recovery) holds what a row keeps as read: the recovered document saves it too."""
    from evaleditor.io.journal import dump_document, read_journal

    obj = {"eval_cases": [case(conversation_history=HISTORY_AS_CONTENTS), {**TRACE, "eval_case_id": "t2"}]}
    doc = load_document(write(tmp_path, "in.json", obj))
    (tmp_path / "j.json").write_bytes(dump_document(doc))
    save_document(read_journal(tmp_path / "j.json").document, tmp_path / "out.json")
    assert read(tmp_path / "out.json") == obj


@pytest.mark.parametrize("records", [[{"prompt": "x", "reference": "y"}], []])
def test_cases_beside_records_are_saved_as_cases(tmp_path, records):
    """A file holding eval_cases and eval_dataset_df opens as its cases: a save writes them as cases
    and the records as read (it wrote the rows as records, losing the cases' shape and the records)."""
    obj = {"eval_cases": [case(), case(eval_case_id="c2")], "eval_dataset_df": records}
    src = write(tmp_path, "in.json", obj)
    evaleditor.open(src).save(tmp_path / "out.json")
    assert read(tmp_path / "out.json") == obj


@pytest.mark.parametrize("fmt", ["xlsx", "csv", "jsonl"])
def test_converting_to_a_table_says_it_loses_what_the_sdk_rejects(tmp_path, capsys, fmt):
    """Text the SDK rejects is left out of the checked case (so no other note names it): a table file
    cannot hold it, and convert said nothing and exited 0; now its row is a case a table cannot show,
    counted and warned as the others, and saving as SDK JSON still writes it back as read."""
    from evaleditor.cli import main

    obj = {"eval_cases": [case(conversation_history="earlier chat"), case(eval_case_id="c2")]}
    src = write(tmp_path, "in.json", obj)
    doc = evaleditor.open(src)
    assert any("kept but not shown" in m and "conversation_history" in m for m in messages(doc)), messages(doc)
    assert any("kept as it is on save as SDK JSON" in m for m in messages(doc)), messages(doc)
    main(["convert", str(src), str(tmp_path / f"out.{fmt}"), "--format", "json"])
    out, err = capsys.readouterr()
    assert json.loads(out)["left_out"]["hidden_cases"] == 1
    assert "1 case holds data a table cannot show" in err and "convert to .json to keep it" in err
    doc.save(tmp_path / "out.json")
    assert read(tmp_path / "out.json") == obj


@pytest.mark.parametrize("first, second", [("eval_cases", "evalCases"), ("evalCases", "eval_cases")])
def test_a_second_case_list_under_the_other_spelling_is_kept(tmp_path, first, second):
    """A file giving both eval_cases and evalCases shows the first; the second was dropped by every save,
    even with no edit, and the window did not ask. Now a save writes both back as read."""
    obj = {first: [case()], "candidate_name": "m1", second: [case(eval_case_id="other", prompt=user("other q"))]}
    src = write(tmp_path, "in.json", obj)
    doc = evaleditor.open(src)
    assert doc.to_pandas()["question"].tolist() == ["q"]
    assert any("the second is not" in m and "writes it back as it is" in m for m in messages(doc)), messages(doc)
    doc.save(tmp_path / "out.json")
    assert read(tmp_path / "out.json") == obj
    assert evaleditor.open(tmp_path / "out.json").to_pandas()["question"].tolist() == ["q"]
