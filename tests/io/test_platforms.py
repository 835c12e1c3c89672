"""The other evaluation platforms (io/platforms/): each file written is judged by the platform's own
client where it installs from the registries (LangSmith's schemas; promptfoo's CLI with its offline
`echo` provider and azure-ai-evaluation's `evaluate`, which `python3 dev.py test` installs apart from
.venv, run with no network: platform_clients.py), else against the platform's documented format; each
reopens as its target and saves back the same."""

from __future__ import annotations

import csv
import json
import subprocess
import warnings

import pytest

from evaleditor.core.targets import TARGET_NAMES, get_target
from evaleditor.io.load import load_document
from evaleditor.io.platforms import PLATFORMS
from evaleditor.io.save import save_document
from tests.io import platform_clients

TABLE = (
    "session_id,turn_id,question,answer,context,category\n"
    "s1,1,Hi there,Hello!,,greeting\n"
    "s1,2,Book a flight,Booked,the fares,booking\n"
    ",,What is 2+2?,4,,math\n"
)


@pytest.fixture
def doc(tmp_path):
    path = tmp_path / "cases.csv"
    path.write_text(TABLE, encoding="utf-8")
    return load_document(path)


def lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def rows(path):
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def test_every_platform_is_a_target_and_every_new_target_a_platform():
    assert set(PLATFORMS) == set(TARGET_NAMES) - {"ground-truth", "evaluation-set", "sdk"}
    for name, platform in PLATFORMS.items():
        assert get_target(name).title and platform.source and get_target(name).formats
        assert (platform.records is not None) == ("jsonl" in get_target(name).formats)
        assert (platform.table is not None) == ("csv" in get_target(name).formats)


@pytest.mark.parametrize("target, suffix", [(t, f".{f}") for t in PLATFORMS for f in get_target(t).formats])
def test_each_platform_file_reopens_as_its_target_and_saves_back_the_same(doc, tmp_path, target, suffix):
    out = tmp_path / f"out{suffix}"
    save_document(doc, out, target=target)
    plain = (target, suffix) == ("langsmith", ".csv")  # a plain table: nothing in it says LangSmith
    again = load_document(out)
    assert again.dataset.target.name == ("ground-truth" if plain else target)
    if plain:
        again = load_document(out, target=target)
    first = out.read_bytes()
    save_document(again, out)
    assert out.read_bytes() == first


# ----- Amazon Bedrock -------------------------------------------------------------------------------
def test_bedrock_lines_hold_prompt_reference_response_and_category(doc, tmp_path):
    out = tmp_path / "bedrock.jsonl"
    save_document(doc, out, target="bedrock")
    got = lines(out)
    assert [(r["prompt"], r["referenceResponse"], r["category"]) for r in got] == [
        ("Hi there", "Hello!", "greeting"), ("Book a flight", "Booked", "booking"), ("What is 2+2?", "4", "math")]


def _rules(doc):
    return {i.rule: i for i in doc.validator.all_issues()}


def test_bedrock_takes_at_most_1000_prompts_a_job(tmp_path):
    path = tmp_path / "many.jsonl"
    path.write_text("".join(json.dumps({"prompt": f"q{i}", "referenceResponse": "a"}) + "\n" for i in range(1000)))
    assert "too-many-prompts" not in _rules(load_document(path))
    with open(path, "a") as handle:
        handle.write(json.dumps({"prompt": "one more", "referenceResponse": "a"}) + "\n")
    issue = _rules(load_document(path))["too-many-prompts"]
    assert issue.severity == "error" and "1,001 prompts" in issue.message and "1,000" in issue.message
    assert "too-many-prompts" not in _rules(load_document(path, target="sdk-flat"))


def test_conversations_are_said_to_be_sent_as_single_prompts_where_a_platform_has_none(doc, tmp_path):
    assert _rules(load_document(doc.path, target="bedrock"))["conversation-not-supported"].severity == "warning"
    flat = tmp_path / "flat.jsonl"
    save_document(doc, flat, target="sdk-flat")
    assert "conversation-not-supported" not in _rules(load_document(flat))


def test_bedrock_has_no_csv_and_says_so(doc, tmp_path):
    from evaleditor.core.errors import WriteError

    with pytest.raises(WriteError, match=r"takes \.jsonl files, not \.csv"):
        save_document(doc, tmp_path / "bedrock.csv", target="bedrock")


