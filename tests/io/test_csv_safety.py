"""Cells Excel would run as formulas: found, optionally neutralised in CSV, never formulas in a workbook."""

import re
import zipfile

import pytest

from evaleditor.core.document import document_from_table
from evaleditor.core.errors import VerifyError
from evaleditor.core.table import RawTable
from evaleditor.io import read_table
from evaleditor.io.excel.write import write_xlsx
from evaleditor.io.save import save_document
from evaleditor.io.text.csv_safety import formula_like_cells, formula_warning, is_formula_like, neutralise
from evaleditor.io.text.delimited import write_csv

RISKY = ["=1+1", "+A1", "-2+3", "@SUM(1)", "=HYPERLINK(\"http://x\",\"y\")", "\t=1", "\r=1", "-", "+", "@"]
HARMLESS = ["", "1+1", "a=b", " =1", "-5", "+1.5", "-3e4", "+.5", "'=1", "x@y.z", "\uff1d1"]


@pytest.mark.parametrize("text", RISKY)
def test_risky(text):
    assert is_formula_like(text)
    assert neutralise(text) == "'" + text


@pytest.mark.parametrize("text", HARMLESS)
def test_harmless(text):
    assert not is_formula_like(text)
    assert neutralise(text) == text


def test_formula_like_cells_positions():
    headers = ["question", "=h"]
    rows = [["ok", "=1"], ["-5", "@x"], ["", ""]]
    assert formula_like_cells(headers, rows) == [(-1, 1), (0, 1), (1, 1)]
    assert formula_like_cells(["q"], [["a"]]) == []


def test_warning_counts_cells():
    assert formula_warning(["q"], [["fine"]]) is None
    assert str(formula_warning(["q"], [["=1"]])).startswith("1 cell starts with =, +, - or @ and would run as a "
                                                          "formula if the CSV is opened in Excel;")
    assert str(formula_warning(["q"], [["=1"], ["+A1"]])).startswith("2 cells start with =, +, - or @ and would "
                                                                   "run as formulas if the CSV is opened in Excel;")


def test_write_csv_keeps_cells_unless_asked(tmp_path):
    path = tmp_path / "a.csv"
    write_csv(path, ["question", "answer"], [["=1+1", "-5"], ["@SUM(1)", "fine"]])
    assert read_table(path).rows == [["=1+1", "-5"], ["@SUM(1)", "fine"]]
    write_csv(path, ["question", "answer"], [["=1+1", "-5"], ["@SUM(1)", "fine"]], neutralise_formulas=True)
    assert read_table(path).rows == [["'=1+1", "-5"], ["'@SUM(1)", "fine"]]


def test_save_document_neutralises_and_verifies_the_prefixed_text(tmp_path, monkeypatch):
    rows = [["=1+1", "+A1"], ["plain", "\t=2"]]
    doc = document_from_table(RawTable(["question", "answer"], [list(r) for r in rows], "csv"))
    path = tmp_path / "out.csv"
    save_document(doc, path, neutralise_formulas=True)
    assert read_table(path).rows == [["'=1+1", "'+A1"], ["plain", "'\t=2"]]
    assert [r.cells for r in doc.dataset.rows] == rows  # the document keeps what the user typed
    # the check really expects the prefixed text: a file without the prefix is a mismatch
    import evaleditor.io.text.delimited as delimited

    real = delimited.write_csv
    monkeypatch.setattr(delimited, "write_csv", lambda *a, **k: real(*a, **{**k, "neutralise_formulas": False}))
    with pytest.raises(VerifyError) as info:
        save_document(doc, path, neutralise_formulas=True)
    assert "row 1, column question" in str(info.value)
    assert read_table(path).rows == [["'=1+1", "'+A1"], ["plain", "'\t=2"]]


def test_neutralise_is_ignored_for_workbooks(tmp_path):
    doc = document_from_table(RawTable(["question"], [["=1+1"]], "csv"))
    save_document(doc, tmp_path / "out.xlsx", neutralise_formulas=True)
    assert read_table(tmp_path / "out.xlsx").rows == [["=1+1"]]


def test_workbook_never_holds_a_formula(tmp_path):
    path = tmp_path / "f.xlsx"
    cells = ["=1+1", "+A1", "@SUM(1)", "-2+3", "=HYPERLINK(\"http://x\")", "\t=1"]
    write_xlsx(path, ["=header", *[f"h{i}" for i in range(len(cells) - 1)]], [cells])
    with zipfile.ZipFile(path) as zf:
        for name in zf.namelist():
            if name.startswith("xl/worksheets/"):
                assert not re.search(rb"<(\w+:)?f[\s>/]", zf.read(name)), name
    assert read_table(path).rows == [cells]
    assert read_table(path).notes == []
