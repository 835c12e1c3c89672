"""A platform's .jsonl keeps each value's JSON type unless its cell was edited, also when a rename makes
the writer build the line from the cells (io/platforms cases: the values as read); and two columns
that a platform's file would write under one key are said before the save, not one lost in silence."""

from __future__ import annotations

import json

import pytest

from evaleditor.core.commands import RenameColumn, SetCells
from evaleditor.core.document import document_from_table
from evaleditor.core.table import RawTable
from evaleditor.io.load import load_document
from evaleditor.io.platforms import left_out
from evaleditor.io.save import plan_save, save_document


def write_lines(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def rename(doc, old, new):
    ds = doc.dataset
    RenameColumn(ds.columns[ds.headers().index(old)].id, new).apply(ds)


def edit(doc, row, header, text):
    ds = doc.dataset
    SetCells([(ds.rows[row].id, ds.columns[ds.headers().index(header)].id, text)]).apply(ds)


# a file of each platform, its question column, a name the target still reads as the question
FILES = {
    "azure-foundry": ({"query": "Q", "ground_truth": "A", "score": 3, "ok": True, "weight": 0.5}, "query", "question"),
    "langsmith": ({"inputs": {"question": "Q"}, "outputs": {"answer": "A"},
                   "metadata": {"score": 3, "ok": True, "weight": 0.5}}, "question", "query"),
    "sdk-flat": ({"prompt": "Q", "reference": "A", "score": 3, "ok": True, "weight": 0.5}, "prompt", "question"),
}


def typed(record):
    """The record's score, ok and weight, wherever the platform keeps them."""
    values = record.get("metadata", record)
    return values.get("score"), values.get("ok"), values.get("weight")


@pytest.mark.parametrize("target", FILES)
def test_renaming_the_question_column_keeps_the_other_values_json_types(tmp_path, target):
    record, question, other = FILES[target]
    path = tmp_path / "in.jsonl"
    write_lines(path, [record, record])
    doc = load_document(path)
    assert doc.dataset.target.name == target
    rename(doc, question, other)
    edit(doc, 1, "score", "4")  # an edited cell of a number: a number again
    save_document(doc, tmp_path / "out.jsonl", target=target)
    got = lines(tmp_path / "out.jsonl")
    assert [typed(r) for r in got] == [(3, True, 0.5), (4, True, 0.5)]


def test_azure_rows_of_a_session_written_as_one_line_keep_their_values_json_types(tmp_path):
    path = tmp_path / "in.jsonl"
    write_lines(path, [{"query": "Q1", "ground_truth": "A1", "session_id": "s1", "turn_id": 1, "score": 3},
                       {"query": "Q2", "ground_truth": "A2", "session_id": "s1", "turn_id": 2, "score": 3}])
    doc = load_document(path)
    rename(doc, "query", "question")  # the rows are made anew: one conversation line
    save_document(doc, tmp_path / "out.jsonl", target="azure-foundry")
    (line,) = lines(tmp_path / "out.jsonl")
    assert (line["session_id"], line["score"]) == ("s1", 3)


def test_a_bedrock_category_kept_as_a_number_when_the_prompt_column_is_renamed(tmp_path):
    path = tmp_path / "in.jsonl"
    write_lines(path, [{"prompt": "Q", "referenceResponse": "A", "category": 7}])
    doc = load_document(path)
    rename(doc, "prompt", "question")
    save_document(doc, tmp_path / "out.jsonl", target="bedrock")
    assert lines(tmp_path / "out.jsonl") == [{"prompt": "Q", "referenceResponse": "A", "category": 7}]


@pytest.mark.parametrize("target", FILES)
def test_a_renamed_other_column_keeps_its_values_json_types_and_place(tmp_path, target):
    record = dict(FILES[target][0])
    path = tmp_path / "in.jsonl"
    write_lines(path, [record])
    doc = load_document(path)
    rename(doc, "score", "points")
    save_document(doc, tmp_path / "out.jsonl", target=target)
    if target == "langsmith":
        record["metadata"] = {("points" if k == "score" else k): v for k, v in record["metadata"].items()}
    want = {("points" if k == "score" else k): v for k, v in record.items()}
    assert [json.dumps(r) for r in lines(tmp_path / "out.jsonl")] == [json.dumps(want)]  # in its place too


def test_a_renamed_other_column_of_an_azure_conversation_line_keeps_its_values_json_types_and_place(tmp_path):
    record = {"conversation": {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"},
                                            {"role": "user", "content": "Bye"}, {"role": "assistant", "content": "Ciao"}]},
              "score": 3, "ok": True, "meta": {"a": [1, None]}, "weight": 0.5, "id": "c1"}
    path = tmp_path / "in.jsonl"
    write_lines(path, [record, {**record, "id": "c2"}])
    doc = load_document(path)
    for old, new in (("score", "points"), ("ok", "passed"), ("meta", "info")):
        rename(doc, old, new)
    edit(doc, 0, "points", "4")  # edited on every turn of the first line: a number again
    edit(doc, 1, "points", "4")
    save_document(doc, tmp_path / "out.jsonl")
    names = {"score": "points", "ok": "passed", "meta": "info"}
    want = {names.get(k, k): v for k, v in record.items()}
    assert [json.dumps(r) for r in lines(tmp_path / "out.jsonl")] == [  # in its place too
        json.dumps(want | {"points": 4}), json.dumps(want | {"id": "c2"})]


# ----- two columns written under one key ----------------------------------------------------------------
def both_questions(target="ground-truth"):
    return document_from_table(RawTable(["question", "query", "answer"], [["Q1", "Q2", "A"]], "csv"), None, target)


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_a_question_and_a_query_column_written_for_azure_are_said_in_the_save_plan(tmp_path, fmt):
    doc = both_questions()
    said = [str(m) for m in plan_save(doc, fmt, "azure-foundry").format_limits]
    assert said == ["the second column of a name, as a line holds a key once: query (question, query)"]
    own = both_questions("azure-foundry")  # its own target: no rename in the plan, the writer still spells query
    assert [str(m) for m in left_out(own.dataset, "azure-foundry", fmt)] == said


def test_convert_warns_and_the_api_lists_two_columns_an_azure_line_would_write_as_one_key(tmp_path, capsys):
    import evaleditor
    from evaleditor.cli import main

    src = tmp_path / "cases.csv"
    src.write_text("question,query,answer\nQ1,Q2,A\n", encoding="utf-8")
    main(["convert", str(src), str(tmp_path / "a.jsonl"), "--target", "azure-foundry"])  # 1: duplicate-column
    assert "leaves out the second column of a name, as a line holds a key once: query (question, query)" \
        in capsys.readouterr().err
    assert evaleditor.open(src).left_out(tmp_path / "b.jsonl", target="azure-foundry").format_limits == [
        "the second column of a name, as a line holds a key once: query (question, query)"]


@pytest.mark.parametrize("target", ["langsmith", "sdk-flat", "promptfoo"])
def test_platforms_that_write_both_question_columns_say_nothing_of_them(tmp_path, target):
    fmt = "csv" if target == "promptfoo" else "jsonl"
    assert [str(m) for m in left_out(both_questions().dataset, target, fmt)] == []