# ----- LangSmith ----------------------------------------------------------------------------------
def test_langsmith_examples_are_what_its_client_takes(doc, tmp_path):
    schemas = pytest.importorskip("langsmith.schemas")
    out = tmp_path / "langsmith.jsonl"
    save_document(doc, out, target="langsmith")
    examples = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # `outputs`, as its docs write it, is now also `reference_outputs`
        for record in lines(out):
            assert set(record) <= {"inputs", "outputs", "metadata"}
            examples.append(schemas.ExampleCreate(**record))
    assert [(e.inputs, e.reference_outputs) for e in examples] == [
        ({"question": "Hi there"}, {"answer": "Hello!"}),
        ({"question": "Book a flight", "context": "the fares"}, {"answer": "Booked"}),
        ({"question": "What is 2+2?"}, {"answer": "4"})]
    assert examples[1].metadata == {"category": "booking", "session_id": "s1", "turn_id": "2"}


def test_langsmith_csv_is_the_table_its_upload_splits_by_column(doc, tmp_path):
    out = tmp_path / "langsmith.csv"
    save_document(doc, out, target="langsmith")
    got = rows(out)
    assert list(got[0])[:3] == ["question", "context", "answer"]
    assert got[1]["question"] == "Book a flight" and got[1]["answer"] == "Booked"


def test_a_column_empty_in_the_first_rows_keeps_its_place_in_a_records_file(tmp_path):
    """A key absent from the first records (an empty cell is left out) is still read, and written as a
    .csv, beside the columns it stands between, not moved to the end."""
    path = tmp_path / "cases.csv"
    path.write_text("question,answer,expected_tool_calls,note\nHi,Hello,,a\n"
                    'Find it,Found,"[{""name"": ""find"", ""arguments"": {}}]",b\n', encoding="utf-8")
    for name in ("flat.jsonl", "flat.csv"):
        save_document(load_document(path), tmp_path / name, target="sdk-flat")
        assert load_document(tmp_path / name).dataset.headers() == [
            "prompt", "reference", "expected_tool_calls", "note"], name


# ----- promptfoo ----------------------------------------------------------------------------------
def test_promptfoo_columns_are_vars_and_expected_holds_an_assertion(doc, tmp_path):
    out = tmp_path / "tests.csv"
    save_document(doc, out, target="promptfoo")
    got = rows(out)
    assert [r["__expected"] for r in got] == ["equals:Hello!", "equals:Booked", "equals:4"]
    assert [r["question"] for r in got] == ["Hi there", "Book a flight", "What is 2+2?"]


def test_an_answer_from_another_table_reaches_promptfoo_as_an_exact_match_of_its_text(tmp_path):
    """An answer that happens to start with an assertion type (`python:`, `contains:`) is the text to
    match: promptfoo would run `python: it is the best` as Python. Written directly or by convert's
    plan (which first spells the answer column `__expected`), it is `equals:<answer>`."""
    from evaleditor.cli import main

    path = tmp_path / "gt.csv"
    path.write_text("question,answer\nQ1,python: it is the best\nQ2,contains:hi\nQ3,4\nQ4,\n", encoding="utf-8")
    want = ["equals:python: it is the best", "equals:contains:hi", "equals:4", ""]
    save_document(load_document(path), tmp_path / "direct.csv", target="promptfoo")
    assert main(["convert", str(path), str(tmp_path / "converted.csv"), "--target", "promptfoo"]) == 0
    for name in ("direct.csv", "converted.csv"):
        assert [r["__expected"] for r in rows(tmp_path / name)] == want, name


@pytest.mark.parametrize("cell, answer", [
    ("equals:4", "4"), ("4", "4"), (" equals: 4 ", "4"), ("equals:python: it is the best", "python: it is the best"),
    ("Note: bring ID", "Note: bring ID"), ("", ""),
    ("contains:hi", None), ("python: x", None), ("not-equals:4", None), ("is-json", None), ("latency", None),
    ("similar(0.8):x", None), ("grade:polite", None), ("fn:output.length > 1", None), ("file://check.py", None)])
def test_the_reference_answer_a_promptfoo_expected_cell_checks_for(cell, answer):
    """As promptfoo 0.121.20 reads a cell (assertionFromString): trimmed, an unknown type its equals."""
    from evaleditor.io.platforms.promptfoo import reference

    assert reference(cell) == answer


