"""A CSV saved under a workbook's name (.xlsx as well as .xls) is read as the text it is, and the name is said
to mislead (rule text-named-as-workbook), since Excel warns about it and a workbook-only target refuses it."""

from __future__ import annotations

import pytest

from evaleditor.io.load import load_document


@pytest.mark.parametrize("suffix", [".xlsx", ".xls"])
def test_a_csv_named_as_a_workbook_is_read_as_text_and_the_name_is_said_to_mislead(tmp_path, suffix):
    path = tmp_path / f"r{suffix}"
    path.write_bytes(b"question;answer\nhi;x\n")
    doc = load_document(path)
    assert doc.dataset.headers() == ["question", "answer"]
    assert [r.cells for r in doc.dataset.rows] == [["hi", "x"]]
    [note] = [i for i in doc.validator.all_issues() if i.rule == "text-named-as-workbook"]
    assert note.severity == "warning"
    assert f"semicolon-separated text, not an Excel workbook, though its name ends in {suffix}" in note.message


def test_a_real_workbook_is_not_told_so(tmp_path):
    import openpyxl

    book = openpyxl.Workbook()
    book.active.append(["question", "answer"])
    book.active.append(["hi", "x"])
    book.save(tmp_path / "ok.xlsx")
    doc = load_document(tmp_path / "ok.xlsx")
    assert not [i for i in doc.validator.all_issues() if i.rule == "text-named-as-workbook"]


# the counterpart: a workbook under a text file's name (`cp cases.xlsx cases.csv`)

def _workbook_named(tmp_path, sample: str, suffix: str = ".csv"):
    import shutil
    from importlib.resources import files

    path = tmp_path / f"wrong{suffix}"
    shutil.copy(str(files("evaleditor.resources") / "samples" / sample), path)
    return path


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".txt"])
def test_a_workbook_named_as_text_is_read_as_a_workbook_and_the_name_is_said_to_mislead(tmp_path, suffix):
    doc = load_document(_workbook_named(tmp_path, "ground_truth_multiturn.xlsx", suffix))
    assert doc.source_format == "xlsx" and doc.sheet == "Cases"
    [note] = [i for i in doc.validator.all_issues() if i.rule == "workbook-named-as-text"]
    assert note.severity == "warning"
    assert f"an Excel workbook, not text, though its name ends in {suffix}" in note.message


def test_a_workbook_named_csv_is_no_upload_for_evaluation_set_and_its_save_agrees(tmp_path):
    """evaluation-set takes Excel workbooks; a file named .csv is refused whatever it holds. The check
    (unsupported-file-type) and the save under that name (which writes what the name says, CSV) give
    the same reason."""
    import evaleditor

    path = _workbook_named(tmp_path, "evaluation_set_zh.xlsx")
    doc = evaleditor.open(path)
    assert doc.target == "evaluation-set"
    [issue] = [i for i in doc.issues if i.rule == "unsupported-file-type"]
    with pytest.raises(ValueError) as refused:
        doc.save(path)
    assert str(refused.value) == issue.message == "evaluation-set accepts only Excel workbooks: save as .xlsx"
    saved = doc.save(tmp_path / "right.xlsx")
    assert not [i for i in saved.issues if i.rule in ("unsupported-file-type", "workbook-named-as-text")]


def test_a_workbook_named_csv_saved_under_its_name_becomes_the_text_its_name_says(tmp_path):
    import evaleditor

    path = _workbook_named(tmp_path, "ground_truth_multiturn.xlsx")
    doc = evaleditor.open(path)
    saved = doc.save(path)
    assert path.read_bytes().startswith(b"\xef\xbb\xbfsession_id,")  # CSV text now, as its name says
    assert not [i for i in saved.issues if i.rule == "workbook-named-as-text"]
    assert evaleditor.open(path).shape.line == doc.shape.line
