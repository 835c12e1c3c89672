"""Whole numbers formatted with leading zeros (`000`, `"ID-"000`) read as Excel shows them, in .xlsx and .xls
(numformats.py, xls.py)."""

import openpyxl
import pytest

import evaleditor
from evaleditor.io import read_table
from evaleditor.io.excel import numformats
from evaleditor.io.excel.numformats import Padding, padding_of
from tests.io.io_builders import rewrite_zip


def formatted_xlsx(path, rows, formats):
    """rows of values; formats: {"B3": "000", ...}."""
    book = openpyxl.Workbook()
    ws = book.active
    for row in rows:
        ws.append(row)
    for ref, code in formats.items():
        ws[ref].number_format = code
    book.save(path)
    return path


def test_zero_padded_whole_numbers_read_as_excel_shows_them(tmp_path):
    path = formatted_xlsx(tmp_path / "a.xlsx", [
        ["question", "id", "code", "score", "plain"],
        ["q1", 7, 7, 0.5, 7],
        ["q2", -7, 12345, 0.25, 8],
        ["q3", 7.5, 42, 3, 9],
    ], {"B2": "000", "B3": "000", "B4": "000", "C2": '"ID-"000', "C3": '"ID-"000', "C4": '00000" x"',
        "D2": "0%", "D3": "0.00", "E2": "0"})
    assert read_table(path).rows == [
        ["q1", "007", "ID-007", "0.5", "7"],
        ["q2", "-007", "ID-12345", "0.25", "8"],
        ["q3", "7.5", "00042 x", "3", "9"],  # 7.5 would show 008: the text would lose the .5
    ]


@pytest.mark.parametrize(("code", "padding"), [
    ("000", Padding(3)), ("00000", Padding(5)), ('"ID-"000', Padding(3, "ID-")), ('0"-x"', Padding(1, "", "-x")),
    ("0", None), ("0%", None), ("0.00", None), ("#,##0", None), ("000;-000", None), ("General", None), ("@", None),
])
def test_which_formats_pad(code, padding):
    assert padding_of(code) == padding


def test_session_typed_as_text_and_as_a_formatted_number_is_one_conversation(tmp_path):
    path = formatted_xlsx(tmp_path / "s.xlsx", [
        ["session_id", "question", "response"],
        ["007", "hi", "hello"],
        [7, "and then?", "bye"],
    ], {"A3": "000"})
    doc = evaleditor.open(path)
    assert list(doc.to_pandas()["session_id"]) == ["007", "007"]
    assert doc.shape.conversations == 1


def test_saved_and_reopened_the_padded_number_stays_text(tmp_path):
    path = formatted_xlsx(tmp_path / "s.xlsx", [["question", "id"], ["q1", 7]], {"B2": "000"})
    evaleditor.open(path).save(tmp_path / "out.xlsx")
    assert openpyxl.load_workbook(tmp_path / "out.xlsx").active["B2"].value == "007"
    assert list(evaleditor.open(tmp_path / "out.xlsx").to_pandas()["id"]) == ["007"]


def test_excels_own_attribute_order_and_row_styles(tmp_path):
    """Excel writes no t="n" and may style a whole row; a text cell in a padding style stays its text."""
    path = formatted_xlsx(tmp_path / "a.xlsx", [["question", "id"], ["q1", 7], ["q2", "7"]],
                          {"B2": "000", "B3": "000"})

    def as_excel(xml: bytes) -> bytes:
        return xml.replace(b' t="n"', b"").replace(b'<row r="2"', b'<row r="2" s="1" customFormat="1"')

    excelish = rewrite_zip(path, tmp_path / "b.xlsx", {"xl/worksheets/sheet1.xml": as_excel})
    assert read_table(excelish).rows == [["q1", "007"], ["q2", "7"]]


def test_workbook_without_padding_formats_is_not_read_again(tmp_path, monkeypatch):
    """Other number formats (percent, decimals) cost a look at styles.xml, never a second read of the sheet."""

    def scanned(*_args):
        raise AssertionError("the sheet was read again")

    monkeypatch.setattr(numformats, "padded_cells", scanned)
    path = formatted_xlsx(tmp_path / "a.xlsx", [["question", "n", "p"], ["q1", 7, 0.5]], {"B2": "0.00", "C2": "0%"})
    assert read_table(path).rows == [["q1", "7", "0.5"]]


def test_xls_zero_padded_whole_numbers_read_as_excel_shows_them(tmp_path, monkeypatch):
    xlwt = pytest.importorskip("xlwt", reason="xlwt (test-only helper that writes .xls fixtures) is not installed")
    from evaleditor.io.excel import xls

    book = xlwt.Workbook()
    ws = book.add_sheet("S")
    for c, header in enumerate(["session_id", "question", "code", "score"]):
        ws.write(0, c, header)
    ws.write(1, 0, "007")
    ws.write(2, 0, 7, xlwt.easyxf(num_format_str="000"))
    ws.write(1, 2, 7, xlwt.easyxf(num_format_str='"ID-"000'))
    ws.write(2, 2, 7.5, xlwt.easyxf(num_format_str="000"))
    ws.write(1, 3, 0.5, xlwt.easyxf(num_format_str="0%"))
    for r in (1, 2):
        ws.write(r, 1, f"q{r}")
    book.save(str(tmp_path / "a.xls"))
    opened = []
    real_open = xls._open_book
    monkeypatch.setattr(xls, "_open_book", lambda *a, **k: opened.append(k) or real_open(*a, **k))
    assert read_table(tmp_path / "a.xls").rows == [["007", "q1", "ID-007", "0.5"], ["007", "q2", "7.5", ""]]
    assert opened == [{}, {"formatting_info": True}]


def test_xls_without_padding_formats_is_read_once_without_each_cells_style(tmp_path, monkeypatch):
    """xlrd keeps each cell's style only on request (slower): a book with no padding format never asks."""
    xlwt = pytest.importorskip("xlwt", reason="xlwt (test-only helper that writes .xls fixtures) is not installed")
    from evaleditor.io.excel import xls

    book = xlwt.Workbook()
    ws = book.add_sheet("S")
    ws.write(0, 0, "question")
    ws.write(1, 0, 7, xlwt.easyxf(num_format_str="0.00"))
    book.save(str(tmp_path / "a.xls"))
    opened = []
    real_open = xls._open_book
    monkeypatch.setattr(xls, "_open_book", lambda *a, **k: opened.append(k) or real_open(*a, **k))
    assert read_table(tmp_path / "a.xls").rows == [["7"]]
    assert opened == [{}]
