"""Save a Document as .xlsx, .csv or SDK .json (atomically), and make empty templates."""

from __future__ import annotations

import os
from pathlib import Path

from evaleditor.core.dataset import Dataset
from evaleditor.core.document import Document
from evaleditor.core.errors import WriteError
from evaleditor.core.export import export_headers, export_rows, template_headers
from evaleditor.core.targets import SDK
from evaleditor.core.validation import Validator

FORMATS = {".xlsx": "xlsx", ".csv": "csv", ".json": "json"}


def output_format(path: str | os.PathLike) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise WriteError(path, f"cannot write {suffix or 'a file without extension'}: choose .xlsx, .csv or .json")
    return FORMATS[suffix]


def save_document(doc: Document, path: str | os.PathLike, target: str | None = None, headers: str | None = None,
                  progress=None) -> None:
    """Write `doc` to `path` in the format of its extension. With `target`/`headers` the recognised
    columns are renamed to that target's spelling (en or zh); otherwise headers are kept."""
    fmt = output_format(path)
    ds = doc.dataset
    if fmt == "json":
        from evaleditor.io.sdk_json import write_sdk_json

        write_sdk_json(path, ds, progress=progress)
        return
    from evaleditor.io import write_table

    write_table(path, export_headers(ds, target, headers), export_rows(ds), progress=progress)


def template_document(target: str, headers: str = "en") -> Document:
    """A new, empty dataset with the target's headers."""
    ds = Dataset(template_headers(target, headers), (), target)
    fmt = "json" if target == SDK else "xlsx"
    return Document(ds, Validator(ds, fmt), None, fmt)
