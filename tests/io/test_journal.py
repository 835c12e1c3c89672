"""Crash-recovery journals (io/journal.py): a document with edits reads back as the same document —
cells, headers, target, reader findings, formulas without a value, SDK payloads — and anything else
is refused with a one-line reason."""

import json
from importlib.resources import files
from pathlib import Path

import pytest

from evaleditor.core.commands import RemoveRows, RenameColumn, SetCells
from evaleditor.core.errors import ReadError
from evaleditor.io.journal import dump_document, read_journal, write_journal
from evaleditor.io.load import load_document
from evaleditor.io.sdk.write import encode_sdk_json

SAMPLES = sorted(Path(str(files("evaleditor.resources") / "samples")).iterdir())


def edit(doc):
    ds = doc.dataset
    first, last = ds.rows[0], ds.rows[-1]
    SetCells([(first.id, ds.columns[0].id, "edited \u4e2d\u6587\n\ud800 lone surrogate"),
              (last.id, ds.columns[-1].id, "=1+1")]).apply(ds)
    RenameColumn(ds.columns[-1].id, "renamed").apply(ds)
    RemoveRows([ds.rows[1].id]).apply(ds)
    ds.set_target("sdk" if doc.source_format != "json" else "ground-truth")


def same(a, b):
    assert a.dataset.headers() == b.dataset.headers()
    assert [r.cells for r in a.dataset.rows] == [r.cells for r in b.dataset.rows]
    assert a.dataset.target.name == b.dataset.target.name
    assert (a.path, a.source_format, a.sheet, a.sheets, a.encoding) == \
        (b.path, b.source_format, b.sheet, b.sheets, b.encoding)
    assert [r.formulas != frozenset() for r in a.dataset.rows] == [r.formulas != frozenset() for r in b.dataset.rows]
    assert [i.message for i in a.validator.all_issues()] == [i.message for i in b.validator.all_issues()]


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_an_edited_document_reads_back_as_it_was(sample, tmp_path):
    doc = load_document(sample)
    edit(doc)
    write_journal(tmp_path / "j.json", doc, stamp=(123, 45), display_name=None)
    back = read_journal(tmp_path / "j.json")
    same(doc, back.document)
    assert back.stamp == (123, 45) and back.saved_at is not None and back.rows == doc.dataset.row_count()
    if sample.suffix == ".json":
        doc.dataset.set_target("sdk")
        back.document.dataset.set_target("sdk")
        assert encode_sdk_json(sample, back.document.dataset)[1] == encode_sdk_json(sample, doc.dataset)[1]


def test_formulas_without_a_value_and_reader_findings_survive(tmp_path):
    doc = load_document(SAMPLES[0])
    ds = doc.dataset
    ds.rows[0].formulas = frozenset({ds.columns[1].id})
    doc.validator.full()
    back = read_journal_of(doc, tmp_path)
    assert back.dataset.rows[0].formulas == frozenset({back.dataset.columns[1].id})


def read_journal_of(doc, tmp_path):
    (tmp_path / "j.json").write_bytes(dump_document(doc))
    return read_journal(tmp_path / "j.json").document


def test_an_untitled_document_keeps_its_name(tmp_path):
    doc = load_document(SAMPLES[0])
    doc.path = None
    (tmp_path / "j.json").write_bytes(dump_document(doc, display_name="demo (demo)"))
    back = read_journal(tmp_path / "j.json")
    assert back.document.path is None and back.display_name == "demo (demo)" and back.stamp is None


@pytest.mark.parametrize("content, reason", [
    (b"{not json", "not a recovery file"),
    (b"[]", "not a recovery file"),
    (b'{"evaleditor_recovery": 99}', "newer version"),
    (b'{"evaleditor_recovery": 1, "headers": ["a"], "rows": [["1", "2"]]}', "damaged"),
    (b"\xff\xfe", "not a recovery file"),
])
def test_anything_else_is_refused_in_one_line(content, reason, tmp_path):
    (tmp_path / "j.json").write_bytes(content)
    with pytest.raises(ReadError, match=reason) as err:
        read_journal(tmp_path / "j.json")
    assert "\n" not in str(err.value)


def test_the_format_is_plain_json(tmp_path):
    doc = load_document(SAMPLES[0])
    record = json.loads(dump_document(doc, stamp=(1, 2)))
    assert record["evaleditor_recovery"] == 1 and record["stamp"] == [1, 2]
    assert record["headers"] == doc.dataset.headers() and len(record["rows"]) == doc.dataset.row_count()


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_the_summary_from_the_head_matches_the_whole_journal(sample, tmp_path):
    from evaleditor.io.journal import read_summary

    doc = load_document(sample)
    edit(doc)
    path = tmp_path / "j.json"
    write_journal(path, doc, display_name="demo")
    whole, summary = read_journal(path), read_summary(path)
    assert (summary.path, summary.display_name, summary.saved_at, summary.rows) == \
        (str(doc.path), "demo", whole.saved_at, len(doc.dataset.rows))
    record = json.loads(path.read_bytes().decode("utf-8", "surrogatepass"))
    del record["row_count"]  # a journal from before the summary: read whole
    path.write_bytes(json.dumps(record).encode())
    assert read_summary(path).rows == len(doc.dataset.rows)
    path.write_text('{"evaleditor_recovery": 99, "saved_at": "", "path": null, "display_name": null, '
                    '"row_count": 1, "rows": [', encoding="utf-8")
    with pytest.raises(ReadError, match="newer version"):
        read_summary(path)


