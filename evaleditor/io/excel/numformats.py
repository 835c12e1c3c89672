"""Numbers read as the text their number format shows, as Excel and Calc show them: 7 formatted `000`
reads `007`, `"ID-"000` reads `ID-007`, 0.5 formatted `0%` reads `50%`, 1.5 formatted `0.00` reads
`1.50`, 1234567 formatted `#,##0` reads `1,234,567`, 3.5 formatted `"$"#,##0.00` reads `$3.50`.

python-calamine gives the value without its format. So xl/styles.xml (small) is read for cell styles
whose number format shows a number differently from its value; only when the workbook has such a
style is the sheet's XML read again, for the cells that carry it (a literal `s="N"` search: only those
cells are visited). The common workbook costs one read of styles.xml. A legacy .xls (xls.py) does the
same with the formats and styles xlrd reads anyway (only a book with such a style is read again with
each cell's style, formatting_info), and an .ods turns its number styles into these codes
(ods_formats.py).

Left as the raw value: a number the format would round (`0%` shows 0.125 as `13%`, `000` shows 7.5 as
`008`: the text would lose digits, and Save would write that text), dates (ISO, grid.cell_text),
scientific, fraction, multi-section (`0;-0`), coloured and conditional formats, and `General`. The
decimal point and thousands separator are `.` and `,`, whatever the locale of the machine that shows
the file.
"""

from __future__ import annotations

import re
import zipfile
from typing import NamedTuple

_STYLES = "xl/styles.xml"
_NUM_FMT = re.compile(rb"<(?:[\w.-]+:)?numFmt\s([^>]*)>")
_XF = re.compile(rb"<(?:[\w.-]+:)?xf[\s/>]([^>]*)>")
_CELL_XFS = re.compile(rb"<(?:[\w.-]+:)?cellXfs[\s>].*?</(?:[\w.-]+:)?cellXfs>", re.S)
_ATTR = re.compile(rb'([\w:.-]+)\s*=\s*"([^"]*)"')
# text Excel shows as it is: "quoted", \escaped, [$€-407] (a currency and its locale), a few bare marks
_TEXT = r'(?:"[^"]*"|\\.|\[\$[^\]-]*(?:-[0-9A-Fa-f]+)?\]|[$+\-/():!^&\'~{}<>= ])*'
# as text, compiled on first use (re's cache): a workbook whose styles show every number as its value needs neither
_CODE = rf"({_TEXT})((?:#,##)?(?:0+|#))(?:\.(0*)(#*))?(%?)({_TEXT})"
_TEXT_PART = r'"([^"]*)"|\\(.)|\[\$([^\]-]*)(?:-[0-9A-Fa-f]+)?\]|(.)'
_BUILT_IN = {b"2": "0.00", b"3": "#,##0", b"4": "#,##0.00", b"9": "0%", b"10": "0.00%"}  # not in styles.xml
# of a styled cell (shown_cells: as text, compiled there, for the sheets whose styles show numbers otherwise)
_CELL_TAG = rb"<(?:[\w.-]+:)?c\s([^>]*)>"
_CELL_REF = rb'(?:^|\s)r="([A-Za-z]{1,3})(\d+)"'
_NUMBER = rb'(?:^|\s)t="n"'


def _text_of(part: str) -> str:
    return "".join(q or e or c or b or "" for q, e, c, b in re.findall(_TEXT_PART, part))


class Shown(NamedTuple):
    """How a number format shows a number: at least `digits` integer digits (zeros in front), between
    `places` and `most` decimals, thousands grouped, as a percentage, text before and after. (A
    NamedTuple: made at every workbook read's import, where a frozen dataclass costs 0.8 ms.)"""

    digits: int = 1
    places: int = 0
    most: int = 0
    grouping: bool = False
    percent: bool = False
    before: str = ""
    after: str = ""

    def shown(self, number: str) -> str:
        """A number's text ("-7", "0.5") as the format shows it ("-007", "50%"); one the format would
        round, or show with no digit at all, as it is (`000` shows 7.5 as 008, `#` shows 0 as nothing:
        those texts would lose the value)."""
        from decimal import Decimal, InvalidOperation

        try:
            value = Decimal(number)
        except InvalidOperation:
            return number
        if not value.is_finite():
            return number
        if self.percent:
            value = value.scaleb(2)
        sign = "-" if value < 0 else ""
        text = f"{abs(value):f}"
        whole, _, fraction = text.partition(".")
        fraction = fraction.rstrip("0")
        if len(fraction) > self.most:
            return number
        whole = whole.lstrip("0")
        if self.grouping and whole:
            whole = f"{int(whole):,}"
        whole = whole.rjust(self.digits, "0")
        fraction = fraction.ljust(self.places, "0")
        if not whole and not fraction:
            return number  # `#` shows 0 as nothing: saved, the empty cell would lose the value
        point = "." + fraction if fraction else ""
        return f"{sign}{self.before}{whole}{point}{'%' if self.percent else ''}{self.after}"


