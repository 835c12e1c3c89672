"""Number formats in an .ods: a number reads as LibreOffice Calc shows it (`7` formatted `000` reads
`007`), by the same rules as a workbook's (numformats.py), python-calamine giving only the value.

An OpenDocument number style is XML (`<number:number-style>` with `<number:number
number:min-integer-digits="3"/>` and `<number:text>` around it; percentage and currency styles alike),
so it is turned into the format code a workbook would carry (`"ID-"000`, `0.00%`) and that code
decides (numformats.shown_by). Styles live in styles.xml (named ones, and the number styles Calc writes
there) and at the head of content.xml (automatic ones); a cell's style is its own
`table:style-name`, else its row's `table:default-cell-style-name`, else its column's, and a cell
style without a number style takes its parent's (at most MAX_PARENTS up).

A formula that fails (`#DIV/0!`, `#N/A`, `Err:509`) is stored as an empty string with the error as its
shown text (`calcext:value-type="error"`), which python-calamine reads as empty: that text is read, as
Calc shows it (and as the .xlsx reader keeps `#DIV/0!`).

Only when some cell style shows numbers differently from their value, or some cell is an error (one
C-level pass over content.xml), is the sheet's XML scanned, for the cells that need it. The work is bounded by the cells already read: a row or column
repeated a million times is visited only where `rows` has cells.
"""

from __future__ import annotations

import re
import zipfile

from evaleditor.io.excel.numformats import Shown, shown_by, xml_text

MAX_PARENTS = 8  # a cell style's chain of parents followed for its number style (a cycle ends here too)
_P = rb"(?:[\w.-]+:)?"  # any namespace prefix: Calc writes number:, style:, table:
_NUMBER_STYLE = re.compile(rb"<" + _P + rb"(number|percentage|currency)-style\s([^>]*?)(/?)>")
_STYLE_END = re.compile(rb"</" + _P + rb"(?:number|percentage|currency)-style>")
_PART = re.compile(rb"<(/?)" + _P + rb"([\w.-]+)([^>]*?)(/?)>|([^<]+)")
_CELL_STYLE = re.compile(rb"<" + _P + rb"style\s([^>]*)>")
_ATTR = re.compile(rb'(?:^|\s)' + _P + rb'([\w.-]+)\s*=\s*"([^"]*)"')
_BODY = b"office:body"
_SHEET_TAG = re.compile(rb"<(?:/" + _P + rb"(table|table-row)>|" + _P
                        + rb"(table|table-column|table-row|table-cell|covered-table-cell)(?=[\s/>])([^>]*)>)")
_STYLE_NAME = re.compile(rb"\s" + _P + rb'style-name="([^"]*)"')
_NUMBER_CELL = re.compile(rb'\s' + _P + rb'value-type="(?:float|percentage|currency)"')
_ERROR = b'value-type="error"'
_ERROR_TEXT = re.compile(rb"<" + _P + rb"p(?:\s[^>]*)?>(.*?)</" + _P + rb"p>", re.S)
_CELL_END = re.compile(rb"</" + _P + rb"table-cell>")
_TAGS = re.compile(rb"<[^>]*>")
_NUMERIC = {b"float", b"percentage", b"currency"}
MAX_REPEAT = 1 << 20  # no sheet is wider or longer: a larger repeat count is damage, read as this


def _attrs(raw: bytes) -> dict[bytes, bytes]:
    return dict(_ATTR.findall(raw))


def _quoted(text: str) -> str:
    return '"' + text.replace('"', "") + '"' if text else ""


