"""Builders for test files: workbooks made with openpyxl, hand-written xlsx packages, .xls via xlwt."""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path

import openpyxl

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def make_xlsx(path: Path, sheets: dict[str, dict[str, object]]) -> Path:
    """sheets: name -> {"B3": value, ...} (openpyxl never saves a formula's value)."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, cells in sheets.items():
        ws = book.create_sheet(name)
        for ref, value in cells.items():
            ws[ref] = value
    book.save(path)
    return path


def table_xlsx(path: Path, rows: list[list[object]], title: str = "Sheet1") -> Path:
    return tables_xlsx(path, {title: rows})


def tables_xlsx(path: Path, sheets: dict[str, list[list[object]]]) -> Path:
    """sheets: name -> rows, in order."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        ws = book.create_sheet(name)
        for row in rows:
            ws.append(row)
    book.save(path)
    return path


_CONTENT_TYPES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>
<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>
</Types>"""
_RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>
</Relationships>"""
_WORKBOOK = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="{MAIN_NS}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">
<sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>"""
_WORKBOOK_RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>
</Relationships>"""


def raw_xlsx(path: Path, sheet_data: str) -> Path:
    """A minimal package whose one sheet ("Data") holds `sheet_data` (the XML inside <sheetData>)."""
    sheet = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
             f'<worksheet xmlns="{MAIN_NS}"><sheetData>{sheet_data}</sheetData></worksheet>')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", _CONTENT_TYPES)
        zf.writestr("_rels/.rels", _RELS)
        zf.writestr("xl/workbook.xml", _WORKBOOK)
        zf.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS)
        zf.writestr("xl/worksheets/sheet1.xml", sheet)
    return path


def rewrite_zip(src: Path, dest: Path, change: dict[str, Callable[[bytes], bytes]]) -> Path:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as zout:
        for name in zin.namelist():
            data = zin.read(name)
            if name in change:
                data = change[name](data)
            zout.writestr(name, data)
    return dest


def sheet_xml(path: Path, index: int = 1) -> str:
    with zipfile.ZipFile(path) as zf:
        return zf.read(f"xl/worksheets/sheet{index}.xml").decode("utf-8")


BILLION_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
    + "".join(f'<!ENTITY lol{i} "{(f"&lol{i - 1};" if i > 1 else "&lol;") * 10}">' for i in range(1, 10))
    + "]>\n"
)


def with_doctype(data: bytes) -> bytes:
    text = data.decode("utf-8")
    if text.startswith("<?xml"):
        text = text[text.index("?>") + 2:].lstrip()
    return (BILLION_LAUGHS + text).encode("utf-8")


def tables_ods(path: Path, sheets: dict[str, list[list[object]]], doctype: bool = False) -> Path:
    """An OpenDocument spreadsheet as LibreOffice writes one: the mimetype first and stored, then
    content.xml with one table per sheet. str -> string cell, int/float -> float cell shown as
    LibreOffice shows it, datetime.date -> date cell."""
    import datetime
    from xml.sax.saxutils import escape

    def cell(value: object) -> str:
        if isinstance(value, bool):
            return f'<table:table-cell office:value-type="boolean" office:boolean-value="{str(value).lower()}"/>'
        if isinstance(value, (int, float)):
            return f'<table:table-cell office:value-type="float" office:value="{value}"><text:p>{value}</text:p></table:table-cell>'
        if isinstance(value, datetime.date):
            return (f'<table:table-cell office:value-type="date" office:date-value="{value.isoformat()}">'
                    f"<text:p>{value.isoformat()}</text:p></table:table-cell>")
        return f'<table:table-cell office:value-type="string"><text:p>{escape(str(value))}</text:p></table:table-cell>'

    tables = "".join(
        f'<table:table table:name="{escape(name)}">'
        + "".join("<table:table-row>" + "".join(cell(v) for v in row) + "</table:table-row>" for row in rows)
        + "</table:table>" for name, rows in sheets.items())
    content = ('<?xml version="1.0" encoding="UTF-8"?>'
               + ('<!DOCTYPE x [<!ENTITY a "aaaa">]>' if doctype else "")
               + '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3">'
               f"<office:body><office:spreadsheet>{tables}</office:spreadsheet></office:body></office:document-content>")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>')
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
        zf.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)
    return path
