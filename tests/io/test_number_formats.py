"""Numbers read as their number format shows them (`000`, `"ID-"000`, `0%`, `0.00`, `#,##0`, currency), in
.xlsx and .xls (numformats.py, xls.py), unless the format would round them."""

import openpyxl
import pytest

import evaleditor
from evaleditor.io import read_table
from evaleditor.io.excel import numformats
from evaleditor.io.excel.numformats import shown_by
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
        ["q1", "007", "ID-007", "50%", "7"],
        ["q2", "-007", "ID-12345", "0.25", "8"],
        ["q3", "7.5", "00042 x", "3", "9"],  # 7.5 would show 008: the text would lose the .5
    ]


@pytest.mark.parametrize(("code", "shown"), [
    ("000", {"7": "007", "-7": "-007", "12345": "12345", "7.5": "7.5"}),
    ('"ID-"000', {"7": "ID-007", "-5": "-ID-005"}), ('0"-x"', {"7": "7-x"}), ("00000", {"42": "00042"}),
    ("0%", {"0.5": "50%", "1": "100%", "0": "0%", "-0.25": "-25%", "0.125": "0.125"}),  # 13% would lose the .5
    ("0.00%", {"0.125": "12.50%", "0.12345": "0.12345"}),
    ("0.00", {"1.5": "1.50", "2": "2.00", "1.234": "1.234", "-0.5": "-0.50", "1e-05": "1e-05"}),
    ("0.0#", {"2": "2.0", "1.25": "1.25", "1.255": "1.255"}),
    ("#,##0", {"1234567": "1,234,567", "12": "12", "0": "0", "0.5": "0.5"}),
    ('"$"#,##0.00', {"3.5": "$3.50", "-2": "-$2.00", "1000": "$1,000.00"}),
    ("#,##0.00 [$€-407]", {"1234.5": "1,234.50 €"}), ("[$¥-804]#,##0", {"8": "¥8"}),
    ("#.00", {"0.5": ".50"}), (r"0\ \k\g", {"3": "3 kg"}),
])
def test_what_number_formats_show(code, shown):
    way = shown_by(code)
    assert {number: way.shown(number) for number in shown} == shown


@pytest.mark.parametrize("code", ["0", "General", "@", "0;-0", "000;-000", "0.00E+00", "# ?/?", "[Red]0.00",
                                  "0.##", "#,##0,", "yyyy-mm-dd", "0.00_)", "0%%", "NA"])
def test_formats_that_read_as_the_value(code):
    assert shown_by(code) is None


def test_formatted_numbers_save_and_reopen_as_the_same_text(tmp_path):
    path = formatted_xlsx(tmp_path / "s.xlsx", [["question", "score", "share", "price"], ["q1", 1.5, 0.5, 3.5]],
                          {"B2": "0.00", "C2": "0%", "D2": '"$"#,##0.00'})
    read = evaleditor.open(path)
    assert read.to_pandas().values.tolist() == [["q1", "1.50", "50%", "$3.50"]]
    read.save(tmp_path / "out.xlsx")
    assert openpyxl.load_workbook(tmp_path / "out.xlsx").active["C2"].value == "50%"  # what the user saw
    assert evaleditor.open(tmp_path / "out.xlsx").to_pandas().values.tolist() == read.to_pandas().values.tolist()


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


def test_workbook_without_shown_formats_is_not_read_again(tmp_path, monkeypatch):
    """Formats that show a number as its value reads (`0`, scientific) cost a look at styles.xml, never a
    second read of the sheet."""

    def scanned(*_args):
        raise AssertionError("the sheet was read again")

    monkeypatch.setattr(numformats, "shown_cells", scanned)
    path = formatted_xlsx(tmp_path / "a.xlsx", [["question", "n", "p"], ["q1", 7, 0.5]], {"B2": "0", "C2": "0.00E+00"})
    assert read_table(path).rows == [["q1", "7", "0.5"]]


def test_only_the_formats_the_cell_styles_use_are_read(tmp_path, monkeypatch):
    """A format code is looked at only when a cell style uses it: a workbook styled with General alone
    (as evaleditor writes one) reads none, the built-in ones included."""
    read_codes = []
    monkeypatch.setattr(numformats, "shown_by", lambda code: read_codes.append(code) or shown_by(code))
    plain = formatted_xlsx(tmp_path / "a.xlsx", [["question", "n"], ["q1", 7]], {})
    assert read_table(plain).rows == [["q1", "7"]] and read_codes == []
    padded = formatted_xlsx(tmp_path / "b.xlsx", [["question", "n"], ["q1", 7]], {"B2": "000"})
    assert read_table(padded).rows == [["q1", "007"]] and read_codes == ["000"]


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
    assert read_table(tmp_path / "a.xls").rows == [["007", "q1", "ID-007", "50%"], ["007", "q2", "7.5", ""]]
    assert opened == [{}, {"formatting_info": True}]


def test_xls_without_shown_formats_is_read_once_without_each_cells_style(tmp_path, monkeypatch):
    """xlrd keeps each cell's style only on request (slower): a book with no format that shows numbers
    other than as their value never asks."""
    xlwt = pytest.importorskip("xlwt", reason="xlwt (test-only helper that writes .xls fixtures) is not installed")
    from evaleditor.io.excel import xls

    book = xlwt.Workbook()
    ws = book.add_sheet("S")
    ws.write(0, 0, "question")
    ws.write(1, 0, 7, xlwt.easyxf(num_format_str="0.00E+00"))
    book.save(str(tmp_path / "a.xls"))
    opened = []
    real_open = xls._open_book
    monkeypatch.setattr(xls, "_open_book", lambda *a, **k: opened.append(k) or real_open(*a, **k))
    assert read_table(tmp_path / "a.xls").rows == [["7"]]
    assert opened == [{}]


def test_a_format_that_shows_no_digit_keeps_the_value():
    """`#` and `#,###` show 0 as nothing; read so, a save would write an empty cell and lose the 0."""
    from evaleditor.io.excel.numformats import shown_by

    assert shown_by("#").shown("0") == "0"
    assert shown_by("#,###").shown("0") == "0"
    assert shown_by("#,###").shown("1234") == "1,234"