def format_code(kind: bytes, body: bytes) -> str | None:
    """The workbook format code of one number style's children (`<number:number .../>`, texts, a
    currency symbol), or None for what has no such code here (fractions, scientific, conditions)."""
    code: list[str] = []
    numbers = 0
    for m in _PART.finditer(body):
        closing, name, raw, _empty, text = m.groups()
        if text is not None or closing:
            continue
        if name == b"number":
            numbers += 1
            fields = _attrs(raw)
            try:
                digits = int(fields.get(b"min-integer-digits", b"1"))
                places = int(fields.get(b"decimal-places", b"0"))
                least = int(fields.get(b"min-decimal-places", fields.get(b"decimal-places", b"0")))
            except ValueError:
                return None
            if not (0 <= digits <= 30 and 0 <= least <= places <= 30) or b"display-factor" in fields:
                return None
            whole = "0" * digits if digits else "#"
            if fields.get(b"grouping") == b"true":
                whole = "#,##0" if digits <= 1 else "#," + whole
            code.append(whole + ("." + "0" * least + "#" * (places - least) if places else ""))
        elif name in (b"text", b"currency-symbol"):
            end = body.find(b"<", m.end())
            inner = xml_text(body[m.end():end if end >= 0 else len(body)])
            code.append("%" if kind == b"percentage" and inner == "%" else _quoted(inner))
        elif name not in (b"text-properties",):  # a colour changes nothing in the text
            return None  # style:map (another format for negatives ...), fraction, scientific, embedded text
    return "".join(code) if numbers == 1 else None


def number_styles(data: bytes, codes: dict[bytes, str]) -> None:
    """The number, percentage and currency styles of one XML part, into `codes` (name -> code)."""
    for m in _NUMBER_STYLE.finditer(data):
        name = _attrs(m[2]).get(b"name")
        if name is None:
            continue
        if m[3]:
            codes.pop(name, None)
            continue
        end = _STYLE_END.search(data, m.end())
        if end is None:
            continue
        code = format_code(m[1], data[m.end():end.start()])
        if code is None:
            codes.pop(name, None)
        else:
            codes[name] = code


def cell_styles(data: bytes, styles: dict[bytes, tuple[bytes | None, bytes | None]]) -> None:
    """Table-cell styles of one XML part, into `styles` (name -> (parent, number style))."""
    for m in _CELL_STYLE.finditer(data):
        fields = _attrs(m[1])
        if fields.get(b"family") == b"table-cell" and b"name" in fields:
            styles[fields[b"name"]] = (fields.get(b"parent-style-name"), fields.get(b"data-style-name"))


def _head(zf: zipfile.ZipFile, part: str) -> bytes:
    """content.xml up to its body: where the automatic styles are."""
    from evaleditor.io.excel.extent import _chunks

    head = b""
    for piece in _chunks(zf, part):
        cut = piece.find(b"<" + _BODY)
        if cut >= 0:
            return head + piece[:cut]
        head += piece
    return head


def shown_styles(zf: zipfile.ZipFile) -> dict[bytes, Shown]:
    """Cell style name -> how its numbers show, for the styles whose numbers do not read as their value."""
    codes: dict[bytes, str] = {}
    styles: dict[bytes, tuple[bytes | None, bytes | None]] = {}
    names = set(zf.namelist())
    parts = [zf.read("styles.xml")] if "styles.xml" in names else []
    if "content.xml" in names:
        parts.append(_head(zf, "content.xml"))
    for data in parts:  # content.xml's automatic styles come last: they are what its cells name
        number_styles(data, codes)
        cell_styles(data, styles)
    shown: dict[bytes, Shown] = {}
    for name in styles:
        current: bytes | None = name
        for _ in range(MAX_PARENTS):
            if current is None or current not in styles:
                break
            parent, data_style = styles[current]
            if data_style is not None:
                code = codes.get(data_style)
                way = shown_by(code) if code is not None else None
                if way is not None:
                    shown[name] = way
                break
            current = parent
    return shown


def _repeat(fields: dict[bytes, bytes], key: bytes) -> int:
    try:
        return min(max(int(fields.get(key, b"1")), 1), MAX_REPEAT)
    except ValueError:
        return 1


class _Error:
    """An error cell's text, given as a Shown gives a number's."""

    def __init__(self, text: str):
        self.text = text

    def shown(self, _value: str) -> str:
        return self.text


