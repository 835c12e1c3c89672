"""Workbooks: .xlsx/.xlsm read with python-calamine (read.py), .xls with xlrd (xls.py), .xlsx written
with openpyxl (write.py). `read_workbook` reads a workbook for what its bytes say it is."""

from __future__ import annotations

import os

from evaleditor.core.errors import ReadError
from evaleditor.core.table import RawTable
from evaleditor.io import safety
from evaleditor.io.grid import Cancel, Progress


def read_workbook(
    path: str | os.PathLike[str],
    kind: str,
    xls_suffix: bool,
    sheet: str | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
    target: str | None = None,
    *,
    written: bool = False,
) -> RawTable:
    """Read a workbook for what its bytes are (`kind`: safety.sniff, which read_table calls): a zip as
    .xlsx and an OLE file as .xls whatever the suffix (an .xlsx named .xls, an old .xls named .xlsx or
    .csv). Anything else under .xls is a web page, an XML spreadsheet or text that Excel opens anyway;
    under .xlsx it is damaged. `written`: an .xlsx this process has just written (read_table)."""
    if kind == "zip":
        from evaleditor.io.excel.read import read_xlsx

        return read_xlsx(path, sheet, progress, cancel, target, written=written)
    if kind == "ole":
        if safety.ole_is_encrypted(path):
            raise ReadError(path, safety.PASSWORD)
        from evaleditor.io.excel.xls import read_xls

        return read_xls(path, sheet, progress, cancel, target)
    if not xls_suffix:
        raise ReadError(path, safety.DAMAGED_XLSX)
    if kind == "html":
        raise ReadError(path, safety.HTML_XLS)
    if kind == "xml":
        raise ReadError(path, safety.XML_XLS)
    from evaleditor.io.excel.xls import text_as_xls

    return text_as_xls(path, progress, cancel)
