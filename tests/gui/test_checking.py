"""A big file is shown first and checked after, in slices on the event loop (gui/checking.py): the
shape line says "checking…" until the pass ends, highlights arrive block by block, and an edit made
meanwhile leaves no stale or lost highlight."""

import pytest
from PySide6.QtCore import Qt

from evaleditor.core import check_pass
from evaleditor.gui import MainWindow
from evaleditor.gui.table.cell_cache import CellCache
from evaleditor.gui.table.model_events import ISSUE_ROLES
from evaleditor.gui.window import checking
from tests.core.test_incremental import fresh, snapshot
from tests.gui.conftest import ROWS
from tests.gui.test_window import write_csv

R = Qt.ItemDataRole
Q = 2
COPIES = 40  # 240 rows: 24 blocks of 10


@pytest.fixture
def opening(qtbot, tmp_path, monkeypatch):
    """A window opening a file in the background, its rows then checked one block of 10 per slice."""
    monkeypatch.setattr(check_pass, "BLOCK_ROWS", 10)
    monkeypatch.setattr(checking, "SLICE_MS", 0)
    monkeypatch.setattr(checking, "FIRST_SLICE_MS", 0)
    rows = [[f"{r[0]}-{k}" if r[0] else "", *r[1:]] for k in range(COPIES) for r in ROWS]
    path = write_csv(tmp_path / "big.csv", rows=rows)
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    assert w.documents.open_file(path, background=True)
    qtbot.waitUntil(lambda: w.tasks.current is None and w.doc is not None, timeout=10000)
    return w


def shown_marks_are_current(w):
    """Every row's cached highlights are what the validator says now (none stale, none lost)."""
    fresh_cache = CellCache(w.doc.validator)
    return [r.id for r in w.doc.dataset.rows if w.model.cache.marks(r.id) != fresh_cache.marks(r.id)]


def test_a_big_file_is_shown_then_checked_with_checking_on_the_shape_line(opening, qtbot):
    w = opening
    v = w.doc.validator
    assert v.checking is not None and w.checker.running()
    assert w.banner.shape_label.text() == fresh(w.doc).shape.line  # the shape line is right at once
    assert w.banner.checking_label.isVisible() and w.banner.checking_label.text().startswith("checking\u2026")
    issue_reports = []
    w.model.dataChanged.connect(lambda a, b, roles: roles == ISSUE_ROLES and issue_reports.append((a.row(), b.row())))
    with qtbot.waitSignal(w.checker.finished, timeout=10000):
        pass
    assert v.checking is None and not w.banner.checking_label.isVisible()
    assert len(issue_reports) > 5  # highlights came block by block, not all at the end
    assert snapshot(w.doc) == snapshot(fresh(w.doc)) and not shown_marks_are_current(w)
    assert w.issues_panel.model.rowCount() == len(v.all_issues())
    assert w.counts.labels["error"].text().startswith(f"{v.counts['error']:,} ")


def test_edits_during_the_pass_leave_no_stale_or_lost_highlight(opening, qtbot):
    w = opening
    ds, model = w.doc.dataset, w.model
    w.checker._slice()  # the first block is checked
    model.setData(model.index(0, Q), "")  # a checked row: empty question now
    model.setData(model.index(200, 0), "s1-0")  # a row not checked yet joins the first conversation
    model.setData(model.index(2, 0), "")  # a checked row leaves its conversation
    assert [i.rule for i in w.doc.validator.row_issues(ds.rows[0].id)] == ["empty-question"]
    assert not shown_marks_are_current(w)
    qtbot.waitUntil(lambda: not w.checker.running(), timeout=10000)
    assert snapshot(w.doc) == snapshot(fresh(w.doc)) and not shown_marks_are_current(w)
    assert "session-not-contiguous" in w.doc.validator.rule_counts or "turn-gap" in w.doc.validator.rule_counts


