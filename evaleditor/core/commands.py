"""Undoable edits. Each command applies itself to a Dataset and returns its inverse.

The GUI wraps them in QUndoCommands; the core never needs Qt to undo or redo.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from evaleditor.core.dataset import Column, Dataset, Row
from evaleditor.core.i18n import N_, Msg


class Command:
    text: str | Msg = N_("Edit")  # the undo text: an English msgid or a Msg, translated when shown

    def apply(self, ds: Dataset) -> Command:  # pragma: no cover - interface
        raise NotImplementedError


@dataclass
class SetCells(Command):
    """Set cells: (row id, column id, text) triples."""

    changes: list[tuple[int, int, str]]
    text: str | Msg = N_("Edit cell")

    def apply(self, ds: Dataset) -> SetCells:
        return SetCells(ds.set_cells(self.changes), self.text)


@dataclass
class InsertRows(Command):
    position: int
    rows: list[Row]
    text: str | Msg = N_("Insert rows")

    def apply(self, ds: Dataset) -> Command:
        ds.insert_rows(self.position, self.rows)
        return RemoveRows([r.id for r in self.rows], self.text)


@dataclass
class RemoveRows(Command):
    row_ids: list[int]
    text: str | Msg = N_("Delete rows")

    def apply(self, ds: Dataset) -> Command:
        positions = sorted(ds.position(i) for i in self.row_ids)
        restored: list[tuple[int, list[Row]]] = []
        for first, last in reversed(_blocks(positions)):
            restored.append((first, ds.remove_block(first, last)))
        restored.reverse()
        return RestoreRows(restored, self.text)


@dataclass
class RestoreRows(Command):
    """Put back blocks of rows at their old positions (ascending)."""

    blocks: list[tuple[int, list[Row]]]
    text: str | Msg = N_("Insert rows")

    def apply(self, ds: Dataset) -> Command:
        for position, rows in self.blocks:
            ds.insert_rows(position, rows)
        return RemoveRows([r.id for _, rows in self.blocks for r in rows], self.text)


@dataclass
class ReorderRows(Command):
    order: list[int]
    text: str | Msg = N_("Move rows")

    def apply(self, ds: Dataset) -> ReorderRows:
        return ReorderRows(ds.reorder(self.order), self.text)


@dataclass
class InsertColumn(Command):
    position: int
    column: Column
    values: dict[int, str] = field(default_factory=dict)
    text: str | Msg = N_("Add column")

    def apply(self, ds: Dataset) -> Command:
        ds.insert_column(self.position, self.column, self.values)
        return RemoveColumn(self.column.id, self.text)


@dataclass
class RemoveColumn(Command):
    column_id: int
    text: str | Msg = N_("Remove column")

    def apply(self, ds: Dataset) -> Command:
        pos, column, values = ds.remove_column(self.column_id)
        return InsertColumn(pos, column, values, self.text)


@dataclass
class RenameColumn(Command):
    column_id: int
    header: str
    text: str | Msg = N_("Rename column")

    def apply(self, ds: Dataset) -> RenameColumn:
        return RenameColumn(self.column_id, ds.rename_column(self.column_id, self.header), self.text)


@dataclass
class Batch(Command):
    """Several commands as one undo step (a paste, a fix-all, a replace-all)."""

    commands: list[Command]
    text: str | Msg = N_("Edit")

    def apply(self, ds: Dataset) -> Batch:
        inverses = [c.apply(ds) for c in self.commands]
        inverses.reverse()
        return Batch(inverses, self.text)


def _blocks(positions: Sequence[int]) -> list[tuple[int, int]]:
    """Ascending positions -> inclusive (first, last) runs."""
    blocks: list[tuple[int, int]] = []
    for p in positions:
        if blocks and p == blocks[-1][1] + 1:
            blocks[-1] = (blocks[-1][0], p)
        else:
            blocks.append((p, p))
    return blocks
