"""A tiny workbook whose cells span an enormous area is refused before any library builds that area
(calamine's dense grid: A1 + XFD1048576 asked for 550 GB and aborted the process); ordinary,
wide, and oddly written sheets still open. The bounds are on work (calamine never builds the sheet,
cells visited), not on time."""

import pytest

from evaleditor.core.errors import ReadError
from evaleditor.io import read_table
from evaleditor.io.excel import extent
from tests.io.io_builders import raw_xlsx

HEADER = '<row r="1"><c r="A1" t="inlineStr"><is><t>question</t></is></c></row>'


def cell(ref: str, value: str = "1") -> str:
    return f'<c r="{ref}"><v>{value}</v></c>'


def opened(tmp_path, sheet_data: str):
    return read_table(raw_xlsx(tmp_path / "s.xlsx", HEADER + sheet_data))


@pytest.fixture
def calamine_builds_no_sheet(monkeypatch):
    """Asking calamine for a sheet fails the read with another reason than the refusal's."""
    import python_calamine

    monkeypatch.setattr(python_calamine.CalamineWorkbook, "get_sheet_by_name", None)


@pytest.mark.parametrize("far", [
    '<row r="1048576">' + cell("XFD1048576") + "</row>",  # the whole sheet
    '<row r="200000">' + cell("ZZ200000") + "</row>",  # 140 million cells
    '<row r="2">' + cell("A1048576") + cell("XFD2") + "</row>",  # references outside their row
    '<row r="2">' + cell("xfd2") + '</row><row r="3">' + cell("a999999") + "</row>",  # lower case
    '<row r="1048576">' + "<c><v>1</v></c>" * 30 + "</row>",  # cells placed by counting
    '<row r="2"><c s="0" r="XFD2"><v>1</v></c></row><row r="1048576">' + cell("A1048576") + "</row>",
    '<row r="2" xmlns:x="urn:x"><x:c r="XFD1048576"><v>1</v></x:c></row>',
])
def test_stray_far_cells_are_refused_before_calamine_builds_the_sheet(tmp_path, far, calamine_builds_no_sheet):
    with pytest.raises(ReadError) as info:
        opened(tmp_path, far)
    assert "too many to open" in info.value.reason and "\n" not in str(info.value)


def test_formula_without_value_far_away_is_refused(tmp_path, calamine_builds_no_sheet):
    """The reader shows such formulas itself, so they count although calamine leaves them out."""
    with pytest.raises(ReadError, match="too many to open"):
        opened(tmp_path, '<row r="900000"><c r="ZZ900000"><f>1+1</f></c></row>')


@pytest.mark.parametrize("sheet, rows, width", [
    ('<row r="1048576"><c r="XFD1048576" s="0"/></row>', 0, 1),  # formatted, empty: calamine skips it
    ('<row r="2">' + cell("AD2") + "</row>", 1, 30),
    ('<row r="2"><c><v>1</v></c><c><v>2</v></c></row><row><c><v>3</v></c></row>', 2, 2),
])
def test_ordinary_and_odd_sheets_open(tmp_path, sheet, rows, width):
    table = opened(tmp_path, sheet)
    assert len(table.rows) == rows and len(table.headers) == width


def test_largest_narrow_area_passes_the_first_step(tmp_path, monkeypatch):
    import zipfile

    monkeypatch.setattr(extent, "max_cells", lambda: extent.MAX_CELLS)
    path = raw_xlsx(tmp_path / "s.xlsx", HEADER + '<row r="379999">' + cell("Z379999") + "</row>")
    with zipfile.ZipFile(path) as zf:
        assert extent.sheet_area(zf, "xl/worksheets/sheet1.xml") == (380_000, 26, False)  # the one-pass bound
        assert extent.check_sheet(path, zf, "xl/worksheets/sheet1.xml", "Data") is False


def test_wide_sheet_within_the_limit_opens(tmp_path, monkeypatch):
    monkeypatch.setattr(extent, "max_cells", lambda: 1_000_000)
    assert len(opened(tmp_path, '<row r="1000">' + cell("ALL1000") + "</row>").headers) == 1000
    with pytest.raises(ReadError, match="1,001 rows x 1,000 columns"):
        opened(tmp_path, '<row r="1001">' + cell("ALL1001") + "</row>")


def test_greater_than_pattern():
    for n in (0, 9, 10, 599, 22792, 1048575):
        pattern = extent._greater_than(n)
        for x in (0, 1, n - 1, n, n + 1, n * 10, 10 ** 8):
            if x >= 0:
                assert bool(pattern.search(b'<c r="AB%d"><v>1</v></c>' % x)) == (x > n), (n, x)
                assert not pattern.search(b'<c r="AB%d" s="1"/>' % x)  # empty: calamine leaves it out


def test_zip_that_is_not_a_workbook_is_refused_before_calamine(tmp_path):
    import zipfile

    path = tmp_path / "book.csv"  # calamine would guess the format of a .csv-named zip by content
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("content.xml", "<office:document-content/>")
    with pytest.raises(ReadError, match="not an Excel .xlsx/.xlsm package"):
        read_table(path)


