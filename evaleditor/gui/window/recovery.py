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
The journals are offered back at the next start by restoring.py.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from pathlib import Path

import shiboken6
from PySide6.QtCore import QCoreApplication, QLockFile, QObject, QStandardPaths, QTimer, Signal

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


def try_lock(path: Path) -> QLockFile | None:
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
        lock = try_lock(folder / f"{name}.lock")
        if lock is None:
            return False
        self._lock, self.path = lock, folder / f"{name}.json"
        return True

    def _join(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def discard(self) -> None:
        """Remove the journal (the document is saved, discarded or replaced). One still being written is
        removed once written, by a thread of its own: the window does not wait (at 100k rows a journal
        takes seconds to write, and an undo back to the saved state used to freeze until it was)."""
        self._timer.stop()
        self._first_pending = None
        writing, path, lock = self._thread, self.path, self._lock
        self._thread, self.path, self._lock = None, None, None
        if writing is not None and writing.is_alive():
            threading.Thread(target=_remove_when_written, args=(writing, path, lock),
                             name="evaleditor-journal-discard").start()
        else:
            _remove_when_written(None, path, lock)

    def release(self) -> None:
        """Let go of the journal without removing it, as a crash would (tests; the next start offers it)."""
        self._timer.stop()
        self._join()
        if self._lock is not None:
            self._lock.unlock()
        self.path, self._lock = None, None

    def adopt(self, entry) -> None:
        """Go on journalling into a restored entry's file (a restoring.Entry, whose lock the scan took)."""
        self.discard()
        self.path, self._lock = entry.path, entry.lock


def _remove_when_written(writing: threading.Thread | None, path: Path | None, lock: QLockFile | None) -> None:
    if writing is not None:
        writing.join()
    if path is not None:
        remove_journal(path)
    if lock is not None:
        lock.unlock()


def remove_journal(path: Path) -> None:
    from evaleditor.io.atomic import remove_stale_temps

    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        log.warning("cannot remove the recovery file %s: %s", path, exc)
    remove_stale_temps(path)
