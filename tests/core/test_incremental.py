"""Incremental validation must always agree with validating from scratch.

A hypothesis state machine edits cells, inserts, removes and reorders rows, renames columns and
undoes through the commands' inverses; after every step the live validator's issues, counts and
shape, and its conversations (the document's SessionIndex) equal those of a fresh document over a copy
of the same data.
"""

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from evaleditor.core.commands import InsertRows, RemoveRows, RenameColumn, ReorderRows, SetCells
from evaleditor.core.shape import shape_of
from tests.core.conftest import make_doc

HEADERS = ["session_id", "turn_id", "question", "answer", "expected_tool_calls"]
VALUES = {
    0: ["", "s1", "s2", "S1", "s1 ", "t"],
    1: ["", "1", "2", "3", "0", "x", "2.0"],
    2: ["", "hi", "hello", "hi", "NA", " "],
    3: ["", "a", "None"],
    4: ["", "[]", '[{"name": "f", "arguments": {}}]', "{bad"],
}


def snapshot(doc):
    ds, v = doc.dataset, doc.validator
    issues = [(ds.position(i.row_id) if i.row_id else -1, i.rule, i.severity,  # in the report's order
               ds.column_position(i.column_id) if i.column_id else -1, i.message) for i in v.all_issues()]
    counts = {k: n for k, n in v.counts.items() if n}
    rules = {k: n for k, n in v.rule_counts.items() if n}
    conversations = {sid: ds.positions(rows) for sid, rows in doc.sessions.sessions.items()}
    return issues, counts, rules, shape_of(v).line, conversations


def fresh(doc):
    ds = doc.dataset
    return make_doc(ds.headers(), [r.cells for r in ds.rows], ds.target.name)


