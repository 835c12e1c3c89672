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
