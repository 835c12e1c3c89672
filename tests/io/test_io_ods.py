"""LibreOffice's .ods opens like a workbook (python-calamine): sheet choice, cells as shown; it is not
written (no well-kept writer), and saving says why and what to choose instead."""

from __future__ import annotations

import datetime
import zipfile

import pytest

from evaleditor.core.errors import ReadError, WriteError
from evaleditor.io import read_table
from evaleditor.io.excel import numformats
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


# Number formats, as LibreOffice writes them: named number styles in styles.xml, cell styles naming them
# among content.xml's automatic styles, a column's or a row's default cell style for unstyled cells.
_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
       'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
       'xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" '
       'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
       'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3"')
_NUMBER_STYLES = (
    '<number:number-style style:name="N145"><number:number number:decimal-places="0" '
    'number:min-decimal-places="0" number:min-integer-digits="3"/></number:number-style>'
    '<number:number-style style:name="N146"><number:text>ID-</number:text><number:number '
    'number:decimal-places="0" number:min-decimal-places="0" number:min-integer-digits="3"/></number:number-style>'
    '<number:percentage-style style:name="N10"><number:number number:decimal-places="0" '
    'number:min-decimal-places="0" number:min-integer-digits="1"/><number:text>%</number:text></number:percentage-style>'
    '<number:currency-style style:name="N104"><number:currency-symbol number:language="en" number:country="US">$'
    '</number:currency-symbol><number:number number:decimal-places="2" number:min-decimal-places="2" '
    'number:min-integer-digits="1" number:grouping="true"/></number:currency-style>'
    '<number:number-style style:name="N2"><number:number number:decimal-places="2" '
    'number:min-integer-digits="1"/></number:number-style>'  # no min-decimal-places (ODF 1.2): all shown
    '<number:currency-style style:name="N105P0"><number:currency-symbol>€</number:currency-symbol><number:number '
    'number:decimal-places="2" number:min-integer-digits="1"/></number:currency-style>'
    '<number:currency-style style:name="N105"><number:text>-</number:text><number:currency-symbol>€'
    '</number:currency-symbol><number:number number:decimal-places="2" number:min-integer-digits="1"/>'
    '<style:map style:condition="value()&gt;=0" style:apply-style-name="N105P0"/></number:currency-style>')
_CELL_STYLES = (
    '<style:style style:name="ce1" style:family="table-cell" style:parent-style-name="Default" '
    'style:data-style-name="N145"/>'
    '<style:style style:name="ce6" style:family="table-cell" style:parent-style-name="Default" '
    'style:data-style-name="N146"/>'
    '<style:style style:name="child" style:family="table-cell" style:parent-style-name="ce1"/>'
    + "".join(f'<style:style style:name="{name}" style:family="table-cell" style:data-style-name="{number}"/>'
              for name, number in [("pct", "N10"), ("usd", "N104"), ("dec", "N2"), ("eur", "N105")]))


def styled_ods(path, table: str, cell_styles: str = _CELL_STYLES) -> object:
    """An .ods whose one sheet is `table` (the XML inside <table:table>)."""
    styles = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-styles {_NS}><office:styles>'
              f'<style:style style:name="Default" style:family="table-cell"/>{_NUMBER_STYLES}'
              "</office:styles></office:document-styles>")
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_NS}>'
               f"<office:automatic-styles>{cell_styles}</office:automatic-styles>"
               f'<office:body><office:spreadsheet><table:table table:name="Cases">{table}</table:table>'
               "</office:spreadsheet></office:body></office:document-content>")
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("styles.xml", styles, zipfile.ZIP_DEFLATED)
        zf.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
        zf.writestr("META-INF/manifest.xml", _MANIFEST, zipfile.ZIP_DEFLATED)
    return path


_MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
             'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
             '<manifest:file-entry manifest:full-path="/" '
             'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
             '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
             '<manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/>'
             "</manifest:manifest>")


def _text(value: str) -> str:
    return f'<table:table-cell office:value-type="string"><text:p>{value}</text:p></table:table-cell>'


def _number(value: float, style: str | None = None, repeat: int = 1) -> str:
    styled = f' table:style-name="{style}"' if style else ""
    repeated = f' table:number-columns-repeated="{repeat}"' if repeat > 1 else ""
    return (f'<table:table-cell{styled}{repeated} office:value-type="float" office:value="{value}">'
            f"<text:p>{value}</text:p></table:table-cell>")


def _row(*cells: str, default: str | None = None, repeat: int = 1) -> str:
    attrs = (f' table:default-cell-style-name="{default}"' if default else "") + (
        f' table:number-rows-repeated="{repeat}"' if repeat > 1 else "")
    return f"<table:table-row{attrs}>{''.join(cells)}</table:table-row>"


