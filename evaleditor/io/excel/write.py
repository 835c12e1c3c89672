"""Writing .xlsx: openpyxl makes the package, the data rows are streamed in; every cell a string cell.

A question `=1+1` stays text, `#N/A` stays text, `007` stays text. Text that XML would alter is
escaped the way Excel itself does (`_x000D_` for a carriage return, `_x005F_` before a literal
`_xHHHH_`, the first character of a whitespace-only cell), so it reads back identical.
"""

from __future__ import annotations

import io
import os
import re
import time
import unicodedata
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import chain
from pathlib import Path
from typing import IO

from evaleditor.core.errors import UnstorableCell, WriteError
from evaleditor.io.atomic import atomic_write
from evaleditor.io.grid import EVERY, Progress, column_letter

MAX_CELL_CHARS = 32_767
MIN_WIDTH, MAX_WIDTH = 8, 60
WIDTH_SAMPLE = 200  # rows looked at to size the columns
# characters a workbook cannot store (rule `control-character`), plus what XML 1.0 cannot hold at all
ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_LITERAL_ESCAPE = re.compile(r"_(?=x[0-9A-Fa-f]{4}_)")
_BAD_TITLE = re.compile(r"[\[\]:*?/\\]")


def xlsx_text(value: str) -> str:
    """`value` escaped so that a spreadsheet reader gives back exactly `value`."""
    if "_x" in value:
        value = _LITERAL_ESCAPE.sub("_x005F_", value)
    if "\r" in value:
        value = value.replace("\r", "_x000D_")
    if value and not value.strip():
        value = f"_x{ord(value[0]):04X}_{value[1:]}"
    return value


def cell_problem(value: str) -> str | None:
    """Why `value` cannot go into a workbook cell, or None."""
    if len(value) > MAX_CELL_CHARS:
        return f"has {len(value):,} characters; Excel holds at most {MAX_CELL_CHARS:,} in a cell"
    bad = ILLEGAL.search(value)
    if bad is not None and "\ud800" <= bad.group() <= "\udfff":
        return (f"holds U+{ord(bad.group()):04X}, half of a character (a lone surrogate: the text is damaged), "
                "which a workbook cannot store")
    if bad is not None:
        return f"holds the control character U+{ord(bad.group()):04X}, which a workbook cannot store"
    return None


def _display_width(text: str) -> int:
    longest = 0
    for line in text.split("\n"):
        n = len(line)
        if not line.isascii():
            n += sum(1 for ch in line if unicodedata.east_asian_width(ch) in "WF")
        longest = max(longest, n)
    return longest


def column_widths(headers: list[str], rows: list[list[str]]) -> list[float]:
    widths = [_display_width(h) for h in headers]
    for row in rows[:WIDTH_SAMPLE]:
        for j, value in enumerate(row[: len(widths)]):
            if value:
                widths[j] = max(widths[j], _display_width(value))
    return [float(min(MAX_WIDTH, max(MIN_WIDTH, w + 2))) for w in widths]


def safe_sheet_title(title: str) -> str:
    cleaned = _BAD_TITLE.sub("_", title).strip("'")[:31]
    return cleaned or "Sheet1"


def check_cells(path: object, headers: list[str], rows: list[list[str]]) -> None:
    """WriteError for the first cell a workbook cannot hold (UnstorableCell, counting them all), before
    anything is written.

    A thousand rows at a time, in C: their longest cell, their UTF-8 (a lone surrogate cannot be
    encoded) with the control bytes deleted, U+FFFE and U+FFFF looked for in their text; only a block
    where one of these finds something is searched cell by cell (a regex over every row: 1.9 s at
    100k rows; this 0.3 s)."""
    width = len(headers)
    for j, h in enumerate(headers):
        problem = cell_problem(h)
        if problem is not None:
            _unstorable(path, f"header {j + 1} {problem}", headers, rows)
    for start in range(0, len(rows), EVERY):
        block = rows[start:start + EVERY]
        if max(map(len, block), default=0) <= width and max(map(len, chain.from_iterable(block)),
                                                           default=0) <= MAX_CELL_CHARS:
            text = "\n".join(map("\n".join, block))
            try:
                data = text.encode("utf-8")
            except UnicodeEncodeError:
                data = None
            if data is not None and len(data.translate(None, _CONTROL_BYTES)) == len(data) \
                    and "\ufffe" not in text and "\uffff" not in text:  # one character: memchr speed
                continue
        for i, row in enumerate(block, start):
            if len(row) > width:
                raise WriteError(path, f"row {i + 1} has {len(row)} cells but there are {width} columns")
            for j, value in enumerate(row):
                problem = cell_problem(value)
                if problem is not None:
                    _unstorable(path, f"row {i + 1}, column {headers[j]!r} {problem}", headers, rows)


