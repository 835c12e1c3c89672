"""Readers and writers per file format. Heavy libraries are imported inside the functions that use them.

`read_table` and `write_table` choose by suffix; a file whose bytes say otherwise (a workbook saved
as .csv, an .xlsx named .xls) is read for what it is.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from evaleditor.core.errors import Cancelled, ReadError, WriteError
from evaleditor.core.i18n import N_, Msg
from evaleditor.core.table import LoadNote, RawTable
from evaleditor.io.grid import Cancel, Progress

TEXT_SUFFIXES = (".csv", ".tsv", ".txt")
XLSX_SUFFIXES = (".xlsx", ".xlsm")
JSONL_SUFFIXES = (".jsonl", ".ndjson")
READ_SUFFIXES = (*TEXT_SUFFIXES, *XLSX_SUFFIXES, ".xls", ".ods", ".json", *JSONL_SUFFIXES)
WRITE_SUFFIXES = (".csv", ".xlsx")
DEFAULT_SHEET = "Cases"  # the sheet of a workbook written from a table that had none


def read_table(
    path: str | os.PathLike[str],
    sheet: str | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
    *,
    suffix: str | None = None,
    target: str | None = None,
    written: bool = False,
    encoding: str | None = None,
    keep_texts: bool = True,
    meanwhile: Callable[[], None] | None = None,
    report_only: bool = False,
) -> RawTable:
    """Read any supported file into a RawTable; ReadError (one-line reason) or Cancelled otherwise.

    `suffix` (".csv", ".xlsx" …) reads the file as if it had that suffix (a save's temporary file).
    `target`: a workbook opens on the first sheet whose question header that target recognises.
    `written`: the file is a workbook this process has just written (a save's read-back): its area is
    the table it was given and it holds no formula, so the sheet's XML is not scanned for them.
    `keep_texts`: a text file's reader may keep its columns' texts for a validation that follows at once
    (RawTable.scans); False when the rows are checked later, in slices, which do not take them.
    `meanwhile`: work of the caller's that needs no file (imports), done on this thread while calamine
    opens an .xlsx on another (read_xlsx); other files leave it to the caller.
    `report_only`: the table is for a report of its issues only (validate, shape), never shown or saved: a big
    CSV's cells that no rule finds anything in may read as "" (text/arrow_report.py)."""
    try:
        return _read(path, sheet, progress, cancel, suffix, target, written, encoding, keep_texts, meanwhile,
                     report_only)
    except (ReadError, Cancelled):
        raise
    except MemoryError:
        raise ReadError(path, N_("there is not enough memory to open the file")) from None
    except Exception as err:  # the last guard: a one-line reason, the traceback kept as the cause
        from evaleditor.io.safety import short_reason

        raise ReadError(path, f"cannot read the file: {short_reason(err)}") from err


def _no_sheets(path, sheet: str) -> ReadError:
    """A sheet asked of a file that has none (`--sheet` for a CSV): said, not ignored."""
    return ReadError(path, Msg(N_("this is not a workbook: it has no sheet named {sheet!r} (only .xlsx, .xls and "
                                  ".ods files have sheets)"), (("sheet", sheet),)))


def _as_text(suffix: str, kind: str) -> bool:
    """A file of this name and these bytes (safety.sniff) is read as text, which has no sheets."""
    return kind == "other" or suffix in TEXT_SUFFIXES and kind not in ("zip", "ole")


def has_sheets(path: str | os.PathLike[str]) -> bool:
    """Whether `path`, as its bytes are now, is read as a workbook (a sheet may be asked of it), not as
    text or JSON; False when it cannot be read."""
    from evaleditor.io import safety

    suffix = Path(path).suffix.lower()
    if suffix not in (*TEXT_SUFFIXES, *XLSX_SUFFIXES, ".xls", ".ods"):
        return False
    try:
        return not _as_text(suffix, safety.sniff(path))
    except ReadError:
        return False


def _read(path, sheet, progress, cancel, suffix=None, target=None, written=False, encoding=None,
          keep_texts=True, meanwhile=None, report_only=False) -> RawTable:
    suffix = (suffix or Path(path).suffix).lower()
    if suffix in (*TEXT_SUFFIXES, *XLSX_SUFFIXES, ".xls", ".ods"):
        from evaleditor.io import safety

        safety.check_file(path)
        kind = safety.sniff(path)  # the one place a file's real type is told from its bytes
        if _as_text(suffix, kind) and sheet is not None:
            raise _no_sheets(path, sheet)
        if suffix in TEXT_SUFFIXES and kind not in ("zip", "ole"):
            from evaleditor.io.text.delimited import read_delimited

            return read_delimited(path, progress, cancel, suffix, encoding, keep_texts, report_only, target)
        if suffix == ".ods":
            from evaleditor.io.excel.ods import read_ods

            return read_ods(path, kind, sheet, progress, cancel, target)
        from evaleditor.io.excel import read_workbook

        table = read_workbook(path, kind, suffix == ".xls", sheet, progress, cancel, target, written=written,
                              meanwhile=meanwhile)
        if suffix in TEXT_SUFFIXES:  # a workbook saved under a text file's name (`cp cases.xlsx cases.csv`)
            table.notes.append(LoadNote("workbook-named-as-text", f"this file is an Excel workbook, not text, "
                                        f"though its name ends in {suffix}: it is read as a workbook. Rename it "
                                        ".xlsx: a target that wants a workbook rejects the name, and a save under "
                                        "it writes text"))
        return table
    if sheet is not None:  # JSON: no sheets either
        raise _no_sheets(path, sheet)
    if suffix in JSONL_SUFFIXES:
        from evaleditor.io.platforms import records_read
        from evaleditor.io.records import read_jsonl

        return records_read(read_jsonl(path))
    if suffix == ".json":
        from evaleditor.io.sdk import read_sdk_json

        return read_sdk_json(path, progress=progress, cancel=cancel)
    from evaleditor.io import safety

    safety.check_file(path)  # a folder or a missing file is said as such, not as a file type
    raise ReadError(path, f"unsupported file type {suffix or '(no suffix)'!r}: "
                          "open a .csv, .tsv, .txt, .xlsx, .xlsm, .xls, .ods, .json or .jsonl file")


def write_table(
    path: str | os.PathLike[str],
    headers: list[str],
    rows: list[list[str]],
    progress: Progress | None = None,
    *,
    neutralise_formulas: bool = False,
    verify: Callable[[Path], None] | None = None,
    sheet: str | None = None,
    csv_style=None,
) -> None:
    """Write .csv or .xlsx atomically; WriteError (one-line reason) otherwise.

    `neutralise_formulas` (CSV only): see text/csv_safety.py. `verify`: see atomic.atomic_write. `sheet`: the
    workbook's sheet name (the sheet the table was read from keeps its name; default DEFAULT_SHEET).
    `csv_style`: a CSV's encoding, delimiter and line end (delimited.CsvStyle; default UTF-8 with BOM,
    commas, CRLF)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        from evaleditor.io.text.delimited import UTF8_CSV, write_csv

        write_csv(path, headers, rows, progress, neutralise_formulas=neutralise_formulas, verify=verify,
                  style=csv_style or UTF8_CSV)
    elif suffix == ".xlsx":
        from evaleditor.io.excel.write import write_xlsx

        write_xlsx(path, headers, rows, progress, sheet or DEFAULT_SHEET, verify=verify)
    else:
        raise WriteError(path, f"cannot save as {suffix or '(no suffix)'!r}: save as .csv or .xlsx "
                               "(SDK JSON is saved by its own writer)")


__all__ = ["DEFAULT_SHEET", "READ_SUFFIXES", "WRITE_SUFFIXES", "read_table", "write_table"]
