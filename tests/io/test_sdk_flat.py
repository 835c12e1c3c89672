"""The SDK's flat form (target sdk-flat, .jsonl and .csv), judged by the SDK's own loader and converter.

`EvalDatasetLoader` reads the file as `run_inference(src=…)` / `evaluate(dataset=…)` do (pandas'
read_json(lines=True) / read_csv; the storage and bigquery clients it builds are given anonymous
credentials and never called), and `_FlattenEvalDataConverter` builds the EvalCases, with a `response`
column added as the SDK needs one to evaluate. No network is used.
"""

from __future__ import annotations

import json

import pytest

from evaleditor.core.commands import SetCells
from evaleditor.io.load import load_document
from evaleditor.io.save import save_document

pytest.importorskip("agentplatform")
pytest.importorskip("google.cloud.storage")
pytest.importorskip("google.cloud.bigquery")

CONVERSATION_CSV = (
    "session_id,turn_id,question,answer,context,note\n"
    "s1,1,Hi there,Hello!,,a\n"
    "s1,2,Book a flight to Oslo,Booked,the fares,b\n"
    "s1,3,And a hotel?,Which night?,,c\n"
    ",,What is 2+2?,4,,d\n"
)


def sdk_load(path):
    """The SDK's loader and flat converter on `path`, with a `response` added to every row."""
    from agentplatform._genai import _evals_data_converters as converters  # before _evals_utils: import order
    from agentplatform._genai import _evals_utils
    from google.auth.credentials import AnonymousCredentials

    class ApiClient:  # what the loader reads of its client: a project and credentials for the GCS/BQ clients
        project = "offline"
        _credentials = AnonymousCredentials()

    raw = _evals_utils.EvalDatasetLoader(ApiClient()).load(str(path))
    for row in raw:
        row["response"] = "a candidate answer"
    schema = converters.auto_detect_dataset_schema(raw)
    assert schema == converters.EvalDatasetSchema.FLATTEN
    return converters.get_dataset_converter(schema).convert(raw).eval_cases


def _text(content) -> str:
    return "".join(p.text for p in content.parts) if content is not None else ""


@pytest.fixture
def conversation(tmp_path):
    path = tmp_path / "cases.csv"
    path.write_text(CONVERSATION_CSV, encoding="utf-8")
    return load_document(path)


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_sdk_loader_and_converter_read_the_flat_file_as_the_table(conversation, tmp_path, suffix):
    out = tmp_path / f"flat{suffix}"
    save_document(conversation, out, target="sdk-flat")
    cases = sdk_load(out)
    ds = conversation.dataset
    assert [_text(c.prompt) for c in cases] == [ds.value(r, "question") for r in ds.rows]
    assert [_text(c.reference.response) for c in cases] == [ds.value(r, "answer") for r in ds.rows]
    histories = [[(m.content.role, _text(m.content)) for m in c.conversation_history or []] for c in cases]
    assert histories == [
        [],
        [("user", "Hi there"), ("model", "Hello!")],
        [("user", "Hi there"), ("model", "Hello!"), ("user", "Book a flight to Oslo"), ("model", "Booked")],
        [],
    ]
    assert [getattr(c, "note", None) for c in cases] == ["a", "b", "c", "d"]  # extra columns kept


def test_flat_file_has_no_eval_case_id_column_which_crashes_the_converter(tmp_path):
    path = tmp_path / "cases.csv"
    path.write_text("eval_case_id,question,answer\nc-1,Q1,A1\n", encoding="utf-8")
    out = tmp_path / "flat.jsonl"
    save_document(load_document(path, target="sdk"), out, target="sdk-flat")
    record = json.loads(out.read_text(encoding="utf-8"))
    assert "eval_case_id" not in record and record["source_eval_case_id"] == "c-1"
    assert [_text(c.prompt) for c in sdk_load(out)] == ["Q1"]


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_flat_file_reopens_as_the_same_conversations_without_a_history_column(conversation, tmp_path, suffix):
    out = tmp_path / f"flat{suffix}"
    save_document(conversation, out, target="sdk-flat")
    again = load_document(out)
    assert again.dataset.target.name == "sdk-flat"
    assert "conversation_history" not in again.dataset.headers()
    assert again.shape.mode == "multi-turn" and again.shape.conversations == 2
    assert again.dataset.headers()[:5] == ["prompt", "reference", "context", "session_id", "turn_id"] or \
        set(again.dataset.headers()) == {"prompt", "reference", "context", "session_id", "turn_id", "note"}


def test_edit_of_an_earlier_turn_is_in_the_later_turns_history_after_saving(conversation, tmp_path):
    out = tmp_path / "flat.jsonl"
    save_document(conversation, out, target="sdk-flat")
    doc = load_document(out)
    ds = doc.dataset
    first = ds.rows[0]
    SetCells([(first.id, ds.columns[ds.field_position("question")].id, "Good morning")]).apply(ds)
    save_document(doc, out)
    cases = sdk_load(out)
    assert _text(cases[1].conversation_history[0].content) == "Good morning"
    assert _text(cases[0].prompt) == "Good morning"


def test_open_and_save_a_flat_jsonl_with_no_edit_writes_the_same_objects(tmp_path):
    records = [
        {"prompt": "Q1", "reference": "A1", "response": "R1", "score": 3, "ok": True, "tags": ["x"], "none": None},
        {"prompt": {"role": "user", "parts": [{"text": "Q2"}]}, "agent_data": {"turns": []}, "context": "c"},
    ]
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    doc = load_document(path)
    assert doc.dataset.target.name == "sdk-flat"
    save_document(doc, path)
    assert [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] == records


def test_an_edit_in_a_flat_jsonl_changes_only_that_value_keeping_its_type(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"prompt": "Q1", "score": 3, "tags": ["x"]}) + "\n", encoding="utf-8")
    doc = load_document(path)
    ds = doc.dataset
    row = ds.rows[0]
    headers = ds.headers()
    SetCells([(row.id, ds.columns[headers.index("score")].id, "4"),
              (row.id, ds.columns[headers.index("tags")].id, '["x", "y"]')]).apply(ds)
    save_document(doc, path)
    assert json.loads(path.read_text(encoding="utf-8")) == {"prompt": "Q1", "score": 4, "tags": ["x", "y"]}


def test_a_jsonl_line_that_is_not_an_object_is_one_clear_reason(tmp_path):
    from evaleditor.core.errors import ReadError

    path = tmp_path / "bad.jsonl"
    path.write_text('{"prompt": "Q"}\n[1, 2]\n', encoding="utf-8")
    with pytest.raises(ReadError, match="line 2 is not a JSON object"):
        load_document(path)


def test_what_the_reader_learnt_of_the_columns_goes_with_the_history_column(conversation, tmp_path, monkeypatch):
    """A column left out: what the CSV reader learnt of the columns as read (RawTable.scans) no longer fits."""
    pytest.importorskip("pyarrow")
    from evaleditor.io import read_table
    from evaleditor.io.platforms.sdk_flat import fold_history
    from evaleditor.io.text import delimited

    out = tmp_path / "flat.csv"
    save_document(conversation, out, target="sdk-flat")
    monkeypatch.setattr(delimited, "MIN_BYTES", 0)  # read by pyarrow, which learns them
    raw = read_table(out)
    assert raw.scans is not None and "conversation_history" in raw.headers
    folded = fold_history(raw)
    assert "conversation_history" not in folded.headers and folded.scans is None