def test_rows_inserted_during_the_pass_are_checked_too(opening, qtbot):
    w = opening
    w.checker._slice()
    w.view.go_to(w.model.index(5, 0))  # a row with no question
    w.ops.duplicate_rows()
    qtbot.waitUntil(lambda: not w.checker.running(), timeout=10000)
    new = w.doc.dataset.rows[6]
    assert "empty-question" in {i.rule for i in w.doc.validator.row_issues(new.id)}
    assert snapshot(w.doc) == snapshot(fresh(w.doc)) and not shown_marks_are_current(w)


def test_a_save_or_an_errors_filter_during_the_pass_checks_the_rest_first(opening, qtbot, tmp_path):
    w = opening
    w.checker._slice()
    from evaleditor.core.search import RowFilter
    w.navigation.apply_filter(RowFilter(has_errors=True))
    assert w.doc.validator.checking is None
    errors = {i.row_id for i in w.doc.validator.all_issues() if i.severity == "error" and i.row_id}
    assert {w.model.row_id(r) for r in range(w.model.rowCount())} == errors
    qtbot.waitUntil(lambda: not w.checker.running(), timeout=5000)
    assert not w.banner.checking_label.isVisible()


def test_a_small_file_is_checked_before_it_is_shown(qtbot, tmp_path):
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(write_csv(tmp_path / "small.csv"))
    assert w.doc.validator.checking is None and not w.checker.running()
    assert not w.banner.checking_label.isVisible()


def test_a_replace_all_and_a_sort_undone_are_checked_again_after_they_are_shown(window, qtbot, monkeypatch):
    """Each is one undo step; the rows are checked again in slices (none while the step runs); the
    highlights end as a fresh check's."""
    from evaleditor.core import checks, validation
    from evaleditor.core.commands import ReorderRows
    from evaleditor.core.search import FindQuery, replace_all_command
    from evaleditor.gui.window.undo import push

    monkeypatch.setattr(validation, "BULK_ROWS", 4)
    monkeypatch.setattr(checking, "FIRST_SLICE_MS", 0)
    w, ds = window, window.doc.dataset
    checked_during_step = []
    real = checks.RowContext.check_all

    def step(fn):
        monkeypatch.setattr(checks.RowContext, "check_all", lambda *a: checked_during_step.append(1) or real(*a))
        fn()
        monkeypatch.setattr(checks.RowContext, "check_all", real)
        assert w.doc.validator.checking is not None and w.checker.running()
        qtbot.waitUntil(lambda: not w.checker.running(), timeout=5000)
        assert snapshot(w.doc) == snapshot(fresh(w.doc)) and not shown_marks_are_current(w)

    command, n = replace_all_command(ds, FindQuery("a", regex=False), "NA")
    step(lambda: push(w.undo_stack, ds, command))
    step(w.undo_stack.undo)
    step(lambda: push(w.undo_stack, ds, ReorderRows(list(reversed([r.id for r in ds.rows])))))
    step(w.undo_stack.undo)
    assert checked_during_step == [] and w.undo_stack.count() == 1  # one step each (the redo replaced)


def test_the_conversation_panel_is_rendered_while_changes_keep_coming(window, qtbot):
    """A pass reports rows every few milliseconds: the panel renders meanwhile, not only after."""
    panel = window.conversation_panel
    renders = []
    panel._timer.timeout.connect(lambda: renders.append(1))  # beside render()
    for _ in range(20):
        panel.schedule_render()
        qtbot.wait(30)
    assert renders  # 600 ms of changes 30 ms apart; its wait is 80 ms


def test_the_end_of_the_pass_lists_the_issues_once(opening, qtbot, monkeypatch):
    """The Issues panel and the banner (its advice to sort the rows) both need every issue when the pass
    ends: listed once (~50 ms at 100k rows), not once for each, nor again by a refresh queued before."""
    from evaleditor.core.validation import Validator
    from evaleditor.gui.panels import issues_panel

    w = opening
    w.checker._slice()
    w.model.setData(w.model.index(200, 0), "s1-0")  # the first conversation's turns now out of file order
    listed = []
    real = Validator._issues_in_order
    # counted once the pass is over (while it runs, the panel may list what is found so far)
    monkeypatch.setattr(Validator, "_issues_in_order", lambda v: (v.checking is None and listed.append(1)) or real(v))
    with qtbot.waitSignal(w.checker.finished, timeout=10000):
        pass
    qtbot.wait(2 * issues_panel.REFRESH_MS)  # the refreshes queued by the last slice run
    assert w.doc.validator.rule_counts["turns-out-of-file-order"] and w.banner.strips[0].isVisible()
    assert len(listed) == 1
    assert w.issues_panel.model.rowCount() == len(w.doc.validator.all_issues()) and len(listed) == 1


