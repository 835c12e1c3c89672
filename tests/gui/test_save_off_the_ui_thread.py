"""Every save runs off the UI thread: on a slow disk (an fsync that takes seconds) the window keeps
painting and answering. A quick save shows nothing (no progress strip flashing, the window not turning
read-only); one that takes longer shows its progress and Cancel, and a cancelled save keeps the old file."""

import os
import threading

import pytest
from PySide6.QtCore import Qt, QTimer

from evaleditor.gui import MainWindow, dialogs
from evaleditor.io.load import load_document
from tests.gui.test_window import Q, write_csv


class SlowDisk:
    """os.fsync of a file in `folder` waits until `release()`, at most 20 s: a save running on the UI
    thread would wait that long (the timer that releases it cannot fire), and its test fails."""

    def __init__(self, folder, monkeypatch):
        self.folder, self.real = folder, os.fsync
        self.entered, self.released = threading.Event(), threading.Event()
        self.waited: list[bool] = []  # per gated fsync: released (True) or given up (False)
        monkeypatch.setattr(os, "fsync", self.fsync)

    def fsync(self, fd: int) -> None:
        if os.fstat(fd).st_ino in {p.stat().st_ino for p in self.folder.iterdir()}:  # not the folder's own
            self.entered.set()
            self.waited.append(self.released.wait(20))
        self.real(fd)

    def release_when_waiting(self, meanwhile=lambda: None, ready=lambda: True) -> QTimer:
        """A UI-thread timer that, once the disk is waiting (and `ready()`), calls `meanwhile` and lets
        the fsync end."""
        def tick() -> None:
            if self.entered.is_set() and not self.released.is_set() and ready():
                meanwhile()
                self.released.set()
        timer = QTimer(interval=1, timeout=tick)
        timer.start()
        return timer


@pytest.fixture
def slow_disk(tmp_path, monkeypatch):
    return SlowDisk(tmp_path, monkeypatch)


def edited_window(qtbot, path):
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    assert w.documents.open_file(path, background=False)
    w.model.setData(w.model.index(0, Q), "mine")
    return w


def test_a_quick_save_leaves_the_window_answering_and_shows_nothing(qtbot, tmp_path, slow_disk, dialogs_log):
    path = write_csv(tmp_path / "cases.csv")
    w = edited_window(qtbot, path)
    seen = []
    timer = slow_disk.release_when_waiting(lambda: seen.append(
        (w.model.data(w.model.index(0, Q)), w.progress.isVisible(), w.actions.save.isEnabled(), w.model.read_only)))
    assert w.documents.save()
    timer.stop()
    assert slow_disk.waited == [True]  # the UI thread's timer ran while the file was being written
    assert seen == [("mine", False, True, False)]  # the model answered; no progress, nothing disabled
    assert not w.is_modified() and load_document(path).dataset.rows[0].cells[Q] == "mine"
    assert w.statusBar().currentMessage() == f"Saved {path}"


def test_a_small_save_that_takes_long_shows_progress_and_can_be_cancelled(qtbot, tmp_path, slow_disk, dialogs_log):
    path = write_csv(tmp_path / "cases.csv", rows=[[f"s{i}", "1", f"q{i}", "a", ""] for i in range(5000)])
    before = path.read_bytes()
    w = edited_window(qtbot, path)
    w.documents.quiet_save_ms = 1
    assert w.documents.save()  # returns once the save has shown its progress: the disk is still waiting
    assert w.tasks.current is not None and w.progress.isVisible() and w.model.read_only
    assert not w.model.setData(w.model.index(1, Q), "no")
    qtbot.mouseClick(w.progress.cancel_button, Qt.MouseButton.LeftButton)
    slow_disk.released.set()
    qtbot.waitUntil(lambda: w.tasks.current is None, timeout=20000)
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["cases.csv"]
    assert w.is_modified() and not w.model.read_only and not w.progress.isVisible()
    assert w.statusBar().currentMessage() == "Cancelled"


def test_saving_before_the_window_closes_keeps_it_painting(qtbot, tmp_path, slow_disk, dialogs_log):
    """Close ▸ Save waits for the save (the window may only go once the file is written), the event loop
    turning meanwhile; its progress, once shown, offers no Cancel the held input could not click."""
    path = write_csv(tmp_path / "cases.csv")
    w = edited_window(qtbot, path)
    w.documents.quiet_save_ms = 1
    dialogs_log.answers["ask_save_changes"] = dialogs.SAVE
    seen = []
    timer = slow_disk.release_when_waiting(lambda: seen.append(w.progress.cancel_button.isEnabled()),
                                           ready=w.progress.isVisible)
    assert w.close()
    timer.stop()
    assert slow_disk.waited == [True] and seen == [False]
    assert load_document(path).dataset.rows[0].cells[Q] == "mine"