class Editing(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        rows = [["s1", "1", "hi", "a", ""], ["s1", "2", "hello", "", ""], ["", "", "hi", "", ""]]
        self.doc = make_doc(HEADERS, rows)
        self.undo = []

    @property
    def ds(self):
        return self.doc.dataset

    def _do(self, command):
        self.undo.append(command.apply(self.ds))

    @precondition(lambda self: self.ds.rows)
    @rule(data=st.data(), col=st.integers(0, 4))
    def edit_cell(self, data, col):
        row = data.draw(st.sampled_from(self.ds.rows))
        value = data.draw(st.sampled_from(VALUES[col]))
        self._do(SetCells([(row.id, self.ds.columns[col].id, value)]))

    @rule(data=st.data(), pos=st.integers(0, 10), n=st.integers(1, 3))
    def insert_rows(self, data, pos, n):
        rows = [self.ds.new_row([data.draw(st.sampled_from(VALUES[c])) for c in range(5)]) for _ in range(n)]
        self._do(InsertRows(min(pos, len(self.ds.rows)), rows))

    @precondition(lambda self: self.ds.rows)
    @rule(data=st.data())
    def remove_rows(self, data):
        ids = data.draw(st.lists(st.sampled_from([r.id for r in self.ds.rows]), min_size=1, max_size=3, unique=True))
        self._do(RemoveRows(ids))

    @precondition(lambda self: len(self.ds.rows) > 1)
    @rule(data=st.data())
    def reorder(self, data):
        self._do(ReorderRows(data.draw(st.permutations([r.id for r in self.ds.rows]))))

    @rule(col=st.integers(0, 4), header=st.sampled_from(["Session_ID", "turn_id", "session_id", "Query", "notes"]))
    def rename(self, col, header):
        self._do(RenameColumn(self.ds.columns[col].id, header))

    @precondition(lambda self: self.undo)
    @rule()
    def undo_last(self):
        self.undo.pop().apply(self.ds)

    @invariant()
    def incremental_equals_full(self):
        assert snapshot(self.doc) == snapshot(fresh(self.doc))

    @invariant()
    def the_issues_listed_before_are_listed_again_only_while_nothing_changed(self):
        """all_issues is kept between changes: after each step it is the list in file order, as made now."""
        v = self.doc.validator
        assert v.all_issues() == v._issues_in_order()


TestIncremental = Editing.TestCase
TestIncremental.settings = settings(max_examples=150, stateful_step_count=25, deadline=None)


def test_undo_restores_every_cell():
    doc = make_doc(HEADERS, [["s1", "1", "q", "a", ""], ["s1", "2", "r", "", ""]])
    ds = doc.dataset
    before = [list(r.cells) for r in ds.rows], ds.headers()
    steps = [SetCells([(ds.rows[0].id, ds.columns[2].id, "changed")]),
             InsertRows(1, [ds.new_row(["s2", "1", "new", "", ""])]),
             RemoveRows([ds.rows[0].id]),
             RenameColumn(ds.columns[0].id, "Session_ID")]
    inverses = []
    for c in steps:
        inverses.append(c.apply(ds))
    for inv in reversed(inverses):
        inv.apply(ds)
    assert ([list(r.cells) for r in ds.rows], ds.headers()) == before
    assert snapshot(doc) == snapshot(fresh(doc))


def test_one_cell_edit_reports_only_rows_whose_issues_changed():
    rows = [["", "", f"question {i}", "a", ""] for i in range(50)] + [["s", "1", "x", "", ""], ["s", "3", "y", "", ""]]
    doc = make_doc(HEADERS, rows)
    ds = doc.dataset
    heard = []
    doc.validator.listeners.append(lambda changed, file_level: heard.append(changed))
    SetCells([(ds.rows[51].id, ds.columns[1].id, "2")]).apply(ds)  # closes the turn gap
    assert heard == [{ds.rows[51].id}]
    SetCells([(ds.rows[10].id, ds.columns[2].id, "question 11")]).apply(ds)  # duplicates row 12
    assert heard[-1] == {ds.rows[10].id, ds.rows[11].id}


def test_a_new_document_has_no_empty_dataset_error_until_it_is_saved(tmp_path):
    """File ▸ New: no case yet is not a fault while the document is new; once saved it is a file, which
    `validate` reports as an empty dataset (the command line never waits for a first case)."""
    doc = make_doc(HEADERS, [[""] * 5])
    assert "empty-dataset" in doc.validator.rule_counts
    told = []
    doc.validator.listeners.append(lambda rows, file_changed: told.append(file_changed))
    doc.validator.await_first_case()
    assert not doc.validator.rule_counts["empty-dataset"] and told == [True]
    assert "empty-dataset" not in {i.rule for i in doc.validator.all_issues()}
    doc.saved_as(tmp_path / "cases.csv", "csv")
    assert doc.validator.rule_counts["empty-dataset"] == 1


def test_saving_as_a_workbook_clears_the_file_type_issue_and_says_so():
    doc = make_doc(["query", "answer"], [["q", "a"]], "evaluation-set")  # read from a .csv
    assert "unsupported-file-type" in {i.rule for i in doc.validator.file_issues()}
    told = []
    doc.validator.listeners.append(lambda rows, file_changed: told.append(file_changed))
    doc.validator.saved_as("xlsx")
    assert "unsupported-file-type" not in {i.rule for i in doc.validator.file_issues()} and told[-1] is True
    assert snapshot(doc) == snapshot(make_doc(["query", "answer"], [["q", "a"]], "evaluation-set", fmt="xlsx"))


def test_a_save_format_that_keeps_the_workbook_rules_does_not_check_everything_again():
    doc = make_doc(["question", "answer"], [["q\x01", "a"], ["", "b"]])
    told = []
    doc.validator.listeners.append(lambda rows, file_changed: told.append(rows))
    doc.validator.set_save_format("json")  # csv -> json: neither is a workbook
    assert told == []
    doc.validator.set_save_format("xlsx")  # a workbook: control characters are now errors
    assert told and "control-character" in doc.validator.rule_counts


def test_an_edit_of_most_rows_is_checked_in_one_pass_with_the_same_result(monkeypatch):
    from evaleditor.core import validation
    monkeypatch.setattr(validation, "BULK_ROWS", 2)
    rows = [["s1", "1", "hi", "a", ""], ["s1", "3", "hi", "NA", "["], ["", "", "hi", "", ""], ["s2", "x", "", "", ""]]
    doc = make_doc(HEADERS, rows)
    ds = doc.dataset
    told = []
    doc.validator.listeners.append(lambda ids, file_changed: told.append(ids))
    q = ds.columns[2].id
    inverse = SetCells([(r.id, q, f"question {i}") for i, r in enumerate(ds.rows[:3])]).apply(ds)  # 3 of 4
    assert snapshot(doc) == snapshot(fresh(doc))
    assert {r.id for r in ds.rows[:3]} & set().union(*told)  # the rows whose duplicate warning went
    inverse.apply(ds)
    assert snapshot(doc) == snapshot(fresh(doc))
