"""What a save writes: the core's part of the save plan (SavePlan), which `io.save.plan_save` completes.

The window, `evaleditor convert` and the Python API all save by `io.save.plan_save`, the one entry
point: it calls `core_save_plan` here and adds what only the writers know (the core imports none) —
the rows whose own agent trace SDK JSON holds only in part (`replaced_traces`), what another
platform's file cannot hold (`format_limits`) and what its writer makes of cells. A plan from
`core_save_plan` alone lacks them: ask plan_save for the plan a save follows.

`core_save_plan` is pure: it changes nothing and returns a SavePlan. Its `command` makes the document
what the file will hold — recognised headers spelt as the output's target spells them, and for SDK
JSON each conversation gathered at its first row with its turns ordered and numbered 1 … n (the file
stores a turn's place, not the number typed) — as one undoable Command: the window pushes it on its
undo stack (so it shows what reopening the file shows), convert applies it to its copy. The plan also
says what the file cannot hold (the other sheets of a workbook it replaces, what SDK cases hold that a
table cannot show, and what plan_save adds): the window asks about it, convert warns, the Python API
reports it (Document.left_out). `Document.saved_as` records a finished save.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaleditor.core.commands import Batch, Command, RenameColumn
from evaleditor.core.dataset import Dataset
from evaleditor.core.editing import sdk_turn_order
from evaleditor.core.export import export_headers, recognised_fields
from evaleditor.core.i18n import N_, Msg, _
from evaleditor.core.targets import SDK, SDK_FLAT, SESSION, get_target, infer_target

WRITABLE = ("xlsx", "csv", "json", "jsonl")  # what a save writes; each target accepts some of them (Target.formats)


def target_problem(target: str | None, fmt: str) -> str | None:
    """Why a `target` dataset cannot be written as a .`fmt` file (in the current language); None when it can."""
    if target is None or fmt in get_target(target).formats:
        return None
    if get_target(target).workbook_only:  # as the check says it (unsupported-file-type)
        return _("{target} accepts only Excel workbooks: save as .xlsx").format(target=target)
    formats = get_target(target).formats
    suffix = _(".xlsx or .csv") if formats == ("xlsx", "csv") else " / ".join(f".{f}" for f in formats)
    return _("target {target} takes {suffix} files").format(target=target, suffix=suffix)  # no "a"/"an" to get wrong


def default_format(doc) -> str:
    """The format Save As proposes: the file's own when its target accepts it, else the first it accepts."""
    accepted = doc.dataset.target.formats
    return doc.source_format if doc.source_format in accepted else accepted[0]


def output_target(doc, fmt: str, target: str | None = None) -> str:
    """The target a .`fmt` file is written for: sdk for SDK JSON; else `target`, else the document's
    own when it takes .`fmt` files, else the target the headers suggest (a table read from SDK JSON; a
    ground-truth table written as .jsonl is the SDK's flat form)."""
    if fmt == "json":
        return SDK
    own = doc.dataset.target.name
    if target or (own != SDK and (fmt != "jsonl" or fmt in get_target(own).formats)):
        return target or own
    inferred = infer_target(doc.dataset.headers(), f".{fmt}")  # .jsonl: a platform's by its headers, else sdk-flat
    return inferred if fmt != "jsonl" or fmt in get_target(inferred).formats else SDK_FLAT


@dataclass(frozen=True)
class SavePlan:
    fmt: str
    target: str  # the target the file is written for
    command: Command | None  # makes the document what the file holds (None: it already is)
    turns_ordered: bool = False  # the command orders and numbers SDK JSON's turns
    other_sheets: list[str] = field(default_factory=list)  # of the workbook replaced, which the file drops
    hidden_cases: int = 0  # SDK cases holding what a table cannot show (agent traces, rubrics …)
    # SDK JSON: rows whose own agent trace the file holds only in part (rows now a later turn of a
    # conversation: their history becomes the conversation's); row ids. io fills it (io/save.plan_save,
    # from the SDK writer), as it does format_limits
    replaced_traces: list[int] = field(default_factory=list)
    # what another platform's file cannot hold, as its writer says (an Azure line's one value for turns
    # that differ, the columns Bedrock does not document): io fills it (io/save.plan_save), the core
    # knowing no writer
    format_limits: list[Msg] = field(default_factory=list)
    # the dataset as the file holds it when io/save.plan_save worked it out (another platform's file:
    # its writer's left_out is of what it writes), planned_dataset's: a copy, or the document's own
    planned: Dataset | None = None
    # (the mode the document reads as, the mode the file will read as, the column that makes the
    # difference as the document spells it) when the modes differ: a column the output's target reads as
    # the session column and the document's does not, or back (shape.py)
    shape_change: tuple[str, str, str] | None = None
    # what io's writers built of `planned` for the file (a platform's records: io/platforms built), which
    # the save of this plan takes (io/save.save_document(plan=)): the plan's, never left on the document
    built: dict[str, Any] = field(default_factory=dict, compare=False)


