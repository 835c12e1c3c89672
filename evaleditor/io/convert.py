"""Write an open document as another file (`evaleditor convert`, the Python API's save): the same
SavePlan as the window's Save As (core/saving.py), applied to a copy, then the same writer."""

from __future__ import annotations

import os

from evaleditor.core.commands import RemoveRows
from evaleditor.core.dataset import Dataset
from evaleditor.core.document import Document
from evaleditor.core.rules import ERROR, Issue, make_issue
from evaleditor.core.saving import SavePlan, target_problem

# rules that mean the output file cannot hold the data: a conversion refuses and writes nothing
BLOCKING_RULES = frozenset({"cell-too-long-for-excel", "control-character"})

__all__ = ["BLOCKING_RULES", "as_planned", "planned_rows", "target_problem", "write_converted"]


def write_converted(source: Document, path: str | os.PathLike, plan: SavePlan, *,
                    replace_read_only: bool = False) -> tuple[Document, list[Issue]]:
    """`convert`'s save, for the command line and the Python API alike: the document as written by
    `plan` (io.save.plan_save, which also says what the file leaves out; as_planned) and the issues
    that refused it (BLOCKING_RULES). The file is written only when that list is empty (save_document:
    atomic, read back; a read-only file only with `replace_read_only`). Raises WriteError
    (UnstorableCell: the data holds what the format cannot store). When another platform's file leaves
    columns or values out (plan.format_limits), the document returned is the file read again: its
    report and exit status are the file's, not those of what it does not hold."""
    from evaleditor.io import DEFAULT_SHEET
    from evaleditor.io.save import save_document
    from evaleditor.io.verify import ReadBack

    out = as_planned(source, plan)
    if plan.fmt == "xlsx":
        out.sheet = DEFAULT_SHEET
    refused = [i for i in out.validator.all_issues() if i.severity == ERROR and i.rule in BLOCKING_RULES]
    if not refused:
        read_back = ReadBack()
        style = _own_csv_style(source, out, path) if plan.fmt == "csv" else None
        save_document(out, path, replace_read_only=replace_read_only, read_back=read_back, plan=plan,
                      csv_style=style)
        if plan.format_limits:
            from evaleditor.core.alloc import bulk_allocation
            from evaleditor.io.load import document_of_read, load_document

            with bulk_allocation():  # the table is built as opening the file builds it
                raw = read_back.take()  # what the save's check read: the file is not read again
                out = document_of_read(raw, path, plan.target) if raw is not None \
                    else load_document(path, target=plan.target)
        out.saved_as(path, plan.fmt, style)
    return out, refused


def _own_csv_style(source: Document, out: Document, path: str | os.PathLike):
    """A CSV written onto the CSV it was read from keeps that file's encoding, delimiter and line ends,
    as the window's Save does (UTF-8 with a BOM when its encoding cannot hold the text written); None
    for any other file: a new .csv is UTF-8 with a BOM, commas and CRLF (formats.md)."""
    from evaleditor.core.saving import same_file

    if source.source_format != "csv" or source.path is None or not same_file(path, source.path):
        return None
    from evaleditor.core.export import export_rows
    from evaleditor.io.text.delimited import UTF8_CSV, cannot_hold, kept_style

    style = kept_style(source)
    if not style.encoding.startswith("utf") and cannot_hold(out.dataset.headers(), export_rows(out.dataset),
                                                            style.encoding) is not None:
        return style._replace(encoding=UTF8_CSV.encoding)
    return style


def as_planned(source: Document, plan: SavePlan) -> Document:
    """A copy made what the file holds by `plan` (header spelling, SDK turn order), without its empty
    rows, checked against the output's target with the output's format (so workbook-only rules such as
    control-character apply). The source is not changed."""
    ds = planned_rows(source, plan)
    return Document.of(ds, plan.fmt, static=_carried_findings(source, ds, plan.target) if plan.fmt == "json" else ())


def planned_rows(source: Document, plan: SavePlan) -> Dataset:
    """A copy of the source's dataset made what the file holds by `plan`, without its empty rows: its
    rows are the file's, numbered as the file numbers them (unchecked: as_planned checks it)."""
    if plan.planned is not None:  # worked out by the plan (with what its writer built of it)
        ds = plan.planned.copy()
    else:
        ds = source.dataset.copy()
        if plan.command is not None:
            plan.command.apply(ds)  # no validator listens yet: nothing is checked step by step
        ds.set_target(plan.target)
    if empty := [r.id for r in ds.rows if r.is_empty()]:
        RemoveRows(empty).apply(ds)
    return ds


def _carried_findings(source: Document, ds, target: str) -> list[Issue]:
    """The reader's findings about what an SDK JSON output keeps unchanged (each case's payload, the
    file's other keys): they hold for the output too. A table output keeps none of it."""
    if source.source_format != "json":
        return []
    kept = {r.id for r in ds.rows}
    return [make_issue(rule, target, message, row_id, col_id)
            for rule, message, row_id, col_id in source.validator.static_findings()
            if row_id is None or row_id in kept]
