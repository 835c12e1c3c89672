"""Reading .xlsx/.xlsm workbooks with python-calamine; every cell becomes the text a user sees."""

from __future__ import annotations

import os
import zipfile
import zlib
from collections.abc import Callable
from itertools import chain, islice
from operator import not_

from evaleditor.core.alloc import leave_to_the_system, release_freed_memory
from evaleditor.core.bulk import where
from evaleditor.core.errors import Cancelled, ReadError
from evaleditor.core.table import LoadNote, RawTable
from evaleditor.io import safety
from evaleditor.io.excel.sheets import grid_to_table, pick_sheet
from evaleditor.io.grid import EVERY, Cancel, Progress, build_grid, cell_text
from evaleditor.io.safety import short_reason

_ONLY_TEXT = {str}.issuperset  # of the cells' types
RELEASE_ROWS = 20_000  # a sheet this long leaves enough freed native memory to hand back (alloc.py)
FORMULA_RULE = "formula-without-value"


def read_xlsx(
    path: str | os.PathLike[str],
    sheet: str | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
    target: str | None = None,
    *,
    written: bool = False,
    meanwhile: Callable[[], None] | None = None,
) -> RawTable:
    """`target`: the sheet is chosen by the question header it recognises (pick_sheet). `written`: a
    workbook this process has just written (read_table): no scan of its area and formulas. `meanwhile`:
    the caller's work done while calamine opens the workbook (read_table)."""
    safety.check_file(path)
    safety.check_zip_workbook(path)  # a file that is no zip is refused as damaged (read_workbook routes the rest)
    import python_calamine

    check_extent: Callable[[str], bool] = _unscanned  # before calamine builds a sheet: extent.py

    def while_opening() -> None:  # on this thread, while calamine opens the workbook on another
        nonlocal check_extent
        if not written:
            from evaleditor.io.excel.extent import SheetChecker

            checker = SheetChecker(path)  # ReadError for a zip that is no OOXML workbook, whatever calamine says
            checker.ahead(sheet)
            check_extent = checker
        if meanwhile is not None:
            meanwhile()

    try:
        book = _opened_book(path, while_opening if meanwhile is not None or not written else None)
        names = [m.name for m in book.sheets_metadata
                 if m.typ == python_calamine.SheetTypeEnum.WorkSheet]
    except ReadError:
        raise
    except python_calamine.PasswordError:
        raise ReadError(path, safety.PASSWORD) from None
    except Exception as err:  # calamine raises its own exception types for every kind of damage
        raise ReadError(path, f"cannot read the workbook: {short_reason(err)}") from None

    loaded: dict[str, object] = {}
    may_hold_formulas: dict[str, bool] = {}

    def load(name: str):
        if name not in loaded:
            may_hold_formulas[name] = check_extent(name)
            try:
                loaded[name] = book.get_sheet_by_name(name)
            except Exception as err:
                raise ReadError(path, f"cannot read the sheet {name!r}: {short_reason(err)}") from None
        return loaded[name]

    def first_row(name: str) -> list[str] | None:
        sheet_ = load(name)
        try:
            for row in sheet_.iter_rows():
                if any(v != "" and v is not None for v in row):
                    return [cell_text(v) for v in row]
        except Exception as err:
            raise ReadError(path, f"cannot read the sheet {name!r}: {short_reason(err)}") from None
        return None

    chosen = pick_sheet(path, names, sheet, first_row, target)
    cal_sheet = load(chosen)
    loaded.clear()
    try:
        # a save's read-back in the window, which follows its progress (the CLI and the API give none)
        rows = _absolute_rows(cal_sheet, progress, cancel, sliced=written and progress is not None)
    except (ReadError, Cancelled):
        raise
    except Exception as err:
        raise ReadError(path, f"cannot read the sheet {chosen!r}: {short_reason(err)}") from None
    leave_to_the_system(book, cal_sheet)  # a process that ends next need not free them
    cal_sheet = book = None  # calamine's cells and shared strings, now Python text
    if len(rows) >= RELEASE_ROWS:
        release_freed_memory()
    formulas = []  # formulas with no saved value, now showing their text
    for cell in _from_the_xml(path, chosen, may_hold_formulas.get(chosen), rows):
        while len(rows) <= cell.row:
            rows.append([])
        row = rows[cell.row]
        if len(row) <= cell.column:
            row.extend([""] * (cell.column + 1 - len(row)))
        if row[cell.column] == "" or cell.exact:
            row[cell.column] = cell.text
            if cell.formula:
                formulas.append(cell)
    grid = build_grid(rows, cancel)
    del rows
    notes: list[LoadNote] = []
    if grid is not None and formulas:
        index = {src: i for i, src in enumerate(grid.kept)}
        for cell in formulas:
            notes.append(LoadNote(
                rule=FORMULA_RULE,
                message=(f"{cell.ref}: the formula {cell.text} has no saved value (the file was written "
                         "by a program that does not calculate formulas); the cell shows the formula"),
                row=None if cell.row == grid.header_at else index.get(cell.row),
                column=cell.column - grid.first_column,
            ))
    return grid_to_table(path, grid, "xlsx", chosen, names, notes)