def test_xls_with_a_stray_far_cell_visits_only_its_cells(tmp_path, monkeypatch):
    """xlrd padded every row to the widest one: a 6 KB file took 15 s (65,536 rows x 256 cells)."""
    from evaleditor.io.excel import xls as xls_read

    visited = []
    real_row_text = xls_read._row_text
    monkeypatch.setattr(xls_read, "_row_text", lambda *a: visited.append(len(row := real_row_text(*a))) or row)
    xlwt = pytest.importorskip("xlwt")
    book = xlwt.Workbook()
    ws = book.add_sheet("S")
    ws.write(0, 0, "question")
    ws.write(65535, 255, "far")
    book.save(str(tmp_path / "far.xls"))
    table = read_table(tmp_path / "far.xls")
    assert sum(visited) <= 2 * (1 + 256)  # the header row and the far row, read at most twice
    assert len(table.rows) == 1 and table.rows[0][-1] == "far" and len(table.headers) == 256


UNPLACED_ROWS = "<row>" + "<c><v>1</v></c><c><v>2</v></c></row><row>" * 2 + "<c><v>1</v></c><c><v>2</v></c></row>"


@pytest.mark.parametrize("sheet, area", [
    (UNPLACED_ROWS, (3, 2)),  # the column count starts again at each row: not 6 columns
    ('<row r="5"><c r="C5"><v>1</v></c><c><v>2</v></c><c/></row><row><c><v>3</v></c></row>', (6, 5)),
    ('<row r="2">' + "<c><v>2</v></c>" * 7 + "</row>", (2, 7)),
])
@pytest.mark.parametrize("piece", [extent._CHUNK, 24])  # rows whole in one piece, or cut between pieces
def test_cells_without_a_reference_count_within_their_row(tmp_path, monkeypatch, sheet, area, piece):
    """A sheet written without references (820,000 rows x 2 was refused as 1,640,002 columns)."""
    import zipfile

    monkeypatch.setattr(extent, "_CHUNK", piece)
    with zipfile.ZipFile(raw_xlsx(tmp_path / "s.xlsx", sheet)) as zf:
        assert extent._exact_area(zf, "xl/worksheets/sheet1.xml") == area


def test_unreferenced_cells_open_within_the_limit_and_a_wider_row_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(extent, "max_cells", lambda: 6)
    table = read_table(raw_xlsx(tmp_path / "s.xlsx", UNPLACED_ROWS))
    assert table.headers == ["1", "2"] and table.rows == [["1", "2"], ["1", "2"]]
    with pytest.raises(ReadError, match="1 rows x 7 columns"):
        read_table(raw_xlsx(tmp_path / "w.xlsx", "<row>" + "<c><v>1</v></c>" * 7 + "</row>"))


def test_the_first_sheet_is_scanned_while_calamine_opens_the_workbook(tmp_path, monkeypatch):
    """calamine lets go of the GIL while it parses the shared strings: the scan runs meanwhile."""
    import threading

    import python_calamine

    scanning = threading.Event()
    real_check, real_open = extent.check_sheet, python_calamine.CalamineWorkbook.from_path
    overlapped = []

    def check(*args):
        scanning.set()
        return real_check(*args)

    def from_path(path):
        overlapped.append(scanning.wait(20))  # the old order (open, then scan) waited in vain
        return real_open(path)

    monkeypatch.setattr(extent, "check_sheet", check)
    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_path", from_path)
    assert opened(tmp_path, '<row r="2">' + cell("A2") + "</row>").rows == [["1"]]
    assert overlapped == [True]


def test_each_sheet_is_scanned_once(tmp_path, monkeypatch):
    scans = []
    real = extent.sheet_area
    monkeypatch.setattr(extent, "sheet_area", lambda *args: scans.append(args[1]) or real(*args))
    opened(tmp_path, '<row r="2">' + cell("A2") + "</row>")
    assert scans == ["xl/worksheets/sheet1.xml"]


def test_a_refusal_found_while_opening_waits_for_the_workbooks_own_failure(tmp_path, monkeypatch):
    import python_calamine

    def damaged(_path):
        raise python_calamine.CalamineError("bad shared strings")

    far = '<row r="1048576">' + cell("XFD1048576") + "</row>"
    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_path", damaged)
    with pytest.raises(ReadError, match=": cannot read the workbook: bad shared strings$"):
        opened(tmp_path, far)


@pytest.mark.parametrize("sheet", ["Data", "data", None])
def test_a_far_cell_found_ahead_is_refused_for_the_sheet_as_named(tmp_path, sheet, calamine_builds_no_sheet):
    path = raw_xlsx(tmp_path / "s.xlsx", HEADER + '<row r="1048576">' + cell("XFD1048576") + "</row>")
    with pytest.raises(ReadError, match="the sheet 'Data' spans 1,048,576 rows"):
        read_table(path, sheet=sheet)
