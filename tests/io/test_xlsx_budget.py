"""Workbooks small on disk but huge once read (issue 14's table, scaled down with the same shape):
one cell repeated millions of times is refused from its first megabyte of XML; a million empty
formatted rows under a table open without reading every reference. Bounds on work (bytes inflated,
scans made), not on time."""

import pytest

from evaleditor.core.errors import ReadError
from evaleditor.io import budget, read_table
from evaleditor.io.excel import extent
from tests.io.io_builders import raw_xlsx

HEADER = '<row r="1"><c r="A1" t="inlineStr"><is><t>question</t></is></c></row>'


def test_one_cell_repeated_millions_of_times_is_refused_from_its_first_megabyte(tmp_path, monkeypatch):
    rows = "".join(f'<row r="{r}"><c r="A{r}"><v>7</v></c><c r="B{r}"><v>7</v></c></row>'
                   for r in range(2, 120_000))  # ~6 MB of XML, 240,000 cells
    path = raw_xlsx(tmp_path / "repeated.xlsx", HEADER + rows)
    monkeypatch.setattr(extent, "max_cells", lambda: 100_000)
    inflated = []
    real = budget.check_sheet_cells

    def spy(path, zf, part, name, limit):
        real(path, zf, part, name, limit)
        inflated.append(part)

    def scanned(*_args, **_kwargs):
        raise AssertionError("the whole sheet was scanned")

    monkeypatch.setattr(budget, "check_sheet_cells", spy)
    monkeypatch.setattr(extent, "sheet_area", scanned)
    with pytest.raises(ReadError, match=r"the sheet 'Data' holds about 2\d\d,\d\d\d cells .*more than 100,000"):
        read_table(path)
    assert not inflated  # refused inside the check, after reading one sample


def test_an_ordinary_big_sheet_passes_the_estimate(tmp_path, monkeypatch):
    rows = "".join(f'<row r="{r}"><c r="A{r}"><v>{r}</v></c></row>' for r in range(2, 100_000))
    path = raw_xlsx(tmp_path / "ok.xlsx", HEADER + rows)
    assert len(read_table(path).rows) == 99_998


def test_a_million_empty_formatted_rows_are_not_read_reference_by_reference(tmp_path, monkeypatch):
    data = '<row r="2"><c r="A2" t="inlineStr"><is><t>q</t></is></c></row>'
    empty = "".join(f'<row r="{r}" s="1" customFormat="1"><c r="A{r}" s="1"/><c r="B{r}" s="1"/></row>'
                    for r in range(3, 50_000))  # 1M empty styled rows in the issue
    path = raw_xlsx(tmp_path / "styled.xlsx", HEADER + data + empty)
    monkeypatch.setattr(extent, "max_cells", lambda: 26 * 1_000)  # rows beyond 1,000 need a closer look

    def exact(*_args, **_kwargs):
        raise AssertionError("every reference was read")

    monkeypatch.setattr(extent, "_exact_area", exact)
    table = read_table(path)
    assert table.headers == ["question"] and [r[0] for r in table.rows] == ["q"]


def test_a_valued_cell_far_down_still_gets_the_close_look(tmp_path, monkeypatch):
    path = raw_xlsx(tmp_path / "far.xlsx", HEADER + '<row r="5000"><c r="Z5000"><v>1</v></c></row>')
    monkeypatch.setattr(extent, "max_cells", lambda: 26 * 1_000)
    with pytest.raises(ReadError, match="5,000 rows x 26 columns"):
        read_table(path)
