"""Save a Document as .xlsx, .csv or SDK .json, and make empty templates.

A save is atomic and self-verifying: the file is written to a temporary file in the destination
folder (`.<name>.evaleditor-<pid>-<random>.tmp`), flushed to disk, read back with the reader that
opens it in the editor and compared cell by cell with what was meant to be written (verify.py); only
then does it replace the old file. A difference raises VerifyError, any OS failure WriteError with a
one-line reason; in both cases the old file is untouched and the document is not changed.
"""

from __future__ import annotations

import os
from pathlib import Path

from evaleditor.core.alloc import bulk_allocation
from evaleditor.core.dataset import Dataset
from evaleditor.core.document import Document
from evaleditor.core.errors import WriteError
from evaleditor.core.export import export_headers, export_rows, template_headers
from evaleditor.core.i18n import N_, Msg
from evaleditor.core.targets import get_target

FORMATS = {".xlsx": "xlsx", ".csv": "csv", ".json": "json", ".jsonl": "jsonl"}
_NOT_WRITTEN = {".ods": N_("cannot write {suffix}: LibreOffice opens and saves .xlsx as it is, and no well-kept "
                           "library writes .ods: save as .xlsx")}


def output_format(path: str | os.PathLike) -> str:
    if os.path.isdir(path):  # `/tmp`, or a folder named like a file: not a file to write
        raise WriteError(path, N_("this is a folder, not a file"))
    suffix = Path(path).suffix.lower()
    if suffix in _NOT_WRITTEN:
        raise WriteError(path, Msg(_NOT_WRITTEN[suffix], (("suffix", suffix),)))
    if not suffix:
        raise WriteError(path, N_("cannot write a file without extension: choose .xlsx, .csv, .json or .jsonl"))
    if suffix not in FORMATS:
        raise WriteError(path, Msg(N_("cannot write {suffix}: choose .xlsx, .csv, .json or .jsonl"),
                                   (("suffix", suffix),)))
    return FORMATS[suffix]


def plan_save(doc: Document, fmt: str, target: str | None = None, headers: str | None = None,
              path: str | os.PathLike | None = None):
    """The core's part of the plan (core/saving.core_save_plan) with what the writers know of the output: the rows whose own
    agent trace SDK JSON holds only in part (SavePlan.replaced_traces, io/sdk/write), what another
    platform's writer cannot hold (SavePlan.format_limits, io/platforms left_out, of the dataset as the
    plan makes it: SavePlan.planned, whose records the save then writes), and what cells become in the
    target's file (io/platforms for_target: an answer is promptfoo's `equals:<answer>`, promptfoo's
    `equals:4` another target's answer 4, its other checks kept as text and listed). The plan the
    window, `convert` and the Python API save by."""
    from dataclasses import replace

    from evaleditor.core.commands import Batch
    from evaleditor.core.report import some_of
    from evaleditor.core.saving import core_save_plan, planned_dataset
    from evaleditor.io.platforms import building, for_target, left_out, platform_for

    plan = core_save_plan(doc, fmt, target, headers, path)
    made, limits = for_target(doc.dataset, plan.target)
    command = plan.command
    if made:  # one flat Batch: its renames are read as the plan's (a header the writer sees)
        earlier = command.commands if isinstance(command, Batch) else [command] if command is not None else []
        command = Batch([*earlier, *made], command.text if command is not None else made[0].text)
    replaced = []
    if fmt == "json":
        from evaleditor.io.sdk.write import replaced_rejected, replaced_traces

        replaced = replaced_traces(doc.dataset)
        if rejected := replaced_rejected(doc.dataset, command):
            limits = [*limits, Msg(N_("what the SDK rejects in {where}, which an edit replaced (it is kept as read "
                                      "where no edit touched it)"), (("where", some_of(rejected, 5)),))]
    planned = None
    built: dict = {}  # what the writer builds of `planned` for left_out: the plan's, which its save takes
    if fmt in ("jsonl", "csv") and platform_for(plan.target) is not None:  # its writer says what it leaves out
        planned = planned_dataset(doc.dataset, command, plan.target)  # of what it writes, which the save takes
        with building(built):
            limits = limits + left_out(doc.dataset, plan.target, fmt, _renamed(doc.dataset, command), planned)
    return replace(plan, command=command, replaced_traces=replaced, format_limits=limits, planned=planned,
                   built=built)


def _renamed(ds: Dataset, command) -> list[str]:
    """The headers of `ds` once the plan's command has renamed its columns (what the writer sees)."""
    from evaleditor.core.commands import Batch, RenameColumn

    names = {c.id: c.header for c in ds.columns}
    for c in command.commands if isinstance(command, Batch) else [command]:
        if isinstance(c, RenameColumn):
            names[c.column_id] = c.header
    return list(names.values())


