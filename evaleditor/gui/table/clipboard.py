"""Copy, cut and paste rectangular ranges as tab-separated text, the way Excel and LibreOffice do
(quoting and parsing live in core/tsv.py). A paste is one undo step.

Pasting over a selection, as in Excel and LibreOffice: a single value fills every selected cell; a
block whose height and width divide the selected rectangle's is repeated (tiled) to fill it; any
other block is pasted once from the selection's top-left cell."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QItemSelection, QItemSelectionModel
from PySide6.QtGui import QGuiApplication

from evaleditor.core import editing
from evaleditor.core.tsv import parse_tsv, to_tsv
from evaleditor.gui.table.model import CasesModel
from evaleditor.gui.table.view import CasesView
from evaleditor.gui.window.undo import push

translate = QCoreApplication.translate


def selection_grid(view: CasesView, model: CasesModel) -> list[list[str]]:
    """The full text of the selection's bounding rectangle; unselected cells inside it are empty."""
    ranges = view.selection_ranges()
    if not ranges:
        return []
    top = min(r[0] for r in ranges)
    left = min(r[1] for r in ranges)
    bottom = max(r[2] for r in ranges)
    right = max(r[3] for r in ranges)
    single = len(ranges) == 1
    ds = model.ds
    grid = []
    for row in range(top, bottom + 1):
        cells = ds.row(model.row_id(row)).cells
        if single:
            grid.append(cells[left:right + 1])
        else:
            grid.append([cells[c] if any(t <= row <= b and lf <= c <= rt for t, lf, b, rt in ranges) else ""
                         for c in range(left, right + 1)])
    return grid


def copy(view: CasesView, model: CasesModel) -> int:
    """Put the selection on the clipboard; return the number of cells copied."""
    grid = selection_grid(view, model)
    if grid:
        QGuiApplication.clipboard().setText(to_tsv(grid))
    return sum(len(r) for r in grid)


def cut(view: CasesView, model: CasesModel) -> int:
    n = copy(view, model)
    clear(view, model, translate("Clipboard", "Cut"))
    return n


def clear(view: CasesView, model: CasesModel, text: str | None = None) -> bool:
    """Empty the selected cells (one undo step, "Delete cells" unless `text` says otherwise)."""
    ds = model.ds
    cells = [(model.row_id(r), ds.columns[c].id) for r, c in view.selected_cells()]
    command = editing.clear_cells(ds, cells)
    if command is not None and text:
        command.text = text
    return push(model.undo_stack, ds, command)


def paste(view: CasesView, model: CasesModel, text: str | None = None) -> str:
    """Paste clipboard text (or `text`) at the selection; return a status message."""
    if model.doc is None or model.read_only:
        return ""
    if text is None:
        text = QGuiApplication.clipboard().text()
    grid = parse_tsv(text)
    if not grid:
        return translate("Clipboard", "The clipboard holds no text to paste")
    ds = model.ds
    ranges = view.selection_ranges()
    if ranges:
        top, left = min(r[0] for r in ranges), min(r[1] for r in ranges)
    else:
        top, left = model.rowCount(), 0  # nothing selected: append below the last row
    cells = view.selected_cells()
    if len(grid) == 1 and len(grid[0]) == 1 and len(cells) > 1:
        ids = [(model.row_id(r), ds.columns[c].id) for r, c in cells]
        push(model.undo_stack, ds, editing.fill(ds, ids, grid[0][0]))
        return translate("Clipboard", "Pasted into {n:,} cells").format(n=len(cells))
    tiled = _tiled(grid, ranges)
    if tiled is not None:
        rows = [model.row_id(r) for r in range(top, top + len(tiled))]
        command, _ = editing.paste(ds, rows, left, tiled, append=False)
        push(model.undo_stack, ds, command)
        _select(view, model, top, left, len(tiled), len(tiled[0]))
        return translate("Clipboard", "Pasted {rows:,} \u00d7 {columns}, repeated to fill {n:,} cells").format(
            rows=len(grid), columns=len(grid[0]), n=len(tiled) * len(tiled[0]))
    rows = [model.row_id(r) for r in range(top, min(model.rowCount(), top + len(grid)))]
    columns_before = ds.column_count()
    command, dropped = editing.paste(ds, rows, left, grid, append=not model.filtered)
    push(model.undo_stack, ds, command)
    height = min(len(grid), model.rowCount() - top)
    width = min(max(len(r) for r in grid), model.columnCount() - left)
    if height > 0 and width > 0:
        _select(view, model, top, left, height, width)
    if dropped:  # filtered, the block reached past the last row shown: say what went in
        total = sum(len(r) for r in grid)
        return translate("Clipboard", "Pasted {pasted:,} of {total:,} cells; {n:,} did not fit past the table's "
                         "edge and were not pasted").format(pasted=total - dropped, total=total, n=dropped)
    said = translate("Clipboard", "Pasted {rows:,} \u00d7 {columns}").format(rows=len(grid),
                                                                             columns=max(len(r) for r in grid))
    added = [c.header for c in ds.columns[columns_before:]]
    if added:  # the block reached past the last column: the table grew, as a sheet does
        said += translate("Clipboard", "; added columns {headers}").format(headers=", ".join(added))
    return said


def _tiled(grid: list[list[str]], ranges: list[tuple[int, int, int, int]]) -> list[list[str]] | None:
    """`grid` repeated to fill the selection when the selection is one rectangle larger than the block
    whose height and width are whole multiples of the block's (Excel's rule); else None."""
    if len(ranges) != 1:
        return None
    top, left, bottom, right = ranges[0]
    height, width = bottom - top + 1, right - left + 1
    block_w = len(grid[0])
    if any(len(r) != block_w for r in grid) or height % len(grid) or width % block_w:
        return None
    if (height, width) == (len(grid), block_w):
        return None  # the selection is the block's size: an ordinary paste
    return [list(grid[i % len(grid)]) * (width // block_w) for i in range(height)]


def _select(view: CasesView, model: CasesModel, top: int, left: int, height: int, width: int) -> None:
    """Select what was pasted, its top-left cell current."""
    sel = QItemSelection(model.index(top, left), model.index(top + height - 1, left + width - 1))
    view.selectionModel().select(sel, QItemSelectionModel.SelectionFlag.ClearAndSelect)
    view.selectionModel().setCurrentIndex(model.index(top, left), QItemSelectionModel.SelectionFlag.NoUpdate)
