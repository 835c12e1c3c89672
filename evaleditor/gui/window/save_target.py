"""Where a save goes and what it says: the name Save As proposes (the format: core/saving.default_format),
and what writing a .csv changed in how the file was encoded."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QCoreApplication

FILE_NAME = re.compile(r"[^\s/\\]+\.(?:xlsx|xlsm|xls|ods|csv|tsv|txt|jsonl|json)\b", re.IGNORECASE)
translate = QCoreApplication.translate


def suggested_stem(doc) -> str:
    """The name Save As suggests: the file's, else the one the window shows for an untitled document
    (the demo's sample, "demo_messy_multiturn.xlsx (demo)"), else "dataset"."""
    if doc.path is not None:
        return doc.path.stem
    found = FILE_NAME.search(doc.display_name or "")
    return Path(found.group(0)).stem if found else "dataset"


def not_written(doc) -> str:
    """Why Save writes another file than the one open (an .ods: no well-kept writer), or ""."""
    if doc.source_format == "ods":
        return translate("Documents", "LibreOffice .ods files are opened but not written (no well-kept library "
                                      "writes them): saving as .xlsx, which LibreOffice opens as it is")
    return ""


def csv_change(doc) -> str:
    """What a save as .csv (UTF-8 with BOM, commas: formats.md) changed in how the file was written."""
    was = []
    if doc.encoding and doc.encoding.replace("-sig", "") != "utf-8":
        was.append(doc.encoding.upper())
    if doc.delimiter == ";":
        was.append(translate("Documents", "semicolons"))
    elif doc.delimiter == "\t":
        was.append(translate("Documents", "tabs"))
    if not was:
        return ""
    return translate("Documents", "written as UTF-8 with commas, as evaluation services read CSV (it was {was})").format(
        was=", ".join(was))