def planned_dataset(ds: Dataset, command: Command | None, target: str) -> Dataset:
    """`ds` as a save by a plan with `command` writes it for `target`: `ds` itself when the plan changes
    nothing, else a copy (the same row and column ids) with the command applied."""
    if command is None and ds.target.name == target:
        return ds
    out = ds.copy()
    if command is not None:
        command.apply(out)  # no validator listens to a copy: nothing is checked step by step
    out.set_target(target)
    return out


def core_save_plan(doc, fmt: str, target: str | None = None, headers: str | None = None,
                   path: str | Path | None = None) -> SavePlan:
    """What saving `doc` as a .`fmt` file (at `path`, when known) writes and leaves out. `target` and
    `headers` ("en", "zh") spell the recognised columns as that target does; so does a document whose
    target was switched (its headers may be spelt as the one before reads them). Without either, for
    the document's own target, the headers are kept as they are; so they are with `headers` "zh" for a
    target that has no Chinese spelling (asked for what cannot be, nothing is renamed for it)."""
    ds = doc.dataset
    own = ds.target.name
    out_target = output_target(doc, fmt, target)
    if headers == "zh" and not get_target(out_target).headers_zh:
        headers = None
    commands: list[Command] = []
    earlier = [t for t in doc.header_targets if t != own]  # a target switched from: its spellings count
    written = ds.headers()
    if target is not None or headers is not None or out_target != own or earlier:
        written = export_headers(ds, out_target, headers, recognised_fields(ds, earlier))
        commands += [RenameColumn(c.id, h) for c, h in zip(ds.columns, written, strict=True) if c.header != h]
    order = sdk_turn_order(doc.validator) if fmt == "json" else None
    text = Msg(N_("Use {target} headers"), (("target", out_target),)) if commands else None
    if order is not None:
        commands.append(order)
        text = text or order.text
    in_place = path is not None and doc.path is not None and same_file(path, doc.path)
    return SavePlan(
        fmt, out_target, Batch(commands, text) if commands else None, order is not None,
        [s for s in doc.sheets if s != doc.sheet] if in_place else [],  # a workbook named .csv too
        doc.validator.rows_noted("sdk-not-shown") if fmt != "json" else 0,
        shape_change=_shape_change(doc, written, out_target))


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Whether two names name one file: `..`, a symbolic link and the folder the editor was started in
    give a file many names, and a save over the open file must be known as one whatever it was called."""
    return os.path.realpath(a) == os.path.realpath(b)


SHAPE_CHANGES = {  # the mode a save makes of the file: what it means for the file (SavePlan.shape_change)
    "multi-turn": N_("{target} reads the file as conversations, {source} as single-turn cases: {target} reads "
                     "{header} as the session column"),
    "single-turn": N_("{target} reads the file as single-turn cases, {source} as conversations: {target} does not "
                      "read {header} as the session column"),
}


def shape_change_text(plan: SavePlan, source: str) -> Msg | None:
    """What the save by `plan` of a document checked against `source` changes in how the file reads
    (conversations or single-turn cases), or None: convert warns of it. (The window switches targets
    with Data ▸ Target, whose banner shows the new shape at once: its saves keep the shape.)"""
    if plan.shape_change is None:
        return None
    _before, after, header = plan.shape_change
    return Msg(SHAPE_CHANGES[after], (("target", plan.target), ("source", source), ("header", header)))


def _shape_change(doc, written: list[str], target: str) -> tuple[str, str, str] | None:
    """(the document's mode, the file's, the column that makes the difference) when a file with the
    headers `written`, read as `target`, groups conversations by another column than the document does
    (shape.py: single-turn when no session cell is filled)."""
    ds = doc.dataset
    reader = get_target(target)
    pos = next((i for i, h in enumerate(written) if reader.recognise(h) == SESSION), None)
    own = ds.field_position(SESSION)
    if pos == own:
        return None
    after = "multi-turn" if pos is not None and any(row.cells[pos] for row in ds.rows) else "single-turn"
    before = doc.shape.mode
    if after == before:
        return None
    return before, after, ds.columns[pos if after == "multi-turn" else own].header
