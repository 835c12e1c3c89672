"""Where a save goes and what it says: the name and format Save As proposes, and what writing a .csv
changed in how the file was encoded."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QCoreApplication

WRITABLE = ("xlsx", "csv", "json")
FILE_NAME = re.compile(r"[^\s/\\]+\.(?:xlsx|xlsm|xls|csv|tsv|txt|json)\b", re.IGNORECASE)
translate = QCoreApplication.translate


def suggested_stem(doc) -> str:
    """The name Save As suggests: the file's, else the one the window shows for an untitled document
    (the demo's sample, "demo_messy_multiturn.xlsx (demo)"), else "dataset"."""
    if doc.path is not None:
        return doc.path.stem
    found = FILE_NAME.search(doc.display_name or "")
    return Path(found.group(0)).stem if found else "dataset"


def default_format(doc) -> str:
    """What Save As proposes: the format the target takes (SDK JSON for sdk; a workbook for an
    evaluation set; .xlsx or .csv for ground-truth), the file's own when the target takes it."""
    own = doc.source_format if doc.source_format in WRITABLE else None
    target = doc.dataset.target.name
    if target == "sdk":
        return "json"
    if target == "evaluation-set":
        return "xlsx"
    return own if own in ("xlsx", "csv") else "xlsx"


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
