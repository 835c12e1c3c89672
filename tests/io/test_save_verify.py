"""A save reads its file back before replacing the old one: any table that round-trips passes the check
(no false alarm), the temporary file is named so it can be recognised, and progress spans both steps."""

import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaleditor.core.dataset import Dataset
from evaleditor.core.document import Document
from evaleditor.core.errors import Mismatch
from evaleditor.io import read_table
from evaleditor.io.save import save_document
from evaleditor.io.verify import json_mismatches, table_mismatches
from tests.io.test_io_roundtrip import CSV_CHARS, SETTINGS, SPECIAL, XLSX_CHARS, tables


def doc_of(headers, rows, target="ground-truth"):
    return Document.of(Dataset(headers, rows, target))


def saved(fmt, headers, rows):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"t.{fmt}"
        save_document(doc_of(headers, rows), path)  # raises VerifyError on any difference
        assert sorted(p.name for p in Path(folder).iterdir()) == [path.name]
        return read_table(path)


@SETTINGS
@given(tables(XLSX_CHARS))
def test_any_workbook_table_passes_its_check(table):
    saved("xlsx", *table)


@SETTINGS
@given(tables(CSV_CHARS))
def test_any_csv_table_passes_its_check(table):
    saved("csv", *table)


@SETTINGS
@given(st.lists(st.lists(st.one_of(st.sampled_from(SPECIAL), st.text(CSV_CHARS, max_size=12)), min_size=3,
                         max_size=3), max_size=6))
def test_any_sdk_dataset_passes_its_check(rows):
    with tempfile.TemporaryDirectory() as folder:
        save_document(doc_of(["question", "answer", "notes"], rows, "sdk"), Path(folder) / "t.json")


def test_empty_rows_and_edge_columns_are_what_any_reader_sees(tmp_path):
    headers = ["", "question", "answer", ""]
    rows = [["", "q1", "a1", ""], ["", "", "", ""], ["", "q2", "", ""]]
    save_document(doc_of(headers, rows), tmp_path / "t.xlsx")
    assert read_table(tmp_path / "t.xlsx").rows == [["q1", "a1"], ["q2", ""]]


def test_template_and_empty_dataset_save(tmp_path):
    for fmt in ("csv", "xlsx", "json"):
        save_document(doc_of(["question", "answer"], []), tmp_path / f"t.{fmt}")
        save_document(doc_of([], []), tmp_path / f"e.{fmt}")


def test_progress_counts_writing_then_reading_back(tmp_path):
    seen = []
    save_document(doc_of(["question"], [[f"q{i}"] for i in range(2500)]), tmp_path / "p.xlsx",
                  progress=lambda done, total: seen.append((done, total)))
    assert {t for _, t in seen} == {5000}
    dones = [d for d, _ in seen]
    assert dones == sorted(dones) and dones[-1] == 5000
    assert (1000, 5000) in seen and any(2500 < d < 5000 for d in dones)


def test_table_mismatches_by_cell():
    found = type("T", (), {"headers": ["question", "answer"], "rows": [["a", "B"], ["c", "d"], ["e", "f"]]})
    diffs = table_mismatches(["question", "answer"], [["a", "b"], ["c", "d"]], [1, 3], found)
    assert diffs == [Mismatch(3 - 2, "answer", "b", "B"), Mismatch(4, None, "", "e\tf")]


def test_json_mismatches_are_strict_about_types():
    expected = {"eval_cases": [{"a": True, "b": [1, 2]}, {"c": "x"}], "meta": 1}
    found = {"eval_cases": [{"a": 1, "b": [1]}], "meta": 1.0}
    diffs = json_mismatches(expected, found, [2, 5])
    assert diffs == [Mismatch(2, "eval_cases[0].a", "true", "1"), Mismatch(2, "eval_cases[0].b[1]", "2", ""),
                     Mismatch(5, "eval_cases[1]", '{"c": "x"}', "")]


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "json"])
def test_a_save_cancelled_while_it_reads_back_leaves_the_old_file(tmp_path, fmt):
    """The window cancels a save from its progress callback: once the file is written and being read
    back — for SDK JSON too, whose read-back reported no progress — it must still stop before the rename."""
    from evaleditor.core.errors import Cancelled
    ds = Dataset(["question", "answer"], [[f"q{i}", "a"] for i in range(3000)], "sdk" if fmt == "json" else "ground-truth")
    doc = Document.of(ds, fmt)
    path = tmp_path / f"cases.{fmt}"
    path.write_bytes(b"the old file")

    def cancel_in_read_back(done, total):
        if total // 2 < done < total:
            raise Cancelled()

    with pytest.raises(Cancelled):
        save_document(doc, path, progress=cancel_in_read_back)
    assert path.read_bytes() == b"the old file" and [p.name for p in tmp_path.iterdir()] == [path.name]


def test_workbook_read_back_does_not_scan_the_sheet_it_just_wrote(tmp_path, monkeypatch):
    """The area scan (extent.py) guards against other programs' files; the read-back of our own reads
    the sheet with calamine only (the scan took 1.7 s of a 100k-row save). Opening the file scans it."""
    from evaleditor.io.excel import extent

    scanned = []
    real = extent.check_sheet
    monkeypatch.setattr(extent, "check_sheet", lambda *a: scanned.append(a[-1]) or real(*a))
    path = tmp_path / "t.xlsx"
    save_document(doc_of(["question", "answer"], [["q1", "a1"], ["q2", "a2"]]), path)
    assert scanned == []
    assert read_table(path).rows == [["q1", "a1"], ["q2", "a2"]]
    assert scanned == ["Cases"]