def _has_errors(zf: zipfile.ZipFile) -> bool:
    from evaleditor.io.excel.extent import _chunks

    return any(_ERROR in piece for piece in _chunks(zf, "content.xml"))  # pieces end before a tag


def _error_text(piece: bytes, start: int) -> str:
    """The text an error cell opened at `start` shows (its first paragraph), "" when it ends in another piece."""
    end = _CELL_END.search(piece, start)
    found = _ERROR_TEXT.search(piece, start, end.start()) if end is not None else None
    return xml_text(_TAGS.sub(b"", found[1])) if found is not None else ""


def show_ods_numbers(rows: list[list[str]], zf: zipfile.ZipFile, sheet: str) -> None:
    """Give the numbers of sheet `sheet` (already in `rows`, indexed from A1) the text their format
    shows, and its error cells the error Calc shows."""
    if not rows:
        return
    shown = shown_styles(zf)
    errors = _has_errors(zf)
    if not shown and not errors:
        return
    from evaleditor.io.excel.extent import _chunks

    width = max(len(r) for r in rows)
    column_styles: list[bytes | None] = []  # the default cell style of each column, up to `width`
    inside = depth = 0
    r = 0
    row_default: bytes | None = None
    row_repeat = 1
    c = 0
    found: list[tuple[int, int, Shown]] = []  # (column, count, how) of the row being read
    for piece in _chunks(zf, "content.xml"):
        for m in _SHEET_TAG.finditer(piece):
            closed, name, raw = m.groups()
            closing = closed is not None
            if closing:
                name = closed
            elif name == b"table-cell" or name == b"covered-table-cell":  # a merged cell's hidden ones take a column too
                if c >= width:
                    continue  # past the cells read: nothing more of this row matters
                if b"repeated" in raw:
                    n = _repeat(_attrs(raw), b"number-columns-repeated")
                else:
                    n = 1
                if errors and _ERROR in raw and (text := _error_text(piece, m.end())):
                    found.append((c, n, _Error(text)))  # type: ignore[arg-type]
                elif shown and _NUMBER_CELL.search(raw) is not None:
                    own = _STYLE_NAME.search(raw)
                    style = own[1] if own is not None else row_default
                    if style is not None:
                        if style in shown:
                            found.append((c, n, shown[style]))
                    else:  # each column's default style, for the columns that have cells
                        for i in range(c, min(c + n, len(column_styles))):
                            if column_styles[i] in shown:
                                found.append((i, 1, shown[column_styles[i]]))
                c += n
                continue
            if name == b"table-row":
                if not inside or depth != 1:
                    continue
                if closing or raw.endswith(b"/"):
                    if not closing:
                        row_repeat, found = _repeat(_attrs(raw), b"number-rows-repeated"), []
                    if found:
                        for row in rows[r:r + row_repeat]:
                            for column, count, how in found:
                                for i in range(column, min(column + count, len(row))):
                                    row[i] = how.shown(row[i])
                    r += row_repeat
                    if r >= len(rows):
                        return
                    continue
                row_default, row_repeat = None, 1
                if b"default-cell" in raw or b"repeated" in raw:
                    fields = _attrs(raw)
                    row_default = fields.get(b"default-cell-style-name")
                    row_repeat = _repeat(fields, b"number-rows-repeated")
                c, found = 0, []
            elif name == b"table":
                if closing:
                    depth -= 1
                    if inside and depth == 0:
                        return
                    continue
                depth += 1
                if depth > 1:
                    if inside:
                        return  # a table inside a cell: not a sheet Calc writes; the rest keeps its values
                    continue
                inside = xml_text(_attrs(raw).get(b"name", b"")) == sheet
                c = width  # cells outside the chosen sheet are passed over
            elif inside and depth == 1:  # a column
                fields = _attrs(raw)
                n = min(_repeat(fields, b"number-columns-repeated"), max(width - len(column_styles), 0))
                column_styles.extend([fields.get(b"default-cell-style-name")] * n)
