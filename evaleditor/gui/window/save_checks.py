"""What the window checks and says around a save: cells Excel would run as formulas in a CSV file,
and a save whose file did not read back as written.

CSV formulas: before writing a .csv holding cells that start with =, +, - or @ (io/text/csv_safety.py),
the window says how many and asks: write them as they are (the default: open then save with no edit
keeps every cell identical), add a leading ' (Excel then shows them as text), or cancel. The answer
is remembered for that file until the window opens another document, so repeated Ctrl+S does not ask
again; Save As to another .csv asks again.

SDK JSON stores each conversation's turns by place (0, 1, 2 …), so before such a save the document's
conversations are gathered, ordered and numbered 1 … n the same way, as one undo step said in the status
bar (core/editing.sdk_turn_order): what the window shows is what reopening the file shows.

Adding the apostrophe changes the cells, so it is done to the document too, as an undoable step
("Add ' before formulas") pushed before the file is written: the window then shows exactly what the
file holds and what reopening it will show, and Undo gives the cells back as typed (the window is then
modified again: saving writes them as they are or asks anew). A save that fails or is cancelled takes
that step back off the undo stack, leaving the document as it was before the save.

Self-verifying save: save_document reads the file back before it replaces the old one; a difference
raises VerifyError with the cells that differ. The window then keeps the document modified, the old
file stays on disk (io/save.py), and the error lists the first differences.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject

from evaleditor.core.commands import Batch, Command, RenameColumn, SetCells
from evaleditor.core.errors import UnstorableCell, VerifyError
from evaleditor.core.i18n import error_text
from evaleditor.core.i18n import text as core_text
from evaleditor.core.saving import SavePlan, same_file
from evaleditor.gui import dialogs
from evaleditor.gui.window.captions import document_name
from evaleditor.gui.window.undo import CoreUndoCommand

translate = QCoreApplication.translate


class SaveStep(CoreUndoCommand):
    """An undo step a save makes to show what the file will hold (the ' before formulas, SDK turn
    order); `drop()` then undo() removes it from the stack (a failed save leaves no trace of it)."""

    dropped = False
    note = ""  # said with "Saved …" once the file is written
    on_undo = None  # called after an undo of this step

    def drop(self) -> None:
        self.dropped = True

    def undo(self) -> None:
        super().undo()
        if self.on_undo is not None:
            self.on_undo()
        if self.dropped:
            self.setObsolete(True)  # QUndoStack deletes a command that is obsolete after its undo()


class SaveChecks(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self._csv_choice: tuple[object, str, bool] | None = None  # (document, path, neutralise)
        self._told: dict[str, object] = {}  # path -> the document saved there although it leaves something out

    def replace_read_only(self, path: Path) -> bool | None:
        """`replace_read_only` for saving to `path`: False when it is not a read-only file, True when the
        user says to replace it, None when they cancel."""
        from evaleditor.io.atomic import is_read_only

        try:
            if not Path(path).is_file() or not is_read_only(path):
                return False
        except OSError:
            return False  # the save itself says what is wrong
        return True if dialogs.ask_replace_read_only(self.window, Path(path).name) else None

    def neutralise_formulas(self, path: Path, fmt: str) -> bool | None:
        """`neutralise_formulas` for saving the document to `path`; None when the user cancelled."""
        if fmt != "csv":
            return False
        doc = self.window.doc
        key = os.path.realpath(path)
        if self._csv_choice is not None and self._csv_choice[0] is doc and self._csv_choice[1] == key:
            return self._csv_choice[2]
        from evaleditor.core.export import export_headers, export_rows
        from evaleditor.io.text.csv_safety import formula_like_cells

        n = len(formula_like_cells(export_headers(doc.dataset), export_rows(doc.dataset)))
        if not n:
            return False
        answer = dialogs.ask_csv_formulas(self.window, n)
        if answer is None:
            return None
        self._csv_choice = (doc, key, answer)  # for the next saves (forgotten when the ' step is undone)
        return answer

    def leaving_out(self, path: Path, plan: SavePlan) -> str:
        """SAVE when the file will hold everything the document holds, or the user says to save all the
        same (asked once per document and file); else SAVE_AS or CANCEL. Left out (plan: core/saving.py):
        the other sheets of the workbook being replaced, and what SDK cases hold that a table cannot
        (agent traces, rubrics); for SDK JSON, the earlier turns of traces joining a conversation; for
        another platform's file, what its format cannot hold (io/save.plan_save)."""
        doc = self.window.doc
        in_place = doc.path is not None and same_file(path, doc.path)
        key = os.path.realpath(path)
        if self._told.get(key) is doc:
            return dialogs.SAVE
        lines = []
        if plan.other_sheets:
            lines.append(translate("SaveChecks", "the workbook's other sheets: {names}").format(
                names=", ".join(f"\u201c{name}\u201d" for name in plan.other_sheets)))
        if plan.replaced_traces:
            from evaleditor.core.report import replaced_rows, some_of

            written = doc.dataset  # numbered as in the file (and the window once saved): the plan applied
            if plan.command is not None:
                written = written.copy()
                plan.command.apply(written)
            lines.append(translate("SaveChecks", "the earlier turns of agent traces in rows that joined a "
                                                 "conversation as a later turn (their history becomes the "
                                                 "conversation's): rows {rows}").format(
                rows=some_of(replaced_rows(plan, written))))
        if plan.hidden_cases:
            lines.append(translate("SaveChecks", "what SDK cases hold that a table cannot show: agent traces, rubrics, "
                                                 "images … (cases with any: {n:,})").format(n=plan.hidden_cases))
        lines += [core_text(m) for m in plan.format_limits]  # what another platform's file cannot hold
        if not lines:
            return dialogs.SAVE
        answer = dialogs.ask_save_leaving_out(self.window, document_name(doc), plan.fmt, lines, in_place,
                                              bool(plan.other_sheets))
        if answer == dialogs.SAVE:
            self._told[key] = doc
        return answer

    def kept_csv_style(self):
        """Save of a CSV: its own encoding, BOM or none, delimiter and line ends (a delimited.CsvStyle);
        UTF-8 with a BOM, the rest kept, when its encoding cannot hold the text and the user agrees;
        None when they do not."""
        from evaleditor.io.text.delimited import UTF8_CSV, cannot_hold, kept_style

        doc = self.window.doc
        style = kept_style(doc)
        if style.encoding.startswith("utf"):
            return style
        ds = doc.dataset
        bad = cannot_hold(ds.headers(), [row.cells for row in ds.rows], style.encoding)
        if bad is None:
            return style
        if not dialogs.ask_csv_encoding(self.window, document_name(doc), style.encoding, bad):
            return None
        return style._replace(encoding=UTF8_CSV.encoding)

    def before_write(self, plan: SavePlan, neutralise: bool) -> SaveStep | None:
        """Make the document what the file will hold, as one undo step (`take_back` it if the file is
        not written): the plan's header spelling and SDK JSON turn order, the ' before formulas of a
        safe CSV."""
        doc = self.window.doc
        prefix = prefix_formulas_command(doc.dataset) if plan.fmt == "csv" and neutralise else None
        commands = [c for c in (plan.command, prefix) if c is not None]
        if not commands:
            return None
        command = commands[0] if len(commands) == 1 else Batch(commands, commands[0].text)
        step = SaveStep(doc.dataset, command)
        if prefix is not None:  # the formulas are back as typed: the next save asks again, not re-adds the '
            step.on_undo = self._forget_csv_choice
        self.window.undo_stack.push(step)
        if plan.turns_ordered:
            step.note = translate("SaveChecks", "turns ordered and numbered 1, 2, 3 … as SDK JSON stores them "
                                                "(Undo shows them as typed)")
        return step

    def not_saved(self, step: SaveStep | None, fmt: str) -> None:
        """A save failed or was cancelled: `take_back` its step, so that the document, its undo stack and
        its issues are exactly as they were before the save was asked for."""
        self.take_back(step)

    def _forget_csv_choice(self) -> None:
        self._csv_choice = None

    def take_back(self, step: SaveStep | None) -> None:
        """The save did not happen: remove `step` (when it is still the last one), leaving the document
        as modified or as clean as it was before the save."""
        stack = self.window.undo_stack
        if step is None or stack is None or not (stack.index() > 0 and stack.command(stack.index() - 1) is step):
            return
        was_clean = stack.cleanIndex() == stack.index() - 1
        step.drop()
        stack.undo()
        if was_clean:
            stack.setClean()

    def show_error(self, title: str, exc: BaseException | None, message: str = "") -> None:
        """A failed save: the cells that differ for a VerifyError, else the one-line reason."""
        if isinstance(exc, VerifyError):
            dialogs.show_verify_error(self.window, exc.path, exc.mismatches)
            return
        text = error_text(exc) if exc is not None else message
        if isinstance(exc, UnstorableCell) and exc.cells > 1:
            text = translate("SaveChecks", "{n:,} cells cannot be stored in a workbook (shorten them, or save as "
                                           ".csv or .json); the first: {reason}").format(n=exc.cells, reason=text)
        dialogs.show_error(self.window, title, text)


def prefix_formulas_command(ds) -> Command | None:
    """One undo step putting ' before every cell and header Excel would run as a formula (what
    io/csv_safety.neutralise writes), or None when there is none."""
    from evaleditor.io.text.csv_safety import formula_like_cells, neutralise

    rows, columns = ds.rows, ds.columns
    found = formula_like_cells(ds.headers(), [row.cells for row in rows])  # row -1: the header
    renames: list[Command] = [RenameColumn(columns[j].id, neutralise(columns[j].header)) for i, j in found if i < 0]
    changes = [(rows[i].id, columns[j].id, neutralise(rows[i].cells[j])) for i, j in found if i >= 0]
    commands = renames + ([SetCells(changes)] if changes else [])
    if not commands:
        return None
    return Batch(commands, translate("SaveChecks", "Add ' before formulas"))
