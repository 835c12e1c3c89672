"""Crash recovery: unsaved edits are journalled to the user's data folder, and offered back at the
next start after a crash (a kill, a power cut, a bug).

Where: `<data>/recovery/`, where `<data>` is $EVALEDITOR_DATA_DIR when set (tests), otherwise
QStandardPaths.AppDataLocation (e.g. ~/.local/share/evaleditor/evaleditor on Linux,
%APPDATA%/evaleditor/evaleditor on Windows, ~/Library/Application Support/evaleditor on macOS).
Each window with unsaved edits owns one journal, `<pid>-<random>.json` (format: io/journal.py), and
holds `<pid>-<random>.lock` (a QLockFile) while it runs, so that a second editor process never
offers the journals of a window that is still open. A lock whose process is gone is stale: its
journal is an orphan, offered at the next start (app.run → offer_restore).

When: DELAY_MS (3 s) after the last change of the undo stack (an edit, undo, redo), or at the latest
MAX_WAIT_S (30 s) after the first change not yet journalled while edits keep coming. The dataset is
copied on the UI thread (about 50 ms for 100k rows) and encoded and written atomically on a worker
thread. The journal is removed when the document becomes unmodified (a clean save, undo back to the
saved state), when another document replaces it, and when the window closes (after "Discard").
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import shiboken6
from PySide6.QtCore import QCoreApplication, QLockFile, QObject, QStandardPaths, QTimer, Signal

from evaleditor.gui import dialogs

ENV_DATA_DIR = "EVALEDITOR_DATA_DIR"
DELAY_MS = 3000
MAX_WAIT_S = 30.0
log = logging.getLogger(__name__)
translate = QCoreApplication.translate


def data_dir() -> Path:
    env = os.environ.get(ENV_DATA_DIR)
    if env:
        return Path(env)
    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))


def recovery_dir() -> Path:
    return data_dir() / "recovery"


def _try_lock(path: Path) -> QLockFile | None:
    """The lock at `path` if no running process holds it (a stale lock is taken over)."""
    lock = QLockFile(str(path))
    lock.setStaleLockTime(0)  # stale only when its process is gone, however long a window stays open
    return lock if lock.tryLock(0) else None


class Journal(QObject):
    """The recovery journal of one window."""

    failed = Signal(str)  # emitted on the UI thread with a one-line reason

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.delay_ms = DELAY_MS
        self.path: Path | None = None
        self._lock: QLockFile | None = None
        self._first_pending: float | None = None
        self._thread: threading.Thread | None = None
        self._timer = QTimer(self, singleShot=True, timeout=self.write)
        window.undo_stack.indexChanged.connect(self.changed)
        window.undo_stack.cleanChanged.connect(self.changed)
        self.failed.connect(lambda reason: window.statusBar().showMessage(
            translate("Recovery", "Cannot keep a recovery copy of the unsaved changes: {reason}").format(
                reason=reason), 10000))

    def changed(self, *_args) -> None:
        if not shiboken6.isValid(self.window) or not shiboken6.isValid(self.window.undo_stack):
            return  # the window is being destroyed
        if not self.window.is_modified():
            self.discard()
            return
        now = time.monotonic()
        if self._first_pending is None:
            self._first_pending = now
        if now - self._first_pending >= MAX_WAIT_S:
            self.write()
        else:
            self._timer.start(self.delay_ms)

    def is_pending(self) -> bool:
        return self._timer.isActive()

    def write(self, wait: bool = False) -> bool:
        """Journal the document now (on a worker thread; `wait` for it). False when nothing was written."""
        self._timer.stop()
        w = self.window
        if not w.is_modified():
            self.discard()
            return False
        if w.tasks.current is not None:  # a load or save is running: the document may be replaced; try later
            self._timer.start(self.delay_ms)
            return False
        from evaleditor.io.journal import snapshot

        self._join()
        if not self._claim():
            return False
        try:
            record = snapshot(w.doc, stamp=w.documents.file_stamp, display_name=w.doc.display_name)
        except (TypeError, ValueError) as exc:
            log.warning("cannot journal the document: %s", exc)
            return False
        self._first_pending = None
        self._thread = threading.Thread(target=self._write_file, args=(self.path, record), daemon=True,
                                        name="evaleditor-journal")
        self._thread.start()
        if wait:
            self._join()
        return True

    def _write_file(self, path: Path, record: dict) -> None:
        from evaleditor.io.journal import write_journal

        try:
            write_journal(path, record)
        except Exception as exc:  # noqa: BLE001 - a failed journal must not take the window down
            log.warning("cannot write the recovery file %s: %s", path, exc)
            self.failed.emit(str(exc))

    def _claim(self) -> bool:
        if self._lock is not None:
            return True
        folder = recovery_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            log.warning("cannot create the recovery folder %s: %s", folder, exc)
            self.failed.emit(f"{folder}: {exc.strerror or exc}")
            return False
        name = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
        lock = _try_lock(folder / f"{name}.lock")
        if lock is None:
            return False
        self._lock, self.path = lock, folder / f"{name}.json"
        return True

    def _join(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def discard(self) -> None:
        """Remove the journal (the document is saved, discarded or replaced)."""
        self._timer.stop()
        self._first_pending = None
        self._join()
        if self.path is not None:
            _remove(self.path)
        if self._lock is not None:
            self._lock.unlock()
        self.path, self._lock = None, None

    def release(self) -> None:
        """Let go of the journal without removing it, as a crash would (tests; the next start offers it)."""
        self._timer.stop()
        self._join()
        if self._lock is not None:
            self._lock.unlock()
        self.path, self._lock = None, None

    def adopt(self, entry: Entry) -> None:
        """Go on journalling into a restored entry's file (whose lock the scan took)."""
        self.discard()
        self.path, self._lock = entry.path, entry.lock


def _remove(path: Path) -> None:
    from evaleditor.io.atomic import remove_stale_temps

    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        log.warning("cannot remove the recovery file %s: %s", path, exc)
    remove_stale_temps(path)


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
        _remove(self.path)
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
            lock = _try_lock(folder / name)
            if lock is not None:
                lock.unlock()
            continue
        if suffix != "json":
            continue
        lock = _try_lock(folder / f"{stem}.lock")
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


def offer_restore(window) -> list:
    """Ask whether to restore the orphan journals; restore the chosen ones (into `window` when it shows
    nothing, else into new windows of its kind) and remove the others. Closing the question without
    an answer keeps them for the next start. Returns the windows restored into."""
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
    windows = []
    for entry in chosen:
        empty = window.doc is None and window.tasks.current is None  # (not a window still loading its file)
        target = window if empty and not windows else type(window)()
        if target is not window:
            target.show()
        if restore(target, entry):
            windows.append(target)
        elif target is not window:
            target.close()
    return windows
