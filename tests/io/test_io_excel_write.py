import re

import openpyxl
import pytest

from evaleditor.core.errors import WriteError
from evaleditor.io import read_table, write_table
from evaleditor.io.excel.read import read_xlsx
from evaleditor.io.excel.write import safe_sheet_title, write_xlsx, xlsx_text
from tests.io.io_builders import sheet_xml

TRICKY = ["=1+1", "=SUM(A1:A3)", "#N/A", "#DIV/0!", "007", "1e5", "TRUE", "3.0", "NA", "None",
          " lead", "trail ", " ", "\t", "\n", "a\r\nb", "c\rd", "_x0041_", "_x005F_", "x_x000D_y",
          "línea\nnueva", "问题", "😀", "'quoted"]


def test_every_cell_is_a_string_cell(tmp_path):
    path = tmp_path / "s.xlsx"
    headers = [f"h{i}" for i in range(len(TRICKY))]
    write_xlsx(path, headers, [TRICKY])
    t = read_xlsx(path)
    assert t.headers == headers
    assert t.rows == [TRICKY]
    xml = sheet_xml(path)
    assert not re.search(r"<(\w+:)?f[\s>/]", xml)
    cells = re.findall(r"<c [^>]*>", xml)
    assert cells and all('t="inlineStr"' in c or 't="s"' in c for c in cells)


def test_text_is_in_shared_strings_not_in_the_sheet(tmp_path):
    """Excel's own layout: the sheet part holds references, the text is one run of <si> elements
    (inline strings made the sheet part of a 100k-row file 179 MB of XML that every reader walks)."""
    import zipfile

    path = tmp_path / "s.xlsx"
    rows = [[f"a long question number {i} with words", "same", "x" * 40] for i in range(2500)]
    write_xlsx(path, ["question", "tag", "answer"], rows)
    xml = sheet_xml(path)
    assert "long question" not in xml and "same" not in xml
    assert re.findall(r'<c r="[A-C]\d+" s="\d+" t="(\w+)"', xml).count("s") == 3 * 2500
    with zipfile.ZipFile(path) as zf:
        sst = zf.read("xl/sharedStrings.xml").decode()
    assert sst.count("<si>") == 2500 + 1 + 2500  # the short "same" once; long texts as they come
    assert read_xlsx(path).rows == rows
    ws = openpyxl.load_workbook(path).active
    assert ws["A2501"].value == rows[-1][0] and ws["B2"].value == "same"


def test_openpyxl_sees_text_too(tmp_path):
    path = tmp_path / "s.xlsx"
    write_xlsx(path, ["question"], [["=1+1"], ["#N/A"]])
    ws = openpyxl.load_workbook(path).active
    assert [(c.value, c.data_type) for c in ws["A"]][1:] == [("=1+1", "s"), ("#N/A", "s")]


def test_layout_frozen_bold_widths_wrap(tmp_path):
    path = tmp_path / "l.xlsx"
    write_xlsx(path, ["question", "answer", "id"], [["x" * 200, "a fairly long answer", ""], ["问题" * 10, "", "7"]])
    ws = openpyxl.load_workbook(path).active
    assert ws.title == "Cases"
    assert ws.freeze_panes == "A2"
    assert ws["A1"].font.bold and ws["B1"].font.bold
    assert ws["A2"].alignment.wrap_text
    assert ws.column_dimensions["A"].width == 60
    assert ws.column_dimensions["B"].width == 22
    assert ws.column_dimensions["C"].width == 8
    assert ws["C2"].value is None  # empty cells are not written


def test_sheet_title_and_dispatch(tmp_path):
    assert safe_sheet_title("a/b:c" * 10) == ("a_b_c" * 10)[:31]
    assert safe_sheet_title("") == "Sheet1"
    path = tmp_path / "d.xlsx"
    write_table(path, ["question"], [["q"]])
    assert read_table(path).rows == [["q"]]
    with pytest.raises(WriteError, match="cannot save as"):
        write_table(tmp_path / "d.ods", ["question"], [["q"]])


def test_escaping_rules():
    assert xlsx_text("plain") == "plain"
    assert xlsx_text("_x0041_") == "_x005F_x0041_"
    assert xlsx_text("a\rb") == "a_x000D_b"
    assert xlsx_text("  ") == "_x0020_ "
    assert xlsx_text("") == ""


@pytest.mark.parametrize(
    ("value", "needle"),
    [("x" * 32768, "32,767"), ("bell\x07", "U+0007"), ("nul\x00", "U+0000"), ("\ud800", "U+D800"),
     ("\ufffe", "U+FFFE")],
)
def test_refuses_what_a_workbook_cannot_hold(tmp_path, value, needle):
    path = tmp_path / "bad.xlsx"
    write_xlsx(path, ["question"], [["fine"]])
    before = path.read_bytes()
    with pytest.raises(WriteError) as info:
        write_xlsx(path, ["question"], [["ok"], [value]])
    assert needle in info.value.reason
    assert "row 2, column 'question'" in info.value.reason
    assert "\n" not in str(info.value)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["bad.xlsx"]


def test_refusal_names_the_cell_past_the_first_thousand_rows(tmp_path):
    rows = [["fine", "fine"]] * 1500 + [["fine", "ring\x07"]]
    with pytest.raises(WriteError, match="row 1501, column 'answer' holds the control character U\\+0007"):
        write_xlsx(tmp_path / "bad.xlsx", ["question", "answer"], rows)


def test_longest_allowed_cell(tmp_path):
    path = tmp_path / "long.xlsx"
    write_xlsx(path, ["question"], [["y" * 32767]])
    assert read_xlsx(path).rows == [["y" * 32767]]


def test_row_longer_than_headers_refused(tmp_path):
    with pytest.raises(WriteError, match="2 cells but there are 1 columns"):
        write_xlsx(tmp_path / "x.xlsx", ["question"], [["a", "b"]])


def test_short_rows_padded(tmp_path):
    write_xlsx(tmp_path / "p.xlsx", ["question", "answer"], [["q"], ["", "a"]])
    assert read_xlsx(tmp_path / "p.xlsx").rows == [["q", ""], ["", "a"]]


def test_failed_save_keeps_old_file(tmp_path, monkeypatch):
    import errno
    import os

    path = tmp_path / "keep.xlsx"
    write_xlsx(path, ["question"], [["old"]])
    before = path.read_bytes()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(WriteError, match="the disk is full"):
        write_xlsx(path, ["question"], [["new"]])
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["keep.xlsx"]


def test_progress(tmp_path):
    calls = []
    write_xlsx(tmp_path / "p.xlsx", ["q"], [["x"]] * 2100, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1000, 2100), (2000, 2100), (2100, 2100)]


def test_failure_mid_write_keeps_old_file_and_leaves_nothing(tmp_path):
    path = tmp_path / "keep.xlsx"
    write_xlsx(path, ["question"], [["old"]])
    before = path.read_bytes()

    def stop(done, total):
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError):
        write_xlsx(path, ["question"], [["new"]] * 1500, progress=stop)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["keep.xlsx"]
