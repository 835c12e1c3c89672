"""The cells of the table's selection as (row id, column id), for Find and Replace's "In selection only".

Kept per row, each row's selected column ids — one frozenset shared by the rows of a range — not a tuple
per cell: a select-all of 100k rows x 7 columns is 100k dict entries, not 700k tuples."""

from __future__ import annotations


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
