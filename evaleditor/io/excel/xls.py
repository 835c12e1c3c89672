"""Reading legacy .xls workbooks with xlrd, and the files that only pretend to be .xls.

Many systems export a web page (HTML) or tab-separated text under a .xls name, and Excel opens them
anyway; so does this reader where it can (text, a real .xlsx), and says why where it cannot (HTML).
"""

from __future__ import annotations

import datetime as _dt
import io
import os

from evaleditor.core.errors import Cancelled, ReadError
from evaleditor.core.table import LoadNote, RawTable
from evaleditor.io import safety
from evaleditor.io.excel.numformats import Shown, shown_by
from evaleditor.io.excel.sheets import grid_to_table, pick_sheet
from evaleditor.io.grid import EVERY, Cancel, Progress, build_grid, datetime_text, number_text, time_text
from evaleditor.io.safety import short_reason


def _date_text(value: float, datemode: int) -> str:
    import xlrd

    try:
        moment = xlrd.xldate.xldate_as_datetime(value, datemode)
    except (ValueError, OverflowError, xlrd.xldate.XLDateError):
        return number_text(value)
    # float arithmetic leaves 12:34:55.999999; Excel stores milliseconds at most
    moment = moment.replace(microsecond=0) + _dt.timedelta(milliseconds=round(moment.microsecond / 1000))
    if 0 <= value < 1:
        return time_text(moment.time())
    return datetime_text(moment)


def _row_text(ws, r: int, datemode: int, shown: dict[int, Shown] | None = None) -> list[str]:
    """Row `r` of sheet `ws` as text (from xlrd's type and value arrays: no Cell objects). `shown`: cell
    style (xf) index -> how its number format shows numbers (a book read with formatting_info)."""
    import xlrd
    from xlrd.biffh import error_text_from_code

    types = ws.row_types(r)
    values = ws.row_values(r)
    out: list[str] = []
    add = out.append
    for c, (ctype, value) in enumerate(zip(types, values, strict=False)):
        if ctype == xlrd.XL_CELL_TEXT:
            add(value)
        elif ctype == xlrd.XL_CELL_EMPTY or ctype == xlrd.XL_CELL_BLANK:
            add("")
        elif ctype == xlrd.XL_CELL_NUMBER:
            text = number_text(float(value))
            way = shown.get(ws.cell_xf_index(r, c)) if shown else None
            add(way.shown(text) if way is not None else text)
        elif ctype == xlrd.XL_CELL_DATE:
            add(_date_text(float(value), datemode))
        elif ctype == xlrd.XL_CELL_BOOLEAN:
            add("TRUE" if value else "FALSE")
        elif ctype == xlrd.XL_CELL_ERROR:
            add(error_text_from_code.get(value, "#N/A"))
        else:
            add("")
    return out


def read_xls(
    path: str | os.PathLike[str],
    sheet: str | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
    target: str | None = None,
) -> RawTable:
    """A real (OLE) .xls workbook; read_workbook (excel/__init__.py) routes every other file."""
    safety.check_file(path)
    try:
        book = _open_book(path)
        shown = _shown_styles(book)
        if shown:  # each cell's style is kept only on request (60k rows: +0.2 s), so only then
            book.release_resources()
            book = _open_book(path, formatting_info=True)
    except Exception as err:  # xlrd raises XLRDError, CompDocError, struct.error, IndexError ...
        reason = short_reason(err)
        if "encrypted" in reason.lower():
            raise ReadError(path, safety.PASSWORD) from None
        raise ReadError(path, f"not a valid .xls workbook (the file is damaged: {reason})") from None
    try:
        return _read_book(path, book, sheet, progress, cancel, target, shown)
    finally:
        book.release_resources()


def _open_book(path, formatting_info: bool = False):
    """The workbook's globals (sheets load on demand)."""
    import xlrd

    # xlrd reports damage it can read past on sys.stdout: that would corrupt `validate --format json`
    # ragged rows: a stray cell at IV65536 must not pad every row to 256 cells (a 6 KB file took 15 s)
    return xlrd.open_workbook(os.fspath(path), on_demand=True, ragged_rows=True, logfile=io.StringIO(),
                              verbosity=0, formatting_info=formatting_info)


def _shown_styles(book) -> dict[int, Shown]:
    """Cell style (xf) index -> how it shows numbers, for the styles whose number format shows them other
    than as their value (numformats.py); xlrd reads the formats and styles whatever formatting_info says."""
    formats = {key: w for key, fmt in book.format_map.items() if (w := shown_by(fmt.format_str or "")) is not None}
    return {i: formats[xf.format_key] for i, xf in enumerate(book.xf_list) if xf.format_key in formats}


def _read_book(path, book, sheet, progress, cancel, target=None, shown=None) -> RawTable:
    names = book.sheet_names()

    def load(name: str):
        try:
            return book.sheet_by_name(name)
        except Exception as err:
            raise ReadError(path, f"cannot read the sheet {name!r}: {short_reason(err)}") from None

    def first_row(name: str) -> list[str] | None:
        ws = load(name)
        try:
            for r in range(ws.nrows):
                row = _row_text(ws, r, book.datemode, shown)
                if any(row):
                    return row
        except Exception as err:
            raise ReadError(path, f"cannot read the sheet {name!r}: {short_reason(err)}") from None
        return None

    chosen = pick_sheet(path, names, sheet, first_row, target)
    ws = load(chosen)
    total = ws.nrows

    def rows():
        for r in range(total):
            if r % EVERY == 0 and r:
                if cancel is not None and cancel():
                    raise Cancelled()
                if progress is not None:
                    progress(r, total)
            yield _row_text(ws, r, book.datemode, shown)
        if progress is not None:
            progress(total, total)

    try:
        grid = build_grid(rows())
    except (ReadError, Cancelled):
        raise
    except Exception as err:
        raise ReadError(path, f"cannot read the sheet {chosen!r}: {short_reason(err)}") from None
    return grid_to_table(path, grid, "xls", chosen, names, [])


def text_as_xls(path, progress, cancel, suffix: str = ".xls") -> RawTable:
    """Text under a workbook's name `suffix` (Excel's "Unicode Text" export, a CSV), read as Excel opens it,
    with a note that the name misleads (an upload that wants a workbook refuses it)."""
    from evaleditor.io.text.delimited import looks_binary, read_delimited

    damaged = safety.DAMAGED_XLSX if suffix == ".xlsx" else \
        "not a valid .xls workbook (the file is damaged or not a workbook)"
    head = safety.read_head(path, 64 * 1024)
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):  # Excel's "Unicode Text", tab-separated
        return _named_as_workbook(read_delimited(path, progress, cancel), suffix)
    text = None
    for encoding in ("utf-8", "gb18030"):
        try:
            text = head.decode(encoding)
        except UnicodeDecodeError as err:
            if err.start >= len(head) - 4:  # a character cut at the end of the sample
                text = head[: err.start].decode(encoding, "replace")
        if text is not None:
            break
    if text is None or looks_binary(text):
        raise ReadError(path, damaged)
    return _named_as_workbook(read_delimited(path, progress, cancel), suffix)


_SEPARATED = {",": "comma", ";": "semicolon", "\t": "tab"}


def _named_as_workbook(table: RawTable, suffix: str) -> RawTable:
    kind = _SEPARATED.get(table.delimiter or ",", "comma")
    table.notes.append(LoadNote("text-named-as-workbook", f"this file is {kind}-separated text, not an Excel "
                                f"workbook, though its name ends in {suffix}: it is read as text. Save it as .xlsx "
                                "(or rename it .csv) before uploading it"))
    return table
