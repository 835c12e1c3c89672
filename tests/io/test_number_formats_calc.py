"""The reader against LibreOffice Calc itself: a workbook with number formats is made into an .ods by
Calc, and both are read as Calc shows them (its CSV export with "save cell contents as shown")."""

from __future__ import annotations

import csv
import shutil
import subprocess

import openpyxl
import pytest

from evaleditor.io import read_table

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
AS_SHOWN = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true"  # token 9: save as shown
FORMATS = {"id": "000", "code": '"ID-"000', "score": "0.00", "share": "0%", "rate": "0.00%", "count": "#,##0",
           "price": '"$"#,##0.00'}


def _calc(tmp_path, source, to: str):
    profile = (tmp_path / "profile").as_uri()
    subprocess.run([SOFFICE, f"-env:UserInstallation={profile}", "--headless", "--convert-to", to,
                    "--outdir", str(tmp_path / "out"), str(source)], check=True, capture_output=True, timeout=180)
    return tmp_path / "out" / (source.stem + "." + to.split(":")[0])


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_ods_and_xlsx_numbers_read_as_calc_shows_them(tmp_path):
    book = openpyxl.Workbook()
    ws = book.active
    ws.append(["question", *FORMATS])
    for i, values in enumerate([(7, 42, 1.5, 0.5, 0.125, 1234567, 3.5), (12, 3, 2, 1, 1, 12, -2),
                                (7, -5, -0.25, 0.25, 0.5, 0, 1000), (123456, 1000, 0, 0, 0.0005, -1000, 0)]):
        ws.append([f"q{i}", *values])
    for column, code in enumerate(FORMATS.values(), start=2):
        for row in range(2, ws.max_row + 1):
            ws.cell(row, column).number_format = code
    xlsx = tmp_path / "formats.xlsx"
    book.save(xlsx)
    ods = _calc(tmp_path, xlsx, "ods")
    with open(_calc(tmp_path, ods, AS_SHOWN), newline="", encoding="utf-8") as handle:
        shown = list(csv.reader(handle))[1:]
    assert shown[0] == ["q0", "007", "ID-042", "1.50", "50%", "12.50%", "1,234,567", "$3.50"]  # Calc did format them
    assert read_table(ods).rows == shown
    assert read_table(xlsx).rows == shown
