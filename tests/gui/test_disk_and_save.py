"""Saving in the window: the file changed on disk (Reload / Keep Mine / Save As…, asked when the window
gets the focus back and before Save), a save that does not read back as written (the old file kept, the
cells that differ listed), and CSV cells that Excel would run as formulas."""

import csv

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication, QMessageBox

from evaleditor.core.errors import Mismatch
from evaleditor.gui import MainWindow, dialogs
from evaleditor.gui.dialogs import ask_file_changed as real_ask_file_changed
from evaleditor.gui.window import recovery
from evaleditor.io.load import load_document
from tests.gui.conftest import HEADERS, ROWS, make_doc
from tests.gui.test_window import Q, write_csv

THEIRS = [["t1", "1", "their question", "their answer", ""]]


@pytest.fixture
def changed(qtbot, tmp_path):
    """A window with an unsaved edit to cases.csv, which another program has just rewritten."""
    w = MainWindow()
    qtbot.addWidget(w)
    path = write_csv(tmp_path / "cases.csv")
    assert w.documents.open_file(path)
    w.model.setData(w.model.index(0, Q), "mine")
    write_csv(path, rows=THEIRS)
    return w


def cells(path):
    return [r.cells for r in load_document(path).dataset.rows]


def asked(dialogs_log, name="ask_file_changed"):
    return [args for n, args in dialogs_log.calls if n == name]


def test_regaining_the_focus_asks_and_reload_reads_the_file_again(changed, qtbot, dialogs_log):
    dialogs_log.answers["ask_file_changed"] = dialogs.RELOAD
    changed.show()
    changed.activateWindow()
    qtbot.waitUntil(changed.isActiveWindow)
    QApplication.sendEvent(changed, QEvent(QEvent.Type.ActivationChange))
    qtbot.waitUntil(lambda: asked(dialogs_log) != [])
    assert asked(dialogs_log) == [(str(changed.doc.path), True)]  # told that unsaved edits will be lost
    assert [r.cells for r in changed.doc.dataset.rows] == THEIRS and not changed.is_modified()
    assert recovery.recovery_dir().exists() is False or list(recovery.recovery_dir().glob("*.json")) == []
    assert changed.documents.disk_watch.check() is None  # the window now has what is on disk


def test_keep_mine_does_not_ask_again_and_save_overwrites(changed, dialogs_log):
    path = changed.doc.path
    dialogs_log.answers["ask_file_changed"] = dialogs.KEEP_MINE
    assert changed.documents.disk_watch.check() == dialogs.KEEP_MINE
    assert changed.is_modified() and changed.doc.dataset.rows[0].cells[Q] == "mine"
    assert changed.documents.disk_watch.check() is None
    assert changed.documents.save() and not changed.is_modified()
    assert len(asked(dialogs_log)) == 1  # neither the focus check nor Save asked again
    assert cells(path)[0][Q] == "mine"
    write_csv(path, rows=THEIRS)  # changed once more: asked again
    changed.model.setData(changed.model.index(1, Q), "more")
    assert changed.documents.disk_watch.check() == dialogs.KEEP_MINE and len(asked(dialogs_log)) == 2


def test_enter_on_the_question_before_save_keeps_both_versions(changed, dialogs_log, tmp_path, monkeypatch):
    """Pressing Enter (the default button) when Save finds the file changed by another program must not
    overwrite that program's change: it saves this window's version under another name."""
    path = changed.doc.path

    def press_enter(box):
        box.defaultButton().click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", press_enter)
    dialogs_log.answers["ask_file_changed"] = real_ask_file_changed
    dialogs_log.answers["save_file_name"] = str(tmp_path / "mine.csv")
    changed.documents.save()
    assert cells(path) == THEIRS  # the other program's version is still on disk
    assert cells(tmp_path / "mine.csv")[0][Q] == "mine"


def test_save_as_keeps_both_versions(changed, dialogs_log, tmp_path):
    path = changed.doc.path
    dialogs_log.answers["ask_file_changed"] = dialogs.SAVE_AS
    dialogs_log.answers["save_file_name"] = str(tmp_path / "mine.csv")
    assert changed.documents.disk_watch.check() == dialogs.SAVE_AS
    assert changed.doc.path == tmp_path / "mine.csv" and not changed.is_modified()
    assert cells(tmp_path / "mine.csv")[0][Q] == "mine"
    assert cells(path) == THEIRS
    assert changed.documents.disk_watch.check() is None


def test_save_asks_first_with_the_same_three_choices(changed, dialogs_log, tmp_path):
    path = changed.doc.path
    dialogs_log.answers["ask_file_changed"] = dialogs.CANCEL
    assert not changed.documents.save() and changed.is_modified() and cells(path) == THEIRS
    dialogs_log.answers["ask_file_changed"] = dialogs.SAVE_AS
    dialogs_log.answers["save_file_name"] = str(tmp_path / "mine.csv")
    assert changed.documents.save() and cells(tmp_path / "mine.csv")[0][Q] == "mine" and cells(path) == THEIRS
    changed.model.setData(changed.model.index(0, Q), "mine again")
    write_csv(tmp_path / "mine.csv", rows=THEIRS)
    dialogs_log.answers["ask_file_changed"] = dialogs.RELOAD
    assert not changed.documents.save()
    assert [r.cells for r in changed.doc.dataset.rows] == THEIRS and not changed.is_modified()


