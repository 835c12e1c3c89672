"""The other evaluation platforms' files: one module each, found here by name, so that adding the next
platform is one module (its `PLATFORM`) and its Target in core/targets.py (header spellings, limits,
the formats it takes).

A platform writes .jsonl (`records`) and, where the platform takes one, .csv (`table`); a .jsonl file
is read back as records (io/records.py): each key a column, the record kept with its row, so that
saving it again with no edit writes the same objects. docs/formats.md cites each platform's source.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar

from evaleditor.core.alloc import bulk_allocation
from evaleditor.core.commands import Command
from evaleditor.core.dataset import Dataset, Row
from evaleditor.core.export import export_headers
from evaleditor.core.i18n import N_, Msg
from evaleditor.core.table import RawTable
from evaleditor.core.targets import ANSWER, CONTEXT, QUESTION, SESSION, TOOL_CALLS, TURN, get_target
from evaleditor.io.records import Record, dataset_records, read_value, renamed_keys, typed_value


@dataclass(frozen=True)
class Platform:
    target: str  # the target name (core/targets.py: its formats, the first what Save As proposes)
    source: str  # the platform's documentation of the format
    records: Callable[[Dataset], list[dict[str, Any]]] | None  # the .jsonl objects (None: no .jsonl)
    table: Callable[[Dataset], tuple[list[str], list[list[str]]]] | None = None  # the .csv cells (None: no .csv)
    owns: Callable[[set[str]], bool] = lambda keys: False  # a .jsonl record with these keys is its file
    # which rows of cases(ds) each record is made of (None: one record a row), for the Upload Preview
    record_rows: Callable[[Dataset], list[list[int]]] | None = None
    read: Callable[[list[dict[str, Any]]], RawTable] | None = None  # its .jsonl's table (None: each key a column)
    left_out: Callable[[Dataset, str], list[Msg]] = lambda ds, fmt: []  # what its .fmt file cannot hold of ds
    # the .jsonl line of a dataset with no cases: its columns, empty (as a CSV's header row)
    blank: Callable[[list[str]], dict[str, Any]] = lambda headers: dict.fromkeys(headers, "")
    # what makes ds hold what a `target` file holds, its own or another's (promptfoo's answers are
    # checks): the commands (SavePlan.command's last) and a line each for what cannot keep its meaning
    for_target: Callable[[Dataset, str], tuple[list[Command], list[Msg]]] = lambda ds, target: ([], [])


def _platforms() -> dict[str, Platform]:
    found = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        platform = getattr(module, "PLATFORM", None)
        if isinstance(platform, Platform):
            found[platform.target] = platform
    return found


def platform_for(target: str) -> Platform | None:
    return PLATFORMS.get(target)


def platform_of_records(records: list[dict[str, Any]]) -> str | None:
    """The platform whose .jsonl these records are (by the first record's keys), or None."""
    keys = set(records[0]) if records else set()
    return next((name for name, p in PLATFORMS.items() if p.owns(keys)), None)


def records_read(records: list[dict[str, Any]]) -> RawTable:
    """The table of a .jsonl file's records: the platform's own reading where it has one (conversations
    split into turns, nested keys as columns), else each key a column (io/records.py). A file whose
    every line holds only empty values is a dataset with no cases: its lines name the columns (what a
    save of no cases writes, Platform.blank)."""
    from evaleditor.io.records import records_table

    platform = PLATFORMS.get(platform_of_records(records) or "")
    table = platform.read(records) if platform is not None and platform.read is not None \
        else records_table(records, "jsonl")
    if all(map(_blank, records)):
        table.rows, table.payloads = [], []
    return table


def blank_records(ds: Dataset, target: str | None) -> list[dict[str, Any]]:
    """What a .jsonl of `ds` holds when it has no cases: one line naming its columns (Platform.blank)."""
    platform = PLATFORMS.get(target or "")
    return [platform.blank(ds.headers()) if platform is not None else dict.fromkeys(ds.headers(), "")]


def left_out(ds: Dataset, target: str, fmt: str, headers: list[str] | None = None,
             planned: Dataset | None = None) -> list[Msg]:
    """What a `target` .`fmt` file cannot hold of `ds`, a line each: a second column of a name (a
    record holds a key once) — of the name the writer gives it, the recognised columns spelt as
    `target` spells them (flat_record), so that `question` and `query`, both Azure's `query`, are two
    of a name — and what the platform's format cannot hold (Platform.left_out, of `planned`: `ds` as the
    save plan makes it, core/saving.planned_dataset, when not `ds`). `headers`: the table's headers as
    the save writes them (renamed by its plan), when not `ds`'s; the line names `ds`'s."""
    platform = PLATFORMS.get(target)
    if platform is None or fmt not in ("jsonl", "csv"):
        return []
    written = Dataset(ds.headers() if headers is None else headers, (), target)
    by_key: dict[str, list[str]] = {}
    for key, header in zip(export_headers(written, target), ds.headers(), strict=True):
        by_key.setdefault(key, []).append(header)
    twice = [key if set(headers) == {key} else f"{key} ({', '.join(headers)})"
             for key, headers in by_key.items() if len(headers) > 1]
    named = [Msg(N_("the second column of a name, as a line holds a key once: {columns}"),
                 (("columns", ", ".join(twice)),))] if twice else []
    return named + platform.left_out(ds if planned is None else planned, fmt)


def for_target(ds: Dataset, target: str) -> tuple[list[Command], list[Msg]]:
    """What makes `ds` hold what a `target` file holds (Platform.for_target), all platforms told."""
    commands: list[Command] = []
    limits: list[Msg] = []
    for platform in PLATFORMS.values():
        made, lines = platform.for_target(ds, target)
        commands += made
        limits += lines
    return commands, limits


def _blank(value: Any) -> bool:
    return value is None or value == "" or (isinstance(value, dict) and all(map(_blank, value.values())))


# ----- what the writers share ---------------------------------------------------------------------------
T = TypeVar("T")


_BUILT: ContextVar[dict[str, Any] | None] = ContextVar("built", default=None)


@contextmanager
def building(store: dict[str, Any]) -> Iterator[None]:
    """What `built` makes in this block is kept in `store` (a save plan's SavePlan.built, which a save of
    that plan passes again): the plan's `left_out` builds what the save then writes."""
    token = _BUILT.set(store)
    try:
        yield
    finally:
        _BUILT.reset(token)


def built(ds: Dataset, name: str, make: Callable[[Dataset], T], *, keep: bool = True) -> T:
    """make(ds), worked out once for a save plan and its save (`building`) while `ds` is the same
    (Dataset.version, which a copy shares): `keep=False` (the save) takes it out of the plan's store.
    Outside `building`, made each time. Shared: read it, never change it."""
    store = _BUILT.get()
    entry = None if store is None else store.get(name) if keep else store.pop(name, None)
    if entry is not None and entry[0] is ds.version:
        return entry[1]
    with bulk_allocation():  # a file's worth of objects, none of them garbage (core/alloc.py)
        found = make(ds)
    if keep and store is not None:
        store[name] = (ds.version, found)
    return found


class _Layout:
    """Where a dataset's cases find their fields and other columns, and (worked out when first asked)
    the key each column was read as: its header, or the key of the column it was renamed from."""

    def __init__(self, ds: Dataset, first: dict[str, int], others: list[tuple[int, str]]):
        self.ds, self.first, self.others = ds, first, others

    @cached_property
    def sources(self) -> list[str]:
        renamed = renamed_keys(self.ds)
        return [renamed.get(h, h) for h in self.ds.headers()]


@dataclass
class Case:
    """One row as a platform writer sees it: the recognised fields, the other columns, the row; and,
    for a row read from records, the JSON value of each cell that is not its text (a number, a
    boolean, an object …: `typed_fields()` by field, `typed_extras()` by header), to be written as it is."""

    fields: dict[str, str]
    extras: dict[str, str]
    row: Row
    layout: _Layout | None = None
    _typed_fields: dict[str, Any] | None = None
    _typed_extras: dict[str, Any] | None = None

    def typed_fields(self) -> dict[str, Any]:
        if self._typed_fields is None:
            self._find_typed()
        return self._typed_fields

    def typed_extras(self) -> dict[str, Any]:
        if self._typed_extras is None:
            self._find_typed()
        return self._typed_extras

    def _find_typed(self) -> None:  # once, when a writer first asks (a row written as read never does)
        payload, layout = self.row.payload, self.layout
        typed = _typed(payload, self.row.cells, layout.sources) \
            if layout is not None and type(payload) is Record else {}
        self._typed_fields = {f: typed[i] for f, i in layout.first.items() if i in typed} if typed else {}
        self._typed_extras = {h: typed[i] for i, h in layout.others if i in typed} if typed else {}

    def value(self, fld: str) -> Any:
        """A field's value to write: its JSON value as read (or as edited, typed_value), else its text."""
        return self.typed_fields().get(fld, self.fields.get(fld, ""))


def cases(ds: Dataset) -> list[Case]:
    """The non-empty rows, each with its recognised fields (first column of each) and the other columns."""
    recognised = ds.fields()
    first = {}
    for i, fld in enumerate(recognised):
        if fld is not None:
            first.setdefault(fld, i)
    others = [(i, c.header) for i, c in enumerate(ds.columns) if first.get(recognised[i]) != i]
    layout = _Layout(ds, first, others)
    out = []
    for row in ds.rows:
        if row.is_empty():
            continue
        out.append(Case({f: row.cells[i] for f, i in first.items()}, {h: row.cells[i] for i, h in others}, row, layout))
    return out


def _typed(payload: Record, cells: list[str], sources: list[str]) -> dict[int, Any]:
    """By column: the value a row's cell is written as where it is not the text, as row_record writes
    it — the value as read while the cell shows what it showed, else typed_value of the edit."""
    record, shown = payload.record, payload.shown
    out = {}
    for i, (text, source) in enumerate(zip(cells, sources, strict=False)):
        was = shown.get(source)
        if not text or was is None:
            continue
        original = record[source] if source in record else read_value(record, source)
        if original is None or type(original) is str:
            continue  # written as the text (typed_value's answer)
        value = original if text == was else typed_value(text, original)
        if not isinstance(value, str):
            out[i] = value
    return out


def as_read(ds: Dataset) -> bool:
    """Every row came from a records file and the headers are this target's own: the records as read
    are written back (edits in place) rather than made anew."""
    rows = [r for r in ds.rows if not r.is_empty()]
    return bool(rows) and all(isinstance(r.payload, Record) for r in rows) \
        and export_headers(ds, ds.target.name) == ds.headers()


def kept_records(ds: Dataset, json_keys: tuple[str, ...] = ()) -> list[dict[str, Any]] | None:
    """The records as read with the edits made (as_read), else None."""
    return dataset_records(ds, json_keys) if as_read(ds) else None


_SHARED = (QUESTION, ANSWER, CONTEXT, TOOL_CALLS, SESSION, TURN)


def flat_record(case: Case, target: str, *, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """The fields under `target`'s spelling (empty ones left out), then the other columns: as text, or
    as their JSON value where it is not the text (Case.typed_extras)."""
    t = get_target(target)
    out: dict[str, Any] = {}
    for fld in _SHARED:
        text = case.fields.get(fld, "")
        if text and fld not in skip:
            out[t.header_for(fld)] = case.value(fld)
    out.update((fld, case.value(fld)) for fld, text in case.fields.items() if text and fld not in _SHARED)  # eval_case_id
    typed = case.typed_extras()
    out.update((k, typed.get(k, v)) for k, v in case.extras.items() if v)
    return out


def table_of(records: list[dict[str, Any]], first: tuple[str, ...] = ()) -> tuple[list[str], list[list[str]]]:
    """CSV cells for flat records: the keys in order of first appearance (`first` leading; a key new in
    a record beside its neighbours there: records.merged_keys), objects and arrays as JSON text."""
    from evaleditor.io.records import merged_keys, value_text

    headers = [k for k in merged_keys(records, first) if any(k in r for r in records)] or list(first)
    return headers, [[value_text(r.get(k)) for k in headers] for r in records]


PLATFORMS: dict[str, Platform] = _platforms()  # last: each module imports the helpers above

__all__ = ["PLATFORMS", "Case", "Platform", "blank_records", "building", "built", "cases", "for_target", "flat_record", "kept_records", "left_out",
           "platform_for", "platform_of_records", "records_read", "table_of"]
