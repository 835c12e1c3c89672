"""Opening, saving and replacing the window's document; unsaved-changes and changed-on-disk checks.

Small files load on the UI thread (a few milliseconds); big ones load in the window's Tasks (a progress
bar and Cancel), while the table stays visible and read-only. Every save runs in the Tasks, off the UI
thread (a slow disk's fsync took 1.9 s for 2,000 rows): a small document's shows nothing unless it
takes longer than QUIET_SAVE_MS (the user's input waits meanwhile, kept, the window painting).

Documents (MainWindow makes one: `window.documents`) is handed what it touches: the window (which shows
a document: `doc`, set_document, its title, banner, action states and status bar; the parent of the
questions asked), the table's view (an edit still open in a cell is committed first), the undo stack,
the window's Tasks, its recovery journal and its save checks (save_checks.py). It makes and owns the
changed-on-disk watch (disk_watch.py: `documents.disk_watch`).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QUndoStack

from evaleditor.core.errors import Cancelled, EvalEditorError
from evaleditor.core.i18n import error_text
from evaleditor.core.saving import WRITABLE, default_format, same_file
from evaleditor.gui import dialogs
from evaleditor.gui.window import settings
from evaleditor.gui.window.captions import document_name
from evaleditor.gui.window.checking import finish_now
from evaleditor.gui.window.disk_watch import DiskWatch, file_stamp
from evaleditor.gui.window.save_checks import SaveChecks
from evaleditor.gui.window.save_target import csv_change, not_written, suggested_stem
from evaleditor.gui.window.tasks import Tasks
from evaleditor.io.load import BACKGROUND_BYTES

ENCODED_FORMATS = ("csv", "tsv")  # text files, read in an encoding (File ▸ Reopen with Encoding)

BACKGROUND_ROWS = 20_000  # datasets of more rows than this show their save's progress at once
QUIET_SAVE_MS = 250  # a smaller one's save shows it only when it takes longer than this
translate = QCoreApplication.translate


def _stoppable(progress, cancelled):
    """A save's progress callback that stops the save (Cancelled) when the user cancels, while the old
    file is still in place: the last report (done == total) comes after the file was replaced."""
    def report(done: int, total: int) -> None:
        if done < total and cancelled():
            raise Cancelled()
        progress(done, total)
    return report


class Documents:
    background_bytes = BACKGROUND_BYTES
    background_rows = BACKGROUND_ROWS
    quiet_save_ms = QUIET_SAVE_MS

    def __init__(self, window, view, undo_stack: QUndoStack, tasks: Tasks, journal, checks: SaveChecks):
        self.window, self.view, self.undo_stack, self.tasks = window, view, undo_stack, tasks
        self.journal, self.checks = journal, checks  # checks: asked before a save (sheets left out, CSV formulas …)
        self.status = window.statusBar()
        self.file_stamp: tuple[int, int] | None = None  # (mtime, size) of the file as last read or written
        self.opening: Path | None = None  # the file a load under way reads
        self.shape_message = ""  # the status message that said the opened file's shape (an edit makes it stale)
        self.disk_watch = DiskWatch(window, self)  # the file changed on disk: asked on focus and before Save

    @property
    def doc(self):
        return self.window.doc

    # ----- open ----------------------------------------------------------------------------------------
    def open_dialog(self) -> None:
        """Ask about unsaved changes first, then which file (the user decides about the edits before
        choosing; a cancelled dialog drops nothing)."""
        if self.tasks.current is None and not self.maybe_save():
            return
        start = str(self.doc.path.parent) if self.doc is not None and self.doc.path else ""
        path = dialogs.open_file_name(self.window, start)
        if path:
            self.open_file(path, discard=True)

    def open_file(self, path, sheet: str | None = None, target: str | None = None,
                  background: bool | None = None, discard: bool = False, encoding: str | None = None,
                  preloaded=None) -> bool:
        """Open `path` (asking first about unsaved changes, unless `discard`: the edits are dropped once
        the file is read). Big files load in the background: then this returns True at once and the
        document appears when loaded. `preloaded`: the load of `path` already under way (io.load.Preload,
        started before the window existed), taken in the background."""
        if self.tasks.current is not None:
            self.status.showMessage(translate("Documents", "Wait for the current load or save to finish (or "
                                                                "cancel it)"), 5000)
            return False
        if not discard and not self.maybe_save():
            return False
        path = Path(path).absolute()  # journals and saves must not depend on the folder we were started in
        if background is None:
            background = preloaded is not None or path.is_file() and path.stat().st_size > self.background_bytes
        from evaleditor.io.load import load_document
        if background:
            load = preloaded.take if preloaded is not None else \
                lambda progress, cancel: load_document(path, sheet, target, progress, cancel, deferred=True,
                                                       encoding=encoding)
            self.opening = path
            self.tasks.start(translate("Documents", "Opening {name}\u2026").format(name=path.name), load,
                             self._opened, translate("Documents", "Cannot open the file"),
                             on_failure=lambda: setattr(self, "opening", None))
            return True
        try:
            doc = load_document(path, sheet=sheet, target=target, encoding=encoding)
        except EvalEditorError as exc:
            dialogs.show_error(self.window, translate("Documents", "Cannot open the file"), error_text(exc))
            return False
        self._opened(doc)
        return True

    def holds(self, path: Path) -> bool:
        """Whether the window shows the file `path`, or is opening it: the same file however it was named
        (`evaleditor ../x/crash.csv` opens the file a journal names as /home/…/x/crash.csv)."""
        shown = self.opening if self.tasks.current is not None else self.doc and self.doc.path
        return bool(shown) and same_file(shown, path)

    def _opened(self, doc) -> None:
        self.opening = None
        self.window.set_document(doc)
        self.file_stamp = file_stamp(doc.path)
        if doc.path:
            settings.add_recent(doc.path)
        name = doc.path.name if doc.path else translate("Documents", "file")
        if any(i.rule == "encoding-guessed" for i in doc.validator.static_file):
            from evaleditor.io.text.delimited import ENCODING_NAMES

            self.shape_message = translate("Documents", "Opened {name} as {encoding} (its bytes fit other "
                                                        "encodings too: File \u25b8 Reopen with Encoding): {shape}").format(
                name=name, encoding=ENCODING_NAMES.get(doc.encoding or "", doc.encoding), shape=doc.shape.line)
            self.status.showMessage(self.shape_message, 15000)
            return
        self.shape_message = translate("Documents", "Opened {name}: {shape}").format(name=name, shape=doc.shape.line)
        self.status.showMessage(self.shape_message, 8000)

    def reopen_with_encoding(self, encoding: str) -> bool:
        """Read the open text file again in `encoding` (asking first about unsaved changes)."""
        doc = self.doc
        if doc is None or doc.path is None or doc.source_format not in ENCODED_FORMATS:
            self.status.showMessage(translate("Documents", "Only a text file (.csv, .tsv, .txt) is read in an "
                                                               "encoding"), 6000)
            return False
        return self.open_file(doc.path, target=doc.dataset.target.name, encoding=encoding)

    def choose_sheet(self) -> None:
        doc = self.doc
        if doc is None or len(doc.sheets) < 2 or doc.path is None:
            return
        sheet = dialogs.choose_sheet(self.window, doc.sheets, doc.sheet)
        if sheet and sheet != doc.sheet:
            self.open_file(doc.path, sheet=sheet, target=doc.dataset.target.name)

    def new_from_template(self, target: str) -> bool:
        if self.tasks.current is not None or not self.maybe_save():
            return False
        from evaleditor.io.save import template_document
        doc = template_document(target, settings.header_language() or "en", blank_rows=1)  # a row to type into, as a new sheet
        doc.validator.await_first_case()  # no case yet is no error before the first save
        self.window.set_document(doc)
        self.file_stamp = None
        settings.set_last_target(target)
        return True

    def set_target(self, name: str, remember: bool = True) -> None:
        """Check against target `name`; `remember` it for File ▸ New (not when a save switched it)."""
        if self.doc is None:
            settings.set_last_target(name)  # used by File ▸ New and the next empty window
            return
        if self.window.model.read_only:
            return
        self.view.commit_editor()  # the editor was made for the old target (its limit, its kind)
        old = self.doc.dataset.target.name
        if name != old:
            if old not in self.doc.header_targets:
                self.doc.header_targets.append(old)
            self.doc.dataset.set_target(name)
            self.journal.changed()  # journalled with the edits, if any
            self.status.showMessage(translate("Documents", "Checking against {target}").format(target=name), 4000)
        if remember:
            settings.set_last_target(name)
        self.window.actions.targets[name].setChecked(True)
        self.window.refresh_banner()

    # ----- save ----------------------------------------------------------------------------------------
    def maybe_save(self) -> bool:
        """True when the current document may be dropped: unmodified, saved now, or discarded. An edit
        still open in a cell is committed first, so that it is asked about like any other."""
        self.view.commit_editor()
        if not self.window.is_modified():
            return True
        answer = dialogs.ask_save_changes(self.window, document_name(self.doc))
        if answer == dialogs.SAVE:
            return self.save(wait=True)
        return answer == dialogs.DISCARD

    def save(self, wait: bool = False) -> bool:
        doc = self.doc
        if doc is None or self.tasks.current is not None:
            return False
        self.view.commit_editor()
        if doc.path is None or doc.source_format not in WRITABLE or doc.path.suffix.lower()[1:] not in WRITABLE:
            why = not_written(doc)  # an .ods: said in the status bar as Save As proposes .xlsx
            if why:
                self.status.showMessage(why, 10000)
            return self.save_as(wait=wait)
        handled = self.disk_watch.before_save(wait)  # the file changed on disk: reload, keep mine, save as
        if handled is not None:
            return handled
        # the format the name says, as every save writes it (a workbook named .csv becomes CSV text)
        return self._write(doc.path, doc.path.suffix.lower()[1:], wait, keep_csv=True)

    def save_as(self, path=None, fmt: str | None = None, wait: bool = False) -> bool:
        """Save under a new name, the headers spelt as Data ▸ Headers When Saving As says (by default kept
        as they are, as `evaleditor convert IN OUT` keeps them)."""
        doc = self.doc
        if doc is None or self.tasks.current is not None:
            return False
        self.view.commit_editor()
        from evaleditor.io.save import output_format
        fmt = fmt or default_format(doc)
        if path is None:
            folder = doc.path.parent if doc.path else Path.home()  # never beside a bundled sample (the demo)
            path = dialogs.save_file_name(self.window, str(folder / f"{suggested_stem(doc)}.{fmt}"), fmt)
            if not path:
                return False
        try:
            out = output_format(path)
        except EvalEditorError as exc:
            dialogs.show_error(self.window, translate("Documents", "Cannot save"), error_text(exc))
            return False
        # the headers `evaleditor convert IN OUT [--headers <language>]` writes: the same SavePlan
        return self._write(Path(path).absolute(), out, wait, settings.header_language())

    def _write(self, path: Path, fmt: str, wait: bool, headers: str | None = None, keep_csv: bool = False) -> bool:
        """Write the document as `fmt`: what the file will hold comes from io.save.plan_save (the same
        plan as convert's); the window asks about what it leaves out and pushes its command.
        `keep_csv` (Save of a CSV): in the file's own encoding, delimiter and line ends; otherwise a
        .csv is UTF-8 with a BOM and commas."""
        from evaleditor.io.excel.write import safe_sheet_title
        from evaleditor.io.save import plan_save, save_document
        finish_now(self.doc)  # the save's questions count issues (control characters …)
        doc = self.doc
        plan = plan_save(doc, fmt, headers=headers, path=path)
        leaving = self.checks.leaving_out(path, plan)  # other sheets, SDK traces, platform files: asked first
        if leaving == dialogs.SAVE_AS:
            return self.save_as(wait=wait)
        if leaving != dialogs.SAVE:
            return False
        replace = self.checks.replace_read_only(path)  # asked, as editors ask
        if replace is None:
            return False
        neutralise = self.checks.neutralise_formulas(path, fmt)  # CSV cells Excel would run
        if neutralise is None:
            return False
        style = None
        if fmt == "csv" and keep_csv:
            style = self.checks.kept_csv_style()  # asked only when its encoding cannot hold the text
            if style is None:
                return False
        step = self.checks.before_write(plan, neutralise)  # the window shows what the file will hold
        index = self.undo_stack.index()

        def saved(_result=None) -> None:
            if doc is not self.doc:
                return
            changed = csv_change(doc) if fmt == "csv" and style is None else ""  # how the file was written before
            if style is not None and style.encoding != doc.encoding:
                changed = translate("Documents", "written as UTF-8: {encoding} cannot hold every character").format(
                    encoding=(doc.encoding or "").upper())
            if fmt == "xlsx":  # the file now holds this one sheet (its name kept)
                doc.sheet = safe_sheet_title(doc.sheet or "Cases")
            doc.saved_as(path, fmt, style)
            if plan.target != doc.dataset.target.name:  # a format only another target takes: reopening infers it
                self.set_target(plan.target, remember=False)
            if self.undo_stack.index() == index:
                self.undo_stack.setClean()
            self.file_stamp = file_stamp(doc.path)
            settings.add_recent(doc.path)
            self.window.update_title()
            self.window.action_states.update()
            self.window.refresh_banner()
            said = translate("Documents", "Saved {path}").format(path=doc.path)
            if changed:
                said += " \u00b7 " + changed
            if step is not None and step.note:
                said += " \u00b7 " + step.note
            self.status.showMessage(said, 10000 if step is not None else 6000)

        quiet = self.quiet_save_ms if doc.dataset.row_count() <= self.background_rows else 0
        ended = self.tasks.start(translate("Documents", "Saving {name}\u2026").format(name=path.name),
                                lambda progress, cancel: save_document(doc, path, progress=_stoppable(progress, cancel),
                                                                       neutralise_formulas=neutralise,
                                                                       replace_read_only=replace, csv_style=style,
                                                                       plan=plan),
                                saved, translate("Documents", "Cannot save"),
                                on_failure=lambda: doc is self.doc and self.checks.not_saved(step, fmt),
                                done_is_done=True, quiet_ms=quiet, wait=wait)
        return ended is not False  # saved, or saving in the background

    def close(self) -> bool:
        """The window closes: the running load or save is cancelled; True when the document may go
        (unmodified, saved now, or discarded), and then its recovery journal goes too. A job that has
        not ended even then (a save in a slow disk's fsync) keeps the window open, nothing asked: its
        thread must not outlive the window, and Save could not start beside it."""
        if not self.tasks.stop():
            self.status.showMessage(translate("Documents", "The window stays open until the save or load under "
                                                           "way has ended: close it again then"), 10000)
            return False
        if not self.maybe_save():
            return False
        self.journal.discard()  # saved, or the edits were discarded
        return True
