"""Refuse a worksheet whose cells span an enormous area, before python-calamine reads it.

calamine holds a sheet as a dense grid from its first to its last used cell (32 bytes a cell), and the
reader makes one list per row of that width. Two cells, A1 and XFD1048576, in a 1 KB file ask for
17 billion cells: calamine's allocation of 550 GB fails and aborts the whole process (a Rust abort,
not an exception), taking every open window with it. A1 and ZZ200000 took 28 s and 5.4 GB.

So the sheet's XML is scanned first, in up to three steps, each only when the one before could not
decide:
1. three regex searches per piece that find nothing in an ordinary sheet (a cell whose reference is
   not one letter and a row below 380,000 — wide, deep, missing, namespace-prefixed —, formulas, error
   values); a piece where they find something gets the detailed searches. When every cell carries its
   reference and every row is below 380,000, the area is bounded;
2. else a second pass looks for a row number beyond what the widest column allows;
3. every reference read (cells without a value are not counted: calamine leaves them out, so a
   formatted empty cell far away does not refuse a good file) — for unusual or hostile sheets.
A sheet over `max_cells()` is refused with a one-line reason.

On a 100k-row sheet (24 MB of XML, shared strings) step 1 costs about 0.07 s, a fifth of it inflating
(member.py).
"""

from __future__ import annotations

import operator
import re
import zipfile
from itertools import compress

from evaleditor.core.errors import ReadError
from evaleditor.io import budget, safety
from evaleditor.io.excel.member import member_pieces

MAX_CELLS = 10_000_000  # ~0.3 GB in calamine; 100,000 rows x 100 columns, 380,000 x 26
BYTES_PER_CELL = 48  # calamine's cell, and the reader's share of a row list
_CHUNK = 1 << 20
_NARROW_ROWS = 380_000  # 26 columns x 380,000 rows = 9.88 million cells: within MAX_CELLS
# step 1 where its quick searches (below) find something: as text, compiled on first use (re's cache), which
# an ordinary sheet never makes; each with a literal prefix, so a search runs at C speed (one alternation of
# all three is 10x slower)
_DEEP = rb'r="[A-Za-z]?(?:3[89]\d{4}|[4-9]\d{5}|\d{7})'  # ... in row 380,000 or beyond
_UNPLACED = rb'<c(?! r=")[\s>]'  # a cell whose first attribute is not its reference
_PREFIXED = rb":c[\s>]"  # a cell with a namespace prefix
_WIDE_LETTERS = rb'r="([A-Za-z]{2,3})\d'  # a reference in column AA or beyond
# step 1 in three searches, each with a literal prefix that makes sre skip quickly (an alternation
# without one is 5x slower, and `in` with a 2-5 byte needle 2x slower): a cell whose first attribute is not
# an ordinary reference (one letter, a row below 380,000: a negative lookahead, which fails at once on the
# usual cell, where testing for the wide and the deep references took twice as long), or a formula, or text
# with whitespace first or last in a <t> without xml:space="preserve" (calamine trims it); a
# namespace-prefixed cell or formula; an attribute valued "e" (t="e": an error value), confirmed by
# formulas.may_need_scan; a carriage return (memchr: calamine reads one written raw as a line feed). The two
# rarer searches run only on a piece that holds their first byte: `in` with one byte is memchr, 5-10x faster
# than sre's skipping, and most writers but Excel put no `:` or `e` in a sheet's rows and cells (the two
# searches took 0.03 s of a 100k-row sheet's 0.15 s)
_QUICK = re.compile(rb'<(?:c(?! r="[A-Za-z](?:\d{1,5}|[0-2]\d{5}|3[0-7]\d{4})")[\s>]|f[\s>/]|t>[ \t\r\n]'
                    rb'|/t>(?<=[ \t\r\n]</t>))')
_PREFIXED_HINT = re.compile(rb":[cf][\s>/]")
_ERROR_HINT = re.compile(rb"""e["'](?<==["']e["'])""")  # `=` first: a prefix found in every attribute, 3x slower
# step 3 (as text, compiled by _exact_area): a cell that has a value (not self-closing) and a reference: its letters, its digits
_REF_LETTERS = rb'<(?:[\w.-]+:)?c\s[^>]*?\br="([A-Za-z]+)\d+"[^>]*(?<!/)>'
_REF_DIGITS = rb'<(?:[\w.-]+:)?c\s[^>]*?\br="[A-Za-z]+(\d+)"[^>]*(?<!/)>'
_CELL = rb"<(?:[\w.-]+:)?c[\s/>]"
_CELL_WITH_R = rb'<(?:[\w.-]+:)?c\s[^>]*?\br="'
_ROW = rb"<(?:[\w.-]+:)?row[\s/>]"
_ROW_R = rb'<(?:[\w.-]+:)?row\s[^>]*?\br="(\d+)"'

