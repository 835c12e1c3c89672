"""Nothing is lost between the table and another platform's file (io/platforms/): a column added to
an Azure conversation is the line's key, the line's own id its session; what a file cannot hold
(an Azure line's one value for turns that differ, the keys Bedrock does not document) is said by
`left_out`, which the save's question, `convert` and the Python API report; an empty template reopens
as its target; extra columns, line breaks and any Unicode come back as they were."""

from __future__ import annotations

import json

import pytest

from evaleditor.core.commands import InsertColumn, SetCells
from evaleditor.core.document import document_from_table
from evaleditor.core.table import RawTable
from evaleditor.core.targets import get_target
from evaleditor.io.load import load_document
from evaleditor.io.platforms import PLATFORMS, left_out
from evaleditor.io.save import save_document, template_document


def write_lines(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def table(doc):
    ds = doc.dataset
    return [dict(zip(ds.headers(), r.cells, strict=True)) for r in ds.rows]


def add_column(doc, header, values):
    ds = doc.dataset
    InsertColumn(len(ds.columns), ds.new_column(header), {r.id: v for r, v in zip(ds.rows, values, strict=True)}).apply(ds)


def edit(doc, row, header, text):
    ds = doc.dataset
    SetCells([(ds.rows[row].id, ds.columns[ds.headers().index(header)].id, text)]).apply(ds)


def said(doc, fmt, target=None):
    return [str(m) for m in left_out(doc.dataset, target or doc.dataset.target.name, fmt)]


CONVERSATION = {"conversation": {"messages": [
    {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"},
    {"role": "user", "content": "Bye"}, {"role": "assistant", "content": "Ciao"}]}}
SINGLE = {"query": "Q", "ground_truth": "A"}


# ----- Azure AI Foundry: a conversation's other columns ---------------------------------------------
def test_a_column_added_to_an_azure_conversation_is_written_as_the_lines_key_and_reopens(tmp_path):
    path = tmp_path / "azure.jsonl"
    write_lines(path, [CONVERSATION, SINGLE])
    doc = load_document(path)
    add_column(doc, "level", ["easy", "easy", "hard"])
    assert said(doc, "jsonl") == []
    save_document(doc, path)
    assert lines(path) == [{**CONVERSATION, "level": "easy"}, {**SINGLE, "level": "hard"}]
    assert [r["level"] for r in table(load_document(path))] == ["easy", "easy", "hard"]


def test_an_azure_lines_other_keys_are_columns_on_each_of_its_turns_and_an_edit_changes_only_that_key(tmp_path):
    path = tmp_path / "azure.jsonl"
    line = {"id": 7, **CONVERSATION, "tags": ["a"], "score": 1.5}
    write_lines(path, [line])
    doc = load_document(path)
    assert [(r["session_id"], r["tags"], r["score"]) for r in table(doc)] == [("7", '["a"]', "1.5")] * 2
    first = path.read_bytes()
    save_document(doc, path)
    assert path.read_bytes() == first
    for row in (0, 1):
        edit(doc, row, "score", "2")
    save_document(doc, path)
    assert lines(path) == [{**line, "score": 2}]  # a number stays a number; the id, tags and messages as read


def test_azure_turns_that_differ_in_a_column_are_said_and_the_line_keeps_its_value(tmp_path):
    path = tmp_path / "azure.jsonl"
    write_lines(path, [{**CONVERSATION, "id": "c1", "level": "easy"}])
    doc = load_document(path)
    edit(doc, 1, "level", "hard")
    assert said(doc, "jsonl") == [
        "the column level where the turns of a conversation differ (a conversation is one line, with one value "
        "for all its turns): c1"]
    save_document(doc, path)
    assert lines(path) == [{**CONVERSATION, "id": "c1", "level": "easy"}]
    assert said(doc, "csv") == []  # Azure's CSV is a row a turn: it holds them all
    out = tmp_path / "azure.csv"
    save_document(doc, out)
    again = table(load_document(out))
    assert [(r["level"], r["session_id"], r["turn_id"]) for r in again] == [("easy", "c1", "1"), ("hard", "c1", "2")]


def test_an_azure_conversations_responses_are_its_assistant_messages_content_beside_their_ground_truth(tmp_path):
    path = tmp_path / "azure.jsonl"
    write_lines(path, [{**CONVERSATION, "id": "c1"}])
    doc = load_document(path)
    add_column(doc, "response", ["Hey", ""])  # the answers to score: one a turn, in the turn's message
    assert said(doc, "jsonl") == []
    save_document(doc, path)
    assert lines(path) == [{"conversation": {"messages": [
        {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hey", "ground_truth": "Hello"},
        {"role": "user", "content": "Bye"}, {"role": "assistant", "content": "Ciao"}]}, "id": "c1"}]  # not edited
    first = path.read_bytes()
    again = load_document(path)
    assert [(r["ground_truth"], r["response"]) for r in table(again)] == [("Hello", "Hey"), ("Ciao", "")]
    save_document(again, path)
    assert path.read_bytes() == first
    edit(again, 0, "ground_truth", "Hello!")
    edit(again, 1, "response", "Bye")
    edit(again, 0, "response", "")  # no response: the answer is the content again
    save_document(again, path)
    assert [m for m in lines(path)[0]["conversation"]["messages"] if m["role"] == "assistant"] == [
        {"role": "assistant", "content": "Hello!", "ground_truth": "Hello!"},
        {"role": "assistant", "content": "Bye", "ground_truth": "Ciao"}]


def test_an_azure_conversation_written_from_a_table_holds_each_answer_as_ground_truth_and_reopens_the_same(tmp_path):
    for headers, turns in ((["question", "answer"], [["Hi", "Hello"], ["Bye", "Ciao"]]),
                           (["question", "answer", "response"], [["Hi", "Hello", "Hey"], ["Bye", "Ciao", ""]])):
        d = document_from_table(RawTable(["session_id", "turn_id", *headers],
                                         [["s1", str(n), *cells] for n, cells in enumerate(turns, 1)], "csv"),
                                None, "ground-truth")
        out = tmp_path / "azure.jsonl"
        save_document(d, out, target="azure-foundry")
        replies = [(m["content"], m["ground_truth"]) for m in lines(out)[0]["conversation"]["messages"]
                   if m["role"] == "assistant"]
        assert replies == [(cells[-1] or cells[1], cells[1]) for cells in turns]
        again = load_document(out)
        shown = ["query", "ground_truth", "response"][:len(headers)]
        assert ("response" in again.dataset.headers()) == ("response" in headers)  # none made up
        # a turn with no response wrote the answer as its content: it reopens as its response
        assert [[r[h] for h in shown] for r in table(again)] == [[*cells[:2], *(c or cells[1] for c in cells[2:])]
                                                                  for cells in turns]
        first = out.read_bytes()
        save_document(again, out)
        assert out.read_bytes() == first


def test_a_table_written_for_azure_keeps_its_session_ids_and_columns_and_reopens_as_the_same_table(tmp_path):
    d = document_from_table(RawTable(
        ["session_id", "turn_id", "question", "answer", "level", "note"],
        [["s1", "1", "Hi", "Hello", "easy", "first"], ["s1", "2", "Bye", "Ciao", "easy", "first"],
         ["", "", "Q", "A", "hard", "alone"]], "csv"), None, "ground-truth")
    out = tmp_path / "azure.jsonl"
    save_document(d, out, target="azure-foundry")
    assert lines(out)[0] == {"conversation": {"messages": [
        {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello", "ground_truth": "Hello"},
        {"role": "user", "content": "Bye"}, {"role": "assistant", "content": "Ciao", "ground_truth": "Ciao"}]},
        "session_id": "s1", "level": "easy", "note": "first"}
    again = load_document(out)
    want = [{"query": q, "ground_truth": a, "session_id": s, "turn_id": t, "level": lv, "note": n}
            for s, t, q, a, lv, n in (r.cells for r in d.dataset.rows)]
    assert [{k: r[k] for k in want[0]} for r in table(again)] == want


def test_an_azure_lines_id_is_its_session_and_an_edited_session_is_written_back_to_it(tmp_path):
    path = tmp_path / "azure.jsonl"
    write_lines(path, [{"id": "billing", **CONVERSATION}, CONVERSATION,
                       {"session_id": "s9", "id": 3, **CONVERSATION}])
    doc = load_document(path)
    rows = table(doc)
    assert [r["session_id"] for r in rows] == ["billing", "billing", "conversation-2", "conversation-2", "s9", "s9"]
    assert [r["id"] for r in rows][4:] == ["3", "3"]  # beside a session_id key, id is a column of its own
    for row in (0, 1):
        edit(doc, row, "session_id", "refunds")
    for row in (2, 3):
        edit(doc, row, "session_id", "greeting")
    save_document(doc, path)
    assert [(r.get("id"), r.get("session_id")) for r in lines(path)] == [("refunds", None), (None, "greeting"),
                                                                        (3, "s9")]


def test_azure_lines_that_share_an_id_stay_apart(tmp_path):
    path = tmp_path / "azure.jsonl"
    write_lines(path, [{"id": "x", **CONVERSATION}, {"id": "x", **CONVERSATION}])
    doc = load_document(path)
    assert [(r["session_id"], r["id"]) for r in table(doc)] == [("conversation-1", "x")] * 2 + [
        ("conversation-2", "x")] * 2
    first = path.read_bytes()
    save_document(doc, path)
    assert path.read_bytes() == first  # two lines still, each with its id


def test_a_column_added_to_azure_single_turn_lines_and_csv_rows_reopens(tmp_path):
    for suffix in (".jsonl", ".csv"):
        d = document_from_table(RawTable(["query", "ground_truth"], [["Q1", "A1"], ["Q2", "A2"]], "csv"), None,
                                "azure-foundry")
        path = tmp_path / f"azure{suffix}"
        save_document(d, path)
        doc = load_document(path)
        add_column(doc, "level", ["easy", "hard"])
        save_document(doc, path)
        assert [r["level"] for r in table(load_document(path))] == ["easy", "hard"], suffix


# ----- Amazon Bedrock: the documented keys only, the rest said ---------------------------------------
def test_bedrock_lines_hold_only_the_keys_aws_documents_and_the_rest_is_said(tmp_path):
    d = document_from_table(RawTable(
        ["session_id", "turn_id", "question", "answer", "category", "note"],
        [["s1", "1", "Hi", "Hello", "greeting", "n"], ["s1", "2", "Bye", "Ciao", "greeting", ""]], "csv"),
        None, "bedrock")
    assert said(d, "jsonl") == ["the columns a Bedrock prompt dataset does not hold (it holds prompt, "
                                "referenceResponse, category and modelResponses): session_id, turn_id, note"]
    out = tmp_path / "bedrock.jsonl"
    save_document(d, out)
    assert lines(out) == [{"prompt": "Hi", "referenceResponse": "Hello", "category": "greeting"},
                          {"prompt": "Bye", "referenceResponse": "Ciao", "category": "greeting"}]


def test_an_azure_file_converted_for_bedrock_is_said_to_leave_out_only_what_bedrock_does_not_hold(tmp_path, capsys):
    """The plan's left_out is of the dataset the writer sees (the plan's renames and target): an Azure
    file's `query` and `ground_truth` are Bedrock's prompt and referenceResponse, not left out."""
    from evaleditor.cli import main

    path = tmp_path / "azure.jsonl"
    write_lines(path, [{"query": "Q", "ground_truth": "A", "level": "x"}])
    assert main(["convert", str(path), str(tmp_path / "b.jsonl"), "--target", "bedrock", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["left_out"]["format_limits"] == [
        "the columns a Bedrock prompt dataset does not hold (it holds prompt, referenceResponse, category and "
        "modelResponses): level"]
    assert lines(tmp_path / "b.jsonl") == [{"prompt": "Q", "referenceResponse": "A"}]


def test_a_bedrock_file_with_other_keys_is_said_to_lose_them_and_one_without_saves_back_the_same(tmp_path):
    path = tmp_path / "bedrock.jsonl"
    judged = {"prompt": "Q", "referenceResponse": "A", "category": "c",
              "modelResponses": [{"response": "R", "modelIdentifier": "mine"}]}
    write_lines(path, [judged])
    doc = load_document(path)
    assert said(doc, "jsonl") == []
    first = path.read_bytes()
    save_document(doc, path)
    assert path.read_bytes() == first
    write_lines(path, [{**judged, "source": "wiki"}])
    doc = load_document(path)
    assert said(doc, "jsonl")[0].endswith(": source")
    save_document(doc, path)
    assert lines(path) == [judged]


# ----- an empty template reopens as its target ----------------------------------------------------
JSONL_TARGETS = [t for t in PLATFORMS if "jsonl" in get_target(t).formats]


@pytest.mark.parametrize("target", JSONL_TARGETS)
def test_an_empty_jsonl_template_reopens_as_its_target_with_its_columns_and_no_cases(tmp_path, target):
    path = tmp_path / "new.jsonl"
    save_document(template_document(target, blank_rows=1), path)  # the window's New, then Save As
    doc = load_document(path)
    assert doc.dataset.target.name == target
    assert doc.dataset.rows == [] and doc.shape.rows == 0
    want = [h for h in template_document(target).dataset.headers()
            if target != "bedrock" or h in ("prompt", "referenceResponse")]  # Bedrock: the keys it reads
    assert sorted(doc.dataset.headers()) == sorted(want)
    first = path.read_bytes()
    save_document(doc, path)
    assert path.read_bytes() == first


@pytest.mark.parametrize("target", JSONL_TARGETS)
def test_a_case_typed_into_a_jsonl_template_is_saved_as_that_platforms_line(tmp_path, target):
    path = tmp_path / "new.jsonl"
    save_document(template_document(target), path)
    doc = load_document(path)
    from evaleditor.core.commands import InsertRows

    ds = doc.dataset
    cells = ["What is 2+2?" if get_target(target).recognise(h) == "question" else
             "4" if get_target(target).recognise(h) == "answer" else "" for h in ds.headers()]
    InsertRows(0, [ds.new_row(cells)]).apply(ds)
    save_document(doc, path)
    again = load_document(path)
    assert again.dataset.target.name == target and again.shape.rows == 1
    assert len(lines(path)) == 1  # the line naming the columns is gone: the file holds the case


# ----- extra columns, line breaks and Unicode, on every platform ------------------------------------
TEXTS = ["Hi\nthere 你好", "Hello!\r\nagain\tand a tab", "漢字 é 🙂 \u2028 \u2029 \x85 end", '"quoted", comma',
         "=1+1", "007", "  spaced  "]


@pytest.mark.parametrize("target, fmt", [(t, f) for t in PLATFORMS for f in get_target(t).formats])
def test_every_platforms_file_keeps_extra_columns_line_breaks_and_unicode(tmp_path, target, fmt):
    d = document_from_table(RawTable(["question", "answer", "note"],
                                     [[t, t[::-1], t.upper()] for t in TEXTS], "csv"), None, "ground-truth")
    out = tmp_path / f"out.{fmt}"
    save_document(d, out, target=target)
    again = load_document(out, target=target)
    t = get_target(target)
    got = table(again)
    assert [r[t.header_for("question")] for r in got] == TEXTS
    answers = [r[t.header_for("answer")] for r in got]
    assert answers == ([f"equals:{a[::-1]}" for a in TEXTS] if target == "promptfoo" else [a[::-1] for a in TEXTS])
    if target == "bedrock":
        assert said(d, fmt, target) and "note" not in again.dataset.headers()  # said, not written
    else:
        assert [r["note"] for r in got] == [a.upper() for a in TEXTS]
    first = out.read_bytes()
    save_document(again, out)
    assert out.read_bytes() == first


def test_a_jsonl_line_holding_a_unicode_line_separator_opens(tmp_path):
    path = tmp_path / "other-tool.jsonl"
    path.write_text('{"prompt": "a\u2028b", "reference": "c\u0085d"}\n', encoding="utf-8")  # valid JSON, raw
    assert [r.cells for r in load_document(path).dataset.rows] == [["a\u2028b", "c\u0085d"]]


def test_convert_warns_of_what_another_platforms_file_leaves_out_and_exits_0(tmp_path, capsys):
    from evaleditor.cli import main

    src = tmp_path / "cases.csv"
    src.write_text("session_id,turn_id,question,answer,category\ns1,1,Hi,Hello,a\ns1,2,Bye,Ciao,b\n", encoding="utf-8")
    assert main(["convert", str(src), str(tmp_path / "a.jsonl"), "--target", "azure-foundry"]) == 0
    err = capsys.readouterr().err
    assert "evaleditor: warning: " in err and "leaves out the column category where the turns of a conversation " \
        "differ (a conversation is one line, with one value for all its turns): s1" in err
    assert main(["convert", str(src), str(tmp_path / "b.jsonl"), "--target", "bedrock"]) == 0
    assert capsys.readouterr().err.rstrip().endswith("referenceResponse, category and modelResponses): session_id, turn_id")
    assert main(["convert", str(src), str(tmp_path / "a.csv"), "--target", "azure-foundry"]) == 0
    assert "leaves out" not in capsys.readouterr().err  # a row a turn: nothing left out


@pytest.mark.parametrize("target, fmt", [(t, f) for t in PLATFORMS for f in get_target(t).formats])
def test_a_second_column_of_a_name_is_said_to_be_left_out_of_a_platforms_file(target, fmt):
    d = document_from_table(RawTable(["question", "answer", "note", "note"], [["Q", "A", "n1", "n2"]], "csv"),
                            None, "ground-truth")
    assert said(d, fmt, target)[0] == "the second column of a name, as a line holds a key once: note"


def test_an_sdk_flat_conversation_history_the_table_shows_is_written_as_shown(tmp_path):
    path = tmp_path / "flat.jsonl"
    own = [{"role": "user", "parts": [{"text": "said before the file began"}]}]
    write_lines(path, [{"prompt": "Q1", "reference": "A1", "session_id": "s1", "turn_id": 1},
                       {"prompt": "Q2", "reference": "A2", "session_id": "s1", "turn_id": 2,
                        "conversation_history": own}])
    doc = load_document(path)
    assert "conversation_history" in doc.dataset.headers()  # not what the rows make: shown
    first = path.read_bytes()
    save_document(doc, path)
    assert path.read_bytes() == first  # was replaced by the history the rows make
    d = document_from_table(RawTable(["session_id", "turn_id", "question", "answer", "conversation_history"],
                                     [["s1", "1", "Q1", "A1", ""], ["s1", "2", "Q2", "A2", json.dumps(own)]], "csv"),
                            None, "ground-truth")
    save_document(d, path, target="sdk-flat")
    assert lines(path)[1]["conversation_history"] == own  # JSON text of a JSON column: its value


def test_a_column_bedrock_does_not_hold_is_said_to_be_left_out_not_kept_and_its_category_is_not_unknown():
    d = document_from_table(RawTable(["question", "answer", "category", "note"], [["Q", "A", "c", "n"]], "csv"),
                            None, "bedrock")
    unknown = [i.message for i in d.validator.all_issues() if i.rule == "unknown-column"]
    assert unknown == ["Column 'note' is not used by bedrock, whose file does not hold it: it is left out when saved "
                       "for bedrock"]


def test_a_recovery_journal_keeps_the_key_an_azure_session_was_read_from(tmp_path):
    from evaleditor.io.journal import dump_document, read_journal

    path = tmp_path / "azure.jsonl"
    write_lines(path, [{"id": "billing", **CONVERSATION}])
    doc = load_document(path)
    for row in (0, 1):
        edit(doc, row, "session_id", "refunds")
    (tmp_path / "j.json").write_bytes(dump_document(doc))
    save_document(read_journal(tmp_path / "j.json").document, path)
    assert lines(path) == [{"id": "refunds", **CONVERSATION}]  # not a session_id key beside the old id


AZURE_JUDGE = """
import json, sys
from azure.ai.evaluation import F1ScoreEvaluator, evaluate

class Turns:  # a local evaluator of whole conversations: how many messages it was handed
    def __call__(self, *, conversation=None, **kwargs):
        return {"messages": len(conversation["messages"]) if isinstance(conversation, dict) else 0}

evaluators = {"f1": F1ScoreEvaluator()} if sys.argv[1].endswith(".csv") else {"turns": Turns()}
rows = evaluate(data=sys.argv[1], evaluators=evaluators)["rows"]
with open(sys.argv[2], "w", encoding="utf-8") as out:
    json.dump([{k: (None if v != v else v) for k, v in r.items()} for r in rows], out)  # NaN: not in the line
"""


def test_azure_evaluate_takes_a_conversation_lines_keys_and_the_csv_a_row_a_turn(tmp_path):
    import subprocess

    from tests.io import platform_clients

    python = platform_clients.azure_python()  # its own venv: azure-ai-evaluation pins pandas < 3
    d = document_from_table(RawTable(
        ["session_id", "turn_id", "question", "answer", "response", "level"],
        [["s1", "1", "Capital of France?", "Paris", "Paris", "easy"], ["s1", "2", "And Italy?", "Rome", "Rome", "easy"],
         ["", "", "Largest planet?", "Jupiter", "Saturn", "hard"]], "csv"), None, "azure-foundry")
    got = {}
    for suffix in (".jsonl", ".csv"):
        out = tmp_path / f"azure{suffix}"
        save_document(d, out)
        run = subprocess.run(platform_clients.offline([str(python), "-c", AZURE_JUDGE, str(out), str(tmp_path / "r")]),
                             cwd=tmp_path, env=platform_clients.quiet_env(tmp_path / "home"), capture_output=True,
                             text=True, timeout=300)
        assert run.returncode == 0, run.stderr[-2000:]
        got[suffix] = json.loads((tmp_path / "r").read_text(encoding="utf-8"))
    conversation, single = got[".jsonl"]
    assert (conversation["inputs.session_id"], conversation["inputs.level"], conversation["outputs.turns.messages"]) \
        == ("s1", "easy", 4)
    assert (single["inputs.query"], single["inputs.level"]) == ("Largest planet?", "hard")
    assert [(r["inputs.query"], r["inputs.session_id"], r["outputs.f1.f1_score"]) for r in got[".csv"]] == [
        ("Capital of France?", "s1", 1.0), ("And Italy?", "s1", 1.0), ("Largest planet?", None, 0.0)]


AZURE_F1_PER_TURN = """
import json, sys
from azure.ai.evaluation import F1ScoreEvaluator, evaluate

rows = evaluate(data=sys.argv[1], evaluators={"f1": F1ScoreEvaluator()})["rows"]
with open(sys.argv[2], "w", encoding="utf-8") as out:
    json.dump([r["outputs.f1.evaluation_per_turn.f1_score"] for r in rows], out)
"""


def test_azure_evaluate_scores_each_turn_of_a_conversation_against_its_answer(tmp_path):
    """azure-ai-evaluation's conversation converter (_base_eval.py, _derive_conversation_converter) takes
    an assistant message's content as the response and its own ground_truth key as the expected answer."""
    import subprocess

    from tests.io import platform_clients

    python = platform_clients.azure_python()  # its own venv: azure-ai-evaluation pins pandas < 3
    turns = [["s1", "1", "Capital of France?", "Paris", "Paris"], ["s1", "2", "And Italy?", "Rome", "Milan"]]
    scored = {}
    for name, headers, cells in (("responses", ["response"], turns), ("answers", [], [t[:4] for t in turns])):
        d = document_from_table(RawTable(["session_id", "turn_id", "question", "answer", *headers], cells, "csv"),
                                None, "azure-foundry")
        out = tmp_path / f"{name}.jsonl"
        save_document(d, out)
        run = subprocess.run(platform_clients.offline([str(python), "-c", AZURE_F1_PER_TURN, str(out),
                                                       str(tmp_path / "r")]),
                             cwd=tmp_path, env=platform_clients.quiet_env(tmp_path / "home"), capture_output=True,
                             text=True, timeout=300)
        assert run.returncode == 0, run.stderr[-2000:]
        scored[name] = json.loads((tmp_path / "r").read_text(encoding="utf-8"))
    # the response against the answer; without a response column the content is the answer itself
    assert scored == {"responses": [[1.0, 0.0]], "answers": [[1.0, 1.0]]}


def test_an_azure_turn_with_no_answer_keeps_azures_pairing_of_later_turns_and_reopens_the_same(tmp_path):
    """azure-ai-evaluation pairs the nth user message with the nth assistant message (zip): a turn with no
    answer before the last is written with an empty reply, so each later reply is scored against its own
    question, and the file reopens as the same table. A last turn with no answer stays a question alone."""
    import subprocess

    from tests.io import platform_clients

    cells = [["s1", "1", "Capital of France?", "", ""], ["s1", "2", "And Italy?", "Rome", "Rome"],
             ["s1", "3", "And Spain?", "Madrid", "Paris"], ["s1", "4", "Thanks", "", ""]]
    headers = ["session_id", "turn_id", "question", "answer", "response"]
    out = tmp_path / "azure.jsonl"
    save_document(document_from_table(RawTable(headers, cells, "csv"), None, "azure-foundry"), out)
    assert [m["role"] for m in lines(out)[0]["conversation"]["messages"]] == \
        ["user", "assistant", "user", "assistant", "user", "assistant", "user"]
    back = load_document(out)
    assert [[r[h] for h in ("session_id", "turn_id", "query", "ground_truth", "response")] for r in table(back)] == cells
    python = platform_clients.azure_python()  # its own venv: azure-ai-evaluation pins pandas < 3
    run = subprocess.run(platform_clients.offline([str(python), "-c", AZURE_F1_PER_TURN, str(out), str(tmp_path / "r")]),
                         cwd=tmp_path, env=platform_clients.quiet_env(tmp_path / "home"), capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    # the empty reply scores 0, Rome against Rome, Paris against Madrid (before, zip gave [1.0, 0.0] for
    # turns 1 and 2: Italy's reply judged as the answer to France's question)
    assert json.loads((tmp_path / "r").read_text(encoding="utf-8")) == [[0.0, 1.0, 0.0]]


def test_an_edited_azure_line_with_a_question_left_unanswered_gets_its_empty_reply_and_one_as_read_is_kept(tmp_path):
    path = tmp_path / "azure.jsonl"
    write_lines(path, [{"conversation": {"messages": [
        {"role": "user", "content": "How long?"}, {"role": "user", "content": "Days?"},
        {"role": "assistant", "content": "Five"}]}, "id": "c1"}])
    first = path.read_bytes()
    doc = load_document(path)
    save_document(doc, path)
    assert path.read_bytes() == first  # the file's own shape, not edited
    edit(doc, 1, "ground_truth", "Five days")
    save_document(doc, path)
    assert lines(path)[0]["conversation"]["messages"] == [
        {"role": "user", "content": "How long?"}, {"role": "assistant", "content": "", "ground_truth": ""},
        {"role": "user", "content": "Days?"}, {"role": "assistant", "content": "Five days"}]
    assert table(load_document(path)) == table(doc)


def test_the_save_plan_holds_what_a_platforms_file_cannot_and_convert_and_the_api_report_it(tmp_path, capsys):
    import evaleditor
    from evaleditor.cli import main
    from evaleditor.io.save import plan_save

    src = tmp_path / "cases.csv"
    src.write_text("session_id,turn_id,question,answer\ns1,1,Hi,Hello\n", encoding="utf-8")
    want = ["the columns a Bedrock prompt dataset does not hold (it holds prompt, referenceResponse, category and modelResponses): "
            "session_id, turn_id"]
    plan = plan_save(load_document(src), "jsonl", "bedrock")
    assert [str(m) for m in plan.format_limits] == want
    assert main(["convert", str(src), str(tmp_path / "b.jsonl"), "--target", "bedrock", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["left_out"]["format_limits"] == want
    assert evaleditor.open(src).left_out(tmp_path / "b.jsonl", target="bedrock").format_limits == want
    assert evaleditor.open(src).left_out(tmp_path / "a.jsonl", target="azure-foundry").format_limits == []


def test_an_sdk_flat_file_of_a_table_with_both_case_id_columns_says_which_it_leaves_out(tmp_path):
    d = document_from_table(RawTable(["eval_case_id", "source_eval_case_id", "question"], [["c1", "old", "Q"]], "csv"),
                            None, "ground-truth")
    assert said(d, "jsonl", "sdk-flat") == ["the column source_eval_case_id: the table's eval_case_id is written in "
                                            "its place (the SDK names each case itself, and fails on an eval_case_id "
                                            "column)"]
    save_document(d, tmp_path / "flat.jsonl", target="sdk-flat")
    assert lines(tmp_path / "flat.jsonl") == [{"prompt": "Q", "source_eval_case_id": "c1"}]
    assert said(document_from_table(RawTable(["eval_case_id", "question"], [["c1", "Q"]], "csv"), None,
                                    "ground-truth"), "jsonl", "sdk-flat") == []
