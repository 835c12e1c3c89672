"""The dataset: ordered rows with stable ids, columns with stable ids, and change events.

The dataset is the single source of truth. Every mutation goes through the methods here, which
tell listeners before and after (Qt models need "about to insert" before the rows exist).
Rows are plain data; nothing is checked on assignment — the validator judges them.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Protocol

from evaleditor.core.targets import GROUND_TRUTH, Target, get_target


class Row:
    __slots__ = ("id", "cells", "payload", "formulas")

    def __init__(self, row_id: int, cells: list[str], payload: Any = None, formulas: frozenset[int] = frozenset()):
        self.id = row_id
        self.cells = cells
        self.payload = payload  # what the table cannot show (SDK JSON), written back unchanged
        self.formulas = formulas  # column ids holding a formula with no saved value (as read)

    def is_empty(self) -> bool:
        """Entirely empty: not a case (a row read from SDK JSON with a trace but no text is a case)."""
        return self.payload is None and not any(self.cells)

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Row({self.id}, {self.cells!r})"


_ROW_ID = attrgetter("id")


class _Sequential:
    """Row positions while the row ids are 1 … n in order: no map (100k entries, 8 MB) is needed."""

    __slots__ = ("n",)

    def __init__(self, n: int):
        self.n = n

    def __getitem__(self, row_id: int) -> int:
        if type(row_id) is int and 0 < row_id <= self.n:
            return row_id - 1
        raise KeyError(row_id)

    def __contains__(self, row_id: object) -> bool:
        return type(row_id) is int and 0 < row_id <= self.n

    def many(self, row_ids: Iterable[int]) -> list[int]:
        """Each one's position, in C-level passes (a conversation's first rows: 28k at 100k rows)."""
        ids = row_ids if isinstance(row_ids, list) else list(row_ids)
        found = list(map((-1).__add__, ids))
        if found and not (0 <= min(found) and max(found) < self.n):  # one is not a row: KeyError
            return list(map(self.__getitem__, ids))
        return found


@dataclass
class Column:
    id: int
    header: str


@dataclass
class Change:
    """What changed. kinds: cells, insert_rows, remove_rows, reorder, insert_column,
    remove_column, rename_column, target, reset."""

    kind: str
    cells: list[tuple[int, int]] = field(default_factory=list)  # (row id, column id)
    first: int = 0  # row or column position
    last: int = -1  # inclusive
    row_ids: list[int] = field(default_factory=list)
    column_id: int | None = None


class Listener(Protocol):
    def before_change(self, change: Change) -> None: ...
    def after_change(self, change: Change) -> None: ...


_ROWS_MOVED = frozenset({"insert_rows", "remove_rows", "reorder", "reset"})


class Dataset:
    def __init__(self, headers: Sequence[str] = (), rows: Iterable[Sequence[str]] = (), target: str = GROUND_TRUTH):
        self._row_ids = itertools.count(1)
        self._col_ids = itertools.count(1)
        self.columns: list[Column] = [Column(next(self._col_ids), h) for h in headers]
        self.rows: list[Row] = [Row(next(self._row_ids), list(r)) for r in rows]
        self._target = get_target(target)
        self._positions: dict[int, int] | _Sequential | None = None
        self._col_positions: dict[int, int] | None = None
        self._listeners: list[weakref.ref[Listener]] = []
        self.document: Any = None  # file-level data the table cannot show (SDK JSON)
        self.source_rows: dict[int, int] = {}  # row id -> its row in the file, for the first rows (RawTable's)
        # row id -> the eval_case_id a save as SDK JSON made for its case (the table gave none): the next
        # save gives it the same, wherever the row has moved (io/sdk/cases.py)
        self.case_ids: dict[int, str] = {}
        self._fields_cache: list[str | None] | None = None
        # the content's identity: a new one at every change, a copy's the same (the same content). What io
        # builds of a dataset for a save holds while it is the same (io/platforms built, kept by the plan)
        self.version = object()

    def copy(self) -> Dataset:
        """The same columns and rows, with the same ids, that no one listens to: cells are its own,
        payloads shared (no edit changes a payload), its version the same. convert edits such a
        copy (io/convert.py)."""
        out = Dataset((), (), self._target.name)
        out.columns = [Column(c.id, c.header) for c in self.columns]
        out.rows = [Row(r.id, list(r.cells), r.payload, r.formulas) for r in self.rows]
        out._row_ids = iter(range(max((r.id for r in self.rows), default=0) + 1, 1 << 62))
        out._col_ids = iter(range(max((c.id for c in self.columns), default=0) + 1, 1 << 62))
        out.document = self.document
        out.version = self.version  # the same content: what was built of it holds
        out.source_rows = self.source_rows
        out.case_ids = dict(self.case_ids)
        return out

    # ----- listeners ---------------------------------------------------------------------------
    # Held weakly: the validator holds the dataset, so a strong reference back would make every
    # document a reference cycle, which only the cyclic collector frees — and a big document is built
    # with that collector paused and then frozen out of its walks (core/alloc.py).
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(weakref.ref(listener))

    def unsubscribe(self, listener: Listener) -> None:
        self._listeners = [r for r in self._listeners if r() is not listener and r() is not None]

    def _live(self) -> list[Listener]:
        found = [r() for r in self._listeners]
        return [x for x in found if x is not None]

    def _before(self, change: Change) -> None:
        for listener in self._live():
            listener.before_change(change)

    def _after(self, change: Change) -> None:
        self.version = object()
        if change.kind in _ROWS_MOVED:  # rows came, went or moved: a row's place in the file no longer says where it is
            self.source_rows = {}
        for listener in self._live():
            listener.after_change(change)

    # ----- lookups ----------------------------------------------------------------------------
    @property
    def target(self) -> Target:
        return self._target

    def row_count(self) -> int:
        return len(self.rows)

    def column_count(self) -> int:
        return len(self.columns)

    def headers(self) -> list[str]:
        return [c.header for c in self.columns]

    def _position_map(self) -> dict[int, int] | _Sequential:
        if self._positions is None:
            ids = list(map(_ROW_ID, self.rows))
            if ids == list(range(1, len(ids) + 1)):  # as a file is read, until rows move
                self._positions = _Sequential(len(ids))
            else:
                self._positions = dict(zip(ids, range(len(ids)), strict=True))
        return self._positions

    def position(self, row_id: int) -> int:
        return self._position_map()[row_id]

    def in_file_order(self, row_ids: Iterable[int]) -> list[int]:
        """Ids of rows of the dataset, in file order: a sort of those, not a pass over every row."""
        found = self._position_map()
        return sorted(row_ids) if isinstance(found, _Sequential) else sorted(row_ids, key=found.__getitem__)

    def row_ids(self) -> list[int]:
        """Every row's id in file order (a list of its own); without a pass over the rows while they are
        known to be 1 … n in order (as read: `take_read_rows`)."""
        if isinstance(self._positions, _Sequential):
            return list(range(1, self._positions.n + 1))
        return list(map(_ROW_ID, self.rows))

    def take_read_rows(self, rows: list[Row]) -> None:
        """The rows of a file as read, before anyone listens: their ids are 1 … n in file order."""
        self.rows = rows
        self._row_ids = iter(range(len(rows) + 1, 1 << 62))
        self._positions = _Sequential(len(rows))

    def positions(self, row_ids: Iterable[int]) -> list[int]:
        """`position` of each row id, in one pass."""
        found = self._position_map()
        return found.many(row_ids) if isinstance(found, _Sequential) else list(map(found.__getitem__, row_ids))

    def row(self, row_id: int) -> Row:
        return self.rows[self.position(row_id)]

    def has_row(self, row_id: int) -> bool:
        return row_id in self._position_map()

    def _column_map(self) -> dict[int, int]:
        if self._col_positions is None:
            self._col_positions = {c.id: i for i, c in enumerate(self.columns)}
        return self._col_positions

    def column_position(self, column_id: int) -> int:
        return self._column_map()[column_id]

    def fields(self) -> list[str | None]:
        """The recognised field of each column under the current target (first wins on duplicates)."""
        if self._fields_cache is None:
            self._fields_cache = [self._target.recognise(c.header) for c in self.columns]
        return self._fields_cache

    def field_position(self, fld: str) -> int | None:
        """Position of the first column recognised as `fld`, or None."""
        try:
            return self.fields().index(fld)
        except ValueError:
            return None

    def misspelled(self, fld: str) -> bool:
        """No column is read as `fld` (session_id, turn_id), but one is a near miss (`Session_ID`):
        renaming it is the fix, not adding another."""
        return self.field_position(fld) is None and any(self.target.near_miss(c.header) == fld for c in self.columns)

    def cell(self, row_id: int, column_id: int) -> str:
        return self.row(row_id).cells[self.column_position(column_id)]

    def value(self, row: Row, fld: str) -> str:
        pos = self.field_position(fld)
        return "" if pos is None else row.cells[pos]

    # ----- mutations (only the commands call these) ----------------------------------------------
    def new_row(self, cells: Sequence[str] | None = None) -> Row:
        cells = list(cells) if cells is not None else [""] * len(self.columns)
        cells += [""] * (len(self.columns) - len(cells))
        return Row(next(self._row_ids), cells)

    def new_column(self, header: str) -> Column:
        return Column(next(self._col_ids), header)

    def set_cells(self, changes: Sequence[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
        """Set (row id, column id, text) cells; return the previous values in the same shape."""
        touched = [(row_id, column_id) for row_id, column_id, _ in changes]
        self._before(Change("cells", cells=touched))
        old = []
        rows, positions, columns = self.rows, self._position_map(), self._column_map()
        for row_id, column_id, text in changes:  # a replace-all: 200k of them
            row = rows[positions[row_id]]
            cells = row.cells
            pos = columns[column_id]
            old.append((row_id, column_id, cells[pos]))
            cells[pos] = text
            if row.formulas and column_id in row.formulas:
                row.formulas = row.formulas - {column_id}
        self._after(Change("cells", cells=touched))
        return old

    def insert_rows(self, position: int, rows: Sequence[Row]) -> None:
        if not rows:
            return
        change = Change("insert_rows", first=position, last=position + len(rows) - 1, row_ids=[r.id for r in rows])
        self._before(change)
        self.rows[position:position] = rows
        self._positions = None
        self._after(change)

    def remove_block(self, first: int, last: int) -> list[Row]:
        """Remove rows first..last (inclusive positions); return them."""
        removed = self.rows[first:last + 1]
        change = Change("remove_rows", first=first, last=last, row_ids=[r.id for r in removed])
        self._before(change)
        del self.rows[first:last + 1]
        self._positions = None
        self._after(change)
        return removed

    def reorder(self, order: Sequence[int]) -> list[int]:
        """Put the rows in the order of the row ids given (a permutation); return the old order."""
        old = list(map(_ROW_ID, self.rows))
        by_id = dict(zip(old, self.rows, strict=True))
        try:  # as many ids, none twice, none unknown: a permutation
            rows = list(map(by_id.__getitem__, order)) if len(set(order)) == len(order) == len(old) else None
        except KeyError:
            rows = None
        if rows is None:
            raise ValueError("reorder needs a permutation of the row ids")
        change = Change("reorder", row_ids=list(order))
        self._before(change)
        self.rows = rows
        self._positions = None
        self._after(change)
        return old

    def insert_column(self, position: int, column: Column, values: dict[int, str] | None = None) -> None:
        change = Change("insert_column", first=position, last=position, column_id=column.id)
        self._before(change)
        self.columns.insert(position, column)
        values = values or {}
        for row in self.rows:
            row.cells.insert(position, values.get(row.id, ""))
        self._columns_changed()
        self._after(change)

    def remove_column(self, column_id: int) -> tuple[int, Column, dict[int, str]]:
        pos = self.column_position(column_id)
        change = Change("remove_column", first=pos, last=pos, column_id=column_id)
        self._before(change)
        column = self.columns.pop(pos)
        values = {}
        for row in self.rows:
            text = row.cells.pop(pos)
            if text:
                values[row.id] = text
        self._columns_changed()
        self._after(change)
        return pos, column, values

    def rename_column(self, column_id: int, header: str) -> str:
        pos = self.column_position(column_id)
        column = self.columns[pos]
        old, column.header = column.header, header
        self._columns_changed()
        self._after(Change("rename_column", first=pos, last=pos, column_id=column_id))
        return old

    def set_target(self, name: str) -> None:
        if name == self._target.name:
            return
        self._target = get_target(name)
        self._columns_changed()
        self._after(Change("target"))

    def _columns_changed(self) -> None:
        self._col_positions = None
        self._fields_cache = None