TOO_LARGE = ("the sheet {name!r} spans {rows:,} rows x {cols:,} columns ({cells:,} cells, most of them "
             "empty), too many to open; delete the stray cells far from the table in Excel and save again")
NOT_XLSX = "cannot read the workbook: it is not an Excel .xlsx/.xlsm package (no workbook part)"


def max_cells() -> int:
    avail = safety.available_memory()
    if avail is None:
        return MAX_CELLS
    return max(1_000_000, min(MAX_CELLS, int(avail * safety.MEMORY_SHARE) // BYTES_PER_CELL))


def _chunks(zf: zipfile.ZipFile, part: str):
    """The part's bytes in pieces that end before a `<`, so that no tag is split between two."""
    rest = b""
    for chunk in member_pieces(zf, part, _CHUNK):
        cut = chunk.rfind(b"<")
        if cut < 0 or cut + len(rest) == 0:
            rest += chunk
            continue
        yield b"".join((rest, memoryview(chunk)[:cut])) if rest else chunk[:cut]  # one copy, not two
        rest = chunk[cut:]
    if rest:
        yield rest


def _column(letters: bytes) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ch - 64
    return n


def _greater_than(n: int) -> re.Pattern[bytes]:
    """A cell with a value (not self-closing: calamine leaves empty cells out, so a million formatted
    empty rows below the table do not count) whose reference's row number is greater than `n`."""
    digits = str(n)
    options = [rf"[1-9]\d{{{len(digits)},}}"]
    for i, d in enumerate(digits):
        if d != "9":
            options.append(f"{digits[:i]}[{int(d) + 1}-9]" + (rf"\d{{{len(digits) - i - 1}}}" if i + 1 < len(digits) else ""))
    return re.compile(rb'r="[A-Za-z]{1,3}0*(?:' + "|".join(options).encode() + rb')"[^>]*(?<!/)>')


def sheet_area(zf: zipfile.ZipFile, part: str, limit: int | None = None) -> tuple[int, int, bool]:
    """(rows, columns) bounding the dense area calamine and the reader would build for sheet `part`
    (exact when over `limit`), and whether the sheet may hold formulas or error values (formulas.py)."""
    from evaleditor.io.excel.formulas import may_need_scan

    limit = max_cells() if limit is None else limit
    letters: set[bytes] = set()  # of references in column AA or beyond
    deep = unplaced = formulas = False
    for piece in _chunks(zf, part):
        if not formulas and (b"\r" in piece or b"e" in piece and _ERROR_HINT.search(piece) is not None):
            formulas = may_need_scan(piece)
        if _QUICK.search(piece) is None and (b":" not in piece or _PREFIXED_HINT.search(piece) is None):
            continue
        letters.update(re.findall(_WIDE_LETTERS, piece))
        deep = deep or re.search(_DEEP, piece) is not None
        unplaced = unplaced or re.search(_UNPLACED, piece) is not None or re.search(_PREFIXED, piece) is not None
        formulas = formulas or may_need_scan(piece)
    if unplaced:
        return (*_exact_area(zf, part), formulas)
    cols = max(26, max(map(_column, letters), default=0))
    rows = max(1, limit // cols)
    if not deep and rows >= _NARROW_ROWS:  # every row is below 380,000
        return min(rows, _NARROW_ROWS), cols, formulas
    beyond = _greater_than(rows)
    if not any(beyond.search(piece) for piece in _chunks(zf, part)):
        return rows, cols, formulas
    return (*_exact_area(zf, part), formulas)


def _exact_area(zf: zipfile.ZipFile, part: str) -> tuple[int, int]:
    """Rows and columns from every reference (slow: for unusual or hostile sheets only). A cell without
    a reference takes the column after the cell before it in the same row (the count starts again at
    each row), so a row reaches at most its widest reference plus its cells without one."""
    ref_letters, ref_digits, cell_tag, cell_with_r, row_tag, row_r = map(re.compile, (
        _REF_LETTERS, _REF_DIGITS, _CELL, _CELL_WITH_R, _ROW, _ROW_R))
    max_row = max_col = 0
    rows = rows_r = max_row_attr = 0
    counted = False  # some cell is placed by counting
    carried = (0, 0)  # (cells without a reference, widest reference) of the row the previous piece ended in
    for data in _chunks(zf, part):
        max_row = max(max_row, max(map(int, ref_digits.findall(data)), default=0))
        max_col = max(max_col, max(map(_column, set(ref_letters.findall(data))), default=0))
        segments = row_tag.split(data)  # what comes before the first row's tag, then each row after its tag
        rows += len(segments) - 1
        placed = list(map(len, map(cell_with_r.findall, segments)))
        unplaced = list(map(operator.sub, map(len, map(cell_tag.findall, segments)), placed))
        widest = [0] * len(segments)
        both = compress(range(len(segments)), map(min, placed, unplaced))  # rows with both kinds of cell
        for i in {0, len(segments) - 1, *both}:  # and the rows that may go on in the next or previous piece
            widest[i] = max(map(_column, ref_letters.findall(segments[i])), default=0)
        unplaced[0] += carried[0]
        widest[0] = max(widest[0], carried[1])
        carried = unplaced[-1], widest[-1]
        if any(unplaced):
            counted = True
            max_col = max(max_col, max(map(operator.add, unplaced, widest)))
        found = row_r.findall(data)
        rows_r += len(found)
        max_row_attr = max(max_row_attr, max(map(int, found), default=0))
    if counted:  # cells placed by counting, in rows placed by counting: after the last numbered row
        max_row = max(max_row, max_row_attr) + (rows - rows_r)
    return max_row, max_col


def check_sheet(path: object, zf: zipfile.ZipFile, part: str, name: str) -> bool:
    """ReadError when sheet `name` (zip member `part`) spans more cells than can be held; else
    whether it may hold formulas or error values."""
    limit = max_cells()
    budget.check_sheet_cells(path, zf, part, name, limit)
    rows, cols, formulas = sheet_area(zf, part, limit)
    if rows * cols > limit:
        raise ReadError(path, TOO_LARGE.format(name=name, rows=rows, cols=cols, cells=rows * cols))
    return formulas


class SheetChecker:
    """Checks a sheet by name (each zip member once) and says whether it may hold formulas; ReadError at
    once when the zip is not an OOXML workbook (calamine would then try other formats, which this scan
    does not know)."""

    def __init__(self, path: object):
        import zlib

        from defusedxml import DefusedXmlException

        from evaleditor.io.excel.formulas import sheet_parts

        self.path = path
        try:
            with zipfile.ZipFile(path) as zf:  # type: ignore[arg-type]
                self.parts = sheet_parts(zf)
        except KeyError:
            raise ReadError(path, NOT_XLSX) from None
        except DefusedXmlException:
            raise ReadError(path, safety.ENTITIES.format(part="xl/workbook.xml")) from None
        except (ValueError, SyntaxError, zipfile.BadZipFile, OSError, EOFError, zlib.error, RuntimeError):
            raise ReadError(path, safety.DAMAGED_XLSX) from None
        self._checked: dict[str, bool] = {}  # part -> may hold formulas
        self._ahead: dict[str, bool | ReadError] = {}  # name -> what checking it found, before it was asked

    def __call__(self, name: str) -> bool:
        found = self._ahead.pop(name, None)
        if isinstance(found, ReadError):
            raise found
        return self._check(name) if found is None else found

    def ahead(self, sheet: str | None) -> None:
        """Check now the sheet a read will ask for first — `sheet` as named (exactly, or in another case
        when only one sheet is so named), else the workbook's first — keeping the answer or the refusal
        for when it is asked: read.py runs this while calamine opens the workbook on another thread."""
        if sheet is None:
            name = next(iter(self.parts), None)
        else:
            folded = [n for n in self.parts if n.casefold() == sheet.casefold()]
            name = sheet if sheet in self.parts else folded[0] if len(folded) == 1 else None
        if name is not None:
            try:
                self._ahead[name] = self._check(name)
            except ReadError as err:
                self._ahead[name] = err

    def _check(self, name: str) -> bool:
        import zlib

        parts, checked = self.parts, self._checked
        wanted = [parts[name]] if name in parts else sorted(set(parts.values()))  # unknown: check all
        try:
            with zipfile.ZipFile(self.path) as zf:  # type: ignore[arg-type]
                for part in wanted:
                    if part not in checked and part in zf.NameToInfo:
                        checked[part] = check_sheet(self.path, zf, part, name)
        except (zipfile.BadZipFile, OSError, EOFError, zlib.error, RuntimeError, NotImplementedError):
            raise ReadError(self.path, f"cannot read the sheet {name!r}: the workbook is damaged") from None
        return any(checked.get(part, True) for part in wanted)