def test_an_edit_of_many_rows_is_checked_in_slices_not_row_by_row(opening, qtbot, monkeypatch):
    """Filling (or clearing) 50k cells of 100k rows checked them one by one, 1 s with the window frozen:
    past WINDOW_BULK_ROWS rows the window's pass in slices checks them (here 20 rows, past 10)."""
    from PySide6.QtCore import QItemSelection, QItemSelectionModel

    from evaleditor.core import checks, validation

    monkeypatch.setattr(validation, "BULK_ROWS", 4)
    monkeypatch.setattr(validation, "WINDOW_BULK_ROWS", 10)
    w = opening
    qtbot.waitUntil(lambda: not w.checker.running(), timeout=10000)
    selection = QItemSelection(w.model.index(0, Q), w.model.index(19, Q))
    w.view.selectionModel().select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)
    one_by_one, real = [], checks.RowContext.check
    monkeypatch.setattr(checks.RowContext, "check", lambda *a: one_by_one.append(1) or real(*a))
    w.ops.delete_cells()
    monkeypatch.setattr(checks.RowContext, "check", real)
    assert one_by_one == [] and w.checker.running()
    qtbot.waitUntil(lambda: not w.checker.running(), timeout=10000)
    assert snapshot(w.doc) == snapshot(fresh(w.doc)) and not shown_marks_are_current(w)
    assert w.doc.validator.rule_counts["empty-question"] >= 20


def test_the_issues_panel_counts_follow_the_pass_as_the_status_bar_does(opening):
    """While the pass runs the list waits for a pause, but its severity toggles say what is found so far:
    "0 errors" above a status bar saying 369 looked wrong."""
    w = opening
    for _ in range(5):
        w.checker._slice()
    v = w.doc.validator
    assert v.checking is not None and sum(v.counts.values()) > 1
    assert {sev: b.text() for sev, b in w.issues_panel.toggles.items()} == \
        {sev: f"{v.counts.get(sev, 0):,}" for sev in w.issues_panel.toggles}
    assert w.counts.labels["error"].text().startswith(f"{v.counts['error']:,} ")


def test_a_save_into_a_workbook_or_out_of_one_is_checked_again_in_slices_after_it(opening, qtbot, monkeypatch,
                                                                                   tmp_path):
    """The workbook rules come or go with the file type: a Save As .csv of 100k rows read from an .xlsx
    checked them all again on the UI thread once saved (1 s frozen); the window's pass does it, in
    slices, "checking…" on the shape line meanwhile, and the highlights end as a fresh check's."""
    from evaleditor.core import checks, validation

    monkeypatch.setattr(validation, "BULK_ROWS", 4)
    w = opening
    qtbot.waitUntil(lambda: not w.checker.running(), timeout=10000)
    real = checks.RowContext.check_all
    checked_by_the_save = []
    for fmt in ("xlsx", "csv"):
        monkeypatch.setattr(checks.RowContext, "check_all", lambda *a: checked_by_the_save.append(1) or real(*a))
        assert w.documents.save_as(tmp_path / f"saved.{fmt}", wait=True)
        monkeypatch.setattr(checks.RowContext, "check_all", real)
        assert w.doc.source_format == fmt and checked_by_the_save == []
        assert w.checker.running() and w.banner.checking_label.text().startswith("checking\u2026")
        qtbot.waitUntil(lambda: not w.checker.running(), timeout=10000)
        assert snapshot(w.doc) == snapshot(fresh(w.doc)) and not shown_marks_are_current(w)