def test_cancel_on_focus_is_not_asked_again_on_focus_but_save_asks(changed, dialogs_log):
    dialogs_log.answers["ask_file_changed"] = dialogs.CANCEL
    assert changed.documents.disk_watch.check() == dialogs.CANCEL
    assert changed.documents.disk_watch.check() is None
    assert not changed.documents.save() and len(asked(dialogs_log)) == 2


def test_an_unmodified_document_is_asked_about_too(qtbot, tmp_path, dialogs_log):
    w = MainWindow()
    qtbot.addWidget(w)
    path = write_csv(tmp_path / "cases.csv")
    w.documents.open_file(path)
    write_csv(path, rows=THEIRS)
    dialogs_log.answers["ask_file_changed"] = dialogs.RELOAD
    assert w.documents.disk_watch.check() == dialogs.RELOAD and asked(dialogs_log) == [(str(path), False)]
    assert [r.cells for r in w.doc.dataset.rows] == THEIRS


def test_no_question_when_nothing_changed_or_the_file_is_untitled(window, qtbot, tmp_path, dialogs_log):
    assert window.documents.disk_watch.check() is None  # untitled
    path = write_csv(tmp_path / "cases.csv")
    window.documents.open_file(path)
    window.model.setData(window.model.index(0, Q), "mine")
    assert window.documents.disk_watch.check() is None and window.documents.save()
    assert asked(dialogs_log) == []


# ----- a save that does not read back as written -------------------------------------------------------------
@pytest.fixture
def lying_reader(monkeypatch):
    """The read-back of a save sees one cell changed (as a faulty disk or writer would make it)."""
    import evaleditor.io as io

    real = io.read_table

    def read_table(path, *args, suffix=None, **kwargs):
        table = real(path, *args, suffix=suffix, **kwargs)
        if suffix is not None and table.rows:  # the save's temporary file
            table.rows[0][Q] = "corrupted"
        return table

    monkeypatch.setattr(io, "read_table", read_table)


@pytest.mark.parametrize("background", [False, True])
def test_a_save_that_does_not_read_back_keeps_the_old_file(lying_reader, background, qtbot, tmp_path, dialogs_log):
    w = MainWindow()
    qtbot.addWidget(w)
    path = write_csv(tmp_path / "cases.csv")
    before = path.read_bytes()
    w.documents.open_file(path)
    w.model.setData(w.model.index(0, Q), "mine")
    if background:
        w.documents.background_rows = 0
    w.documents.save()
    qtbot.waitUntil(lambda: w.tasks.current is None)
    (args,) = asked(dialogs_log, "show_verify_error")
    assert args == (str(path), [Mismatch(1, "question", "mine", "corrupted")])
    assert path.read_bytes() == before and w.is_modified()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cases.csv"]
    assert "show_error" not in dialogs_log.names()


def test_the_differences_read_well():
    assert dialogs.mismatch_line(Mismatch(12, "answer", "a\nb", "")) == \
        "row 12, column answer: expected \u201ca\u23ceb\u201d, found (nothing)"
    assert dialogs.mismatch_line(Mismatch(None, "question", "question", "Question")) == \
        "header \u201cquestion\u201d: expected \u201cquestion\u201d, found \u201cQuestion\u201d"
    assert dialogs.mismatch_line(Mismatch(3, None, "", "x")).startswith("row 3: expected (nothing)")
    assert dialogs.mismatch_line(Mismatch(None, None, "a file that opens", "bad")).startswith("the file: ")
    assert "\u201c" + "x" * 60 + "\u2026\u201d, found" in dialogs.mismatch_line(Mismatch(1, "c", "x" * 100, "y"))


# ----- CSV cells Excel would run as formulas ---------------------------------------------------------------------
FORMULAS = [["s1", "1", "=1+1", "@SUM(A1)", ""], ["s1", "2", "-x", "-3", ""], ["", "", "plain", "+1.5", ""]]


@pytest.fixture
def formulas(qtbot):
    w = MainWindow()
    qtbot.addWidget(w)
    w.set_document(make_doc(rows=FORMULAS))
    return w


def read_rows(path):
    with open(path, encoding="utf-8-sig", newline="") as f:
        return list(csv.reader(f))[1:]