def _opened_book(path: str | os.PathLike[str], meanwhile: Callable[[], None] | None):
    """calamine's workbook, opened on another thread while `meanwhile` runs on this one (the workbook's
    sheet parts, the extent scan of the sheet read first): calamine lets go of the GIL while it parses the
    shared strings, which is 0.5 s of a 100k-row read, so the scan (0.07 s) adds no wall time. Raises what
    `meanwhile` raised, once calamine is done, else what opening raised."""
    import python_calamine

    found: dict[str, object] = {}

    def open_book() -> None:
        try:
            if os.fspath(path).lower().endswith((".xlsx", ".xlsm")):
                found["book"] = python_calamine.CalamineWorkbook.from_path(os.fspath(path))
            else:  # calamine picks the format by suffix; by content when given a file object
                with open(path, "rb") as handle:
                    found["book"] = python_calamine.CalamineWorkbook.from_filelike(handle)
        except BaseException as err:  # noqa: BLE001 - raised again on the reading thread
            found["error"] = err

    if meanwhile is None:
        open_book()
    else:
        import threading

        opener = threading.Thread(target=open_book, name="evaleditor-open-workbook", daemon=True)
        opener.start()
        try:
            meanwhile()
        finally:
            opener.join()
    if "error" in found:
        raise found["error"]  # type: ignore[misc]
    return found["book"]


def _unscanned(_name: str) -> bool:
    """The extent check of a workbook we wrote: nothing to refuse, no formula to look for."""
    return False


def _absolute_rows(cal_sheet, progress: Progress | None, cancel: Cancel | None,
                   sliced: bool = False) -> list[list[str]]:
    """The sheet's cells as text, indexed from A1 whatever area calamine reports. `sliced`: read EVERY
    rows at a time (a save's read-back, beside the window): to_python holds the GIL for the whole sheet
    (0.35 s of CPU at 100k rows, the window frozen), the slices let other threads run between them,
    for a few percent more CPU (the whole read-back: 3-4% at 100k rows)."""
    start, end = cal_sheet.start, cal_sheet.end
    if start is None or end is None:
        return []
    rows: list[list] = _in_slices(cal_sheet) if sliced else cal_sheet.to_python(skip_empty_area=False)
    total = len(rows)
    for at in range(0, total, EVERY):
        if at:
            if cancel is not None and cancel():
                raise Cancelled()
            if progress is not None:
                progress(at, total)
        block = rows[at:at + EVERY]
        if _ONLY_TEXT(map(type, chain.from_iterable(block))):  # most rows: two C-level passes, no row loop
            for i in where(map(not_, map(any, block))):
                rows[at + i] = []  # an empty row (many, under a stray far cell): nothing to keep
        else:
            _convert_rows(rows, at, at + len(block))
    if progress is not None:
        progress(total, total)
    if rows and len(rows) != end[0] + 1 and start[0]:
        rows[:0] = [[] for _ in range(start[0])]
    if start[1] and max(map(len, rows), default=0) != end[1] + 1:  # a sheet whose area starts right of A
        pad = [""] * start[1]
        rows = [pad + r if r else r for r in rows]
    return rows


def _in_slices(cal_sheet) -> list[list]:
    """to_python's rows, EVERY at a time: the GIL may pass to another thread between two slices."""
    rows: list[list] = []
    more = cal_sheet.iter_rows()
    while block := list(islice(more, EVERY)):
        rows += block
    return rows


def _convert_rows(rows: list[list], start: int, stop: int) -> None:
    """Numbers, dates and booleans in rows[start:stop] as text, in place; all-empty rows become []."""
    for i in range(start, stop):
        row = rows[i]
        if row.count("") == len(row):
            rows[i] = []
        elif not _ONLY_TEXT(map(type, row)):
            rows[i] = [v if type(v) is str else cell_text(v) for v in row]


def _from_the_xml(path: object, sheet_name: str, needs_scan: bool | None, rows: list[list[str]]):
    """What calamine does not give, from the sheet's XML: numbers get the text their format
    shows (numformats.py, in `rows`: `007`, `50%`); the cells it misses are returned (formulas.py)."""
    from defusedxml import DefusedXmlException

    from evaleditor.io.excel.formulas import missed_cells, sheet_parts
    from evaleditor.io.excel.numformats import show_numbers

    try:
        with zipfile.ZipFile(path) as zf:  # type: ignore[arg-type]
            part = sheet_parts(zf).get(sheet_name)
            if not part:
                return []
            show_numbers(rows, zf, part)
            return missed_cells(zf, part, needs_scan)
    except DefusedXmlException:
        raise ReadError(path, safety.ENTITIES.format(part=sheet_name)) from None
    except (KeyError, ValueError, SyntaxError, zipfile.BadZipFile, OSError, EOFError, zlib.error):
        return []  # the scan is a courtesy: calamine has read the sheet already
