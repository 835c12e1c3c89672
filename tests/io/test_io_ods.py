"""LibreOffice's .ods opens like a workbook (python-calamine): sheet choice, cells as shown; it is not
written (no well-kept writer), and saving says why and what to choose instead."""

from __future__ import annotations

import datetime

import pytest

from evaleditor.core.errors import ReadError, WriteError
from evaleditor.io import read_table
from evaleditor.io.load import load_document
from evaleditor.io.save import save_document
from tests.io.io_builders import table_xlsx, tables_ods


def test_ods_opens_on_the_sheet_with_a_question_header_with_cells_as_shown(tmp_path):
    path = tables_ods(tmp_path / "cases.ods", {
        "Notes": [["just some notes"]],
        "Cases": [["question", "answer", "turn", "when"],
                  ["Q1", "007", 3, datetime.date(2026, 11, 30)],
                  ["Q2", "NA", 2.5, "x"]],
    })
    table = read_table(path)
    assert table.sheet == "Cases" and table.sheets == ["Notes", "Cases"]
    assert table.headers == ["question", "answer", "turn", "when"]
    assert table.rows == [["Q1", "007", "3", "2026-11-30"], ["Q2", "NA", "2.5", "x"]]
    notes = read_table(path, sheet="Notes")
    assert (notes.headers, notes.rows) == (["just some notes"], [])
    doc = load_document(path)
    assert doc.source_format == "ods" and doc.shape.rows == 2


def test_ods_with_a_doctype_is_refused_before_it_is_parsed(tmp_path):
    path = tables_ods(tmp_path / "bomb.ods", {"S": [["question"], ["q"]]}, doctype=True)
    with pytest.raises(ReadError, match="DTD|entit"):
        read_table(path)


def test_an_xlsx_named_ods_is_read_for_what_it_is(tmp_path):
    path = table_xlsx(tmp_path / "really.xlsx", [["question"], ["Q1"]])
    renamed = path.rename(tmp_path / "really.ods")
    assert read_table(renamed).rows == [["Q1"]]


def test_damaged_ods_is_one_clear_line(tmp_path):
    path = tmp_path / "broken.ods"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(ReadError):
        read_table(path)


def test_saving_as_ods_says_why_not_and_proposes_xlsx(tmp_path):
    path = tables_ods(tmp_path / "cases.ods", {"Cases": [["question"], ["Q1"]]})
    doc = load_document(path)
    with pytest.raises(WriteError, match=r"\.ods.*save as \.xlsx"):
        save_document(doc, path)
    save_document(doc, tmp_path / "cases.xlsx")
    assert read_table(tmp_path / "cases.xlsx").rows == [["Q1"]]
