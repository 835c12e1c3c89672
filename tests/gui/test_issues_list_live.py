"""The Issues panel's list follows the issues as they are found: while a big file is checked in slices it
fills in, in file order, a few times a second (not only once the pass ends), and neither that nor an
edit afterwards resets it: the issue the user chose stays chosen and the line at the top stays there."""

import pytest
from PySide6.QtWidgets import QApplication

from evaleditor.core import editing
from evaleditor.gui.panels import issues_panel
from evaleditor.gui.window.undo import push
from tests.gui.test_checking import opening  # noqa: F401  (a fixture: a 240-row file checked 10 rows a slice)

Q = 2


def in_file_order(w) -> bool:
    ds = w.doc.dataset
    keys = [-1 if i.row_id is None else ds.position(i.row_id) for i in w.issues_panel.model.issues()]
    return keys == sorted(keys)


def rows_listed(w) -> set[int]:
    return {i.row_id for i in w.issues_panel.model.issues() if i.row_id is not None}


@pytest.fixture
def stepped(opening, qtbot):  # noqa: F811
    """The pass goes a slice at a time when the test says; after each, the events it posted are handled and
    the panel's refresh, when one is due, runs as its timer would (REFRESH_MS later): one refresh per slice,
    however long the machine takes."""
    w = opening
    w.checker._timer.stop()
    panel = w.issues_panel

    def step() -> None:
        w.checker._slice()
        QApplication.processEvents()
        if panel._timer.isActive():
            panel.refresh()
    return w, step


def test_the_list_fills_in_file_order_while_the_rows_are_checked(stepped, qtbot):
    w, step = stepped
    v, model = w.doc.validator, w.issues_panel.model
    seen = []
    while w.checker.running():
        step()
        seen.append((len(rows_listed(w)), v.checking is not None))
        assert in_file_order(w)
    during = [n for n, checking in seen if checking]
    assert during[-1] > during[0]  # issues listed block by block while the pass ran, not only at its end
    assert len(set(during)) > 3
    qtbot.wait(2 * issues_panel.REFRESH_MS)
    assert model.issues() == v.all_issues()


def test_the_users_issue_and_scroll_position_survive_the_pass_and_an_edit(stepped, qtbot):
    w, step = stepped
    panel, model, v = w.issues_panel, w.issues_panel.model, w.doc.validator
    resets = []
    model.modelReset.connect(lambda: resets.append(1))
    while model.rowCount() < 40:
        step()
    assert v.checking is not None
    panel.view.selectRow(30)
    chosen = panel.current_issue()
    panel.view.scrollTo(model.index(20, 0), panel.view.ScrollHint.PositionAtTop)
    top = model.issue(panel.view.rowAt(0))
    while w.checker.running():  # the end of the pass adds the conversations' issues (turn gaps) above them
        step()
    qtbot.wait(2 * issues_panel.REFRESH_MS)
    assert model.issues() == v.all_issues() and model.issues().index(chosen) > 30
    assert panel.current_issue() == chosen and model.issue(panel.view.rowAt(0)) == top
    w.model.setData(w.model.index(0, Q), "")  # an empty question above both: a line more above them
    qtbot.wait(2 * issues_panel.REFRESH_MS)
    assert "empty-question" in [i.rule for i in v.row_issues(w.doc.dataset.rows[0].id)]
    assert model.issues() == v.all_issues()
    assert panel.current_issue() == chosen and model.issue(panel.view.rowAt(0)) == top
    assert not resets


def test_rows_deleted_or_moved_list_again_with_their_new_row_numbers(stepped, qtbot):
    w, step = stepped
    model = w.issues_panel.model
    while w.checker.running():
        step()
    ds = w.doc.dataset
    push(w.undo_stack, ds, editing.delete_rows([r.id for r in ds.rows[:12]]))
    qtbot.waitUntil(lambda: not w.checker.running() and not model.pending(), timeout=10000)
    w.issues_panel.refresh()
    assert model.issues() == w.doc.validator.all_issues()
    shown = {model.data(model.index(n, 2)) for n in range(model.rowCount())}
    assert shown == {"file" if i.row_id is None else str(ds.position(i.row_id) + 1) for i in model.issues()}