def test_promptfoo_checks_become_the_reference_answer_in_another_targets_file_and_the_rest_is_told(tmp_path, capsys):
    """`equals:4` (and a bare `4`) is the answer 4 in an sdk-flat or ground-truth file; `contains:hi`
    is no reference answer: its text is kept and the save plan (convert's warning, the API) says so."""
    import evaleditor
    from evaleditor.cli import main
    from evaleditor.io.save import plan_save

    src = tmp_path / "pf.csv"
    src.write_text("question,__expected\nWhat is 2+2?,equals:4\nSay hi,contains:hi\nbare,4\nnone,\n", encoding="utf-8")
    want = ["the meaning of promptfoo checks that are no reference answer (rows 2: their text is kept as the answer)"]
    assert [str(m) for m in plan_save(load_document(src), "jsonl", "sdk-flat").format_limits] == want
    assert main(["convert", str(src), str(tmp_path / "flat.jsonl"), "--target", "sdk-flat"]) == 0
    assert want[0] in capsys.readouterr().err
    assert [r.get("reference") for r in lines(tmp_path / "flat.jsonl")] == ["4", "contains:hi", "4", None]
    assert main(["convert", str(src), str(tmp_path / "gt.csv"), "--target", "ground-truth"]) == 0
    assert [r["answer"] for r in rows(tmp_path / "gt.csv")] == ["4", "contains:hi", "4", ""]
    assert evaleditor.open(src).left_out(tmp_path / "b.jsonl", target="bedrock").format_limits == want
    assert plan_save(load_document(src), "csv", "promptfoo").format_limits == []


def test_promptfoo_file_saved_again_keeps_its_expected_cells_as_they_are(tmp_path):
    """A promptfoo file's `__expected` cells are already what promptfoo reads (a bare `4` is its
    equals check): saving the file again writes them unchanged, not `4` as `equals:4`."""
    path = tmp_path / "tests.csv"
    path.write_text("question,__expected\nWhat is 2+2?,4\nSay hi,contains:hi\nNo check,\n", encoding="utf-8")
    doc = load_document(path)
    save_document(doc, tmp_path / "again.csv")
    save_document(doc, tmp_path / "as_promptfoo.csv", target="promptfoo")
    for name in ("again.csv", "as_promptfoo.csv"):
        assert [r["__expected"] for r in rows(tmp_path / name)] == ["4", "contains:hi", ""], name


def test_a_promptfoo_file_saved_in_its_own_style_is_the_same_bytes(tmp_path):
    """Save of a promptfoo CSV (the window keeps a CSV's encoding, delimiter and line ends) writes the
    file as it was: its columns in their order (a variable before `question`, an empty column), no BOM
    added, its line ends, every `__expected` cell as it is."""
    from evaleditor.io.text.delimited import CsvStyle

    path = tmp_path / "tests.csv"
    text = "topic;question;__expected;empty;note\nmath;What is 2+2?;4;;x\nsocial;Say hi;contains:hi;;\n"
    path.write_bytes(text.encode("utf-8"))
    doc = load_document(path)
    assert doc.dataset.target.name == "promptfoo"
    save_document(doc, path, csv_style=CsvStyle(doc.encoding, doc.delimiter, doc.line_end))
    assert path.read_bytes() == text.encode("utf-8")


def test_promptfoo_runs_the_csv_offline_with_its_echo_provider(tmp_path):
    from evaleditor.cli import main

    promptfoo = platform_clients.promptfoo()
    path = tmp_path / "cases.csv"
    path.write_text("question,answer\nsame text,same text\nasked,something else\n"
                    "python: it is the best,python: it is the best\n", encoding="utf-8")
    assert main(["convert", str(path), str(tmp_path / "tests.csv"), "--target", "promptfoo"]) == 0
    (tmp_path / "promptfooconfig.yaml").write_text('prompts:\n  - "{{question}}"\nproviders:\n  - echo\n'
                                                   "tests: file://tests.csv\n", encoding="utf-8")
    run = subprocess.run(platform_clients.offline([str(promptfoo), "eval", "-c", "promptfooconfig.yaml", "-o", "out.json",
                                                   "--no-cache", "--no-progress-bar", "--no-write"]),
                         cwd=tmp_path, env=platform_clients.quiet_env(tmp_path / "home"), capture_output=True,
                         text=True, timeout=300)
    assert (tmp_path / "out.json").exists(), run.stderr[-2000:]
    results = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["results"]["results"]
    # the echo provider answers with the prompt: `equals:` passes only where the answer is the question;
    # an answer starting `python:` is that text, not a Python assertion (which would fail to run)
    assert [(r["vars"]["question"], r["success"]) for r in results] == [
        ("same text", True), ("asked", False), ("python: it is the best", True)]
    assert [r["gradingResult"]["componentResults"][0]["assertion"] for r in results] == [
        {"type": "equals", "value": "same text"}, {"type": "equals", "value": "something else"},
        {"type": "equals", "value": "python: it is the best"}]
    assert run.returncode == 100  # promptfoo's exit status when a test failed


