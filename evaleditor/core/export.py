"""What a save writes: headers (kept, or in a target's spelling) and the data rows."""

from __future__ import annotations

from collections.abc import Sequence

from evaleditor.core.dataset import Dataset
from evaleditor.core.targets import Target, get_target


def export_headers(ds: Dataset, target: str | None = None, lang: str | None = None,
                   fields: Sequence[str | None] | None = None) -> list[str]:
    """The headers to write. With no target and no language the file keeps its own headers;
    otherwise every recognised column is spelt as `target` spells it (English or Chinese), and a
    field the target does not know keeps its canonical name so nothing is lost. `fields`: what each
    column stands for, when not what the dataset's target recognises (`recognised_fields`). A column
    that only `target` reads as a field no other column is (`Session_ID`, a near miss for ground-truth,
    is evaluation-set's session column) is spelt as `target` spells it too: the file reads as that
    target reads it (the save plan says when that changes its shape, core/saving.py)."""
    if target is None and lang is None:
        return ds.headers()
    out_target: Target = get_target(target) if target else ds.target
    fields = ds.fields() if fields is None else fields
    seen: set[str] = set(filter(None, fields))
    spelt: set[str] = set()
    headers = []
    for column, fld in zip(ds.columns, fields, strict=True):
        if fld is None and (read := out_target.recognise(column.header)) is not None and read not in seen:
            fld = read
            seen.add(read)
        if fld is None or fld in spelt:
            headers.append(column.header)
            continue
        spelt.add(fld)
        headers.append(out_target.header_for(fld, lang or "en") if fld in out_target.headers_en else fld)
    return headers


def recognised_fields(ds: Dataset, targets: Sequence[str]) -> list[str | None]:
    """Each column's field as the first of `targets` that recognises its header reads it, else as the
    dataset's own target does: a file read as ground-truth and switched to evaluation-set still knows
    that its `question` column is the question."""
    readers = [get_target(name) for name in targets]
    return [next((f for f in (t.recognise(c.header) for t in readers) if f is not None), fld)
            for c, fld in zip(ds.columns, ds.fields(), strict=True)]


def export_rows(ds: Dataset) -> list[list[str]]:
    """Data rows in file order; rows that are entirely empty are not cases and are not written."""
    return [row.cells for row in ds.rows if not row.is_empty()]


def template_headers(target: str, lang: str = "en") -> list[str]:
    t = get_target(target)
    return [t.header_for(f, lang) for f in t.template_fields()]