def save_document(doc: Document, path: str | os.PathLike, target: str | None = None, headers: str | None = None,
                  progress=None, *, neutralise_formulas: bool = False, verify: bool = True,
                  replace_read_only: bool = False, csv_style=None, read_back=None, plan=None) -> None:
    """Write `doc` to `path` in the format of its extension. With `target`/`headers` the recognised
    columns are renamed to that target's spelling (en or zh); otherwise headers are kept.

    `neutralise_formulas` (.csv only): cells Excel would run as formulas are written with a leading `'`
    (text/csv_safety.py). `verify=False` skips reading the file back (benchmarks only).
    `progress(done, total)`: total is twice the number of rows written; the first half counts rows
    written, the second rows read back. Raises WriteError (VerifyError when the file did not read back
    as written); ReadOnlyTarget for a read-only file unless `replace_read_only`. `csv_style`: the
    encoding, delimiter and line end of a .csv (text/delimited.CsvStyle; default UTF-8 with BOM, commas).
    `read_back` (verify.ReadBack): keeps what the check read of another platform's .jsonl or .csv.
    `plan` (plan_save's, of this document or of the copy it planned): the save writes what its plan
    built of the dataset, when the dataset is still what it was built of (SavePlan.built)."""
    from evaleditor.io.atomic import check_target
    from evaleditor.io.platforms import building

    fmt = output_format(path)
    check_target(path, replace_read_only=replace_read_only)
    # the read-back builds a file's worth of objects, as opening does; the plan's built records are taken
    with bulk_allocation(), building(plan.built if plan is not None else {}):
        _save(doc, path, fmt, target, headers, progress, neutralise_formulas, verify, csv_style, read_back)


def _save(doc, path, fmt, target, headers, progress, neutralise_formulas, verify, csv_style=None,
          read_back=None) -> None:
    from evaleditor.io import verify as checks

    ds = doc.dataset
    numbers = [i + 1 for i, row in enumerate(ds.rows) if not row.is_empty()]
    writing, reading = _phases(progress, len(numbers))
    from evaleditor.io.platforms import platform_for

    platform = platform_for(target or ds.target.name)
    if fmt == "jsonl" or (fmt == "csv" and platform is not None):
        _save_platform(doc, path, fmt, platform, numbers, verify, neutralise_formulas, csv_style, read_back)
    elif fmt == "json":
        from evaleditor.io.sdk.stream import save_sdk_json

        save_sdk_json(path, ds, writing, numbers if verify else None, reading)
    else:
        from evaleditor.io import write_table

        out_headers, rows = export_headers(ds, target, headers), export_rows(ds)
        check = None
        if verify:
            want_headers, want_rows = out_headers, rows
            if neutralise_formulas and fmt == "csv":
                from evaleditor.io.text.csv_safety import neutralise_row

                want_headers, want_rows = neutralise_row(out_headers), [neutralise_row(r) for r in rows]
            check = checks.table_check(path, fmt, want_headers, want_rows, numbers, reading)
        write_table(path, out_headers, rows, progress=writing, neutralise_formulas=neutralise_formulas,
                    verify=check, sheet=doc.sheet, csv_style=csv_style)
    if progress is not None and numbers:
        progress(2 * len(numbers), 2 * len(numbers))


def _save_platform(doc, path, fmt, platform, numbers, verify, neutralise_formulas, csv_style=None,
                   read_back=None) -> None:
    """.jsonl (another platform's, else each column a key) and a platform's .csv (io/platforms/), in
    `csv_style` (a Save keeps the file's encoding, delimiter and line ends)."""
    from evaleditor.io import verify as checks
    from evaleditor.io.atomic import atomic_write
    from evaleditor.io.records import dataset_records, jsonl_bytes

    ds = doc.dataset
    if fmt == "jsonl":
        if platform is not None and platform.records is None:
            raise WriteError(path, Msg(N_("{platform} takes .csv files, not .jsonl: save as .csv"),
                                       (("platform", ds.target.title),)))
        records = platform.records(ds) if platform is not None else dataset_records(ds)
        if not records:  # no cases: a line naming the columns, so that the file reopens as this target
            from evaleditor.io.platforms import blank_records

            records = blank_records(ds, platform.target if platform is not None else None)
        check = checks.jsonl_check(path, records, numbers, read_back) if verify else None
        with atomic_write(path, "wb", verify=check) as handle:
            handle.write(jsonl_bytes(records))
        return
    if platform.table is None:
        raise WriteError(path, Msg(N_("{platform} takes .jsonl files, not .csv: save as .jsonl"),
                                   (("platform", ds.target.title),)))
    from evaleditor.io import write_table

    headers, rows = platform.table(ds)
    check = None
    if verify:
        want_headers, want_rows = headers, rows
        if neutralise_formulas:
            from evaleditor.io.csv_safety import neutralise_row

            want_headers, want_rows = neutralise_row(headers), [neutralise_row(r) for r in rows]
        check = checks.table_check(path, "csv", want_headers, want_rows, numbers, read_back=read_back)
    write_table(path, headers, rows, neutralise_formulas=neutralise_formulas, verify=check, csv_style=csv_style)


def _phases(progress, n: int):
    """Progress callbacks for the writer and the read-back, on one scale of 2 * n, never going back
    (a writer's own "done" arrives after the read-back, when its atomic block has closed)."""
    if progress is None or n == 0:
        return None, None
    shown = [0]

    def report(value: int) -> None:
        if value > shown[0]:
            shown[0] = value
            progress(value, 2 * n)

    def writing(done: int, total: int) -> None:
        if total:
            report(min(n, done * n // total))

    def reading(done: int, total: int) -> None:
        if total:
            report(n + min(n, done * n // total))

    return writing, reading


def template_document(target: str, headers: str = "en", blank_rows: int = 0) -> Document:
    """A new, empty dataset with the target's headers (and `blank_rows` empty rows to type into: an
    empty row is not a case, so it is still an empty dataset, and a save does not write it)."""
    names = template_headers(target, headers)
    ds = Dataset(names, [[""] * len(names) for _ in range(blank_rows)], target)
    fmt = get_target(target).formats[0]
    return Document.of(ds, fmt)
