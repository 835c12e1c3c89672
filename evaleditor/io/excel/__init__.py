"""Workbooks: .xlsx/.xlsm read with python-calamine (read.py), .xls with xlrd (xls.py), .xlsx written
with openpyxl (write.py). `read_workbook` reads a workbook for what its bytes say it is."""

from __future__ import annotations

import os

from evaleditor.core.table import RawTable
from evaleditor.io import safety
from evaleditor.io.grid import Cancel, Progress


def read_workbook(
    path: str | os.PathLike[str],
    suffix: str,
    sheet: str | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
    target: str | None = None,
    *,
    written: bool = False,
) -> RawTable:
    """A zip is read as .xlsx and an OLE file as .xls whatever the suffix (an .xlsx named .xls, an old
    .xls named .xlsx or .csv); anything else as the `suffix` says, so that reader says what is wrong.
    `written`: an .xlsx this process has just written (read_table)."""
    safety.check_file(path)
    kind = safety.sniff(path)
    if kind == "zip" or (kind != "ole" and suffix != ".xls"):
        from evaleditor.io.excel.read import read_xlsx

        return read_xlsx(path, sheet, progress, cancel, target, written=written)
    from evaleditor.io.excel.xls import read_xls

    return read_xls(path, sheet, progress, cancel, target)
