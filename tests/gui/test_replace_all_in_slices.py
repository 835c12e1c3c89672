"""A replace-all over many cells runs in slices on the event loop with the window's progress bar and
Cancel: the table is read-only meanwhile, the result is one undo step, Cancel changes nothing."""

import pytest

from evaleditor.core import search
from evaleditor.core.search import FindQuery, find_cells
from evaleditor.gui.dialogs import find_replace
from evaleditor.gui.window.loader import SlicedTask
from tests.gui.test_find_replace_live_count import big_doc


@pytest.fixture
def replacing(window, monkeypatch, qtbot):
    """A 2,000-row document, a counted query for "refund" (most rows), steps of 100 cells, one a slice."""
    monkeypatch.setattr(find_replace, "SLICED_CELLS", 10)
    monkeypatch.setattr(search, "REPLACE_BLOCK", 100)
    monkeypatch.setattr(SlicedTask, "SLICE_MS", 0)
    window.set_document(big_doc())
    window.show_find()
    dlg = window.find_dialog
    dlg.find_edit.setText("refund")
    dlg.replace_edit.setText("return")
    qtbot.waitUntil(lambda: dlg.count.is_current(), timeout=10000)
    return window


def test_a_big_replace_all_runs_in_slices_and_is_one_undo_step(replacing, qtbot):
    w = replacing
    ds = w.doc.dataset
    before = [list(r.cells) for r in ds.rows]
    cells = len(find_cells(ds, FindQuery("refund")).cells)
    reports = []
    assert w.find_dialog.replace_all() == -1
    w.tasks.current.progressed.connect(lambda done, total: reports.append((done, total)))
    assert w.model.read_only and w.progress.isVisibleTo(w) and not w.actions.undo.isEnabled()
    assert [list(r.cells) for r in ds.rows] == before  # nothing changes until every cell is replaced
    qtbot.waitUntil(lambda: w.tasks.current is None, timeout=10000)
    assert len(reports) >= cells // 100 - 2 and reports[-1][1] == cells  # a report a step: the bar moves
    assert not w.model.read_only and w.undo_stack.count() == 1
    assert not any("refund" in c for r in ds.rows for c in r.cells)
    w.undo_stack.undo()
    assert [list(r.cells) for r in ds.rows] == before


def test_cancel_leaves_every_cell_and_the_undo_stack_as_they_were(replacing, qtbot):
    w = replacing
    ds = w.doc.dataset
    before = [list(r.cells) for r in ds.rows]
    w.find_dialog.replace_all()
    steps = []
    w.tasks.current.progressed.connect(lambda *_: steps.append(1) or w.tasks.cancel())  # Cancel after the first slice
    qtbot.waitUntil(lambda: w.tasks.current is None, timeout=5000)
    assert steps == [1]
    assert [list(r.cells) for r in ds.rows] == before and w.undo_stack.count() == 0
    assert not w.model.read_only
