"""Offering unsaved edits back after a crash: at start (app.run) the journals no running editor holds
(recovery.py writes them) are listed, and the ones the user chooses are shown again, modified, in a
window; the others are removed. Closing the question without an answer keeps them for the next start."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLockFile

from evaleditor.gui import dialogs
from evaleditor.gui.window.recovery import recovery_dir, remove_journal, try_lock
from evaleditor.gui.window.windows import open_windows

log = logging.getLogger(__name__)
translate = QCoreApplication.translate


@dataclass(eq=False)
class Entry:
    """An orphan journal found at start-up, locked by this process while it is being decided on. Listed
    from its summary; the document itself is read only when it is restored."""

    path: Path
    lock: QLockFile
    summary: object  # io.journal.Summary

    @property
    def name(self) -> str:
        path, display = self.summary.path, self.summary.display_name
        return Path(path).name if path else display or translate("Recovery", "Untitled")

    @property
    def folder(self) -> str:
        return str(Path(self.summary.path).parent) if self.summary.path else ""

    @property
    def rows(self) -> int:
        return self.summary.rows

    @property
    def saved_at(self):
        return self.summary.saved_at

    def read(self):
        """The journalled document (io.journal.Recovered); ReadError when the file is damaged."""
        from evaleditor.io.journal import read_journal

        return read_journal(self.path)

    def discard(self) -> None:
        remove_journal(self.path)
        self.lock.unlock()

    def keep(self) -> None:
        """Leave it for the next start."""
        self.lock.unlock()


def orphans() -> list[Entry]:
    """The journals no running editor holds, oldest first. Unreadable ones are left where they are."""
    from evaleditor.core.errors import ReadError
    from evaleditor.io.journal import read_summary

    folder = recovery_dir()
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    entries = []
    for name in names:
        stem, _, suffix = name.rpartition(".")
        if suffix == "lock" and f"{stem}.json" not in names:  # killed before its first journal
            lock = try_lock(folder / name)
            if lock is not None:
                lock.unlock()
            continue
        if suffix != "json":
            continue
        lock = try_lock(folder / f"{stem}.lock")
        if lock is None:
            continue  # another window, open now, owns it
        try:
            summary = read_summary(folder / name)
        except ReadError as exc:
            log.warning("skipping %s", exc)
            lock.unlock()
            continue
        entries.append(Entry(folder / name, lock, summary))
    entries.sort(key=lambda e: (e.saved_at is None, e.saved_at))
    return entries


def restore(window, entry: Entry) -> bool:
    """Show a journalled document in `window`: modified (not in its file yet), saving to its file.
    False, with the reason shown, when the journal cannot be read after all (it stays where it is)."""
    from evaleditor.core.errors import ReadError
    from evaleditor.core.i18n import error_text

    try:
        rec = entry.read()
    except ReadError as exc:
        log.warning("cannot restore %s", exc)
        entry.keep()
        dialogs.show_error(window, translate("Recovery", "Cannot restore the unsaved changes"), error_text(exc))
        return False
    doc = rec.document
    if doc.path is None and rec.display_name:
        doc.display_name = rec.display_name
    window.set_document(doc)
    window.documents.file_stamp = rec.stamp
    window.recovery.adopt(entry)
    window.undo_stack.resetClean()  # modified, and no undo step leads back to "saved"
    window.update_title()
    window.statusBar().showMessage(translate("Recovery", "Restored the unsaved changes to {name}; save to keep "
                                                         "them").format(name=entry.name), 10000)
    return True


def _holder(candidates: list, entry: Entry):
    """The window among `candidates` that shows (or is opening) the entry's file, with no edits of its
    own: the restored edits replace what it shows, rather than a second window on the same file."""
    if not entry.summary.path:
        return None
    path = Path(entry.summary.path)
    return next((w for w in candidates if w.documents.holds(path) and not w.is_modified()), None)


def offer_restore(window) -> list:
    """Ask whether to restore the orphan journals; restore the chosen ones (into the window that shows
    or is opening the same file, else into `window` when it shows nothing, else into new windows of its
    kind) and remove the others. Closing the question without an answer keeps them for the next start.
    Returns the windows restored into."""
    entries = orphans()
    if not entries:
        return []
    chosen = dialogs.ask_restore(window, entries)
    if chosen is None:
        for entry in entries:
            entry.keep()
        return []
    for entry in entries:
        if entry not in chosen:
            entry.discard()
    candidates = [window, *(w for w in open_windows() if w is not window)]
    windows = []
    for entry in chosen:
        target = _holder(candidates, entry)
        if target is not None:
            target.tasks.cancel_and_wait()  # its load of the file: the restore replaces it
        elif window.doc is None and window.tasks.current is None:  # (not a window still loading its file)
            target = window
        new = target is None
        if new:
            target = type(window)()
            target.show()
        if restore(target, entry):
            windows.append(target)
        elif new:
            target.close()
    return windows
