"""Checking a big document after it is shown: its CheckPass (core/check_pass.py) runs in slices on the
event loop, each at most SLICE_MS, so that the window paints, scrolls and takes edits meanwhile and the
highlights appear as they are found. Slices on the UI thread rather than a thread: the validator's
state is only ever touched by one thread, and a Python thread would take the interpreter lock from
every paint.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer, Signal

from evaleditor.core.validation import Validator
from evaleditor.gui.window.undo import wait_cursor

SLICE_MS = 25
FIRST_SLICE_MS = 30


class CheckRunner(QObject):
    progressed = Signal(int, int)  # rows checked, rows
    finished = Signal()  # the document's pass is over (also when something else ended it)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.validator: Validator | None = None
        self._timer = QTimer(self, timeout=self._slice)

    def start(self, validator: Validator | None) -> None:
        """Run `validator`'s pass, if it has one (a document replaced: the old one's is dropped)."""
        self.validator = validator if validator is not None and validator.checking is not None else None
        if self.validator is None:
            self._timer.stop()
        else:
            self._timer.stop()  # the first slice FIRST_SLICE_MS after the event loop is back: what
            QTimer.singleShot(0, self, lambda: self._timer.start(FIRST_SLICE_MS))  # changed is painted first


    def running(self) -> bool:
        return self.validator is not None

    def _slice(self) -> None:
        v = self.validator
        if v is None:
            self._timer.stop()
            return
        self._timer.setInterval(0)
        deadline = time.perf_counter() + SLICE_MS / 1000
        done = v.checking is None
        while not done:
            done = v.checking.step()
            if time.perf_counter() >= deadline:
                break
        if done or v.checking is None:
            self._timer.stop()
            self.validator = None
            self.finished.emit()
        else:
            self.progressed.emit(*v.checking.progress())


def finish_now(doc) -> None:
    """What needs every issue (a save, a fix-all, F8, an errors filter) first checks the rows of `doc` not
    yet checked, now."""
    if doc is not None and doc.validator.checking is not None:
        with wait_cursor():
            doc.validator.finish_checking()
