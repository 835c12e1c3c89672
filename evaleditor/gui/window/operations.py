"""What the Edit and Data menus do: Cut, Copy, Paste and Delete go through gui/table/clipboard.py; the
others each build one core command (core/editing.py, core/fixes.py), push it as one undo step, and put
the selection where the user expects it."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QItemSelection, QItemSelectionModel
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QStatusBar

from evaleditor.core import editing
from evaleditor.core.commands import Command, InsertRows
from evaleditor.core.fixes import fix_all_command, fix_command
from evaleditor.core.rules import RULES, Issue
from evaleditor.core.targets import QUESTION, SESSION
from evaleditor.gui import dialogs
from evaleditor.gui.table import clipboard
from evaleditor.gui.table.fill import fill_command
from evaleditor.gui.window.checking import finish_now
from evaleditor.gui.window.undo import push

translate = QCoreApplication.translate


class Operations:
    """Handed the window (the parent of the questions asked), the table's model and view, the undo stack,
    the status bar and the window's Documents (a fix that is "save as .xlsx")."""

    def __init__(self, window, model, view, undo_stack: QUndoStack, status: QStatusBar, documents):
        self.window, self.model, self.view, self.undo_stack = window, model, view, undo_stack
        self.status, self.documents = status, documents

    def ready(self) -> bool:
        return self.model.doc is not None and not self.model.read_only

    def push(self, command: Command | None, message: str = "") -> bool:
        if not push(self.undo_stack, self.model.ds, command):
            if message:
                self.status.showMessage(message, 5000)
            return False
        return True

    # ----- clipboard -------------------------------------------------------------------------------------------
    def copy(self) -> None:
        if self.model.doc is not None:
            n = clipboard.copy(self.view, self.model)
            self.status.showMessage(translate("MainWindow", "Copied {n:,} cells").format(n=n), 3000)

    def cut(self) -> None:
        if self.ready():
            clipboard.cut(self.view, self.model)

    def paste(self, text: str | None = None) -> None:
        if self.ready():
            self.status.showMessage(clipboard.paste(self.view, self.model, text), 5000)

    def delete_cells(self) -> None:
        if self.ready():
            clipboard.clear(self.view, self.model)

    def fill(self, down: bool) -> None:
        """Edit ▸ Fill Down (`down`) or Fill Right (gui/table/fill.py)."""
        if not self.ready():
            return
        command, n = fill_command(self.view, self.model, down)
        if n == 0:
            why = translate("Operations", "Nothing to fill: select the cell to copy and the cells below it") if down \
                else translate("Operations", "Nothing to fill: select the cell to copy and the cells right of it")
        else:
            why = translate("Operations", "The cells already hold that text")
        if self.push(command, why):
            self.status.showMessage(translate("Operations", "Filled {n:,} cells").format(n=len(command.changes)), 5000)

    # ----- selection helpers ------------------------------------------------------------------------------
    def selected_row_ids(self) -> list[int]:
        return [self.model.row_id(r) for r in self.view.selected_rows()]

    def current_row_id(self) -> int | None:
        cur = self.view.currentIndex()
        return self.model.row_id(cur.row()) if cur.isValid() else None

    def select_rows(self, row_ids: list[int], column: int | None = None) -> None:
        """Select the rows of `row_ids`, the current cell in the first of them in `column` (else in the
        current column)."""
        model, view = self.model, self.view
        rows = sorted(r for r in (model.row_of(i) for i in row_ids) if r is not None)
        if not rows:
            return
        col = view.currentIndex().column() if column is None else column
        col = max(col, 0)
        selection = QItemSelection()
        for r in rows:
            selection.select(model.index(r, 0), model.index(r, model.columnCount() - 1))
        sm = view.selectionModel()
        sm.setCurrentIndex(model.index(rows[0], col), QItemSelectionModel.SelectionFlag.NoUpdate)
        sm.select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        view.scrollTo(model.index(rows[0], col))

    def _inserted(self, command: Command | None) -> list[int]:
        if isinstance(command, InsertRows):
            return [r.id for r in command.rows]
        for sub in getattr(command, "commands", []):
            if isinstance(sub, InsertRows):
                return [r.id for r in sub.rows]
        return []

    # ----- rows ---------------------------------------------------------------------------------------------
    def insert_row(self, below: bool) -> None:
        if not self.ready():
            return
        ds = self.model.ds
        ids = self.selected_row_ids()
        if not ids:
            position = ds.row_count()
        else:
            positions = [ds.position(i) for i in ids]
            position = max(positions) + 1 if below else min(positions)
        command = editing.insert_rows(ds, position)
        if self.push(command):
            self.select_rows(self._inserted(command))

    def duplicate_rows(self) -> None:
        if self.ready():
            command = editing.duplicate_rows(self.model.ds, self.selected_row_ids())
            if self.push(command, translate("Operations", "Select the rows to duplicate")):
                self.select_rows(self._inserted(command))

    def delete_rows(self) -> None:
        if self.ready():
            ids = self.selected_row_ids()
            after = self.view.selected_rows()
            if self.push(editing.delete_rows(ids), translate("Operations", "Select the rows to delete")) \
                    and self.model.rowCount():
                row = min(after[0], self.model.rowCount() - 1)
                self.view.go_to(self.model.index(row, max(self.view.currentIndex().column(), 0)))

    def add_turn(self) -> None:
        rid = self.current_row_id()
        if self.ready() and rid is not None:
            command = editing.add_turn(self.model.validator, rid)
            if self.model.ds.misspelled(SESSION):  # the row's "s1" is not read as a session id
                message = translate("Operations", "Rename the misspelled session column first (see the banner)")
            elif self.model.ds.field_position(SESSION) is None:
                message = translate("Operations", "There are no conversations yet: Ctrl+Shift+T starts one")
            else:
                message = translate("Operations", "This row is not in a conversation (its session id is empty)")
            if self.push(command, message):
                self.select_rows(self._inserted(command), self.model.ds.field_position(QUESTION))

    def new_conversation(self) -> None:
        if not self.ready():
            return
        ds = self.model.ds
        ids = self.selected_row_ids()
        position = max(ds.position(i) for i in ids) + 1 if ids else ds.row_count()
        command = editing.new_conversation(self.model.validator, position)
        if self.push(command, translate("Operations", "Rename the misspelled session column first (see the "
                                                      "banner)")):
            self.select_rows(self._inserted(command), ds.field_position(QUESTION))

    def move_rows(self, delta: int) -> None:
        if self.ready():
            ids = self.selected_row_ids()
            if self.push(editing.move_rows(self.model.ds, ids, delta)):
                self.select_rows(ids)

    def sort_by_session_and_turn(self) -> None:
        if self.ready():
            self.push(editing.sort_by_session_and_turn(self.model.validator),
                      translate("Operations", "Rows are already in session and turn order"))

    def renumber_turns(self) -> None:
        if self.ready():
            v = self.model.validator
            command = editing.renumber_turns(v)
            if command is None and v.ds.field_position("turn_id") is None and v.sessions.sessions:
                command = fix_command(v, Issue("no-turn-column", "", ""))
            self.push(command, translate("Operations", "Turns are already numbered 1, 2, 3 \u2026 in every "
                                                       "conversation"))

    # ----- columns ---------------------------------------------------------------------------------------------
    def add_column(self, position: int | None = None) -> None:
        if not self.ready():
            return
        ds = self.model.ds
        name = dialogs.ask_text(self.window, translate("Operations", "Add column"),
                                translate("Operations", "Header of the new column:"), taken=ds.headers())
        if name is None:
            return
        if position is None:
            cur = self.view.currentIndex()
            position = cur.column() + 1 if cur.isValid() else ds.column_count()
        self.push(editing.add_column(ds, position, name))

    def rename_column(self, column: int | None = None) -> None:
        if not self.ready():
            return
        ds = self.model.ds
        column = self.view.currentIndex().column() if column is None else column
        if not 0 <= column < ds.column_count():
            return
        col = ds.columns[column]
        name = dialogs.ask_text(self.window, translate("Operations", "Rename column"),
                                translate("Operations", "New header for \u201c{header}\u201d:").format(header=col.header),
                                col.header, taken=[c.header for c in ds.columns if c.id != col.id])
        if name is not None:
            self.push(editing.rename_column(ds, col.id, name))

    def rename_column_to(self, column_id: int, header: str) -> None:
        if self.ready():
            self.push(editing.rename_column(self.model.ds, column_id, header))

    def remove_column(self, column: int | None = None) -> None:
        if not self.ready():
            return
        ds = self.model.ds
        column = self.view.currentIndex().column() if column is None else column
        if 0 <= column < ds.column_count():
            self.push(editing.remove_column(ds.columns[column].id))

    # ----- quick fixes -----------------------------------------------------------------------------------------
    def fix_issue(self, issue: Issue) -> bool:
        if not self.ready():
            return False
        finish_now(self.model.doc)
        fix = RULES[issue.rule].fix
        if fix == "save-as-xlsx":
            return self.documents.save_as(fmt="xlsx")
        if fix == "rename-column":
            return self._choose_question_column()
        guessed: list[int] = []
        done = self.push(fix_command(self.model.validator, issue, guessed),
                         translate("Operations", "No automatic fix for this one"))
        if done and guessed:
            self.status.showMessage(_and_guessed(translate("Operations", "Repaired the tool calls"), self.model.ds,
                                                 guessed), 15000)
        return done

    def fix_all(self, rule: str) -> bool:
        if not self.ready():
            return False
        finish_now(self.model.doc)
        v = self.model.validator
        before = v.rule_counts.get(rule, 0)
        guessed: list[int] = []  # the rows whose repair is a guess, found as the command is made
        command = fix_all_command(v, rule, guessed)  # its undo text: "<fix> (all <rule>)"
        done = self.push(command)
        finish_now(self.model.doc)
        left = [i for i in v.all_issues() if i.rule == rule] if v.rule_counts.get(rule, 0) else []
        said = fix_all_report(self.model.ds, rule, before, left)
        self.status.showMessage(_and_guessed(said, self.model.ds, guessed if done else []), 15000)
        return done

    def _choose_question_column(self) -> bool:
        ds = self.model.ds
        headers = [c.header for c in ds.columns]
        if not headers:
            return False
        choice = dialogs.choose_item(self.window, translate("Operations", "Which column holds the questions?"),
                                     translate("Operations", "Column:"), headers)
        if choice is None:
            return False
        col = ds.columns[headers.index(choice)]
        return self.push(editing.rename_column(ds, col.id, ds.target.header_in("question", ds.headers())))

    # ----- navigation ---------------------------------------------------------------------------------------------
    def next_issue(self, backwards: bool = False) -> bool:
        """Go to the next (previous) cell with an issue, in view order, wrapping around."""
        model = self.model
        if model.doc is None or model.rowCount() == 0:
            return False
        finish_now(self.model.doc)
        ds, v = model.ds, model.validator
        cur = self.view.currentIndex()
        row = cur.row() if cur.isValid() else (-1 if not backwards else model.rowCount())
        col = cur.column() if cur.isValid() else -1
        n = model.rowCount()
        step = -1 if backwards else 1
        for k in range(n + 1):
            r = (row + step * k) % n
            issues = v.row_issues(model.row_id(r))
            cols = sorted({ds.column_position(i.column_id) for i in issues if i.column_id is not None},
                          reverse=backwards)
            if k == 0:
                if not cur.isValid():
                    continue
                cols = [c for c in cols if (c < col if backwards else c > col)]
            if cols:
                self.view.go_to(model.index(r, cols[0]))
                return True
        self.status.showMessage(translate("Operations", "No issues in the rows shown"), 4000)
        return False


