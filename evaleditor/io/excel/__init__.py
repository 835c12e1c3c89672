"""Workbooks: .xlsx/.xlsm read with python-calamine (read.py), .xls with xlrd (xls.py), .xlsx written
with openpyxl (write.py). `read_workbook` reads a workbook for what its bytes say it is."""

from __future__ import annotations

import os
from collections.abc import Callable

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
    meanwhile: Callable[[], None] | None = None,
) -> RawTable:
    """Read a workbook for what its bytes are (`kind`: safety.sniff, which read_table calls): a zip as
    .xlsx and an OLE file as .xls whatever the suffix (an .xlsx named .xls, an old .xls named .xlsx or
    .csv). Anything else is a web page or an XML spreadsheet (refused: under .xls with what to do), or text,
    read as Excel opens it under .xls, and under .xlsx too, both saying that the name misleads (rule
    text-named-as-workbook). `written`, `meanwhile`: as read_table's."""
    if kind == "zip":
        from evaleditor.io.excel.read import read_xlsx

        return read_xlsx(path, sheet, progress, cancel, target, written=written, meanwhile=meanwhile)
    if kind == "ole":
        if safety.ole_is_encrypted(path):
            raise ReadError(path, safety.PASSWORD)
        from evaleditor.io.excel.xls import read_xls

        return read_xls(path, sheet, progress, cancel, target)
    if kind in ("html", "xml"):
        raise ReadError(path, (safety.HTML_XLS if kind == "html" else safety.XML_XLS) if xls_suffix
                        else safety.DAMAGED_XLSX)
    from evaleditor.io.excel.xls import text_as_xls

    return text_as_xls(path, progress, cancel, ".xls" if xls_suffix else ".xlsx")
