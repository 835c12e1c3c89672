"""Another platform's file is built and read once per save (io/platforms built, io/verify.ReadBack): the
save plan's left_out builds the records the save then writes, and convert reports the file from what the
save's read-back check read rather than reading it again. Work is counted (builds, reads), never timed."""

from __future__ import annotations

import gc
import json
import weakref

import pytest

from evaleditor.cli import main
from evaleditor.core.commands import SetCells
from evaleditor.io import records as records_module
from evaleditor.io.load import load_document
from evaleditor.io.platforms import azure_foundry, bedrock
from evaleditor.io.save import plan_save, save_document
from evaleditor.io.text import delimited


def counted(monkeypatch, module, name: str) -> list[int]:
    """How many times module.name is called (it still does its work)."""
    calls = [0]
    real = getattr(module, name)

    def counting(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


# a conversation whose turns differ in `level`: the Azure line holds one value, and the plan says so
TURNS = "session_id,turn_id,question,answer,level\ns1,1,Hi,Hello,easy\ns1,2,Bye,Ciao,hard\n,,Q,A,easy\n"


@pytest.mark.parametrize(("target", "module"), [("azure-foundry", azure_foundry), ("bedrock", bedrock)])
def test_convert_builds_a_platforms_records_once_and_reads_the_file_written_once(tmp_path, capsys, monkeypatch,
                                                                                 target, module):
    src = tmp_path / "in.csv"
    src.write_text(TURNS, encoding="utf-8")
    builds = counted(monkeypatch, module, "cases")  # each build of the records starts from the rows
    reads = counted(monkeypatch, records_module, "read_jsonl")
    assert main(["convert", str(src), str(tmp_path / "out.jsonl"), "--target", target]) == 0
    assert "leaves out" in capsys.readouterr().err  # the plan's format_limits: convert reports the file as read
    assert (builds[0], reads[0]) == (1, 1)  # were 2 and 2: the plan's left_out and the save; the check and a re-read


def test_convert_reads_a_platforms_csv_once(tmp_path, capsys, monkeypatch):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"question": "Q", "query": "Q2", "ground_truth": "A"}) + "\n", encoding="utf-8")
    reads = counted(monkeypatch, delimited, "read_delimited")
    assert main(["convert", str(src), str(tmp_path / "out.csv"), "--target", "azure-foundry", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["left_out"]["format_limits"] and report["shape"]["rows"] == 1
    assert reads[0] == 1  # the check's read is the report's


def test_a_save_after_its_plan_builds_an_azure_files_lines_once_and_keeps_none_of_them(tmp_path, monkeypatch):
    src = tmp_path / "in.csv"
    src.write_text(TURNS, encoding="utf-8")
    save_document(load_document(src), tmp_path / "a.jsonl", target="azure-foundry")
    doc = load_document(tmp_path / "a.jsonl")  # the line holds one level: easy
    ds = doc.dataset
    SetCells([(ds.rows[1].id, ds.columns[ds.headers().index("level")].id, "hard")]).apply(ds)
    builds = counted(monkeypatch, azure_foundry, "cases")
    plan = plan_save(doc, "jsonl")  # the window's Save: the plan (the question asked), then the save
    assert plan.command is None and len(plan.format_limits) == 1
    save_document(doc, tmp_path / "a.jsonl", plan=plan)
    assert builds[0] == 1 and plan.built == {}  # the save took what the plan built
    plan = plan_save(doc, "jsonl")
    ds.rename_column(ds.columns[ds.headers().index("level")].id, "grade")  # an edit: what was built no longer holds
    assert builds[0] == 2
    save_document(doc, tmp_path / "a.jsonl", plan=plan)
    assert builds[0] == 3 and "grade" in (tmp_path / "a.jsonl").read_text(encoding="utf-8")


class Tracked(list):
    """A list that a weak reference can follow (a plain list cannot be)."""


@pytest.mark.parametrize("no_save", ["plan", "preview"])
def test_a_plan_that_no_save_follows_leaves_no_records_with_the_document(tmp_path, monkeypatch, no_save):
    from evaleditor.io.upload_preview import build_preview

    src = tmp_path / "in.csv"
    src.write_text(TURNS, encoding="utf-8")
    save_document(load_document(src), tmp_path / "a.jsonl", target="azure-foundry")
    doc = load_document(tmp_path / "a.jsonl")
    made: list[weakref.ref] = []
    real = azure_foundry._written

    def tracked(ds):
        written = real(ds)
        records = Tracked(written.records)
        made.append(weakref.ref(records))
        return type(written)(records, written.differing)

    monkeypatch.setattr(azure_foundry, "_written", tracked)
    if no_save == "plan":  # the API's left_out, a Cancel on the window's question
        assert plan_save(doc, "jsonl").command is None  # the plan is of the document's own dataset
    else:  # the Upload Preview, on every open (the preview itself holds what it shows while it is open)
        assert build_preview(doc).entries
    gc.collect()
    assert len(made) == 1  # the lines built once: the preview shows what its plan built
    assert all(ref() is None for ref in made)  # were kept with the document until its next edit