@pytest.mark.parametrize("name, text", [
    ("recorded.json", json.dumps({"eval_cases": [{"eval_case_id": "c", "agent_data": {"turns": [
        {"turn_index": 0, "events": [{"author": "user", "content": {"role": "user", "parts": [{"text": "Hi"}]}}]},
        {"turn_index": 1, "events": [{"author": "user", "content": {"role": "user", "parts": [{"text": "Yo"}]}}]}]}}]})),
    ("records.json", json.dumps({"eval_dataset_df": [{"prompt": "Q", "reference": "A", "n": 3}]})),
    ("flat.jsonl", json.dumps({"prompt": "Q", "reference": "A", "tags": ["x"]}) + "\n"),
    ("azure.jsonl", json.dumps({"conversation": {"messages": [{"role": "user", "content": "Q"}, {
        "role": "assistant", "content": "A", "tool_calls": [{"id": "t"}]}]}, "id": "c1"}) + "\n"),
    ("langsmith.jsonl", json.dumps({"inputs": {"input": "Q"}, "outputs": {"output": "A"}, "id": "e1"}) + "\n"),
])
def test_rows_of_recorded_conversations_and_records_journal_and_save_as_before(name, text, tmp_path):
    """A conversation recorded in agent_data, the SDK's records form and a .jsonl keep what each row
    carries through a journal: the restored document saves the same file."""
    from evaleditor.io.save import save_document

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    doc = load_document(path)
    ds = doc.dataset
    column = {"recorded.json": "question", "azure.jsonl": "query", "langsmith.jsonl": "question"}.get(name, "prompt")
    SetCells([(ds.rows[0].id, ds.columns[ds.headers().index(column)].id, "edited")]).apply(ds)
    back = read_journal_of(doc, tmp_path)
    save_document(doc, tmp_path / f"a{path.suffix}")
    save_document(back, tmp_path / f"b{path.suffix}")
    assert (tmp_path / f"a{path.suffix}").read_bytes() == (tmp_path / f"b{path.suffix}").read_bytes()
    if name in ("azure.jsonl", "langsmith.jsonl"):  # the line as read, its question edited
        written = json.loads((tmp_path / "b.jsonl").read_text(encoding="utf-8"))
        assert written["id"] and "edited" in json.dumps(written)


def test_a_recovered_sdk_document_keeps_the_json_modules_spelling_of_its_floats(tmp_path):
    """Floats that orjson spells otherwise are marked where they enter (sdk/json_text.ReprFloat): a
    journal read back is such a place, else a recovered document would save 1e-05 as 0.00001."""
    path = tmp_path / "in.json"
    path.write_text(json.dumps({"eval_cases": [{"prompt": {"role": "user", "parts": [{"text": "q"}]},
                                                "trace": {"x": [1e-05, 0.25]}}]}), encoding="utf-8")
    back = read_journal_of(load_document(path), tmp_path)
    data = encode_sdk_json(path, back.dataset)[1]
    assert b"1e-05" in data
    assert data == (json.dumps(json.loads(data), ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def test_a_stopped_write_leaves_the_journal_as_it_was(tmp_path, monkeypatch):
    """A write told to stop (a newer edit) writes no block more and removes its temporary file; the
    journal at the path is still the last complete one and reads back."""
    from evaleditor.io import journal

    monkeypatch.setattr(journal, "_BLOCK", 1)  # a block per row
    doc = load_document(SAMPLES[0])
    path = tmp_path / "j.json"
    write_journal(path, doc)
    complete = path.read_bytes()
    edit(doc)
    asked = []
    assert not write_journal(path, doc, stop=lambda: asked.append(1) or len(asked) >= 3)
    assert len(asked) == 3  # asked before each block: the head and one row written, then nothing more
    assert path.read_bytes() == complete and sorted(p.name for p in tmp_path.iterdir()) == ["j.json"]
    assert write_journal(path, doc, stop=lambda: False)
    same(doc, read_journal(path).document)


def test_a_recovered_sdk_document_keeps_its_cases_places_and_the_ids_a_save_made(tmp_path):
    """What a journal restores saves as the lost document would have: the cases where the file held
    them (SdkCase.at), and a new case with the id its first save made (Dataset.case_ids), though the
    row has moved since."""
    from evaleditor.core.commands import InsertRows, ReorderRows
    from evaleditor.io.save import save_document
    from evaleditor.io.sdk.conversations import conversation_data

    def case(text, sid=None, k=0, history=()):
        out = {"prompt": {"role": "user", "parts": [{"text": text}]}}
        return {**out, **conversation_data(sid, list(history), text, k)} if sid else out

    path = tmp_path / "in.json"  # a conversation's turns apart: the table gathers them, the file does not
    path.write_text(json.dumps({"eval_cases": [case("s1 q0", "s1"), case("x"), case("s1 q1", "s1", 1, [("s1 q0", "")])]}),
                    encoding="utf-8")
    doc = load_document(path)
    ds = doc.dataset
    InsertRows(0, [ds.new_row(["", "", "new"])]).apply(ds)
    assert ds.headers() == ["session_id", "turn_id", "question"]
    save_document(doc, tmp_path / "first.json")
    made = json.loads((tmp_path / "first.json").read_text(encoding="utf-8"))["eval_cases"][0]["eval_case_id"]
    ReorderRows([r.id for r in ds.rows[1:]] + [ds.rows[0].id]).apply(ds)  # the new row last
    back = read_journal_of(doc, tmp_path)
    save_document(doc, tmp_path / "a.json")
    save_document(back, tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    cases = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))["eval_cases"]
    assert [c["prompt"]["parts"][0]["text"] for c in cases] == ["s1 q0", "x", "s1 q1", "new"]
    assert cases[-1]["eval_case_id"] == made
