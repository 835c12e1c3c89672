"""Write then read gives back every cell exactly (formats.md: open, save, no edit -> identical)."""

import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaleditor.io.excel.read import read_xlsx
from evaleditor.io.excel.write import write_xlsx
from evaleditor.io.text.delimited import read_delimited, write_csv

SPECIAL = ["=1+1", "007", "NA", "None", "TRUE", "1e5", "#N/A", " ", "  x  ", "\n", "a\r\nb", "\r",
           "_x0041_", "_x005F_", "问题", "😀", '"', "a,b", "a;b", "a\tb", "\ufeffbom"]
# workbooks cannot store C0 controls other than tab/newline/CR, nor U+FFFE/U+FFFF, nor lone surrogates
XLSX_CHARS = st.characters(
    blacklist_categories=("Cs",),
    blacklist_characters=[chr(c) for c in range(32) if chr(c) not in "\t\n\r"] + ["\ufffe", "\uffff"],
)
# text files: anything but NUL and other C0 controls (a file full of them is taken for binary)
CSV_CHARS = st.characters(
    blacklist_categories=("Cs",),
    blacklist_characters=[chr(c) for c in range(32) if chr(c) not in "\t\n\r"],
)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def tables(chars):
    cell = st.one_of(st.sampled_from(SPECIAL), st.text(chars, max_size=12), st.just(""))
    # a file holding only whitespace is "empty" by design, so a header is never blank
    header = st.one_of(st.sampled_from(SPECIAL), st.text(chars, min_size=1, max_size=8)).filter(str.strip)

    @st.composite
    def build(draw):
        headers = draw(st.lists(header, min_size=1, max_size=5, unique=True))
        n = len(headers)
        row = st.lists(cell, min_size=n, max_size=n).filter(any)
        return headers, draw(st.lists(row, max_size=6))

    return build()


@SETTINGS
@given(tables(XLSX_CHARS))
def test_xlsx_round_trip(table):
    headers, rows = table
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.xlsx"
        write_xlsx(path, headers, rows)
        back = read_xlsx(path)
    assert back.headers == headers
    assert back.rows == rows
    assert back.notes == []


@SETTINGS
@given(tables(CSV_CHARS))
def test_csv_round_trip(table):
    headers, rows = table
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.csv"
        write_csv(path, headers, rows)
        back = read_delimited(path)
    assert back.headers == headers
    assert back.rows == rows
    assert back.delimiter == ","


def test_io_imports_no_qt_and_nothing_heavy():
    code = (
        "import sys, evaleditor.io, evaleditor.io.excel, evaleditor.io.text.delimited, evaleditor.io.safety\n"
        "heavy = {'PySide6', 'pandas', 'openpyxl', 'xlrd', 'python_calamine', 'defusedxml'}\n"
        "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
