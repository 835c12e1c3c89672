"""QUndoCommand wrapping a core Command. The core command does the work and returns its inverse;
this class only remembers which of the two to apply next. Its text (Edit ▸ Undo …) is the core
command's msgid or Msg in the language of the moment it was done."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QApplication

from evaleditor.core.commands import Command, SetCells
from evaleditor.core.dataset import Dataset
from evaleditor.core.i18n import text as core_text

TYPING_ID = 0x7E11  # id() shared by single-cell typed edits, which merge when they hit the same cell


class CoreUndoCommand(QUndoCommand):
    def __init__(self, ds: Dataset, command: Command, typing: bool = False):
        super().__init__(core_text(command.text))
        self._ds = ds
        self._forward = command
        self._inverse: Command | None = None
        self._typing = typing and isinstance(command, SetCells) and len(command.changes) == 1

    def redo(self) -> None:
        with _busy(self._ds, self._forward):
            self._inverse = self._forward.apply(self._ds)

    def undo(self) -> None:
        assert self._inverse is not None
        with _busy(self._ds, self._inverse):
            self._forward = self._inverse.apply(self._ds)

    def id(self) -> int:
        return TYPING_ID if self._typing else -1

    def cell(self) -> tuple[int, int] | None:
        if not self._typing:
            return None
        row_id, column_id, _ = self._forward.changes[0]  # type: ignore[attr-defined]
        return row_id, column_id

    def mergeWith(self, other: QUndoCommand) -> bool:
        """Consecutive typing into the same cell is one undo step (undo goes back to the first value)."""
        if not isinstance(other, CoreUndoCommand) or other.cell() is None or other.cell() != self.cell():
            return False
        self._forward = other._forward
        # back at the value before the first edit: nothing left to undo
        before = self._inverse.changes[0][2]  # type: ignore[union-attr]
        after = self._forward.changes[0][2]  # type: ignore[attr-defined]
        self.setObsolete(before == after)
        return True


BUSY_ROWS = 20_000  # in a dataset this big, a step that is more than one cell shows the wait cursor


@contextmanager
def _busy(ds: Dataset, command: Command) -> Iterator[None]:
    """The wait cursor while a step that may take seconds runs (a replace-all, a sort, undoing them, at
    100k rows): the window cannot answer meanwhile, and says so. One cell (typing) never does."""
    one_cell = isinstance(command, SetCells) and len(command.changes) == 1
    if len(ds.rows) < BUSY_ROWS or one_cell:
        yield
        return
    with wait_cursor():
        yield


@contextmanager
def wait_cursor() -> Iterator[None]:
    """The wait cursor over the application while the block runs (the window cannot answer)."""
    if QApplication.instance() is None:
        yield
        return
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        yield
    finally:
        QApplication.restoreOverrideCursor()


def push(stack: QUndoStack | None, ds: Dataset, command: Command | None, typing: bool = False) -> bool:
    """Apply `command` as one undo step (directly when there is no stack). False when None."""
    if command is None:
        return False
    if stack is None:
        command.apply(ds)
    else:
        stack.push(CoreUndoCommand(ds, command, typing))
    return True
