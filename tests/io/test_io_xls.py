"""Legacy .xls read with xlrd. Fixtures are written with xlwt, a test-only helper."""

import datetime as dt

import pytest

from evaleditor.core.errors import Cancelled, ReadError
from evaleditor.io import read_table
from evaleditor.io.excel.xls import read_xls

xlwt = pytest.importorskip("xlwt", reason="xlwt (test-only helper that writes .xls fixtures) is not installed")


def make_xls(path, sheets):
    """sheets: name -> list of (row, col, value, number_format or None)."""
    book = xlwt.Workbook()
    for name, cells in sheets.items():
        ws = book.add_sheet(name)
        for r, c, value, fmt in cells:
            if fmt == "error":
                ws.row(r).set_cell_error(c, value)
            elif fmt:
                ws.write(r, c, value, xlwt.easyxf(num_format_str=fmt))
            else:
                ws.write(r, c, value)
    book.save(str(path))
    return path


def test_values_as_text(tmp_path):
    path = make_xls(tmp_path / "v.xls", {"Readme": [(0, 0, "notes", None)], "Cases": [
        (2, 1, "question", None), (2, 2, "n", None), (2, 3, "f", None), (2, 4, "b", None),
        (2, 5, "d", None), (2, 6, "dt", None), (2, 7, "t", None), (2, 8, "e", None), (2, 9, "s", None),
        (3, 1, "=1+1", None), (3, 2, 3.0, None), (3, 3, 0.1, None), (3, 4, True, None),
        (3, 5, dt.date(2026, 11, 30), "YYYY-MM-DD"), (3, 6, dt.datetime(2026, 11, 30, 12, 34, 56),
                                                      "YYYY-MM-DD HH:MM:SS"),
        (3, 7, dt.time(12, 34, 56), "HH:MM:SS"), (3, 8, "#DIV/0!", "error"), (3, 9, "007", None),
        (5, 1, "NA", None), (5, 4, False, None),
    ]})
    t = read_xls(path)
    assert t.sheet == "Cases" and t.sheets == ["Readme", "Cases"]
    assert t.source_format == "xls"
    assert t.headers == ["question", "n", "f", "b", "d", "dt", "t", "e", "s"]
    assert t.rows == [
        ["=1+1", "3", "0.1", "TRUE", "2026-11-30", "2026-11-30 12:34:56", "12:34:56", "#DIV/0!", "007"],
        ["NA", "", "", "FALSE", "", "", "", "", ""],
    ]


def test_sheet_option_and_dispatch(tmp_path):
    path = make_xls(tmp_path / "s.xls", {"A": [(0, 0, "question", None), (1, 0, "q", None)],
                                         "B": [(0, 0, "other", None)]})
    assert read_table(path, sheet="B").headers == ["other"]
    with pytest.raises(ReadError, match="no sheet named 'C'"):
        read_table(path, sheet="C")


def test_cancel_and_progress(tmp_path):
    path = make_xls(tmp_path / "big.xls", {"S": [(0, 0, "question", None)]
                                           + [(r, 0, f"q{r}", None) for r in range(1, 2500)]})
    calls = []
    assert len(read_xls(path, progress=lambda d, t: calls.append((d, t))).rows) == 2499
    assert calls[-1] == (2500, 2500)
    with pytest.raises(Cancelled):
        read_xls(path, cancel=lambda: True)


def test_xls_named_xlsx_is_read(tmp_path):
    path = make_xls(tmp_path / "old.xls", {"S": [(0, 0, "question", None), (1, 0, "q", None)]})
    renamed = tmp_path / "old.xlsx"
    renamed.write_bytes(path.read_bytes())
    t = read_table(renamed)
    assert t.source_format == "xls" and t.rows == [["q"]]


def test_truncated_xls(tmp_path):
    path = make_xls(tmp_path / "t.xls", {"S": [(0, 0, "question", None), (1, 0, "q", None)]})
    cut = tmp_path / "cut.xls"
    cut.write_bytes(path.read_bytes()[:1500])
    with pytest.raises(ReadError) as info:
        read_table(cut)
    assert "\n" not in str(info.value)


def test_encrypted_xls(tmp_path):
    from evaleditor.io import safety

    path = make_xls(tmp_path / "p.xls", {"S": [(0, 0, "question", None)]})
    data = bytearray(path.read_bytes())
    at = data.find(b"\x12\x00\x02\x00")  # the PROTECT record: retype it as FILEPASS (encryption)
    data[at:at + 2] = b"\x2f\x00"
    path.write_bytes(bytes(data))
    with pytest.raises(ReadError) as info:
        read_table(path)
    assert info.value.reason == safety.PASSWORD


def test_damage_xlrd_reads_past_prints_nothing(tmp_path, capfd):
    """xlrd reports such damage on stdout, which would corrupt `validate --format json`."""
    path = make_xls(tmp_path / "padded.xls", {"S": [(0, 0, "question", None), (1, 0, "q", None)]})
    path.write_bytes(path.read_bytes() + b"\x00" * 7)  # not a whole number of sectors
    assert read_table(path).rows == [["q"]]
    assert capfd.readouterr() == ("", "")
