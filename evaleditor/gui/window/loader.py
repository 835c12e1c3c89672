"""Run a long read or write off the UI thread, with progress and Cancel.

`BackgroundTask(fn)` runs `fn(progress, cancel)` in a QThread. `progress(done, total)` and
`cancel()` are safe to call from the worker: progress is throttled and posted to the UI thread
through a queued signal; cancel reads a flag the UI sets. When it ends the task emits exactly one of
`succeeded(result)`, `failed(message)` or `cancelled()`, on the UI thread; after a failure with one
of our errors, `error` holds it (a VerifyError's cells that differ).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QElapsedTimer, QEvent, QObject, QThread, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from evaleditor.core.errors import Cancelled, EvalEditorError
from evaleditor.core.i18n import error_text

log = logging.getLogger(__name__)
REPORT_EVERY = 0.1  # seconds between two progress reports a worker posts to the UI thread


class _Worker(QThread):
    progressed = Signal(int, int)
    done = Signal(str, object)  # "ok" | "error" | "cancelled", result or message

    def __init__(self, fn: Callable[..., Any], stop: threading.Event, done_is_done: bool = False):
        super().__init__()
        self._fn = fn
        self._stop = stop
        self._done_is_done = done_is_done
        self._last = 0.0

    def _progress(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self._last >= REPORT_EVERY or done >= total:
            self._last = now
            self.progressed.emit(int(min(done, 2**31 - 1)), int(min(total, 2**31 - 1)))

    def run(self) -> None:
        try:
            result = self._fn(self._progress, self._stop.is_set)
        except Cancelled:
            self.done.emit("cancelled", None)
        except EvalEditorError as exc:  # the UI thread renders it (and may look at it: VerifyError)
            self.done.emit("error", exc)
        except Exception as exc:  # a bug must not kill the window: report it on one line
            log.exception("background task failed")
            self.done.emit("error", f"{type(exc).__name__}: {exc}")
        else:
            if self._stop.is_set() and not self._done_is_done:
                self.done.emit("cancelled", None)
            else:
                self.done.emit("ok", result)


class BackgroundTask(QObject):
    progressed = Signal(int, int)
    succeeded = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    finished = Signal()

    def __init__(self, fn: Callable[..., Any], parent: QObject | None = None, done_is_done: bool = False):
        """`fn(progress, cancelled)` runs in a thread. A cancel asked for while it runs makes its result
        unwanted (a load), unless `done_is_done`: what has finished has happened (a save that replaced
        its file; it raises Cancelled itself while it can still stop)."""
        super().__init__(parent)
        self._stop = threading.Event()
        self.error: EvalEditorError | None = None
        self._worker = _Worker(fn, self._stop, done_is_done)
        self._worker.progressed.connect(self.progressed)
        self._worker.done.connect(self._on_done)

    def start(self) -> None:
        self._worker.start()

    def cancel(self) -> None:
        self._stop.set()

    def wait(self, ms: int = -1) -> bool:
        return self._worker.wait() if ms < 0 else self._worker.wait(ms)

    def is_running(self) -> bool:
        return self._worker.isRunning()

    def _on_done(self, status: str, payload: object) -> None:
        self._worker.wait()
        if status == "ok":
            self.succeeded.emit(payload)
        elif status == "cancelled":
            self.cancelled.emit()
        elif isinstance(payload, EvalEditorError):
            self.error = payload
            self.failed.emit(error_text(payload))
        else:
            self.failed.emit(str(payload))
        self.finished.emit()


class SlicedTask(QObject):
    """A BackgroundTask's signals and calls for work that runs on the UI thread in slices of at most
    SLICE_MS: `steps` is a generator that yields (done, total) and returns the result. For work over the
    window's document (a replace-all), which no other thread may read while the UI changes it."""

    progressed = Signal(int, int)
    succeeded = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    finished = Signal()
    SLICE_MS = 25

    def __init__(self, steps, parent: QObject | None = None):
        super().__init__(parent)
        self.error: EvalEditorError | None = None
        self._steps = steps
        self._timer = QTimer(self, interval=0, timeout=self._slice)

    def start(self) -> None:
        self._timer.start()

    def cancel(self) -> None:
        if self._timer.isActive():
            self._timer.stop()
            self._steps.close()
            QTimer.singleShot(0, self._cancelled)

    def wait(self, ms: int = -1) -> bool:
        return True

    def is_running(self) -> bool:
        return self._timer.isActive()

    def _cancelled(self) -> None:
        self.cancelled.emit()
        self.finished.emit()

    def _slice(self) -> None:
        deadline = time.monotonic() + self.SLICE_MS / 1000
        try:
            while True:
                done, total = next(self._steps)
                if time.monotonic() >= deadline:
                    self.progressed.emit(done, total)
                    return
        except StopIteration as result:
            self._timer.stop()
            self.succeeded.emit(result.value)
        except (EvalEditorError, ValueError) as exc:  # ValueError: a replacement that does not go with the pattern
            self._timer.stop()
            self.error = exc if isinstance(exc, EvalEditorError) else None
            self.failed.emit(error_text(exc))
        self.finished.emit()


class ProgressStrip(QWidget):
    """A status-bar strip: what runs, how far it is when the job can tell (a bar), else the seconds it has
    run so far, and a Cancel button; hidden when idle. It repaints a few times a second at most: no busy
    bar, whose animation (60 frames a second in Fusion) cost the UI thread 80 ms of CPU a second, taken
    from the threads reading the file."""

    cancelRequested = Signal()
    TICK_MS = 250  # how often the seconds are looked at (the text changes once a second)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setFixedWidth(180)
        self.bar.setTextVisible(True)
        self.elapsed = QLabel()  # shown instead of the bar while there is nothing to measure
        self.cancel_button = QPushButton()
        self.cancel_button.clicked.connect(self.cancelRequested)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.elapsed)
        layout.addWidget(self.cancel_button)
        self._clock = QElapsedTimer()
        self._ticker = QTimer(self, interval=self.TICK_MS, timeout=self._tick)
        self.retranslate()
        self.hide()

    def retranslate(self) -> None:
        self.cancel_button.setText(QCoreApplication.translate("Progress", "Cancel"))
        self.bar.setAccessibleName(QCoreApplication.translate("Progress", "Progress"))
        if self._ticker.isActive():
            self._tick()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def begin(self, text: str) -> None:
        self.label.setText(text)
        self.bar.setAccessibleDescription(text)
        self.cancel_button.setEnabled(True)
        self._clock.start()
        self._ticker.start()
        self._measuring(False)  # the seconds until the first report
        self.show()

    def report(self, done: int, total: int) -> None:
        if total > 0 and done < total:
            self.bar.setRange(0, total)
            self.bar.setValue(done)
            self._measuring(True)
        else:  # read everything; now checking (no measurable progress)
            self._measuring(False)

    def end(self) -> None:
        self._ticker.stop()
        self.hide()

    def _measuring(self, measured: bool) -> None:
        self.bar.setVisible(measured)
        self.elapsed.setVisible(not measured)
        self._tick()

    def _tick(self) -> None:
        seconds = self._clock.elapsed() // 1000
        self.elapsed.setText(QCoreApplication.translate("Progress", "{seconds} s").format(seconds=seconds))