def _rows(ds, row_ids) -> tuple[int, str]:
    """How many rows, and their numbers as shown (the first five)."""
    from evaleditor.core.report import some_of

    rows = sorted({ds.position(r) + 1 for r in row_ids})
    return len(rows), some_of(rows, 5)


def _and_guessed(said: str, ds, guessed: list[int]) -> str:
    """A fix's status line, then what its tool-call repair guessed (when it guessed)."""
    if not guessed:
        return said
    return translate("Operations", "{said}; {guessed}").format(said=said, guessed=_arguments_note(ds, guessed))


def _arguments_note(ds, row_ids: list[int]) -> str:
    """What a tool-call repair guessed: the calls that named no arguments were given none."""
    n, rows = _rows(ds, row_ids)
    if n == 1:
        return translate("Operations", "an empty \u201carguments\u201d object was added where a call in row {rows} "
                                       "named none: check that it takes no arguments").format(rows=rows)
    return translate("Operations", "an empty \u201carguments\u201d object was added where calls in rows {rows} "
                                   "named none: check that they take no arguments").format(rows=rows)


def fix_all_report(ds, rule: str, before: int, left: list) -> str:
    """What "Fix all" did: how many of the kind it fixed, and which are left and why."""
    fixed = max(0, before - len(left))
    if not left:
        if fixed == 1:
            return translate("Operations", "Fixed the one {rule} issue").format(rule=rule)
        return translate("Operations", "Fixed all {n} {rule} issues").format(n=f"{fixed:,}", rule=rule)
    n_rows, rows = _rows(ds, [i.row_id for i in left if i.row_id is not None])
    where = "" if not n_rows else translate("Operations", " (row {rows})").format(rows=rows) if n_rows == 1 else \
        translate("Operations", " (rows {rows})").format(rows=rows)
    tools = RULES[rule].fix == "repair-tool-calls"
    if len(left) == 1:
        why = (translate("Operations", "its tool calls are too damaged to repair automatically") if tools
               else translate("Operations", "no automatic fix applies to it"))
        text = translate("Operations", "Fixed {fixed} of {n} {rule} issues; 1 left{where}: {why}, edit it by hand")
    else:
        why = (translate("Operations", "their tool calls are too damaged to repair automatically") if tools
               else translate("Operations", "no automatic fix applies to them"))
        text = translate("Operations", "Fixed {fixed} of {n} {rule} issues; {left} left{where}: {why}, edit them by "
                                       "hand")
    return text.format(fixed=f"{fixed:,}", n=f"{before:,}", rule=rule, left=f"{len(left):,}", where=where, why=why)