@pytest.mark.parametrize("answer, cell", [(True, "'=1+1"), (False, "=1+1")])
def test_csv_formulas_written_safely_or_as_they_are(formulas, answer, cell, tmp_path, dialogs_log):
    dialogs_log.answers["ask_csv_formulas"] = answer
    out = tmp_path / "out.csv"
    assert formulas.documents.save_as(out)
    assert asked(dialogs_log, "ask_csv_formulas") == [(3,)]  # =1+1, @SUM(A1), -x; not the numbers
    rows = read_rows(out)
    assert rows[0][Q] == cell and rows[1][3] == "-3" and rows[2][3] == "+1.5"
    assert (rows[0][3] == "'@SUM(A1)") is answer
    formulas.model.setData(formulas.model.index(2, Q), "=2+2")
    assert formulas.documents.save()
    assert len(asked(dialogs_log, "ask_csv_formulas")) == 1  # remembered for this file
    assert read_rows(out)[2][Q] == ("'=2+2" if answer else "=2+2")


def test_cancelling_the_csv_question_saves_nothing(formulas, tmp_path, dialogs_log):
    dialogs_log.answers["ask_csv_formulas"] = None
    assert not formulas.documents.save_as(tmp_path / "out.csv")
    assert not (tmp_path / "out.csv").exists() and formulas.doc.path is None
    assert formulas.doc.dataset.headers() == HEADERS


def test_workbooks_and_clean_csv_are_not_asked_about(formulas, window, tmp_path, dialogs_log):
    assert formulas.documents.save_as(tmp_path / "out.xlsx")
    assert window.documents.save_as(tmp_path / "clean.csv")
    assert "ask_csv_formulas" not in dialogs_log.names()
    assert read_rows(tmp_path / "clean.csv") == [r for r in ROWS]


@pytest.mark.parametrize(("name", "content", "rule", "magic"), [
    ("wrong.csv", "workbook", "workbook-named-as-text", b"\xef\xbb\xbf"),
    ("wrong.xlsx", "text", "text-named-as-workbook", b"PK\x03\x04")])
def test_save_of_a_misnamed_file_writes_what_its_name_says_and_the_name_no_longer_misleads(
        qtbot, tmp_path, dialogs_log, name, content, rule, magic):
    """A workbook named .csv and a CSV named .xlsx open for what they are, the name said to mislead.
    Save writes the format of the name, as convert and the Python API do (and a target that wants a
    workbook refuses a name .csv): the file is what its name says, and the note is gone."""
    path = tmp_path / name
    if content == "text":
        write_csv(path)
    else:
        from evaleditor.io import write_table

        write_table(path.with_suffix(".xlsx"), HEADERS, ROWS)
        path.with_suffix(".xlsx").rename(path)
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path)
    assert rule in {i.rule for i in w.doc.validator.all_issues()}
    w.model.setData(w.model.index(0, Q), "edited")
    assert w.documents.save(wait=True)
    assert path.read_bytes().startswith(magic)
    assert rule not in {i.rule for i in w.doc.validator.all_issues()}
    assert rule not in {i.rule for i in load_document(path).validator.all_issues()}
    assert cells(path)[0][Q] == "edited"


def test_reload_of_a_workbook_named_csv_replaced_by_its_csv_reads_the_text(qtbot, tmp_path, dialogs_log):
    """A one-sheet workbook named .csv, replaced on disk by the CSV it should have been: Reload reads the
    text (asking the text for the sheet it had would be refused: a text file has no sheets)."""
    from evaleditor.io import write_table

    path = tmp_path / "wrong.csv"
    write_table(tmp_path / "book.xlsx", HEADERS, ROWS)
    (tmp_path / "book.xlsx").rename(path)
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path) and w.doc.sheet is not None
    write_csv(path, rows=THEIRS)
    assert w.documents.disk_watch.reload()
    assert w.doc.source_format == "csv" and [r.cells for r in w.doc.dataset.rows] == THEIRS


def test_reload_of_a_workbook_of_several_sheets_replaced_by_text_reads_the_text(qtbot, tmp_path, dialogs_log):
    """The user chose a sheet of a workbook named .csv; the file is replaced on disk by CSV text: Reload
    reads the text (the sheet it had would be refused: a text file has no sheets)."""
    from tests.io.io_builders import tables_xlsx

    path = tmp_path / "wrong.csv"
    tables_xlsx(tmp_path / "book.xlsx", {"Other": [["x"]], "Cases": [HEADERS, *ROWS]}).rename(path)
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path, sheet="Cases") and len(w.doc.sheets) == 2
    write_csv(path, rows=THEIRS)
    assert w.documents.disk_watch.reload()
    assert w.doc.source_format == "csv" and [r.cells for r in w.doc.dataset.rows] == THEIRS
    assert "show_error" not in dialogs_log.names()


def test_reload_of_a_workbook_of_several_sheets_keeps_the_sheet_chosen(qtbot, tmp_path, dialogs_log):
    from tests.io.io_builders import tables_xlsx

    path = tables_xlsx(tmp_path / "book.xlsx", {"Other": [["x"]], "Cases": [HEADERS, *ROWS]})
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path, sheet="Cases")
    tables_xlsx(path, {"Other": [["y"]], "Cases": [HEADERS, *THEIRS]})
    assert w.documents.disk_watch.reload()
    assert w.doc.sheet == "Cases" and [r.cells for r in w.doc.dataset.rows] == THEIRS
