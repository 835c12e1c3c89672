"""Numbers shown with leading zeros: a whole number in a cell formatted `000` (or `"ID-"000`) reads as
the text Excel shows, `007` (or `ID-007`), not `7`.

python-calamine gives the value without its format. So xl/styles.xml (small) is read for cell styles
whose number format is zeros only, perhaps with quoted text before or after; only when the workbook
has such a style is the sheet's XML read again, for the cells that carry it (a literal `s="N"` search:
only those cells are visited). The common workbook costs one read of styles.xml. A legacy .xls
(xls.py) does the same with the formats and styles xlrd reads anyway: only a book with such a style
is read again with each cell's style (formatting_info).

Left as the raw value: a number that is not whole (`000` shows 7.5 as `008`: the text would lose the
.5), percent (`0%`), thousands separators, decimals (`0.00`), currency, scientific and multi-section
formats; the value is what an upload service reads from such a cell, and the text adds nothing to it.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass

_STYLES = "xl/styles.xml"
_NUM_FMT = re.compile(rb"<(?:[\w.-]+:)?numFmt\s([^>]*)>")
_XF = re.compile(rb"<(?:[\w.-]+:)?xf[\s/>]([^>]*)>")
_CELL_XFS = re.compile(rb"<(?:[\w.-]+:)?cellXfs[\s>].*?</(?:[\w.-]+:)?cellXfs>", re.S)
_ATTR = re.compile(rb'([\w:.-]+)\s*=\s*"([^"]*)"')
_PADDED = re.compile(r'(?:"([^"]*)")?(0+)(?:"([^"]*)")?')  # "ID-"000"-x": text, zeros, text
_WHOLE = re.compile(r"-?\d+")
_CELL_TAG = re.compile(rb"<(?:[\w.-]+:)?c\s([^>]*)>")
_CELL_REF = re.compile(rb'(?:^|\s)r="([A-Za-z]{1,3})(\d+)"')
_NUMBER = re.compile(rb'(?:^|\s)t="n"')


@dataclass(frozen=True)
class Padding:
    width: int  # the number of zeros
    before: str = ""
    after: str = ""

    def shown(self, number: str) -> str:
        """A number's text ("-7") as the format shows it ("-007"); one that is not whole as it is (`000`
        shows 7.5 as 008: that text would lose the .5)."""
        if _WHOLE.fullmatch(number) is None:
            return number
        sign, digits = ("-", number[1:]) if number.startswith("-") else ("", number)
        return f"{sign}{self.before}{digits.zfill(self.width)}{self.after}"


def padding_of(code: str) -> Padding | None:
    """The padding a number format code asks for, or None for any other format."""
    m = _PADDED.fullmatch(code)
    if m is None:
        return None
    before, zeros, after = m[1] or "", m[2], m[3] or ""
    if len(zeros) < 2 and not before and not after:
        return None  # `0`: a whole number shows as it reads
    return Padding(len(zeros), before, after)


def xml_text(raw: bytes) -> str:
    """An attribute's value as text (`&quot;ID-&quot;000` is `"ID-"000`); html only when needed: its
    import costs 3 ms of every small file's validate."""
    text = raw.decode("utf-8", "replace")
    if "&" in text:
        from html import unescape

        text = unescape(text)
    return text


def padded_styles(zf: zipfile.ZipFile) -> dict[bytes, Padding]:
    """Cell style index (as the sheet writes it, b"3") -> its padding, for the styles that pad."""
    try:
        data = zf.read(_STYLES)
    except KeyError:
        return {}
    formats: dict[bytes, Padding] = {}
    for attrs in _NUM_FMT.findall(data):
        fields = dict(_ATTR.findall(attrs))
        padding = padding_of(xml_text(fields.get(b"formatCode", b"")))
        if padding is not None and b"numFmtId" in fields:
            formats[fields[b"numFmtId"].strip()] = padding
    if not formats:
        return {}
    section = _CELL_XFS.search(data)
    if section is None:
        return {}
    styles: dict[bytes, Padding] = {}
    for index, attrs in enumerate(_XF.findall(section[0])):
        fields = dict(_ATTR.findall(attrs))
        padding = formats.get(fields.get(b"numFmtId", b"0").strip())
        if padding is not None:  # whatever applyNumberFormat says: Excel shows the xf's format
            styles[str(index).encode()] = padding
    return styles


def padded_cells(zf: zipfile.ZipFile, part: str, styles: dict[bytes, Padding]):
    """(row, column, padding), 0-based, of the number cells of sheet `part` that carry a padding style."""
    from evaleditor.io.excel.extent import _chunks

    styled = re.compile(rb'\ss="(' + b"|".join(map(re.escape, styles)) + rb')"')
    columns: dict[bytes, int] = {}
    for piece in _chunks(zf, part):  # pieces cut before a `<`: no tag is split between two
        for m in styled.finditer(piece):
            tag = _CELL_TAG.match(piece, piece.rfind(b"<", 0, m.start()))
            if tag is None:
                continue  # a row's style (<row s="3">): its cells say their own
            attrs = tag[1]
            if b't="' in attrs and _NUMBER.search(attrs) is None:
                continue  # text, a boolean, an error: shown as it is
            ref = _CELL_REF.search(attrs)
            if ref is None:
                continue  # a cell placed by counting: rare, and left as its value
            letters = ref[1]
            if letters not in columns:
                columns[letters] = sum(26 ** i * (ch - 64) for i, ch in enumerate(reversed(letters.upper())))
            yield int(ref[2]) - 1, columns[letters] - 1, styles[m[1]]


def pad_rows(rows: list[list[str]], zf: zipfile.ZipFile, part: str) -> None:
    """Give the whole numbers of sheet `part` (already in `rows`, indexed from A1) their leading zeros."""
    styles = padded_styles(zf)
    if not styles:
        return
    for row, column, padding in padded_cells(zf, part, styles):
        if row < len(rows) and column < len(rows[row]):
            rows[row][column] = padding.shown(rows[row][column])
