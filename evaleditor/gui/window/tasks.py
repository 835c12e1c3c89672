"""The window's one background job at a time: a big file's load or save, a replace-all in slices.
Tasks is handed what it touches: the widget that owns the jobs, the progress strip, the status bar,
how a failure is shown and how the window goes busy (read-only) and back (MainWindow makes one:
`window.tasks`)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QStatusBar, QWidget

from evaleditor.gui.window.loader import BackgroundTask, ProgressStrip

translate = QCoreApplication.translate


class Tasks:
    def __init__(self, owner: QWidget, progress: ProgressStrip, status: QStatusBar,
                 show_error: Callable[..., None], set_busy: Callable[[bool], None]):
        self.owner, self.progress, self.status = owner, progress, status
        self._show_error, self._set_busy = show_error, set_busy
        self.current = None  # the job running (a loader.BackgroundTask or SlicedTask), else None
        progress.cancelRequested.connect(self.cancel)

    def start(self, text: str, fn, on_success, error_title: str, on_failure=None, done_is_done=False,
              task=None) -> None:
        """Run `fn` in the background (loader.BackgroundTask), or `task` (a loader.SlicedTask);
        `on_success(result)`, else `on_failure()` (failed or cancelled)."""
        task = task or BackgroundTask(fn, self.owner, done_is_done)
        self.current = task
        task.progressed.connect(self.progress.report)
        task.succeeded.connect(on_success)
        if on_failure is not None:
            task.failed.connect(lambda _message: on_failure())
            task.cancelled.connect(on_failure)
        task.failed.connect(lambda message: self._show_error(error_title, task.error, message))
        task.cancelled.connect(lambda: self.status.showMessage(translate("Documents", "Cancelled"), 5000))
        task.finished.connect(self._finished)
        self._set_busy(True)
        self.progress.begin(text)
        task.start()

    def _finished(self) -> None:
        self.progress.end()
        if self.current is not None:
            self.current.deleteLater()
        self.current = None
        self._set_busy(False)

    def cancel(self) -> None:
        if self.current is not None:
            self.current.cancel()
            self.progress.cancel_button.setEnabled(False)

    def stop(self) -> None:
        """The window closes: cancel the job and wait for it (at most 10 s)."""
        if self.current is not None:
            self.current.cancel()
            self.current.wait(10000)