def shown_by(code: str) -> Shown | None:
    """How a number format code shows numbers, or None when it shows them as their value reads (`0`,
    `General`) or is not a format this reader shows (see the module's docstring)."""
    m = re.fullmatch(_CODE, code)
    if m is None:
        return None
    before, whole, places, extra, percent, after = m.groups()
    places, extra = places or "", extra or ""
    if extra and not places:
        return None  # `0.##`: Excel shows 2 as "2." and Calc as "2"
    way = Shown(digits=whole.count("0"), places=len(places), most=len(places) + len(extra),
                grouping="," in whole, percent=bool(percent), before=_text_of(before), after=_text_of(after))
    return None if way == Shown() else way


def xml_text(raw: bytes) -> str:
    """An attribute's value as text (`&quot;ID-&quot;000` is `"ID-"000`); html only when needed: its
    import costs 3 ms of every small file's validate."""
    text = raw.decode("utf-8", "replace")
    if "&" in text:
        from html import unescape

        text = unescape(text)
    return text


def shown_styles(zf: zipfile.ZipFile) -> dict[bytes, Shown]:
    """Cell style index (as the sheet writes it, b"3") -> how its numbers show, for the styles whose
    numbers do not read as their value."""
    try:
        data = zf.read(_STYLES)
    except KeyError:
        return {}
    section = _CELL_XFS.search(data)
    if section is None:
        return {}
    codes = dict(_BUILT_IN)  # numFmtId -> format code
    for attrs in _NUM_FMT.findall(data):
        fields = dict(_ATTR.findall(attrs))
        if b"numFmtId" in fields:
            codes[fields[b"numFmtId"].strip()] = xml_text(fields.get(b"formatCode", b""))
    formats: dict[bytes, Shown | None] = {}  # numFmtId -> how, for the formats the styles use (most: General)
    styles: dict[bytes, Shown] = {}
    for index, attrs in enumerate(_XF.findall(section[0])):
        fields = dict(_ATTR.findall(attrs))
        key = fields.get(b"numFmtId", b"0").strip()
        if key not in formats:
            code = codes.get(key)
            formats[key] = None if code is None else shown_by(code)
        way = formats[key]
        if way is not None:  # whatever applyNumberFormat says: Excel shows the xf's format
            styles[str(index).encode()] = way
    return styles


def shown_cells(zf: zipfile.ZipFile, part: str, styles: dict[bytes, Shown]):
    """(row, column, how it shows), 0-based, of the number cells of sheet `part` that carry a style
    of `styles`."""
    from evaleditor.io.excel.extent import _chunks

    styled = re.compile(rb'\ss="(' + b"|".join(map(re.escape, styles)) + rb')"')
    cell_tag, cell_ref, number = map(re.compile, (_CELL_TAG, _CELL_REF, _NUMBER))
    columns: dict[bytes, int] = {}
    for piece in _chunks(zf, part):  # pieces cut before a `<`: no tag is split between two
        for m in styled.finditer(piece):
            tag = cell_tag.match(piece, piece.rfind(b"<", 0, m.start()))
            if tag is None:
                continue  # a row's style (<row s="3">): its cells say their own
            attrs = tag[1]
            if b't="' in attrs and number.search(attrs) is None:
                continue  # text, a boolean, an error: shown as it is
            ref = cell_ref.search(attrs)
            if ref is None:
                continue  # a cell placed by counting: rare, and left as its value
            letters = ref[1]
            if letters not in columns:
                columns[letters] = sum(26 ** i * (ch - 64) for i, ch in enumerate(reversed(letters.upper())))
            yield int(ref[2]) - 1, columns[letters] - 1, styles[m[1]]


def show_numbers(rows: list[list[str]], zf: zipfile.ZipFile, part: str) -> None:
    """Give the numbers of sheet `part` (already in `rows`, indexed from A1) the text their format shows."""
    styles = shown_styles(zf)
    if not styles:
        return
    for row, column, way in shown_cells(zf, part, styles):
        if row < len(rows) and column < len(rows[row]):
            rows[row][column] = way.shown(rows[row][column])
