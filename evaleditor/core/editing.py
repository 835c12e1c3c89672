"""Command builders for the editor's row, column and paste operations.

Each returns one core Command (so one undo step) or None when there is nothing to do. Row ids are
stable ids; positions are dataset (file-order) positions.
"""

from __future__ import annotations

from collections.abc import Sequence

from evaleditor.core.commands import (
    Batch,
    Command,
    InsertColumn,
    InsertRows,
    RemoveColumn,
    RemoveRows,
    RenameColumn,
    ReorderRows,
    SetCells,
)
from evaleditor.core.dataset import Dataset
from evaleditor.core.fixes import renumber_sessions
from evaleditor.core.i18n import N_, NP_, Msg
from evaleditor.core.sessions import parse_turn, sorted_order
from evaleditor.core.targets import SESSION, TURN
from evaleditor.core.validation import Validator


def insert_rows(ds: Dataset, position: int, count: int = 1) -> Command:
    rows = [ds.new_row() for _ in range(count)]
    return InsertRows(position, rows, Msg(NP_("Insert row", "Insert {n} rows", "n"), (("n", count),)))


def duplicate_rows(ds: Dataset, row_ids: Sequence[int]) -> Command | None:
    """Copies of the rows, in file order, inserted after the last of them."""
    if not row_ids:
        return None
    ordered = sorted(row_ids, key=ds.position)
    copies = [ds.new_row(list(ds.row(r).cells)) for r in ordered]
    return InsertRows(ds.position(ordered[-1]) + 1, copies, N_("Duplicate rows"))


def delete_rows(row_ids: Sequence[int]) -> Command | None:
    return RemoveRows(list(row_ids), N_("Delete rows")) if row_ids else None


def clear_cells(ds: Dataset, cells: Sequence[tuple[int, int]]) -> Command | None:
    changes = [(r, c, "") for r, c in cells if ds.cell(r, c)]
    return SetCells(changes, N_("Delete cells")) if changes else None


def move_rows(ds: Dataset, row_ids: Sequence[int], delta: int) -> Command | None:
    """Move the rows one place up (delta=-1) or down (+1), as a block that keeps its inner order."""
    if not row_ids or delta not in (-1, 1):
        return None
    order = [r.id for r in ds.rows]
    positions = sorted(ds.position(r) for r in set(row_ids))
    if (delta < 0 and positions[0] == 0) or (delta > 0 and positions[-1] == len(order) - 1):
        return None
    # Walking in the direction of travel, each selected row swaps with its neighbour; a selected
    # neighbour has already moved on, so the neighbour swapped is always an unselected row.
    for p in positions if delta < 0 else reversed(positions):
        q = p + delta
        order[p], order[q] = order[q], order[p]
    return ReorderRows(order, N_("Move rows up") if delta < 0 else N_("Move rows down"))


def sort_by_session_and_turn(v: Validator) -> Command | None:
    order = sorted_order(v.ds, v.sessions)
    if order == [r.id for r in v.ds.rows]:
        return None
    return ReorderRows(order, N_("Sort by session and turn"))


def renumber_turns(v: Validator) -> Command | None:
    """Number every conversation's turns 1..n (turn order, file order breaking ties)."""
    if v.ds.field_position(TURN) is None:
        return None
    return renumber_sessions(v, list(v.sessions.sessions), N_("Renumber turns"))


def sdk_turn_order(v: Validator) -> Command | None:
    """What a save as SDK JSON does to conversations, done to the dataset: each gathered at its first
    row, its turns in turn order and numbered 1 … n (the file stores each turn's place, not the
    number typed; io/sdk/conversations.conversation_layout). Applied before such a save, the window shows what
    reopening the file will show."""
    commands = [c for c in (sort_by_session_and_turn(v), renumber_turns(v)) if c is not None]
    return Batch(commands, N_("Order and number turns as SDK JSON stores them")) if commands else None


def add_turn(v: Validator, row_id: int) -> Command | None:
    """A new row in the conversation of `row_id`, after its last row, numbered one past its last turn."""
    ds = v.ds
    spos = ds.field_position(SESSION)
    sid = v.sessions.session_of.get(row_id)
    if spos is None or sid is None:
        return None
    members = v.sessions.sessions[sid]
    cells = [""] * ds.column_count()
    cells[spos] = sid
    tpos = ds.field_position(TURN)
    if tpos is not None:
        turns = [t for t in (parse_turn(ds.row(r).cells[tpos]) for r in members) if t is not None]
        cells[tpos] = str(max(turns) + 1 if turns else len(members) + 1)
    last = max(ds.position(r) for r in members)
    return InsertRows(last + 1, [ds.new_row(cells)], N_("Add turn"))


def new_session_id(v: Validator) -> str:
    used = v.sessions.sessions
    n = len(used) + 1
    while f"s{n}" in used:
        n += 1
    return f"s{n}"