def test_keys_the_read_only_table_refuses_while_a_save_runs_are_said_not_dropped(qtbot, tmp_path, slow_disk,
                                                                                dialogs_log):
    """The input held during a quick save's quiet window reaches a read-only table once the save shows
    its progress (an edit would race the save reading the document): typed text, Ctrl+Z, a second
    Ctrl+S are not taken, and the status bar says so instead of their vanishing."""
    path = write_csv(tmp_path / "cases.csv")
    w = edited_window(qtbot, path)
    w.documents.quiet_save_ms = 1
    assert w.documents.save() and w.model.read_only  # the disk is still waiting: the save shows
    w.view.setFocus()
    qtbot.keyClick(w.view, Qt.Key.Key_Down)  # moving about is taken: nothing said
    assert "not taken" not in w.statusBar().currentMessage()
    qtbot.keyClick(w.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert w.statusBar().currentMessage() == ("Saving cases.csv\u2026 The table is read-only until it ends: "
                                              "that key was not taken")
    slow_disk.released.set()
    qtbot.waitUntil(lambda: w.tasks.current is None, timeout=20000)
    assert load_document(path).dataset.rows[0].cells[Q] == "mine" and w.model.data(w.model.index(0, Q)) == "mine"
    w.statusBar().clearMessage()
    qtbot.keyClick(w.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the job ended: nothing said
    assert "not taken" not in w.statusBar().currentMessage()


def test_a_window_whose_save_cannot_stop_stays_open_and_says_so(qtbot, tmp_path, slow_disk, dialogs_log,
                                                                monkeypatch):
    """Closing cancels the save and waits for it; a save still in its fsync after that keeps the window
    open, nothing asked (Save could not start beside it; Discard would destroy a running thread)."""
    from evaleditor.gui.window.tasks import Tasks

    path = write_csv(tmp_path / "cases.csv")
    w = edited_window(qtbot, path)
    w.documents.quiet_save_ms = 1
    monkeypatch.setattr(Tasks, "stop_wait_ms", 1)
    assert w.documents.save() and w.tasks.current is not None  # the disk is still waiting
    assert not w.close()
    assert w.isVisible() and "ask_save_changes" not in dialogs_log.names()
    assert w.statusBar().currentMessage() == ("The window stays open until the save or load under way has "
                                              "ended: close it again then")
    slow_disk.released.set()
    qtbot.waitUntil(lambda: w.tasks.current is None, timeout=20000)
    assert w.close() and not w.isVisible()


def test_a_dataset_of_exactly_background_rows_saves_quietly(qtbot, tmp_path, slow_disk, dialogs_log):
    """BACKGROUND_ROWS is the most rows whose save shows nothing while it is quick; only more show their
    progress at once."""
    path = write_csv(tmp_path / "cases.csv")
    w = edited_window(qtbot, path)
    w.documents.background_rows = w.doc.dataset.row_count()
    seen = []
    timer = slow_disk.release_when_waiting(lambda: seen.append(w.progress.isVisible()))
    assert w.documents.save()
    timer.stop()
    assert seen == [False] and not w.is_modified()


def test_progress_reported_before_a_job_shows_is_shown(qtbot, dialogs_log):
    """A job that outlasts its quiet window shows how far it already is, not an empty strip until its
    next report (which may be long in coming: a save's fsync reports nothing)."""
    from evaleditor.gui.window.loader import BackgroundTask

    reported, go = threading.Event(), threading.Event()

    def work(progress, _cancelled):
        progress(3, 10)
        reported.set()
        go.wait(20)

    class ReportsFirst(BackgroundTask):  # its first report is posted before the quiet window starts
        def start(self):
            super().start()
            reported.wait(20)

    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    try:
        assert w.tasks.start("Working\u2026", None, lambda _r: None, "Failed", task=ReportsFirst(work, w),
                             quiet_ms=1) is None
        assert w.progress.isVisible() and w.progress.bar.isVisible()
        assert (w.progress.bar.value(), w.progress.bar.maximum()) == (3, 10)
    finally:
        go.set()
        qtbot.waitUntil(lambda: w.tasks.current is None, timeout=20000)
