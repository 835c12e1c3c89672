"""The full check of a document in slices, so that a window shows a big file before its issues are known.

A deferred Validator starts with what needs no pass over the cells' text — the conversations (the
shape line, the gutter, the bands), the empty rows, the file-level issues and what the reader found —
and a CheckPass. Each `step()` checks the next block of rows and reports the rows whose issues
appeared, so highlights arrive as they are found. Then what spans rows, in the same pieces as
`Validator.full`: the conversations and questions are indexed (one step), the conversations that are
not plainly in order are checked (blocks of them), every row's issues are composed (one step), and
the pass is over (`validator.checking` is None).

Editing during the pass stays exact: an edited row is re-checked at once (its own issues, its
conversation membership); once the spanning steps have begun, the rows edited and the conversations
they left are checked again after the last step, as an edit is when no pass runs. A change of rows or
columns starts the pass again. `Validator.full()` (or `finish_checking()`) ends a pass at once.
"""

from __future__ import annotations

from evaleditor.core import bulk, checks, wide
from evaleditor.core.alloc import bulk_allocation, keep_built
from evaleditor.core.dataset import Change

BLOCK_ROWS = 1000  # rows checked in a step: a few milliseconds
BLOCK_SESSIONS = 500  # conversations checked in a step (all of them out of order after a sort is undone)