def new_conversation(v: Validator, position: int) -> Command | None:
    """A new row starting a new conversation (turn 1) at `position`.

    Adds the target's session and turn columns at the left when the file has none; returns None
    when a near-miss session header exists (rename it first, or there would be two)."""
    ds = v.ds
    target = ds.target
    if ds.misspelled(SESSION):
        return None
    commands: list[Command] = []
    spos = ds.field_position(SESSION)
    tpos = ds.field_position(TURN)
    n_cols = ds.column_count()
    if spos is None:
        commands.append(InsertColumn(0, ds.new_column(target.header_in(SESSION, ds.headers()))))
        n_cols += 1
        spos = 0
        tpos = None if tpos is None else tpos + 1
        if tpos is None:
            commands.append(InsertColumn(1, ds.new_column(target.header_in(TURN, ds.headers()))))
            n_cols += 1
            tpos = 1
    cells = [""] * n_cols
    cells[spos] = new_session_id(v)
    if tpos is not None:
        cells[tpos] = "1"
    commands.append(InsertRows(position, [_row_of_width(ds, cells)]))
    return commands[0] if len(commands) == 1 else Batch(commands, N_("New conversation"))


def _row_of_width(ds: Dataset, cells: list[str]):
    row = ds.new_row()
    row.cells = cells
    return row


def add_column(ds: Dataset, position: int, header: str) -> Command:
    return InsertColumn(position, ds.new_column(header), {}, N_("Add column"))


def rename_column(ds: Dataset, column_id: int, header: str) -> Command | None:
    if ds.columns[ds.column_position(column_id)].header == header:
        return None
    return RenameColumn(column_id, header)


def remove_column(column_id: int) -> Command:
    return RemoveColumn(column_id)


def paste(ds: Dataset, row_ids: Sequence[int], column: int, grid: Sequence[Sequence[str]],
          append: bool = True) -> tuple[Command | None, int]:
    """Paste `grid` with its top-left cell at (row_ids[0], column position `column`).

    `row_ids` are the rows available to paste into, in order (the visible rows from the anchor down).
    Cells right of the last column go into new columns added at the right (headed column_N, the next
    free N from their position, as a sheet names them), as Excel and Calc grow a sheet; rows past the
    last one are appended as new rows when `append`, else dropped. Returns the command (one undo step)
    and the number of cells dropped.
    """
    n_cols = ds.column_count()
    width = max((len(values) for values in grid), default=0)
    taken = set(ds.headers())
    added = []
    for position in range(n_cols, column + width):
        added.append(ds.new_column(_free_header(position + 1, taken)))
    column_ids = [c.id for c in ds.columns] + [c.id for c in added]
    changes = []
    new_rows = []
    dropped = 0
    for i, values in enumerate(grid):
        if i < len(row_ids):
            rid = row_ids[i]
            cells = ds.row(rid).cells
            for j, text in enumerate(values):
                at = column + j
                if (cells[at] if at < n_cols else "") != text:
                    changes.append((rid, column_ids[at], text))
        elif append:
            cells = [""] * len(column_ids)
            cells[column:column + len(values)] = values
            new_rows.append(ds.new_row(cells))
        else:
            dropped += len(values)
    commands: list[Command] = [InsertColumn(n_cols + k, col, {}, N_("Paste")) for k, col in enumerate(added)]
    if changes:
        commands.append(SetCells(changes, N_("Paste")))
    if new_rows:
        commands.append(InsertRows(ds.row_count(), new_rows, N_("Paste")))
    if not commands:
        return None, dropped
    return (commands[0] if len(commands) == 1 else Batch(commands, N_("Paste"))), dropped


def _free_header(n: int, taken: set[str]) -> str:
    """`column_<n>`, or the next free `column_<n+k>`, added to `taken`."""
    while f"column_{n}" in taken:
        n += 1
    taken.add(f"column_{n}")
    return f"column_{n}"


def fill(ds: Dataset, cells: Sequence[tuple[int, int]], text: str) -> Command | None:
    """One value into every selected cell (pasting a single cell over a selection, as Excel does)."""
    changes = [(r, c, text) for r, c in cells if ds.cell(r, c) != text]
    return SetCells(changes, N_("Paste")) if changes else None


def fill_from(ds: Dataset, pairs: Sequence[tuple[tuple[int, int], tuple[int, int]]], down: bool) -> Command | None:
    """Edit ▸ Fill Down (`down`) / Fill Right: for each (source, target) pair of (row id, column id) cells,
    the source's text into the target."""
    text = N_("Fill down") if down else N_("Fill right")
    changes = []
    for (source_row, source_column), (row_id, column_id) in pairs:
        value = ds.cell(source_row, source_column)
        if ds.cell(row_id, column_id) != value:
            changes.append((row_id, column_id, value))
    return SetCells(changes, text) if changes else None
