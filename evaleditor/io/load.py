"""Open a file as a validated Document."""

from __future__ import annotations

import os
from pathlib import Path

from evaleditor.core.alloc import bulk_allocation, keep_built
from evaleditor.core.document import Document, document_from_table
from evaleditor.core.errors import ReadError
from evaleditor.core.table import RawTable


def load_document(path: str | os.PathLike, sheet: str | None = None, target: str | None = None,
                  progress=None, cancel=None, sheet_target: str | None = None) -> Document:
    """Read and validate. Raises ReadError (one-line reason) or Cancelled. A workbook opens on the first
    sheet whose question header `sheet_target` (default: `target`) recognises (`convert --target` names
    the output's target, not the one the input is checked against)."""
    from evaleditor.io import read_table

    path = Path(path)
    with bulk_allocation():
        raw = read_table(path, sheet=sheet, progress=progress, cancel=cancel)
        sheet_target = sheet_target or target
        if sheet_target and sheet is None and len(raw.sheets or ()) > 1:
            raw = _sheet_for_target(path, raw, sheet_target, progress, cancel)
        doc = document_from_table(raw, path, target, file_size=os.path.getsize(path))
        del raw
        keep_built(len(doc.dataset.rows))
        return doc


def _sheet_for_target(path: Path, raw: RawTable, target: str, progress, cancel) -> RawTable:
    """formats.md: a workbook opens on its first sheet with a recognised question header. The reader
    recognises headers of any target; when the user names one, a later sheet whose header that target
    recognises wins over the reader's choice (an English sheet after a Chinese one, for ground-truth)."""
    from evaleditor.io import read_table
    from evaleditor.io.excel_read import has_question_header

    if has_question_header(raw.headers, target) or raw.sheet not in raw.sheets:
        return raw
    for name in raw.sheets[raw.sheets.index(raw.sheet) + 1:]:
        try:
            other = read_table(path, sheet=name, progress=progress, cancel=cancel)
        except ReadError:
            continue  # an empty or damaged sheet is not the one
        if has_question_header(other.headers, target):
            return other
    return raw