def _unstorable(path: object, first: str, headers: list[str], rows: list[list[str]]) -> None:
    """UnstorableCell naming the `first` cell and counting every one (only a refused save pays for this)."""
    err = UnstorableCell(path, first)
    err.cells = sum(cell_problem(value) is not None for value in chain(headers, chain.from_iterable(rows)))
    raise err


_CONTROL_BYTES = bytes(c for c in range(32) if c not in (9, 10, 13))  # in UTF-8 they stand only for themselves


def write_xlsx(
    path: str | os.PathLike[str],
    headers: list[str],
    rows: list[list[str]],
    progress: Progress | None = None,
    sheet_title: str = "Cases",
    *,
    verify: Callable[[Path], None] | None = None,
) -> None:
    """One sheet: bold frozen header, wrapped string cells, column widths from the content; atomic
    (`verify`: see atomic_write).

    openpyxl writes the package (styles, sheet view, widths, header row); the data rows are then
    streamed into the sheet's <sheetData> directly (openpyxl's own cell writer takes ~25 s for 100,000
    rows), each cell a shared-string cell (t="s", as Excel writes them: never a formula, an error code
    or a number), their text in xl/sharedStrings.xml. Inline strings made the sheet part 179 MB of
    XML at 100k rows, which every reader has to walk cell by cell; this way the sheet part is small
    and the text one run of <si> elements. Deflate is ISA-L's where its wheel exists (0.9 s instead
    of zlib's 3.6 s at level 1 and 15.8 s at level 6 for 200 MB of XML, about as small as level 1).
    """
    check_cells(path, headers, rows)
    template, sheet_part, style = _template(headers, rows, sheet_title)
    head, tail = _split_sheet(template, sheet_part)
    letters = [column_letter(j) for j in range(len(headers))]
    total = len(rows)
    texts: list[str] = []  # the shared strings, in the order of their index
    stamp = time.localtime()[:6]
    with atomic_write(path, "wb", verify=verify) as handle, zipfile.ZipFile(handle, "w", zipfile.ZIP_DEFLATED) as out:
        for info in template.infolist():
            data = template.read(info)
            if info.filename == sheet_part:
                with _deflated(out, sheet_part, stamp) as sheet:
                    sheet.write(head)
                    short: dict[str, int] = {}
                    for start in range(0, total, EVERY):
                        chunk = rows[start:start + EVERY]
                        sheet.write(_rows_xml(chunk, start + 2, letters, style, texts, short).encode("utf-8"))
                        if progress is not None and start + len(chunk) < total:
                            progress(start + len(chunk), total)
                    sheet.write(tail)
                    del short
                continue
            if info.filename == _CONTENT_TYPES:
                data = data.replace(b"</Types>", _SST_TYPE + b"</Types>")
            elif info.filename == _WORKBOOK_RELS:
                data = data.replace(b"</Relationships>", _SST_REL + b"</Relationships>")
            out.writestr(info.filename, data, zipfile.ZIP_DEFLATED)
        with _deflated(out, _SST_PART, stamp) as sst:
            sst.write(f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="{_MAIN_NS}" '
                      f'count="{len(texts)}" uniqueCount="{len(texts)}">'.encode())
            for start in range(0, len(texts), EVERY):
                sst.write(_strings_xml(texts[start:start + EVERY]).encode("utf-8"))
            sst.write(b"</sst>")
    if progress is not None:
        progress(total, total)


_MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_SST_PART = "xl/sharedStrings.xml"
_CONTENT_TYPES = "[Content_Types].xml"
_WORKBOOK_RELS = "xl/_rels/workbook.xml.rels"
_SST_TYPE = (b'<Override PartName="/xl/sharedStrings.xml" '
             b'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml" />')
_SST_REL = (b'<Relationship Id="rIdSharedStrings" Target="sharedStrings.xml" '
            b'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" />')


@contextmanager
def _deflated(out: zipfile.ZipFile, name: str, stamp: tuple) -> Iterator[IO[bytes]]:
    """A member of `out` to stream into, deflated by ISA-L at level 2 when installed, else zlib at level 1.
    The write handle's compressor is swapped before its first byte (the zip entry says deflate either
    way: both make a standard raw deflate stream)."""
    member = zipfile.ZipInfo(name, date_time=stamp)
    member.compress_type = zipfile.ZIP_DEFLATED
    level = "compress_level" if hasattr(zipfile.ZipInfo, "compress_level") else "_compresslevel"  # 3.13 renamed it
    setattr(member, level, 1)
    with out.open(member, "w") as handle:
        fast = _isal_compressor()
        if fast is not None and getattr(handle, "_compressor", None) is not None:
            handle._compressor = fast  # type: ignore[attr-defined]
        yield handle


