"""A deferred check (core/check_pass.py) must end exactly where a full check would, whatever is edited
while it runs, and must have told its listeners about every row whose issues it changed."""

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, rule

from evaleditor.core import bulk, checks, file_checks, validation
from evaleditor.core.commands import ReorderRows, SetCells
from evaleditor.core.document import document_from_table
from evaleditor.core.table import RawTable
from tests.core.test_incremental import HEADERS, VALUES, Editing, fresh, snapshot

ROWS = [["s1", "1", "hi", "a", ""], ["s1", "3", "hello", "NA", "{bad"], ["", "", "hi", "", ""],
        ["s2", "x", "", "", "[]"], ["S1", "1", "q", "None", ""], ["", "", "", "", ""], ["s1 ", "2", "hi", "", ""]]


def deferred_doc(rows=ROWS, headers=HEADERS, fmt="csv"):
    return document_from_table(RawTable(list(headers), [list(r) for r in rows], fmt), None, None, deferred=True)


def conversations(doc):
    return {sid: doc.dataset.positions(rows) for sid, rows in doc.validator.sessions.sessions.items()}


class Mirror:
    """What a view shows: each row's issues as last read when the validator named the row."""

    def __init__(self, doc):
        self.v = doc.validator
        self.shown = {r.id: self.v.row_issues(r.id) for r in doc.dataset.rows}
        self.v.listeners.append(self.heard)

    def heard(self, rows, _file_changed):
        for rid in rows:
            self.shown[rid] = self.v.row_issues(rid)

    def stale(self):
        return {r.id for r in self.v.ds.rows if self.shown.get(r.id, ()) != self.v.row_issues(r.id)}


class EditingWhileChecking(Editing):
    """test_incremental's edits, with steps of the pass among them."""

    def __init__(self):
        super().__init__()
        self.doc = deferred_doc()
        self.mirror = Mirror(self.doc)

    @rule(rows=st.integers(1, 3))
    def step(self, rows):
        if self.doc.validator.checking is not None:
            self.doc.validator.checking.step(rows)

    @invariant()
    def checked_rows_show_their_own_issues(self):
        v = self.doc.validator
        if v.checking is None:
            return
        ctx = checks.RowContext(self.ds, v.is_workbook())
        for row in self.ds.rows[:v.checking.next_row]:
            own = () if row.is_empty() else tuple(ctx.check(row))
            assert tuple(i for i in v.row_issues(row.id) if i in own) == own

    @invariant()
    def conversations_and_shape_follow_edits(self):
        again = fresh(self.doc)
        assert conversations(self.doc) == conversations(again) and self.doc.shape == again.shape

    @invariant()
    def listeners_heard_every_change(self):
        assert self.mirror.stale() == set()

    @invariant()
    def incremental_equals_full(self):  # test_incremental's invariant, once the pass is over
        if self.doc.validator.checking is None:
            assert snapshot(self.doc) == snapshot(fresh(self.doc))

    def teardown(self):
        self.doc.validator.finish_checking()
        assert snapshot(self.doc) == snapshot(fresh(self.doc))
        assert self.mirror.stale() == set()


class BigEditsCheckedInSlices(EditingWhileChecking):
    """As in a window: an edit of most rows, a reorder start a pass that keeps what was found before
    shown until its rows are checked again."""

    def __init__(self):
        super().__init__()
        self.doc.validator.defer_big_changes = True
        self.bulk, validation.BULK_ROWS = validation.BULK_ROWS, 1

    @rule(data=st.data(), col=st.integers(0, 4))
    def edit_every_row(self, data, col):
        value = data.draw(st.sampled_from(VALUES[col]))
        self._do(SetCells([(r.id, self.ds.columns[col].id, value) for r in self.ds.rows]))

    def teardown(self):
        validation.BULK_ROWS = self.bulk
        super().teardown()


TestBigEditsCheckedInSlices = BigEditsCheckedInSlices.TestCase
TestBigEditsCheckedInSlices.settings = settings(max_examples=150, stateful_step_count=25, deadline=None)
TestEditingWhileChecking = EditingWhileChecking.TestCase
TestEditingWhileChecking.settings = settings(max_examples=150, stateful_step_count=25, deadline=None)


def test_a_deferred_document_knows_its_shape_and_file_issues_before_any_row_is_checked():
    doc = deferred_doc(headers=["Session_ID", "turn_id", "question", "answer", "expected_tool_calls"])
    v = doc.validator
    assert v.checking is not None and not any(v.row_issues(r.id) for r in doc.dataset.rows)
    assert "misspelled-session-column" in {i.rule for i in v.file_issues()}
    assert doc.shape == fresh(doc).shape


def test_the_steps_report_the_rows_they_find_issues_in_block_by_block():
    doc = deferred_doc(rows=[["", "", f"q{i}" if i % 3 else "", "a", ""] for i in range(12)])
    heard = []
    doc.validator.listeners.append(lambda rows, _file: heard.append(sorted(doc.dataset.position(r) for r in rows)))
    while not doc.validator.checking.step(4):
        pass
    assert heard[:3] == [[0, 3], [6], [9]]  # empty questions, as each block of 4 rows is checked
    assert doc.validator.checking is None and snapshot(doc) == snapshot(fresh(doc))


def test_an_edit_during_the_pass_re_checks_only_the_edited_row(monkeypatch):
    doc = deferred_doc(rows=[["", "", f"q{i}", "a", ""] for i in range(50)])
    doc.validator.checking.step(10)
    calls = []
    real = checks.RowContext.check
    monkeypatch.setattr(checks.RowContext, "check", lambda self, row: calls.append(row.id) or real(self, row))
    ds = doc.dataset
    SetCells([(ds.rows[3].id, ds.columns[2].id, "")]).apply(ds)
    assert calls == [ds.rows[3].id]
    assert [i.rule for i in doc.validator.row_issues(ds.rows[3].id)] == ["empty-question"]