def test_ods_numbers_read_as_their_number_style_shows_them(tmp_path):
    columns = ('<table:table-column table:default-cell-style-name="Default"/>'
               '<table:table-column table:number-columns-repeated="2" table:default-cell-style-name="ce1"/>'
               '<table:table-column table:number-columns-repeated="16381" table:default-cell-style-name="Default"/>')
    path = styled_ods(tmp_path / "ids.ods", columns + "".join([
        _row(_text("question"), _text("id"), _text("code"), _text("plain")),
        _row(_text("q1"), _number(7, "ce1"), _number(42, "ce6"), _number(7)),
        _row(_text("q2"), _number(12), _number(3, "child"), _number(5, "Default")),  # column / parent style
        _row(_text("q3"), _number(7), _number(-5, "ce6"), _number(8), default="ce6"),  # the row's beats the column's
        _row(_text("q4"), _number(7.5, "ce1"), _number(9, repeat=2)),  # 7.5 would show 008: kept; a run of cells
    ]))
    assert read_table(path).rows == [
        ["q1", "007", "ID-042", "7"],
        ["q2", "012", "003", "5"],
        ["q3", "ID-007", "-ID-005", "ID-008"],
        ["q4", "7.5", "009", "9"],
    ]


def test_ods_percentages_decimals_and_currencies_read_as_calc_shows_them(tmp_path):
    def cell(kind: str, value: float, style: str) -> str:
        return (f'<table:table-cell table:style-name="{style}" office:value-type="{kind}" office:value="{value}">'
                f"<text:p>?</text:p></table:table-cell>")

    path = styled_ods(tmp_path / "formats.ods", "".join([
        _row(_text("question"), _text("share"), _text("price"), _text("score"), _text("euro")),
        _row(_text("q1"), cell("percentage", 0.5, "pct"), cell("currency", 1234.5, "usd"), _number(1.5, "dec"),
             cell("currency", 3.5, "eur")),
        _row(_text("q2"), cell("percentage", 0.125, "pct"), cell("currency", -2, "usd"), _number(1.234, "dec"),
             cell("currency", -3.5, "eur")),
    ]))
    assert read_table(path).rows == [
        ["q1", "50%", "$1,234.50", "1.50", "3.5"],  # a style with another for negatives (style:map): the value
        ["q2", "0.125", "-$2.00", "1.234", "-3.5"],  # 13% and 1.23 would lose digits: the value
    ]


def test_ods_repeated_rows_take_their_format_and_the_work_is_bounded_by_the_cells_read(tmp_path, monkeypatch):
    path = styled_ods(tmp_path / "many.ods", "".join([
        _row(_text("question"), _text("id")),
        _row(_text("q"), _number(7, "ce1"), repeat=3),
        # Calc's trailing rows, here styled: a million rows of 16,384 cells, none holding a value
        _row('<table:table-cell table:style-name="ce1" table:number-columns-repeated="16384"/>', repeat=1_048_572),
    ]))
    shown = []
    original = numformats.Shown.shown
    monkeypatch.setattr(numformats.Shown, "shown", lambda self, text: shown.append(text) or original(self, text))
    assert read_table(path).rows == [["q", "007"]] * 3
    assert shown == ["7"] * 3  # only the cells that were read are visited


def test_ods_cell_style_chains_that_loop_or_run_deep_read_as_the_value(tmp_path):
    loop = ('<style:style style:name="a" style:family="table-cell" style:parent-style-name="b"/>'
            '<style:style style:name="b" style:family="table-cell" style:parent-style-name="a"/>')
    deep = "".join(f'<style:style style:name="d{i}" style:family="table-cell" style:parent-style-name="d{i + 1}"/>'
                   for i in range(40)) + '<style:style style:name="d40" style:family="table-cell" style:data-style-name="N145"/>'
    path = styled_ods(tmp_path / "loop.ods", _row(_text("question"), _text("id"), _text("deep"))
                      + _row(_text("q"), _number(7, "a"), _number(7, "d0")), _CELL_STYLES + loop + deep)
    assert read_table(path).rows == [["q", "7", "7"]]


def _error(shown: str, formula: str, repeat: int = 1) -> str:
    """A formula cell that failed, as Calc writes it: an empty string value, the error as its text."""
    repeated = f' table:number-columns-repeated="{repeat}"' if repeat > 1 else ""
    return (f'<table:table-cell{repeated} table:formula="of:{formula}" office:value-type="string" '
            'office:string-value="" xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" '
            f'calcext:value-type="error"><text:p>{shown}</text:p></table:table-cell>')


@pytest.mark.parametrize("cell_styles", ["", _CELL_STYLES], ids=["no number style", "number styles too"])
def test_ods_formula_errors_read_as_calc_shows_them(tmp_path, cell_styles):
    path = styled_ods(tmp_path / "errors.ods", "".join([
        _row(_text("question"), _text("answer"), _text("id")),
        _row(_error("#DIV/0!", "=1/0"), _text("d"), _number(7, "ce1")),
        _row(_error("Err:509", "=1+"), _error("#N/A", "=NA()", repeat=2), repeat=2),
        _row(_text("q"), _text("a &amp; b"), _error("#VALUE!", '="a"+1')),
    ]), cell_styles)
    assert read_table(path).rows == [
        ["#DIV/0!", "d", "007" if cell_styles else "7"],
        ["Err:509", "#N/A", "#N/A"],
        ["Err:509", "#N/A", "#N/A"],
        ["q", "a & b", "#VALUE!"],
    ]
