"""CasesModel without a view: roles, exact signals, undo wiring, filtering."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtTest import QAbstractItemModelTester  # noqa: F401  (qtmodeltester uses it)

from evaleditor.core.commands import InsertRows, ReorderRows
from evaleditor.gui.table.model import CasesModel
from tests.gui.conftest import make_doc

R = Qt.ItemDataRole
Q, TOOLS = 2, 4  # column positions in the fixture


def model_with_stack(doc=None):
    model = CasesModel(doc or make_doc())
    model.undo_stack = QUndoStack()
    return model


class Recorder:
    def __init__(self, model):
        self.events = []
        model.dataChanged.connect(lambda a, b, roles: self.events.append(
            ("data", a.row(), a.column(), b.row(), b.column(), sorted(int(r) for r in roles))))
        model.rowsInserted.connect(lambda _p, a, b: self.events.append(("inserted", a, b)))
        model.rowsRemoved.connect(lambda _p, a, b: self.events.append(("removed", a, b)))
        model.modelReset.connect(lambda: self.events.append(("reset",)))
        model.layoutChanged.connect(lambda *_: self.events.append(("layout",)))

    def of(self, kind):
        return [e for e in self.events if e[0] == kind]


def test_qtmodeltester_on_cases_model(qtmodeltester):
    qtmodeltester.check(CasesModel(make_doc()))


def test_qtmodeltester_on_empty_and_filtered_model(qtmodeltester):
    qtmodeltester.check(CasesModel())
    model = CasesModel(make_doc())
    model.set_visible([model.ds.rows[1].id, model.ds.rows[3].id])
    qtmodeltester.check(model)


def test_display_is_a_bounded_one_line_preview_and_edit_is_full_text():
    long = "x" * 1000
    doc = make_doc(rows=[["", "", long, "line one\nline two", ""]])
    model = CasesModel(doc)
    shown = model.data(model.index(0, Q), R.DisplayRole)
    assert len(shown) <= 201 and shown.endswith("\u2026")
    assert model.data(model.index(0, Q), R.EditRole) == long
    multi = model.data(model.index(0, 3), R.DisplayRole)
    assert "\n" not in multi and multi.startswith("line one") and "\u23ce" in multi
    assert "line two" in model.data(model.index(0, 3), R.ToolTipRole)


def test_issue_cells_have_background_foreground_icon_and_tooltip():
    model = CasesModel(make_doc())
    bad = model.index(5, Q)  # empty question
    good = model.index(4, Q)
    assert model.data(bad, R.BackgroundRole) is not None
    assert model.data(bad, R.ForegroundRole) is not None
    assert model.data(bad, R.DecorationRole) is not None
    assert "empty-question" in model.data(bad, R.ToolTipRole)
    assert model.data(good, R.DecorationRole) is None
    assert model.data(good, R.ToolTipRole) is None
    # errors and warnings look different
    gap = model.index(3, 1)  # s2 turn 3: turn-gap warning
    assert "turn-gap" in model.data(gap, R.ToolTipRole)
    assert model.data(gap, R.BackgroundRole).color() != model.data(bad, R.BackgroundRole).color()


def test_headers_show_source_and_recognised_field():
    doc = make_doc(headers=["Session_ID", "Query", "answer", "notes"], rows=[["s1", "q", "a", ""]])
    model = CasesModel(doc)
    h = Qt.Orientation.Horizontal
    assert model.headerData(1, h) == "Query\n\u2192 question"
    assert "NOT read as session_id" in model.headerData(0, h)
    assert model.headerData(0, h, R.DecorationRole) is not None
    assert "misspelled-session-column" in model.headerData(0, h, R.ToolTipRole)
    assert "unknown" in model.headerData(3, h)


def test_row_header_shows_number_session_and_turn():
    model = CasesModel(make_doc())
    v = Qt.Orientation.Vertical
    assert model.headerData(1, v) == "2  s1\u00b72"
    assert model.headerData(4, v) == "5"


def test_edit_emits_data_changed_only_for_the_edited_row_and_no_reset():
    model = model_with_stack()
    rec = Recorder(model)
    assert model.setData(model.index(4, Q), "What is 3+3?")
    assert not rec.of("reset")
    rows = {e[1] for e in rec.of("data")} | {e[3] for e in rec.of("data")}
    assert rows == {4}
    text_events = [e for e in rec.of("data") if int(R.DisplayRole) in e[5]]
    assert text_events == [("data", 4, Q, 4, Q, sorted(int(r) for r in (R.DisplayRole, R.EditRole, R.ToolTipRole)))]


def test_edit_that_changes_issues_repaints_issue_roles_of_that_row_only():
    model = model_with_stack()
    rec = Recorder(model)
    model.setData(model.index(5, Q), "now a question")  # empty-question error goes away
    issue_events = [e for e in rec.of("data") if int(R.BackgroundRole) in e[5]]
    assert issue_events and all(e[1] == e[3] == 5 for e in issue_events)
    assert model.data(model.index(5, Q), R.BackgroundRole) is None


def test_insert_and_remove_rows_emit_exact_ranges():
    model = model_with_stack()
    rec = Recorder(model)
    ds = model.ds
    stack = model.undo_stack
    from evaleditor.gui.window.undo import CoreUndoCommand
    stack.push(CoreUndoCommand(ds, InsertRows(2, [ds.new_row(), ds.new_row()])))
    assert rec.of("inserted") == [("inserted", 2, 3)]
    assert model.rowCount() == 8
    stack.undo()
    assert rec.of("removed") == [("removed", 2, 3)]
    assert not rec.of("reset")
    assert model.rowCount() == 6


def test_filtered_insert_and_remove_map_to_visible_rows():
    model = model_with_stack()
    ds = model.ds
    ids = [r.id for r in ds.rows]
    model.set_visible([ids[1], ids[4]])
    rec = Recorder(model)
    from evaleditor.gui.window.undo import CoreUndoCommand
    new = ds.new_row()
    model.undo_stack.push(CoreUndoCommand(ds, InsertRows(3, [new])))  # between them in the file
    assert rec.of("inserted") == [("inserted", 1, 1)]
    assert [model.row_id(r) for r in range(model.rowCount())] == [ids[1], new.id, ids[4]]
    model.undo_stack.undo()
    assert rec.of("removed") == [("removed", 1, 1)]


def test_reorder_is_a_layout_change_that_keeps_persistent_indexes():
    model = model_with_stack()
    ds = model.ds
    ids = [r.id for r in ds.rows]
    from PySide6.QtCore import QPersistentModelIndex

    from evaleditor.gui.window.undo import CoreUndoCommand
    keep = QPersistentModelIndex(model.index(0, Q))
    rec = Recorder(model)
    model.undo_stack.push(CoreUndoCommand(ds, ReorderRows(list(reversed(ids)))))
    assert rec.of("layout") and not rec.of("reset")
    assert keep.row() == 5 and keep.data() == "Weather in Paris?"


def test_setdata_stores_invalid_text_and_never_raises():
    model = model_with_stack()
    assert model.setData(model.index(0, TOOLS), "not json")
    assert model.data(model.index(0, TOOLS), R.EditRole) == "not json"
    assert "invalid-tool-calls" in model.data(model.index(0, TOOLS), R.ToolTipRole)
    assert model.setData(model.index(0, 0), 12) and model.ds.rows[0].cells[0] == "12"
    assert not model.setData(model.index(0, 0), "x", R.DisplayRole)


def test_typing_into_one_cell_twice_is_one_undo_step():
    model = model_with_stack()
    idx = model.index(4, Q)
    model.setData(idx, "first")
    model.setData(idx, "second")
    assert model.undo_stack.count() == 1
    model.undo_stack.undo()
    assert idx.data(R.EditRole) == "What is 2+2?"
    model.setData(idx, "a")
    model.setData(model.index(4, 3), "b")
    assert model.undo_stack.count() == 2


def test_qtmodeltester_watches_every_kind_of_change(qtmodeltester):
    """The C++ tester stays attached and checks the signals of each structural change."""
    from evaleditor.core import editing
    from evaleditor.gui.window.undo import CoreUndoCommand

    model = model_with_stack()
    qtmodeltester.check(model, force_py=False)
    ds, stack = model.ds, model.undo_stack

    def do(command):
        stack.push(CoreUndoCommand(ds, command))

    ids = [r.id for r in ds.rows]
    do(editing.insert_rows(ds, 3, 2))
    do(editing.delete_rows([ids[0], ids[4]]))
    do(ReorderRows(list(reversed([r.id for r in ds.rows]))))
    do(editing.add_column(ds, 1, "notes"))
    do(editing.rename_column(ds, ds.columns[0].id, "Session_ID"))
    do(editing.remove_column(ds.columns[1].id))
    model.set_visible([r.id for r in ds.rows[::2]])
    do(editing.insert_rows(ds, 1))
    do(editing.delete_rows([ds.rows[2].id]))
    model.setData(model.index(0, Q), "edited")
    ds.set_target("evaluation-set")
    while stack.canUndo():
        stack.undo()
    model.set_visible(None)
    assert [r.id for r in ds.rows] == ids and ds.headers()[0] == "session_id"


def conversation_colours(model) -> tuple[dict[str, int], list[str]]:
    """Each conversation's band, and the conversations ordered by their first rows."""
    sessions, ds = model.validator.sessions.sessions, model.ds
    order = sorted(sessions, key=lambda sid: ds.position(sessions[sid][0]))
    return {sid: model.cache.band(sessions[sid][0]) for sid in order}, order


