"""Turn an open document into the document a save in another format/target would write."""

from __future__ import annotations

import os
from pathlib import Path

from evaleditor.core.dataset import Row
from evaleditor.core.document import Document, document_from_table
from evaleditor.core.export import export_headers
from evaleditor.core.i18n import _
from evaleditor.core.rules import ERROR, Issue
from evaleditor.core.table import LoadNote, RawTable
from evaleditor.core.targets import EVALUATION_SET, SDK, infer_target

# rules that mean the output file cannot hold the data: a conversion refuses and writes nothing
BLOCKING_RULES = frozenset({"cell-too-long-for-excel", "control-character"})


def target_problem(target: str | None, fmt: str) -> str | None:
    """Why a `target` dataset cannot be written as a .`fmt` file (in the current language); None when it can."""
    if target is None:
        return None
    if target == EVALUATION_SET and fmt != "xlsx":
        return _("evaluation-set accepts only Excel workbooks: write it as .xlsx")
    if (target == SDK) != (fmt == "json"):
        return _("a {target} dataset is a {suffix} file").format(
            target=target, suffix=".json" if target == SDK else _(".xlsx or .csv"))
    return None


def write_converted(source: Document, path: str | os.PathLike, fmt: str, target: str | None = None,
                    lang: str | None = None, *, replace_read_only: bool = False) -> tuple[Document, list[Issue]]:
    """`convert`'s save, for the command line and the Python API alike: the document as written as
    `fmt` (converted_document) and the issues that refused it (BLOCKING_RULES). The file is written
    only when that list is empty (save_document: atomic, read back; a read-only file only with
    `replace_read_only`). Raises WriteError (UnstorableCell: the data holds what `fmt` cannot store)."""
    from evaleditor.io import DEFAULT_SHEET
    from evaleditor.io.save import save_document

    out = converted_document(source, fmt, target, lang)
    if fmt == "xlsx":
        out.sheet = DEFAULT_SHEET
    refused = [i for i in out.validator.all_issues() if i.severity == ERROR and i.rule in BLOCKING_RULES]
    if not refused:
        save_document(out, path, replace_read_only=replace_read_only)
        out.path = Path(path)
    return out, refused


def converted_document(source: Document, fmt: str, target: str | None = None, lang: str | None = None) -> Document:
    """The dataset as it will be written as `fmt` ("xlsx", "csv", "json"): columns recognised in the
    source are spelt as the output target spells them, and the result is validated against that
    target with the output's format (so workbook-only rules such as control-character apply)."""
    ds = source.dataset
    if fmt == "json":
        out_target = SDK
    else:
        out_target = target or (ds.target.name if ds.target.name != SDK else infer_target(ds.headers(), f".{fmt}"))
    rename = target is not None or lang is not None or out_target != ds.target.name
    headers = export_headers(ds, out_target, lang) if rename else ds.headers()
    kept = [row for row in ds.rows if not row.is_empty()]
    raw = RawTable(headers, [list(r.cells) for r in kept], fmt, payloads=[r.payload for r in kept],
                   document=ds.document, notes=_carried_notes(source, kept) if fmt == "json" else [])
    doc = document_from_table(raw, None, out_target)
    # a formula with no saved value stays flagged in the output (its text is what gets written)
    out_ds = doc.dataset
    for old, new in zip(kept, out_ds.rows, strict=True):
        if old.formulas:
            new.formulas = frozenset(out_ds.columns[ds.column_position(c)].id for c in old.formulas)
    if any(r.formulas for r in out_ds.rows):
        doc.validator.full()
    return doc


def _carried_notes(source: Document, kept: list[Row]) -> list[LoadNote]:
    """The reader's findings about what an SDK JSON output keeps unchanged (each case's payload, the
    file's other keys): they hold for the output too. A table output keeps none of it."""
    if source.source_format != "json":
        return []
    position = {r.id: k for k, r in enumerate(kept)}
    columns = {c.id: j for j, c in enumerate(source.dataset.columns)}
    return [LoadNote(rule, message, position.get(row_id), columns.get(col_id))
            for rule, message, row_id, col_id in source.validator.static_findings()
            if row_id is None or row_id in position]