def test_a_full_check_ends_the_pass():
    doc = deferred_doc()
    doc.validator.full()
    assert doc.validator.checking is None and snapshot(doc) == snapshot(fresh(doc))


def windowed_doc(monkeypatch, rows=ROWS):
    """A document checked at once, then edited as in a window: big changes are checked in slices."""
    monkeypatch.setattr(validation, "BULK_ROWS", 2)
    doc = deferred_doc(rows)
    doc.validator.finish_checking()
    doc.validator.defer_big_changes = True
    return doc


def test_an_edit_of_most_rows_keeps_the_old_issues_shown_until_its_rows_are_checked_again(monkeypatch):
    doc = windowed_doc(monkeypatch)
    ds, v = doc.dataset, doc.validator
    mirror = Mirror(doc)
    shown = {r.id: v.row_issues(r.id) for r in ds.rows}
    SetCells([(r.id, ds.columns[2].id, "") for r in ds.rows]).apply(ds)  # every question emptied
    assert v.checking is not None and {r.id: v.row_issues(r.id) for r in ds.rows} == shown
    v.checking.step(3)
    assert all("empty-question" in {i.rule for i in v.row_issues(r.id)} for r in ds.rows[:3] if not r.is_empty())
    v.finish_checking()
    assert snapshot(doc) == snapshot(fresh(doc)) and mirror.stale() == set()


def test_a_reorder_checks_only_what_spans_rows(monkeypatch):
    doc = windowed_doc(monkeypatch)
    ds, v = doc.dataset, doc.validator
    ReorderRows(list(reversed([r.id for r in ds.rows]))).apply(ds)
    assert v.checking is not None and v.checking.next_row == len(ds.rows)  # no row to check again
    rechecked = []
    real = checks.RowContext.check_all
    monkeypatch.setattr(checks.RowContext, "check_all", lambda *args: rechecked.append(1) or real(*args))
    monkeypatch.setattr(checks.RowContext, "check", lambda *args: rechecked.append(1))
    v.finish_checking()
    assert rechecked == [] and snapshot(doc) == snapshot(fresh(doc))


def test_a_row_leaving_a_conversation_already_checked_in_the_last_steps_leaves_no_stale_issue():
    doc = deferred_doc(rows=[["s1", "1", "q1", "a", ""], ["", "", "q2", "a", ""], ["s1", "2", "q3", "a", ""],
                             ["s2", "1", "q4", "a", ""]])
    ds, v = doc.dataset, doc.validator
    while v.checking._spanning is None or v.checking._spanning:  # the rows, then the conversations
        v.checking.step()
    assert "session-rows-not-contiguous" in v._session_issues.get("s1", [])[0].rule
    mirror = Mirror(doc)
    SetCells([(ds.rows[2].id, ds.columns[0].id, "s2")]).apply(ds)  # s1 is one row now, s2 two apart
    v.finish_checking()
    assert snapshot(doc) == snapshot(fresh(doc)) and mirror.stale() == set()


def test_a_reorder_checks_again_only_the_conversations_whose_rows_it_moved(monkeypatch):
    rows = [["s1", "1", "q1", "a", ""], ["s1", "2", "q2", "a", ""], ["s2", "1", "q3", "a", ""],
            ["s2", "2", "q4", "a", ""], ["", "", "q5", "a", ""], ["s3", "1", "q6", "a", ""], ["s3", "2", "q7", "a", ""]]
    doc = windowed_doc(monkeypatch, rows)
    ds, v = doc.dataset, doc.validator
    mirror = Mirror(doc)
    checked, passes = [], []
    real = file_checks.check_session
    monkeypatch.setattr(file_checks, "check_session", lambda ds_, ctx, members, contiguous:
                        checked.append(members[0]) or real(ds_, ctx, members, contiguous))
    monkeypatch.setattr(bulk, "columns_of", lambda *args: passes.append("columns"))  # no pass over the cells
    monkeypatch.setattr(validation.Validator, "_compose_all", lambda self: passes.append("compose"))
    ids = [r.id for r in ds.rows]
    ReorderRows([ids[1], ids[0], *ids[2:]]).apply(ds)  # s1's turns swapped; s2, s3 untouched
    assert v.checking is not None
    steps = 1
    while not v.checking.step(1):  # one conversation of more than one row a step
        steps += 1
    assert checked == [ids[1]] and passes == [] and steps == 3
    assert "turns-out-of-file-order" in {i.rule for i in v.row_issues(ids[0])}
    monkeypatch.undo()  # a fresh document is checked in full
    assert snapshot(doc) == snapshot(fresh(doc)) and mirror.stale() == set()


def test_rows_of_a_conversation_coming_apart_in_a_reorder_are_checked_again():
    rows = [["s1", "1", "q1", "a", ""], ["s1", "2", "q2", "a", ""], ["", "", "q3", "a", ""]]
    doc = deferred_doc(rows)
    doc.validator.finish_checking()
    ids = [r.id for r in doc.dataset.rows]
    ReorderRows([ids[0], ids[2], ids[1]]).apply(doc.dataset)  # s1's order is the same, its rows apart
    assert "session-rows-not-contiguous" in {i.rule for i in doc.validator.row_issues(ids[0])}
    assert snapshot(doc) == snapshot(fresh(doc))
