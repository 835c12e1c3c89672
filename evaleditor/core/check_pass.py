"""The full check of a document in slices, so that a window shows a big file before its issues are known.

A deferred Validator starts with what needs no pass over the cells' text — the conversations (the
shape line, the gutter, the bands), the empty rows, the file-level issues and what the reader found —
and a CheckPass. Each `step()` checks the next block of rows and reports the rows whose issues
appeared, so highlights arrive as they are found; the last step checks the conversations and the
dataset-wide rules (one pass over the whole file, as `Validator.full` does) and the pass is over
(`validator.checking` is None).

Editing during the pass stays exact: an edited row is re-checked at once (its own issues, its
conversation membership); the last step reads the cells as they are then. A change of rows or
columns starts the pass again. `Validator.full()` (or `finish_checking()`) ends a pass at once.
"""

from __future__ import annotations

from evaleditor.core import bulk, checks, wide
from evaleditor.core.alloc import bulk_allocation, keep_built
from evaleditor.core.dataset import Change

BLOCK_ROWS = 1000  # rows checked in a step: a few milliseconds


class CheckPass:
    def __init__(self, validator):
        """`validator`: the Validator whose state the pass fills (not imported here: validation.py imports
        this module, and the core has no import circle)."""
        self.v = validator
        self.next_row = 0  # the position of the first row not yet checked
        self.rows_checked = 0  # rows checked by steps (a restart does not take them back): for progress
        self._start()

    def progress(self) -> tuple[int, int]:
        """(rows checked, rows) of this pass."""
        return min(self.next_row, len(self.v.ds.rows)), len(self.v.ds.rows)

    def step(self, rows: int | None = None) -> bool:
        """Check the next `rows` (BLOCK_ROWS) rows, or (when every row is checked) what spans rows; True
        when the pass is over."""
        v = self.v
        if v.checking is not self:
            return True
        block = v.ds.rows[self.next_row:self.next_row + (rows or BLOCK_ROWS)]
        with bulk_allocation():
            if block:
                self.next_row += len(block)
                self.rows_checked += len(block)
                self._check_block(block)
                return False
            self._finish()
        keep_built(len(v.ds.rows))
        return True

    def changed(self, change: Change) -> None:
        """The dataset changed during the pass (the validator's after_change)."""
        v = self.v
        if change.kind == "cells":
            self._recheck({rid for rid, _ in change.cells})
            return
        before = set(v._composed)  # rows moved, came or went, columns or the target changed: again
        self.next_row = 0
        self._start()
        v._notify(before | set(v._composed), True)

    # ----- the validator's state while the pass runs -----------------------------------------------------
    def _start(self) -> None:
        """Conversations, empty rows, file-level issues and the reader's findings; no row checked yet."""
        v = self.v
        v._ctx = checks.RowContext(v.ds, v.is_workbook())
        v._empty = bulk.empty_rows(v.ds.rows)
        v._row_local = {}
        v.sessions.rebuild(v._empty)
        v._session_issues, v._contiguous = {}, {}
        v._questions, v._case_groups = wide.Questions(), wide.CaseGroups()
        v._file = v._file_level()
        v._composed = {rid: tuple(found) for rid, found in v.static_rows.items() if v.ds.has_row(rid)}
        v._recount()

    def _check_block(self, block) -> None:
        v = self.v
        ids = [r.id for r in block]
        for rid in ids:  # checked before (a restarted pass)
            v._row_local.pop(rid, None)
        found = v._ctx.check_all(block, bulk.columns_of(block, len(v._ctx.col_ids)), v._empty)
        v._row_local.update(found)
        changed = {rid for rid in ids if (rid in found or rid in v._composed) and v._recompose(rid)}
        if changed:
            v._notify(changed, False)

    def _recheck(self, touched: set[int]) -> None:
        """Edited rows: their own issues and their conversation, now (what spans rows waits for the end)."""
        v = self.v
        ctx, spos = v._ctx, v._ctx.session
        for rid in touched:
            v._row_local.pop(rid, None)
            v._empty.discard(rid)
            row = v.ds.row(rid)
            if row.is_empty():
                v._empty.add(rid)
            elif found := ctx.check(row):
                v._row_local[rid] = tuple(found)
            v.sessions.move(rid, "" if spos is None or rid in v._empty else row.cells[spos])
        changed = {rid for rid in touched if v._recompose(rid)}
        v._notify(changed, v._refresh_file_issues())

    def _finish(self) -> None:
        v = self.v
        before = v._composed
        v.checking = None
        v._full(rows_checked=True)
        after = v._composed
        changed = {rid for rid in before.keys() | after.keys() if before.get(rid) != after.get(rid)}
        v._notify(changed, True)
