"""A session_id edit repaints the rows whose conversation band may have changed and no others: what
changed is counted through the model's signals (the view repaints what they name, on screen)."""

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack

from evaleditor.gui.table.model import CasesModel
from tests.gui.conftest import make_doc

R = Qt.ItemDataRole


def pairs_model(n_sessions=200):
    """Conversations of two turns: s0, s0, s1, s1, …"""
    model = CasesModel(make_doc(rows=[[f"s{i // 2}", str(i % 2 + 1), f"q{i}", "a", ""] for i in range(2 * n_sessions)]))
    model.undo_stack = QUndoStack()
    return model


def repainted(model, edit):
    """Rows named by background repaints and gutter repaints while `edit` runs."""
    rows, gutter = set(), set()
    on_data = lambda a, b, roles: R.BackgroundRole in roles and rows.update(range(a.row(), b.row() + 1))  # noqa: E731
    on_gutter = lambda a, b: gutter.update(range(a, b + 1))  # noqa: E731
    model.dataChanged.connect(on_data)
    model.gutterChanged.connect(on_gutter)
    edit()
    model.dataChanged.disconnect(on_data)
    model.gutterChanged.disconnect(on_gutter)
    return rows, gutter


def bands(model):
    return [model.cache.band(model.row_id(r)) for r in range(model.rowCount())]


def test_a_row_joining_the_conversation_before_repaints_only_the_two_conversations():
    model = pairs_model()
    bands(model)  # built, as painting does
    rows, gutter = repainted(model, lambda: model.setData(model.index(200, 0), "s99"))  # s100's first row
    assert rows <= set(range(198, 202)) and 200 in rows
    assert gutter <= set(range(198, 202))


def test_a_new_conversation_repaints_its_own_rows_and_no_later_band_changes():
    """s150 (rows 300-301, colour 0) and s151 (302-303, colour 1): a conversation between them takes the
    third colour; with colours by rank every later conversation flipped, a repaint of the whole screen."""
    model = pairs_model()
    before = bands(model)
    rows, gutter = repainted(model, lambda: model.setData(model.index(301, 0), "new"))
    after = bands(model)
    assert rows <= {300, 301} and gutter <= {300, 301} and 301 in rows
    assert after[301] == 2 and after[:301] == before[:301] and after[302:] == before[302:]


def test_the_repainted_rows_cover_every_band_that_changed():
    rows = [[f"s{i // 3}" if i % 7 else "", "1", f"q{i}", "a", ""] for i in range(40)]

    @settings(max_examples=80, deadline=None)
    @given(st.lists(st.tuples(st.integers(0, 39), st.sampled_from(["", "s0", "s2", "s5", "new", "s9", "s13"])),
                    min_size=1, max_size=6),
           st.booleans())
    def check(edits, filtered):
        model = CasesModel(make_doc(rows=[list(r) for r in rows]))
        model.undo_stack = QUndoStack()
        if filtered:
            model.set_visible([r.id for r in model.ds.rows[::2]])
        for row, sid in edits:
            before = bands(model)
            index = model.index(row % model.rowCount(), 0)
            painted, _ = repainted(model, lambda i=index, s=sid: model.setData(i, s))
            after = bands(model)
            assert {r for r in range(len(after)) if before[r] != after[r]} <= painted

    check()
