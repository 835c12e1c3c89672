"""A crash journal being written while the user goes on: an edit or an undo stops the write under way
between two blocks of rows (its copy is out of date) and never waits for it; the journal on disk stays
the last complete one; a newer write follows; a write that is overdue (edits without a pause for
MAX_WAIT_S) finishes. The writer is held at a block by a gate, so that nothing here depends on timing."""

import threading
import time

import pytest

from evaleditor.gui import MainWindow
from evaleditor.gui.window import recovery
from evaleditor.io import journal
from evaleditor.io.journal import read_journal
from tests.gui.test_window import Q, write_csv


class Gate:
    """Holds the first journal write that starts after `arm()` once it has encoded `after` blocks (one row
    each), until `release()`; counts the blocks it encodes after that."""

    def __init__(self, monkeypatch, after: int = 2):
        self.real, self.after = journal.encoded_blocks, after
        self.armed = False
        self.reached, self.go = threading.Event(), threading.Event()
        self.blocks_after_release = 0
        monkeypatch.setattr(journal, "_BLOCK", 1)
        monkeypatch.setattr(journal, "encoded_blocks", self.blocks)

    def arm(self) -> None:
        self.armed = True

    def release(self) -> None:
        self.go.set()

    def blocks(self, record):
        held, self.armed = self.armed, False
        for n, block in enumerate(self.real(record)):
            if held and n == self.after:
                self.reached.set()
                assert self.go.wait(10)
            if held and self.go.is_set():
                self.blocks_after_release += 1
            yield block


def journals():
    return sorted(recovery.recovery_dir().glob("*.json"))


def temps():
    return [p for p in recovery.recovery_dir().iterdir() if p.suffix == ".tmp"]


def cells(path, row):
    return read_journal(path).document.dataset.rows[row].cells[Q]


@pytest.fixture
def window(qtbot, tmp_path):
    """A window on a CSV file with one edit, journalled completely (the last complete journal)."""
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(write_csv(tmp_path / "cases.csv"))
    w.model.setData(w.model.index(0, Q), "journalled")
    assert w.recovery.write(wait=True)
    return w


def test_an_edit_stops_the_write_under_way_which_leaves_the_last_complete_journal(window, monkeypatch, qtbot):
    gate = Gate(monkeypatch)
    window.model.setData(window.model.index(1, Q), "being journalled")
    gate.arm()
    assert window.recovery.write()
    assert gate.reached.wait(10)  # the writer is two blocks into the rows
    writer = window.recovery._writing.thread
    window.model.setData(window.model.index(2, Q), "typed meanwhile")  # returns while the writer is held
    assert writer.is_alive()
    gate.release()
    writer.join(10)
    assert not writer.is_alive()
    assert gate.blocks_after_release <= 1  # stopped at the next block: at most one encoded, none written
    (path,) = journals()
    assert temps() == []
    assert cells(path, 0) == "journalled" and cells(path, 1) != "being journalled"  # the last complete one
    assert window.recovery.is_pending()  # the edits are journalled after the next pause
    assert window.recovery.write(wait=True)
    assert [cells(path, r) for r in (0, 1, 2)] == ["journalled", "being journalled", "typed meanwhile"]


def test_a_newer_write_does_not_wait_for_the_one_under_way(window, monkeypatch):
    gate = Gate(monkeypatch)
    window.model.setData(window.model.index(1, Q), "first state")
    gate.arm()
    assert window.recovery.write()
    assert gate.reached.wait(10)
    older = window.recovery._writing.thread
    window.recovery.before_change = lambda _change: None  # only the newer write tells the older one to stop
    window.model.setData(window.model.index(1, Q), "newer state")
    assert window.recovery.write()  # a newer copy, written once the older write has stopped
    newer = window.recovery._writing.thread
    assert older.is_alive() and newer.is_alive()  # the window did not wait for either
    gate.release()
    newer.join(10)
    assert not older.is_alive() and gate.blocks_after_release <= 1
    (path,) = journals()
    assert cells(path, 1) == "newer state" and temps() == []


def test_an_overdue_write_is_not_stopped_by_edits(window, monkeypatch):
    """Edits that never pause for DELAY_MS are journalled MAX_WAIT_S after the first: that write finishes."""
    gate = Gate(monkeypatch)
    window.model.setData(window.model.index(1, Q), "typed for a long time")
    window.recovery._first_pending = time.monotonic() - recovery.MAX_WAIT_S - 1
    gate.arm()
    assert window.recovery.write()
    assert gate.reached.wait(10)
    writer = window.recovery._writing.thread
    window.model.setData(window.model.index(2, Q), "still typing")
    gate.release()
    writer.join(10)
    (path,) = journals()
    assert cells(path, 1) == "typed for a long time" and cells(path, 2) != "still typing"
    assert window.recovery.is_pending()


def test_an_undo_stops_the_write_under_way(window, monkeypatch):
    """The undo of a replace-all or a sort holds the interpreter for a while: the write stops (the dataset
    tells it before the change is made)."""
    gate = Gate(monkeypatch)
    window.model.setData(window.model.index(1, Q), "to be undone")
    gate.arm()
    assert window.recovery.write()
    assert gate.reached.wait(10)
    writing = window.recovery._writing
    window.undo_stack.undo()
    assert writing.running() and writing._stop.is_set()
    gate.release()
    writing.thread.join(10)
    assert gate.blocks_after_release <= 1 and temps() == []
    (path,) = journals()
    assert cells(path, 1) != "to be undone"
