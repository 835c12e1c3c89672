"""Find and Replace's "In selection only": the box and the cells it searches, the table's selection as
(row id, column id).

The cells are read when first searched after the selection changed, and Find next with the box on moves
the current cell inside the selection without changing it (as Excel and Calc do): the selection a find
starts with bounds it until the user selects something else. Cells are kept per row, each row's selected column ids — one frozenset shared by the rows of a range — not a tuple
per cell: a select-all of 100k rows x 7 columns is 100k dict entries, not 700k tuples."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox

from evaleditor.gui.table.view import several_cells_selected


class SelectedCells:
    """A container of (row id, column id) cells (what core.search's `within` asks), and its row ids."""

    def __init__(self, model, ranges) -> None:
        """The cells of `ranges` ((top, left, bottom, right) model rows and columns) of `model` now."""
        columns = model.ds.columns
        self._columns_of: dict[int, frozenset[int]] = {}
        unions: dict[tuple[frozenset[int], frozenset[int]], frozenset[int]] = {}
        for top, left, bottom, right in ranges:
            ids = frozenset(columns[c].id for c in range(left, right + 1))
            for r in range(top, bottom + 1):
                row_id = model.row_id(r)
                had = self._columns_of.get(row_id)
                if had is None:
                    self._columns_of[row_id] = ids
                elif not ids <= had:  # ranges that overlap on this row
                    self._columns_of[row_id] = unions.setdefault((had, ids), had | ids)

    def __contains__(self, cell) -> bool:
        row_id, column_id = cell
        ids = self._columns_of.get(row_id)
        return ids is not None and column_id in ids

    def row_ids(self):
        return self._columns_of.keys()


class SearchScope:
    """The dialog's In selection only `box` over `window`'s table, and the cells it searches."""

    def __init__(self, window, box: QCheckBox) -> None:
        self.window = window
        self.box = box  # checked when Find opens over several cells (offer)
        self._cells: SelectedCells | None = None
        self.version = 0  # a new selection, or the box toggled: a count starts again
        box.toggled.connect(self._changed)
        window.view.selectionModel().selectionChanged.connect(self._changed)
        # Qt clears or moves the selection without selectionChanged when the rows shown change: opening or
        # closing a file, reopening it in another encoding, a filter (a reset), a sort (layoutChanged)
        window.model.modelReset.connect(self._changed)
        window.model.layoutChanged.connect(self._changed)

    def offer(self) -> None:
        """Find opens: the box is on over several cells, as in Excel and Calc; off and disabled over one."""
        self.forget()
        several = several_cells_selected(self.window.view)
        self.box.setEnabled(several)
        self.box.setChecked(several)

    def cells(self) -> SelectedCells | None:
        """The cells searched with the box on, (row id, column id); else None (every cell)."""
        model = self.window.model
        if not self.box.isChecked() or model.doc is None:
            return None
        if self._cells is None:
            self._cells = SelectedCells(model, self.window.view.selection_ranges())
        return self._cells

    def rows(self) -> list[int] | None:
        """The rows searched, in file order: the selection's with the box on, the visible ones under a
        row filter, else all (None)."""
        model = self.window.model
        cells = self.cells()
        if cells is not None:
            ds = model.ds  # a row deleted since the selection was made is not searched
            return sorted((row_id for row_id in cells.row_ids() if ds.has_row(row_id)), key=ds.position)
        return model.visible_row_ids() if model.filtered else None

    def forget(self) -> None:
        """The selection may have changed: its cells are read again when next searched, and a count of
        the old ones is not current."""
        self._cells = None
        self.version += 1

    def _changed(self, *_args) -> None:
        """A new selection (or the box toggled, or the rows shown changed): a single cell unchecks and
        disables the box, as Calc's."""
        self.forget()
        several = several_cells_selected(self.window.view)
        self.box.setEnabled(several)
        if not several:
            self.box.setChecked(False)