class CheckPass:
    def __init__(self, validator, keep: bool = False, moved: set[str] | None = None):
        """`validator`: the Validator whose state the pass fills (not imported here: validation.py imports
        this module, and the core has no import circle). `keep`: what the validator found before stays
        shown until its rows are checked again (after a replace-all: most of it is still true).
        `moved`: rows moved and nothing else changed (a sort, its undo): see `_rows_moved`. The
        conversations are the validator's SessionIndex, current at every change."""
        self.v = validator
        self.next_row = 0  # the position of the first row not yet checked
        self._spanning: list[str] | None = None  # conversations left to check, once every row is
        self._questions: list | None = None  # to index, after the conversations
        self._dirty: set[int] = set()  # rows edited since, and the conversations they left
        self._dirty_sessions: set[str] = set()
        self._moved: set[str] | None = None
        if moved is not None:
            self._rows_moved(moved)
        else:
            self._start(keep)

    def progress(self) -> tuple[int, int]:
        """(rows checked, rows) of this pass; after rows moved, (conversations checked, conversations)."""
        if self._moved is not None:
            return self._moved_total - len(self._spanning), self._moved_total
        return min(self.next_row, len(self.v.ds.rows)), len(self.v.ds.rows)

    def step(self, rows: int | None = None) -> bool:
        """Check the next `rows` (BLOCK_ROWS) rows, or (when every row is checked) the next piece of what
        spans rows; True when the pass is over."""
        v = self.v
        if v.checking is not self:
            return True
        if self._moved is not None:
            return self._step_moved(rows or BLOCK_SESSIONS)
        with bulk_allocation():
            block = v.ds.rows[self.next_row:self.next_row + (rows or BLOCK_ROWS)]
            if block:
                self.next_row += len(block)
                self._check_block(block)
                return False
            if self._spanning is None:  # the conversations were kept current since the pass began
                v._ctx = checks.RowContext(v.ds, v.is_workbook())
                columns = bulk.columns_of(v.ds.rows, len(v._ctx.col_ids))
                self._spanning, self._questions = v._index_spanning(columns)
                return False
            if self._questions is not None:
                v._index_questions(self._questions)
                self._questions = None
                return False
            if self._spanning:
                sessions = v.sessions.sessions
                for sid in self._spanning[-(rows or BLOCK_SESSIONS):]:
                    if sid in sessions:  # not edited away since
                        v._check_session(sid)
                del self._spanning[-(rows or BLOCK_SESSIONS):]
                return False
            self._finish()
        keep_built(len(v.ds.rows))
        return True
    def changed(self, change: Change) -> None:
        """The dataset changed during the pass (the validator's after_change)."""
        v = self.v
        touched = {rid for rid, _ in change.cells}
        small = change.kind == "cells" and len(touched) <= v.bulk_rows()
        if self._moved is not None and small:  # as when no pass runs: the conversations queued stay queued
            v._update_rows(touched)
            return
        if self._moved is not None and change.kind == "reorder":
            self._rows_moved(self._moved | v.sessions.reordered)
            return
        if small:
            self._recheck(touched)
            return
        self._moved = None  # anything else: every row again
        if change.kind == "remove_rows":  # what the reader found about them goes with them (as incrementally)
            for rid in v._removed:
                v.static_rows.pop(rid, None)
        before = set(v._composed)  # rows moved, came or went, most changed, columns or target: again
        self.next_row = 0
        self._spanning, self._questions, self._dirty, self._dirty_sessions = None, None, set(), set()
        self._start(keep=change.kind in ("cells", "reorder", "insert_rows", "remove_rows"),
                    rows_gone=change.kind == "remove_rows")
        v._notify(before | set(v._composed), True)

    # ----- the validator's state while the pass runs -----------------------------------------------------
    def _start(self, keep: bool = False, rows_gone: bool = False) -> None:
        """Conversations, empty rows, file-level issues and the reader's findings; no row checked yet
        (`keep`: the issues found before stay, but those of rows that are gone)."""
        v = self.v
        v._ctx = checks.RowContext(v.ds, v.is_workbook())
        v._empty = bulk.empty_rows(v.ds.rows)
        has_row = v.ds.has_row
        if keep and not rows_gone:
            v._refresh_file_issues()  # the counts follow
            return
        if keep:
            v._row_local = {rid: found for rid, found in v._row_local.items() if has_row(rid)}
            v._composed = {rid: found for rid, found in v._composed.items() if has_row(rid)}
        else:
            v._row_local = {}
            v._session_issues, v._contiguous = {}, {}
            v._questions, v._case_groups = wide.Questions(), wide.CaseGroups()
            v._composed = {rid: tuple(found) for rid, found in v.static_rows.items() if has_row(rid)}
        v._file = v._file_level()
        v._recount()

    # ----- rows moved ------------------------------------------------------------------------------------
    def _rows_moved(self, moved: set[str]) -> None:
        """Rows moved, none changed: each row's own issues, the duplicate questions and the letter-case
        groups are still right; only a conversation whose rows changed order (`moved`), or came together
        or apart, can have other issues. Each step looks at BLOCK_SESSIONS of the conversations of more
        than one row, checks those again and shows their rows' issues at once: no pass over every row."""
        v = self.v
        self.next_row = len(v.ds.rows)
        self._moved = moved
        self._spanning = [sid for sid, members in v.sessions.sessions.items() if len(members) > 1]
        self._moved_total = len(self._spanning)

    def _step_moved(self, n: int) -> bool:
        v = self.v
        sessions, changed = v.sessions.sessions, set()
        with bulk_allocation():
            for sid in self._spanning[-n:]:
                if sid in sessions and (sid in self._moved or v._contiguity_changed(sid)):
                    v._session_issues.pop(sid, None)
                    v._contiguous.pop(sid, None)
                    v._check_session(sid)
                    changed.update(rid for rid in sessions[sid] if v._recompose(rid))
            del self._spanning[-n:]
            done = not self._spanning
            if done:
                v.checking = None
                keep_built(len(v.ds.rows))
        if changed or done:
            v._notify(changed, done and v._refresh_file_issues())
        return done

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
        ctx = v._ctx
        if self._spanning is not None:
            self._dirty |= touched
            self._dirty_sessions.update(sid for rid in touched if (sid := v.sessions.session_before(rid)))
        for rid in touched:
            v._row_local.pop(rid, None)
            v._empty.discard(rid)
            row = v.ds.row(rid)
            if row.is_empty():
                v._empty.add(rid)
            elif found := ctx.check(row):
                v._row_local[rid] = tuple(found)
        changed = {rid for rid in touched if v._recompose(rid)}
        v._notify(changed, v._refresh_file_issues())

    def _finish(self) -> None:
        v = self.v
        before = v._composed
        v.checking = None
        v._compose_all()
        after = v._composed
        changed = {rid for rid in before.keys() | after.keys() if before.get(rid) != after.get(rid)}
        sessions = v.sessions.sessions
        for sid in self._dirty_sessions:  # checked before an edit took a row out of it
            v._session_issues.pop(sid, None)
            v._contiguous.pop(sid, None)
            if sid in sessions:
                v._check_session(sid)
                changed.update(rid for rid in sessions[sid] if v._recompose(rid))
        v._notify(changed, True)
        if self._dirty:
            v._update_rows({rid for rid in self._dirty if v.ds.has_row(rid)})
