"""The window's one background job at a time: a big file's load, any save, a replace-all in slices.
Tasks is handed what it touches: the widget that owns the jobs, the table (read-only while one runs),
the progress strip, the status bar, how a failure is shown and how the window goes busy (read-only)
and back (MainWindow makes one: `window.tasks`)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, QObject, Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QStatusBar, QWidget

from evaleditor.gui.window.loader import BackgroundTask, ProgressStrip

translate = QCoreApplication.translate

_READING_KEYS = {Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_PageUp,
                 Qt.Key.Key_PageDown, Qt.Key.Key_Home, Qt.Key.Key_End, Qt.Key.Key_Tab, Qt.Key.Key_Backtab,
                 Qt.Key.Key_Shift, Qt.Key.Key_Control, Qt.Key.Key_Alt, Qt.Key.Key_Meta, Qt.Key.Key_AltGr}


class RefusedKeys(QObject):
    """While a job runs the table is read-only: a key pressed in it that would have changed something
    (typed text, Ctrl+Z, Ctrl+S …) is not taken, and `said()` tells the user so, instead of it vanishing."""

    def __init__(self, table: QWidget, said: Callable[[], None]):
        super().__init__(table)
        self.table, self.said = table, said

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.KeyPress and event.key() not in _READING_KEYS \
                and not event.matches(QKeySequence.StandardKey.Copy) and not event.matches(QKeySequence.StandardKey.SelectAll):
            self.said()
        return False


class Tasks:
    stop_wait_ms = 10_000  # how long a closing window waits for its cancelled job
    def __init__(self, owner: QWidget, table: QWidget, progress: ProgressStrip, status: QStatusBar,
                 show_error: Callable[..., None], set_busy: Callable[[bool], None]):
        self.owner, self.progress, self.status = owner, progress, status
        self._show_error, self._set_busy = show_error, set_busy
        self.current = None  # the job running (a loader.BackgroundTask or SlicedTask), else None
        self._shown = False  # its progress strip is up, the window read-only
        self._text = ""  # what the job does ("Saving cases.csv…")
        self._last_report: tuple[int, int] | None = None  # the job's last progress (shown when it shows)
        self._refused = RefusedKeys(table, self._say_refused)
        progress.cancelRequested.connect(self.cancel)

    def start(self, text: str, fn, on_success, error_title: str, on_failure=None, done_is_done=False,
              task=None, quiet_ms: int = 0, wait: bool = False) -> bool | None:
        """Run `fn` in the background (loader.BackgroundTask), or `task` (a loader.SlicedTask);
        `on_success(result)`, else `on_failure()` (failed or cancelled).

        `quiet_ms`: a job that ends within it shows nothing (a quick save: no progress strip flashing,
        the window not turning read-only and back). Meanwhile the event loop turns (the window paints,
        timers fire) but the user's input waits, kept, as it did while a save ran on the UI thread.
        A job still running then shows its progress and Cancel, the window read-only (the job reads the
        document: an edit now would race it), and only then gets the input that waited: what of it
        would change something (typed text, Ctrl+Z, Ctrl+S) is not taken, and the status bar says so,
        as it does for any such key while a job runs. `wait`: return only once the job has ended, the
        user's input kept waiting (a save before the window closes), then delivered to the window as it
        is again. Returns None while the job runs, else whether it succeeded."""
        task = task or BackgroundTask(fn, self.owner, done_is_done)
        self.current, self._shown, self._text, self._last_report = task, False, text, None
        ended: list[bool] = []  # its first item: whether it succeeded (`finished` comes last)
        task.succeeded.connect(lambda _result: ended.append(True))
        task.finished.connect(lambda: ended.append(False))
        task.progressed.connect(self._report)
        task.succeeded.connect(on_success)
        if on_failure is not None:
            task.failed.connect(lambda _message: on_failure())
            task.cancelled.connect(on_failure)
        task.failed.connect(lambda message: self._failed(error_title, task.error, message))
        task.cancelled.connect(lambda: self.status.showMessage(translate("Documents", "Cancelled"), 5000))
        task.finished.connect(self._finished)
        if not quiet_ms:
            self._show(text, wait)
        task.start()
        if quiet_ms and self._hold_input(task, quiet_ms):
            self._show(text, wait)
        if wait:
            self._hold_input(task)
        return ended[0] if ended else None

    def _show(self, text: str, wait: bool) -> None:
        """The job's progress strip (with its last report, if any came while nothing showed), the window
        read-only; no Cancel while the user's input waits."""
        self._shown = True
        self._set_busy(True)
        self._refused.table.installEventFilter(self._refused)  # the table's keys only: no Python call per event of the app
        self.progress.begin(text)
        if self._last_report is not None:
            self.progress.report(*self._last_report)
        self.progress.cancel_button.setEnabled(not wait)

    def _report(self, done: int, total: int) -> None:
        self._last_report = (done, total)
        self.progress.report(done, total)

    def _say_refused(self) -> None:
        self.status.showMessage(translate("Documents", "{job} The table is read-only until it ends: that key was "
                                                       "not taken").format(job=self._text), 8000)

    def _hold_input(self, task, ms: int | None = None) -> bool:
        """Turn the event loop, the user's input kept for later, until `task` ends or `ms` have passed;
        True when it is still running."""
        if self.current is not task:
            return False
        loop = QEventLoop()
        task.finished.connect(loop.quit)
        if ms is not None:
            QTimer(loop, singleShot=True, interval=ms, timeout=loop.quit).start()
        loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        return self.current is task

    def _failed(self, title: str, error, message: str) -> None:
        """The job failed: its progress strip goes first, so that the elapsed seconds and Cancel of a job
        that is over do not go on behind the error shown (a refused huge file)."""
        self._hide()
        self._show_error(title, error, message)

    def _hide(self) -> None:
        shown, self._shown = self._shown, False
        if shown:
            self._refused.table.removeEventFilter(self._refused)
            self.progress.end()
            self._set_busy(False)

    def _finished(self) -> None:
        self._hide()
        if self.current is not None:
            self.current.deleteLater()
        self.current = None

    def cancel(self) -> None:
        if self.current is not None:
            self.current.cancel()
            self.progress.cancel_button.setEnabled(False)

    def cancel_and_wait(self) -> None:
        """Cancel the job and turn the event loop (the user's input kept) until it has ended and what it
        ends with has been handled: a load that finished first has shown its document by then."""
        task = self.current
        if task is not None:
            self.cancel()
            self._hold_input(task)

    def stop(self) -> bool:
        """The window closes: cancel the job and wait for it (at most stop_wait_ms); True when no job
        runs any more. A save in a slow disk's fsync cannot stop at once: its thread still runs."""
        if self.current is not None:
            self.current.cancel()
            return self.current.wait(self.stop_wait_ms)
        return True