def test_bands_tell_neighbours_apart_and_an_edit_recolours_only_conversations_beside_it():
    """A fresh document alternates colours 0 and 1 by conversation (ordered by first row). After any
    session_id edit every conversation still differs from the ones before and after it, and the only
    conversations whose colour changed are the one the row left, the one it joined, and their
    neighbours before or after the edit."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    rows = [[f"s{i // 3}" if i % 5 else "", str(i % 3 + 1), f"q{i}", "a", ""] for i in range(30)]

    def beside(order, sids):
        at = {sid: i for i, sid in enumerate(order)}
        return {order[j] for sid in sids if sid in at for j in (at[sid] - 1, at[sid], at[sid] + 1)
                if 0 <= j < len(order)}

    @settings(max_examples=80, deadline=None)
    @given(st.lists(st.tuples(st.integers(0, 29), st.sampled_from(["", "s0", "s2", "s5", "new", "s9", "t"])),
                    min_size=1, max_size=10))
    def check(edits):
        model = model_with_stack(make_doc(rows=[list(r) for r in rows]))
        colours, order = conversation_colours(model)
        assert [colours[sid] for sid in order] == [i % 2 for i in range(len(order))]
        for row, sid in edits:
            left = model.validator.sessions.session_of.get(model.row_id(row))
            model.setData(model.index(row, 0), sid)
            after, order_after = conversation_colours(model)
            assert all(after[a] != after[b] for a, b in zip(order_after, order_after[1:], strict=False))
            near = beside(order, {left, sid}) | beside(order_after, {left, sid})
            assert {s for s in after if s in colours and after[s] != colours[s]} <= near
            colours, order = after, order_after

    check()


def test_session_edit_far_down_repaints_the_gutter_without_re_measuring_it():
    doc = make_doc(rows=[[f"s{i // 2}", str(i % 2 + 1), f"q{i}", "a", ""] for i in range(400)])
    model = model_with_stack(doc)
    header_changes, repaints = [], []
    model.headerDataChanged.connect(lambda o, a, b: header_changes.append((a, b)))
    model.gutterChanged.connect(lambda: repaints.append(1))
    model.setData(model.index(200, 0), "renamed")
    assert repaints and not [c for c in header_changes if c[0] <= 200 <= c[1]]
    assert model.headerData(200, Qt.Orientation.Vertical).startswith("201  renamed")
    model.setData(model.index(3, 0), "renamed")  # among the rows the header measures: re-measured
    assert (3, 3) in header_changes
