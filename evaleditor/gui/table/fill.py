"""Edit ▸ Fill Down (Ctrl+D) and Fill Right (Ctrl+R), as in Excel and LibreOffice Calc: in each selected
range the top cell of every column is copied into the cells below it (Fill Right: the leftmost cell of
every row into the cells right of it); a range one row high is filled from the row above (one column
wide: from the column to the left). Rows are the rows shown, so a filtered table fills only its visible
rows, as Excel does."""

from __future__ import annotations

from evaleditor.core import editing
from evaleditor.core.commands import Command
from evaleditor.gui.table.model import CasesModel
from evaleditor.gui.table.view import CasesView

Cell = tuple[int, int]  # (row id, column id)


def fill_command(view: CasesView, model: CasesModel, down: bool) -> tuple[Command | None, int]:
    """The command (one undo step, None when it changes nothing) and how many cells it fills."""
    ds = model.ds
    columns = ds.columns
    pairs: list[tuple[Cell, Cell]] = []
    for top, left, bottom, right in view.selection_ranges():
        if down:
            source = top if bottom > top else top - 1
            if source < 0:
                continue
            rid = model.row_id(source)
            targets = [model.row_id(r) for r in range(source + 1, bottom + 1)]
            for c in range(left, right + 1):
                cid = columns[c].id
                pairs.extend(((rid, cid), (target, cid)) for target in targets)
        else:
            source = left if right > left else left - 1
            if source < 0:
                continue
            for r in range(top, bottom + 1):
                rid = model.row_id(r)
                pairs.extend(((rid, columns[source].id), (rid, columns[c].id)) for c in range(source + 1, right + 1))
    command = editing.fill_from(ds, pairs, down)
    return command, len(pairs)