# ----- Azure AI Foundry ---------------------------------------------------------------------------
def test_azure_rows_and_conversations(doc, tmp_path):
    out = tmp_path / "azure.jsonl"
    save_document(doc, out, target="azure-foundry")
    conversation, single = lines(out)
    assert conversation["conversation"]["messages"] == [
        {"role": "user", "content": "Hi there"}, {"role": "assistant", "content": "Hello!", "ground_truth": "Hello!"},
        {"role": "user", "content": "Book a flight"},
        {"role": "assistant", "content": "Booked", "ground_truth": "Booked", "context": "the fares"}]
    assert single == {"query": "What is 2+2?", "ground_truth": "4", "category": "math"}


AZURE_JUDGE = """
import json, sys
from azure.ai.evaluation import F1ScoreEvaluator, evaluate

result = evaluate(data=sys.argv[1], evaluators={"f1": F1ScoreEvaluator()})
with open(sys.argv[2], "w", encoding="utf-8") as out:
    json.dump(result["rows"], out)
"""


def test_azure_evaluate_runs_offline_on_the_file_with_a_local_evaluator(tmp_path):
    python = platform_clients.azure_python()  # its own venv: azure-ai-evaluation pins pandas < 3
    path = tmp_path / "cases.csv"
    path.write_text("question,answer,response,category\nCapital of France?,Paris,Paris,geo\n"
                    "Largest planet?,Jupiter,Saturn,space\nCapital of Italy?,Rome,Rome is the capital,geo\n",
                    encoding="utf-8")
    out = tmp_path / "azure.jsonl"
    save_document(load_document(path), out, target="azure-foundry")
    run = subprocess.run(platform_clients.offline([str(python), "-c", AZURE_JUDGE, str(out), str(tmp_path / "rows.json")]),
                         cwd=tmp_path, env=platform_clients.quiet_env(tmp_path / "home"), capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    got = json.loads((tmp_path / "rows.json").read_text(encoding="utf-8"))
    # F1 of the words of `response` against `ground_truth` (articles dropped): "Rome" against "Rome is
    # capital" is 2 * (1/3 * 1) / (1/3 + 1)
    assert [(r["inputs.query"], r["outputs.f1.f1_score"]) for r in got] == [
        ("Capital of France?", 1.0), ("Largest planet?", 0.0), ("Capital of Italy?", 0.5)]
    assert [r["outputs.f1.f1_score_result"] for r in got] == ["pass", "fail", "pass"]  # its threshold: 0.5


def test_a_bedrock_row_with_an_empty_question_keeps_its_required_prompt_key(tmp_path):
    from evaleditor.core.document import document_from_table
    from evaleditor.core.table import RawTable

    d = document_from_table(RawTable(["question", "answer"], [["Hi", "Hello"], ["", "An answer"]], "csv"), None,
                            "bedrock")
    assert "empty-question" in _rules(d)
    out = tmp_path / "bedrock.jsonl"
    save_document(d, out, target="bedrock")
    assert lines(out) == [{"prompt": "Hi", "referenceResponse": "Hello"}, {"prompt": "", "referenceResponse": "An answer"}]


def _edit(doc, row, header, text):
    from evaleditor.core.commands import SetCells

    ds = doc.dataset
    SetCells([(ds.rows[row].id, ds.columns[ds.headers().index(header)].id, text)]).apply(ds)


AZURE_CONVERSATIONS = [
    {"conversation": {"messages": [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello!", "context": "greeting", "tool_calls": [{"id": "c1"}]},
        {"role": "user", "content": "Book a flight"}, {"role": "assistant", "content": "Booked"}]}, "id": "first"},
    {"conversation": {"messages": [
        {"role": "user", "content": "Refund?"}, {"role": "assistant", "content": "Yes", "context": "policy"},
        {"role": "user", "content": "How long?"}, {"role": "user", "content": "Days?"},
        {"role": "assistant", "content": "Five"}]}},
]


def test_azure_conversation_lines_open_one_row_per_user_turn_and_save_back_the_same(tmp_path):
    path = tmp_path / "azure.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in AZURE_CONVERSATIONS), encoding="utf-8")
    doc = load_document(path)
    ds = doc.dataset
    assert ds.target.name == "azure-foundry"
    assert ds.headers() == ["query", "ground_truth", "context", "session_id", "turn_id"]
    assert [r.cells for r in ds.rows] == [
        ["Hi", "Hello!", "greeting", "first", "1"], ["Book a flight", "Booked", "", "first", "2"],  # the line's id
        ["Refund?", "Yes", "policy", "conversation-2", "1"], ["How long?", "", "", "conversation-2", "2"],
        ["Days?", "Five", "", "conversation-2", "3"]]
    assert doc.shape.line == "MULTI-TURN — 5 rows, 2 conversations (grouped by session_id)"
    first = path.read_bytes()
    save_document(doc, path)
    assert path.read_bytes() == first


def test_azure_edit_of_a_turn_changes_only_that_message(tmp_path):
    path = tmp_path / "azure.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in AZURE_CONVERSATIONS), encoding="utf-8")
    doc = load_document(path)
    _edit(doc, 0, "ground_truth", "Hello there")
    _edit(doc, 3, "ground_truth", "A week")
    save_document(doc, path)
    got = lines(path)
    want = json.loads(json.dumps(AZURE_CONVERSATIONS))
    want[0]["conversation"]["messages"][1]["content"] = "Hello there"  # its context and tool calls kept
    want[1]["conversation"]["messages"].insert(3, {"role": "assistant", "content": "A week", "ground_truth": "A week"})
    assert got == want


def test_azure_conversation_that_is_not_user_assistant_turns_is_kept_whole_and_said(tmp_path):
    path = tmp_path / "azure.jsonl"
    system = {"conversation": {"messages": [{"role": "system", "content": "Be brief"}, {"role": "user", "content": "Hi"}]}}
    tool = {"conversation": {"messages": [{"role": "user", "content": "Weather?"},
                                          {"role": "assistant", "content": None, "tool_calls": [{"id": "w"}]},
                                          {"role": "tool", "content": "sunny"}]}}
    path.write_text("".join(json.dumps(r) + "\n" for r in (system, AZURE_CONVERSATIONS[0], tool)), encoding="utf-8")
    doc = load_document(path)
    noted = [i for i in doc.validator.all_issues() if i.rule == "sdk-not-shown"]
    assert [i.message.split(":")[0] for i in noted] == ["line 1", "line 3"]
    assert "misspelled-session-column" not in _rules(doc)
    conversation = doc.dataset.headers().index("conversation")
    assert json.loads(doc.dataset.rows[0].cells[conversation]) == system["conversation"]
    first = path.read_bytes()
    save_document(doc, path)
    assert path.read_bytes() == first


# ----- LangSmith, read back ----------------------------------------------------------------------
def test_langsmith_examples_open_one_level_deep_as_the_writer_wrote_them(doc, tmp_path):
    out = tmp_path / "langsmith.jsonl"
    save_document(doc, out, target="langsmith")
    again = load_document(out)
    assert again.dataset.target.name == "langsmith"
    # context, empty in the first example, is read where the writer put it: an input beside the question
    assert again.dataset.headers() == ["question", "context", "answer", "category", "session_id", "turn_id"]
    assert [dict(zip(again.dataset.headers(), r.cells, strict=True)) for r in again.dataset.rows][1] == {
        "question": "Book a flight", "context": "the fares", "answer": "Booked", "category": "booking",
        "session_id": "s1", "turn_id": "2"}
    assert again.shape.line == doc.shape.line


def test_langsmith_examples_with_several_keys_save_back_the_same_and_an_edit_changes_one_key(tmp_path):
    schemas = pytest.importorskip("langsmith.schemas")
    examples = [
        {"inputs": {"input": "Hi"}, "outputs": {"output": "Hello"}, "metadata": {"n": 3}},
        {"inputs": {"question": "Q", "context": "C", "lang": "en"}, "outputs": {"answer": "A", "score": 1.5},
         "metadata": {"session_id": "s1", "tags": ["x"]}},
        {"inputs": {"question": "Q3"}, "outputs": {}, "metadata": {"question": "same name as an input"}},
    ]
    path = tmp_path / "examples.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in examples), encoding="utf-8")
    doc = load_document(path)
    headers = doc.dataset.headers()
    # the second example's keys go beside their neighbours there (records.merged_keys), n after them
    assert headers[:5] == ["question", "context", "lang", "answer", "score"]
    assert {"n", "tags", "inputs"} <= set(headers)
    assert [dict(zip(headers, doc.dataset.rows[0].cells, strict=True))[k] for k in ("question", "answer", "n")] == [
        "Hi", "Hello", "3"]
    first = path.read_bytes()
    save_document(doc, path)
    assert path.read_bytes() == first
    _edit(doc, 0, "question", "Hey")
    _edit(doc, 1, "score", "2")
    save_document(doc, path)
    want = json.loads(json.dumps(examples))
    want[0]["inputs"]["input"] = "Hey"
    want[1]["outputs"]["score"] = 2
    assert lines(path) == want
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert schemas.ExampleCreate(**lines(path)[0]).inputs == {"input": "Hey"}
