"""Reading .ods spreadsheets (LibreOffice's own format) with python-calamine, as .xlsx is read.

The same guards as a workbook (zip bomb, XML parts declaring entities) run before calamine inflates
anything; the sheet is chosen as in a workbook (pick_sheet: `--sheet`, else the first with a question
header), and every cell becomes the text a user sees (grid.cell_text: `3`, not `3.0`; ISO dates; a
number as its format shows it, ods_formats.py: `007`).

There is no .ods writer: the Python library that writes the format (odfpy) was last released in
January 2020 and builds the whole document as a DOM in memory (pyexcel-ods3 and ezodf wrap it or are
older still); Save As proposes .xlsx, which LibreOffice opens and saves back as it is.
"""

from __future__ import annotations

import os
import zipfile
import zlib

from evaleditor.core.errors import Cancelled, ReadError
from evaleditor.core.table import RawTable
from evaleditor.io import safety
from evaleditor.io.excel.sheets import grid_to_table, pick_sheet
from evaleditor.io.grid import EVERY, Cancel, Progress, build_grid, cell_text
from evaleditor.io.safety import short_reason

DAMAGED_ODS = "not a valid .ods spreadsheet (the file is damaged or truncated)"
_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"


def read_ods(
    path: str | os.PathLike[str],
    kind: str,
    sheet: str | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
    target: str | None = None,
) -> RawTable:
    """`kind`: what the bytes are (safety.sniff, which read_table calls): an OLE .xls or an .xlsx named
    .ods is read for what it is."""
    if kind == "ole" or kind == "zip" and _is_xlsx(path):
        from evaleditor.io.excel import read_workbook

        return read_workbook(path, kind, False, sheet, progress, cancel, target)
    if kind != "zip":
        raise ReadError(path, DAMAGED_ODS)
    _check_mimetype(path)
    safety.check_zip_workbook(path)

    import python_calamine

    try:
        with open(path, "rb") as handle:
            book = python_calamine.CalamineWorkbook.from_filelike(handle)
        names = [m.name for m in book.sheets_metadata if m.typ == python_calamine.SheetTypeEnum.WorkSheet]
    except python_calamine.PasswordError:
        raise ReadError(path, "the spreadsheet is password-protected; remove the password in LibreOffice "
                              "and save again") from None
    except Exception as err:  # calamine raises its own exception types for every kind of damage
        raise ReadError(path, f"cannot read the spreadsheet: {short_reason(err)}") from None

    def rows_of(name: str) -> list[list]:
        try:
            return book.get_sheet_by_name(name).to_python(skip_empty_area=False)
        except Exception as err:
            raise ReadError(path, f"cannot read the sheet {name!r}: {short_reason(err)}") from None

    def first_row(name: str) -> list[str] | None:
        for row in rows_of(name):
            if any(v != "" and v is not None for v in row):
                return [cell_text(v) for v in row]
        return None

    chosen = pick_sheet(path, names, sheet, first_row, target)
    rows = rows_of(chosen)
    for i, row in enumerate(rows):
        if i % EVERY == 0 and i:
            if cancel is not None and cancel():
                raise Cancelled()
            if progress is not None:
                progress(i, len(rows))
        rows[i] = [cell_text(v) for v in row]
    _show_numbers(path, rows, chosen)
    grid = build_grid(rows, cancel)
    return grid_to_table(path, grid, "ods", chosen, names, [])


def _show_numbers(path: object, rows: list[list[str]], sheet: str) -> None:
    """Numbers as their format shows them (ods_formats.py): `7` formatted `000` reads `007`; a formula's
    error as Calc shows it (`#DIV/0!`, `Err:509`), where calamine reads nothing."""
    from evaleditor.io.excel.ods_formats import show_ods_numbers

    try:
        with zipfile.ZipFile(path) as zf:  # type: ignore[arg-type]
            show_ods_numbers(rows, zf, sheet)
    except (KeyError, ValueError, zipfile.BadZipFile, OSError, EOFError, zlib.error):
        pass  # the formats are a courtesy: calamine has read every value already


def _is_xlsx(path: object) -> bool:
    try:
        with zipfile.ZipFile(path) as zf:  # type: ignore[arg-type]
            return "[Content_Types].xml" in zf.namelist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return False


def _check_mimetype(path: object) -> None:
    """An OpenDocument spreadsheet names itself in its first member; an .xlsx renamed .ods is said so."""
    try:
        with zipfile.ZipFile(path) as zf:  # type: ignore[arg-type]
            names = zf.namelist()
            if "mimetype" in names:
                if zf.read("mimetype").strip() != _MIMETYPE:
                    raise ReadError(path, "not an OpenDocument spreadsheet (its mimetype says "
                                          f"{zf.read('mimetype')[:60].decode('ascii', 'replace')!r})")
                return
            if "content.xml" not in names:
                raise ReadError(path, DAMAGED_ODS)
    except ReadError:
        raise
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError, NotImplementedError):
        raise ReadError(path, DAMAGED_ODS) from None
