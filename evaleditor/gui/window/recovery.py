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

The window never waits for a write (at 100k rows one takes a second or more): a change of the dataset
stops the write under way between two blocks of rows (its copy is out of date; the previous journal
stays, and the next write follows DELAY_MS later), unless the write was overdue (MAX_WAIT_S of edits
without a pause: it finishes, or edits never stop would never be journalled). A newer write starts on
a thread that first waits, off the UI thread, for the one before it to stop.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
import weakref
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


class _Write:
    """One journal write, on a thread of its own: `stop` it when a newer state makes it useless."""

    def __init__(self, path: Path, record: dict, first_pending: float | None, overdue: bool,
                 previous: _Write | None, failed: Signal):
        self.first_pending, self.overdue = first_pending, overdue  # overdue: the document changing does not stop it
        self._stop = threading.Event()
        self._args = path, record, previous, failed
        self.thread = threading.Thread(target=self._run, daemon=True, name="evaleditor-journal")
        self.thread.start()

    def stop(self) -> None:
        self._stop.set()

    def running(self) -> bool:
        return self.thread.is_alive()

    def _run(self) -> None:
        from evaleditor.io.journal import write_journal

        path, record, previous, failed = self._args
        self._args = None
        if previous is not None:
            previous.thread.join()  # it was told to stop: at most one block of rows more
        if self._stop.is_set():
            return
        try:
            write_journal(path, record, stop=self._stop.is_set)
        except Exception as exc:  # noqa: BLE001 - a failed journal must not take the window down
            log.warning("cannot write the recovery file %s: %s", path, exc)
            failed.emit(str(exc))


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
        self._writing: _Write | None = None
        self._watched = None  # the dataset whose changes stop a write (a core Dataset listener)
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

    def is_writing(self) -> bool:
        return self._writing is not None and self._writing.running()

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

        if not self._claim():
            return False
        try:
            record = snapshot(w.doc, stamp=w.documents.file_stamp, display_name=w.doc.display_name)
        except (TypeError, ValueError) as exc:
            log.warning("cannot journal the document: %s", exc)
            return False
        first, self._first_pending = self._first_pending, None
        overdue = first is not None and time.monotonic() - first >= MAX_WAIT_S
        previous = self._writing
        if previous is not None:
            previous.stop()  # this snapshot is newer
        self._watch(w.doc.dataset)
        self._writing = _Write(self.path, record, first, overdue, previous, self.failed)
        if wait:
            self._join()
        return True

    # a core Dataset listener: told before every change of the document's dataset (an edit, an undo)
    def before_change(self, _change) -> None:
        """The dataset is about to change: the write under way copied it before, so it stops (before the
        change's own work, which would otherwise share the interpreter with it), unless it is overdue."""
        writing = self._writing
        if writing is not None and not writing.overdue and writing.running():
            writing.stop()
            if writing.first_pending is not None:  # its edits are pending again, since when they were
                self._first_pending = min(writing.first_pending, self._first_pending or writing.first_pending)

    def after_change(self, _change) -> None:
        pass

    def _watch(self, ds) -> None:
        if self._watched is not None and self._watched() is ds:
            return
        if self._watched is not None and (old := self._watched()) is not None:
            old.unsubscribe(self)
        ds.subscribe(self)
        self._watched = weakref.ref(ds)

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
        if self._writing is not None:
            self._writing.thread.join()
            self._writing = None

    def discard(self) -> None:
        """Remove the journal (the document is saved, discarded or replaced). A write under way is stopped
        and the journal removed once it has, by a thread of its own: the window does not wait."""
        self._timer.stop()
        self._first_pending = None
        writing, path, lock = self._writing, self.path, self._lock
        self._writing, self.path, self._lock = None, None, None
        if writing is not None and writing.running():
            writing.stop()
            threading.Thread(target=_remove_when_written, args=(writing.thread, path, lock),
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