def _isal_compressor():
    try:
        from isal import isal_zlib
    except ImportError:  # no wheel for this platform: zlib
        return None
    return isal_zlib.compressobj(2, isal_zlib.DEFLATED, -15)


_SENTINEL = "\u2063evaleditor-style-probe\u2063"


def _template(headers: list[str], rows: list[list[str]], title: str):
    """The package openpyxl writes for the header row and one probe cell carrying the data style."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Alignment, Font

    book = Workbook(write_only=True)
    ws = book.create_sheet(title=safe_sheet_title(title))
    ws.freeze_panes = "A2"
    for j, w in enumerate(column_widths(headers, rows)):
        ws.column_dimensions[column_letter(j)].width = w
    bold = Font(name="Calibri", size=11, family=2, scheme="minor", bold=True)
    header_cells = []
    for h in headers:
        cell = WriteOnlyCell(ws, value=xlsx_text(h))
        cell.data_type = "s"  # never a formula, an error code or a guessed number
        cell.font = bold
        header_cells.append(cell)
    ws.append(header_cells)
    probe = WriteOnlyCell(ws, value=_SENTINEL)
    probe.alignment = Alignment(wrap_text=True, vertical="top")
    ws.append([probe])
    buffer = io.BytesIO()
    book.save(buffer)
    template = zipfile.ZipFile(buffer)
    sheet_part = next(n for n in template.namelist() if n.startswith("xl/worksheets/") and n.endswith(".xml"))
    xml = template.read(sheet_part).decode("utf-8")
    style = re.search(r'<c r="A2" s="(\d+)"', xml)
    return template, sheet_part, style.group(1) if style else "0"


def _split_sheet(template: zipfile.ZipFile, sheet_part: str) -> tuple[bytes, bytes]:
    """The sheet XML before and after the probe row, where the data rows go."""
    xml = template.read(sheet_part).decode("utf-8")
    begin = xml.index('<row r="2"')
    end = xml.index("</row>", begin) + len("</row>")
    return xml[:begin].encode("utf-8"), xml[end:].encode("utf-8")


SHORT = 16  # shared strings up to this length are shared (ids, turn numbers, flags); longer ones rarely repeat


def _rows_xml(rows: list[list[str]], first: int, letters: list[str], style: str, texts: list[str],
              short: dict[str, int]) -> str:
    """The <row> elements of `rows` (the first is sheet row `first`); each non-empty cell a reference to
    its text in `texts`, appended to as needed (a short text already there is referred to again)."""
    parts: list[str] = []
    add = parts.append
    cells = [f'<c r="{letter}' for letter in letters]
    tail = f'" s="{style}" t="s"><v>'
    for r, row in enumerate(rows, first):
        add(f'<row r="{r}">')
        for cell, value in zip(cells, row, strict=False):
            if not value:
                continue
            if len(value) <= SHORT:
                index = short.get(value)
                if index is None:
                    index = short[value] = len(texts)
                    texts.append(value)
            else:
                index = len(texts)
                texts.append(value)
            add(f"{cell}{r}{tail}{index}</v></c>")
        add("</row>")
    return "".join(parts)


def _strings_xml(texts: list[str]) -> str:
    """The <si> elements of `texts`, escaped as one string: they are joined by NUL, which no cell holds
    (check_cells refuses control characters), escaped at C speed, and split at the NULs."""
    joined = "\0".join(texts)
    if "_x" in joined:
        joined = _LITERAL_ESCAPE.sub("_x005F_", joined)
    if "\r" in joined:
        joined = joined.replace("\r", "_x000D_")
    if "&" in joined:
        joined = joined.replace("&", "&amp;")
    if "<" in joined:
        joined = joined.replace("<", "&lt;")
    if ">" in joined:
        joined = joined.replace(">", "&gt;")
    if any(map(str.isspace, texts)):  # a whitespace-only cell: its first character escaped (xlsx_text)
        joined = "\0".join(xlsx_text(t) if t.isspace() else t for t in joined.split("\0"))
    return _SI + joined.replace("\0", _SI_NEXT) + _SI_END


_SI = '<si><t xml:space="preserve">'
_SI_END = "</t></si>"
_SI_NEXT = _SI_END + _SI
