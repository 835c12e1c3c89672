"""An edit still open in a cell is not lost when the document goes; Ctrl+D (Fill Down) is
not ambiguous on X11; typing after Tab replaces the cell; Save As under a changed target writes the
headers `evaleditor convert` writes; Ctrl+T and the demo say the right thing."""

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication, QMessageBox

from evaleditor.gui import dialogs
from evaleditor.gui.dialogs import ask_save_leaving_out as real_ask_save_leaving_out
from evaleditor.gui.window import settings
from tests.gui.conftest import ROWS, make_doc, shown_title
from tests.gui.test_window import show_active, write_csv

K = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier
ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "resources" / "samples"
SESSION, TURN, Q, A, TOOLS = range(5)
EDITING = QAbstractItemView.State.EditingState


def type_text(text: str) -> None:
    """Key by key into whatever has the focus, as a keyboard types (the first key opens the editor)."""
    for ch in text:
        QTest.keyClicks(QApplication.focusWidget(), ch)
    QApplication.processEvents()


def key(k, mods=Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(QApplication.focusWidget(), k, mods)
    QApplication.processEvents()


def cell(w, row: int, col: int) -> str:
    return w.doc.dataset.rows[row].cells[col]


def start_typing(w, qtbot, row: int, col: int, text: str) -> None:
    """Type into a cell and leave its editor open (nothing committed yet)."""
    show_active(w, qtbot)
    w.view.go_to(w.model.index(row, col))
    type_text(text)
    assert w.view.state() == EDITING and not w.is_modified()


@pytest.fixture
def opened(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(write_csv(tmp_path / "cases.csv"))
    return w


# ----- 1. an edit still open in a cell ---------------------------------------------------------------------
def _close(w, other):
    w.close()


def _open(w, other):
    w.documents.open_file(other)


def _open_recent(w, other):
    settings.add_recent(other)
    w.actions.recent.aboutToShow.emit()
    next(a for a in w.actions.recent.actions() if a.text() == str(Path(other).resolve())).trigger()


def _new_from_template(w, other):
    w.documents.new_from_template("ground-truth")


@pytest.mark.parametrize("replace", [_close, _open, _open_recent, _new_from_template],
                         ids=["close", "open", "open-recent", "new-from-template"])
def test_text_still_in_the_cell_editor_is_asked_about_before_the_document_goes(opened, qtbot, tmp_path,
                                                                               dialogs_log, replace):
    w = opened
    other = write_csv(tmp_path / "other.csv", rows=ROWS[:1])
    start_typing(w, qtbot, 1, Q, "typed then closed")
    dialogs_log.answers["ask_save_changes"] = dialogs.CANCEL
    replace(w, other)
    assert dialogs_log.names().count("ask_save_changes") == 1
    assert ("ask_save_changes", ("cases.csv",)) in dialogs_log.calls
    assert w.isVisible() and w.doc.path.name == "cases.csv"  # cancelled: the document stays
    assert cell(w, 1, Q) == "typed then closed" and w.is_modified() and shown_title(w).startswith("cases.csv*")
    w.undo_stack.undo()  # an ordinary edit: one undo step restores the old text
    assert cell(w, 1, Q) == ROWS[1][Q] and not w.is_modified()


def test_saving_from_the_prompt_writes_the_text_that_was_still_in_the_editor(opened, qtbot, tmp_path,
                                                                            dialogs_log):
    from evaleditor.io.load import load_document
    w = opened
    start_typing(w, qtbot, 0, A, "typed then quit")
    dialogs_log.answers["ask_save_changes"] = dialogs.SAVE
    w.close()
    assert not w.isVisible()
    assert load_document(tmp_path / "cases.csv").dataset.rows[0].cells[A] == "typed then quit"


def test_switching_the_target_keeps_the_text_still_in_the_editor(opened, qtbot):
    w = opened
    start_typing(w, qtbot, 0, Q, "typed then retargeted")
    w.actions.targets["evaluation-set"].trigger()
    assert w.doc.dataset.target.name == "evaluation-set"
    assert cell(w, 0, Q) == "typed then retargeted" and w.is_modified()


# ----- 2. Ctrl+D --------------------------------------------------------------------------------------------
# QKeySequence.keyBindings() under the X11 key theme (xcb; the same under KDE and GNOME but for Replace,
# Ctrl+H on GNOME), read from Qt 6 under Xvfb. Offscreen uses the Windows theme, where Delete is Del only.
X11_BINDINGS = {
    "Open": ["Ctrl+O", "Open"], "Save": ["Ctrl+S", "Save"], "SaveAs": ["Ctrl+Shift+S", "Shift+Save"],
    "Quit": ["Ctrl+Q", "Exit"], "Undo": ["Ctrl+Z", "F14", "Undo"], "Redo": ["Ctrl+Shift+Z", "Redo"],
    "Cut": ["Ctrl+X", "Shift+Del", "F20", "Cut"], "Copy": ["Ctrl+C", "Ctrl+Ins", "F16", "Copy"],
    "Paste": ["Ctrl+V", "Ctrl+Shift+Ins", "Shift+Ins", "F18", "Paste"], "Delete": ["Del", "Ctrl+D"],
    "Find": ["Ctrl+F", "Find"], "Replace": ["Ctrl+H"], "New": ["Ctrl+N", "New"], "Close": ["Ctrl+F4", "Ctrl+W", "Close"],
    "HelpContents": ["F1", "Help"],
}


class X11KeySequence(QKeySequence):
    @staticmethod
    def keyBindings(key):  # noqa: N802 - Qt's name
        return [QKeySequence(s) for s in X11_BINDINGS[key.name]]


def _shortcut_owners(w) -> dict[str, list[str]]:
    from PySide6.QtGui import QAction
    owners: dict[str, list[str]] = {}
    for action in w.findChildren(QAction):
        for seq in action.shortcuts():
            owners.setdefault(seq.toString(), []).append(action.text())
    return owners


def test_ctrl_d_fills_down_under_the_x11_key_theme(qtbot, monkeypatch, dialogs_log):
    from evaleditor.gui import MainWindow
    from evaleditor.gui.window import actions
    monkeypatch.setattr(actions, "QKeySequence", X11KeySequence)
    w = MainWindow()
    qtbot.addWidget(w)
    w.set_document(make_doc())
    owners = _shortcut_owners(w)
    shared = {k: v for k, v in owners.items() if len(v) > 1}
    assert not shared, f"shortcuts on more than one action (Qt ignores them as ambiguous): {shared}"
    assert owners["Ctrl+D"] == [w.actions.fill_down.text()]
    assert owners["Ctrl+H"] == [w.actions.replace.text()]
    assert [s.toString() for s in w.actions.delete_cells.shortcuts()] == ["Del", "Backspace"]
    show_active(w, qtbot)
    w.view.go_to(w.model.index(3, Q))
    key(K.Key_D, CTRL)
    assert w.model.rowCount() == len(ROWS)
    assert w.doc.dataset.rows[3].cells[Q] == ROWS[2][Q]  # filled from the row above
    key(K.Key_Delete)  # still clears the cell
    assert w.doc.dataset.rows[3].cells[Q] == ""


@pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("xvfb-run") is None,
                    reason="needs Linux and xvfb-run (the real X11 key theme)")
def test_no_shortcut_is_shared_on_a_real_x11_display(tmp_path):
    script = textwrap.dedent("""
        import json, os
        from PySide6.QtCore import QSettings
        from PySide6.QtGui import QAction, QKeySequence
        from evaleditor.gui.window import app
        qapp = app.application()
        QSettings.setDefaultFormat(QSettings.Format.IniFormat)
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, os.environ["QS_DIR"])
        from evaleditor.gui.window.main_window import MainWindow
        w = MainWindow()
        owners = {}
        for a in w.findChildren(QAction):
            for s in a.shortcuts():
                owners.setdefault(s.toString(), []).append(a.text())
        delete = [s.toString() for s in QKeySequence.keyBindings(QKeySequence.StandardKey.Delete)]
        print(json.dumps({"platform": qapp.platformName(), "delete": delete, "owners": owners}))
    """)
    env = dict(os.environ, QT_QPA_PLATFORM="xcb", EVALEDITOR_DATA_DIR=str(tmp_path / "data"),
               QS_DIR=str(tmp_path / "qs"), PYTHONPATH=str(ROOT))
    run = subprocess.run(["xvfb-run", "-a", sys.executable, "-c", script], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=180)
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    if run.returncode != 0 or not lines:
        pytest.skip(f"no X11 display could be started: {run.stderr[-300:]}")
    found = json.loads(lines[-1])
    assert found["platform"] == "xcb"
    shared = {k: v for k, v in found["owners"].items() if len(v) > 1}
    assert not shared, f"ambiguous under the {found['delete']} Delete theme: {shared}"
    assert "Ambiguous shortcut" not in run.stderr


# ----- 3. typing after Tab ------------------------------------------------------------------------------------
def test_typing_after_tab_replaces_a_multiline_cell(window, qtbot):
    w = window
    show_active(w, qtbot)
    w.view.go_to(w.model.index(0, Q))
    type_text("New question")
    key(K.Key_Tab)
    assert (w.view.currentIndex().row(), w.view.currentIndex().column()) == (0, A)
    type_text("New answer")
    key(K.Key_Return)
    assert cell(w, 0, Q) == "New question"
    assert cell(w, 0, A) == "New answer"  # not "SunnyNew answer"
    assert w.view.currentIndex().row() == 1 and w.view.state() != EDITING
    w.undo_stack.undo()  # one step back to the old answer, the question stays
    assert cell(w, 0, A) == ROWS[0][A] and cell(w, 0, Q) == "New question"
    w.view.go_to(w.model.index(0, Q))  # F2 after Tab still edits keeping the text, the cursor at its end
    type_text("Q")
    key(K.Key_Tab)
    key(K.Key_F2)
    assert w.view.state() == EDITING
    type_text(" and more")
    key(K.Key_Return)
    assert cell(w, 0, A) == ROWS[0][A] + " and more"


def test_typing_after_tab_and_shift_tab_replaces_in_every_column(window, qtbot):
    w = window
    show_active(w, qtbot)
    w.view.go_to(w.model.index(1, SESSION))
    type_text("s9")
    for col, text in ((TURN, "7"), (Q, "q"), (A, "a"), (TOOLS, "[]")):
        key(K.Key_Tab)
        assert w.view.currentIndex().column() == col and w.view.state() != EDITING
        type_text(text)
    key(K.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert w.view.currentIndex().column() == A and w.view.state() != EDITING
    type_text("b")
    key(K.Key_Return)
    assert w.doc.dataset.rows[1].cells == ["s9", "7", "q", "b", "[]"]


# ----- 4. Save As under a changed target ------------------------------------------------------------------------
@pytest.mark.parametrize(("sample", "target", "lang"), [
    ("ground_truth_multiturn.xlsx", "evaluation-set", "zh"),
    ("ground_truth_multiturn.xlsx", "evaluation-set", "en"),
    ("ground_truth_single_turn.csv", "evaluation-set", "zh"),
    ("evaluation_set_zh.xlsx", "ground-truth", "en"),
])
def test_save_as_under_another_target_writes_the_headers_convert_writes(qtbot, tmp_path, dialogs_log,
                                                                        sample, target, lang):
    """The GUI (Data ▸ Target, Data ▸ Headers When Saving As, Save As .xlsx) and
    `evaleditor convert IN OUT --target T --headers L` (cli.py _convert) write the same headers."""
    from evaleditor.gui import MainWindow
    from evaleditor.io.convert import write_converted
    from evaleditor.io.load import load_document
    from evaleditor.io.save import plan_save
    src = tmp_path / sample
    shutil.copy(SAMPLES / sample, src)
    cli_out = tmp_path / "cli.xlsx"
    source = load_document(src)
    write_converted(source, cli_out, plan_save(source, "xlsx", target, lang, cli_out))

    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(src)
    w.actions.targets[target].trigger()
    w.actions.languages[lang].trigger()
    assert w.documents.save_as(tmp_path / "gui.xlsx", wait=True)

    saved = load_document(tmp_path / "gui.xlsx")
    assert saved.dataset.headers() == load_document(cli_out).dataset.headers()
    assert w.doc.dataset.headers() == saved.dataset.headers()  # the window shows what the file holds
    assert saved.dataset.target.name == target
    reopened = load_document(tmp_path / "gui.xlsx", target=target).validator.rule_counts
    assert reopened.get("missing-question-column", 0) == 0
    assert reopened.get("misspelled-turn-column", 0) == reopened.get("misspelled-session-column", 0) == 0
    w.undo_stack.undo()  # the renaming is one undo step
    assert w.doc.dataset.headers() == load_document(src).dataset.headers()


def test_evaluation_set_headers_in_chinese_after_switching_from_ground_truth(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow
    w = MainWindow()
    qtbot.addWidget(w)
    shutil.copy(SAMPLES / "ground_truth_multiturn.xlsx", tmp_path / "gt.xlsx")
    w.documents.open_file(tmp_path / "gt.xlsx")
    w.documents.set_target("evaluation-set")
    settings.set_header_language("zh")
    assert w.documents.save_as(tmp_path / "es.xlsx", wait=True)
    assert w.doc.dataset.headers()[:4] == ["会话ID", "请求顺序", "问题", "答案"]
    assert w.doc.validator.rule_counts.get("missing-question-column", 0) == 0


# ----- 5. messages --------------------------------------------------------------------------------------------
def test_add_turn_with_a_misspelled_session_column_says_to_rename_it(window):
    w = window
    w.set_document(make_doc(headers=["Session_ID", "turn_id", "question", "answer", "expected_tool_calls"]))
    w.view.go_to(w.model.index(0, Q))  # a row showing "s1"
    w.actions.new_conversation.trigger()
    rename_first = w.statusBar().currentMessage()
    assert "Rename" in rename_first and w.model.rowCount() == len(ROWS)
    w.statusBar().clearMessage()
    w.actions.add_turn.trigger()
    assert w.statusBar().currentMessage() == rename_first  # not "its session id is empty"
    assert w.model.rowCount() == len(ROWS)
    w.set_document(make_doc())
    w.view.go_to(w.model.index(4, Q))  # a session column, this row's session id empty: that is said
    w.actions.add_turn.trigger()
    assert "session id is empty" in w.statusBar().currentMessage()
    w.set_document(make_doc(headers=["q", "question", "answer", "x", "y"]))  # no session column at all
    w.view.go_to(w.model.index(0, Q))
    w.actions.add_turn.trigger()
    assert "Ctrl+Shift+T" in w.statusBar().currentMessage() and w.model.rowCount() == len(ROWS)


def test_demo_prompt_and_save_as_name_the_sample(qtbot, dialogs_log):
    from evaleditor.gui import MainWindow
    from evaleditor.gui.window.app import demo_sample, open_demo
    w = MainWindow()
    qtbot.addWidget(w)
    assert open_demo(w)
    sample = demo_sample()
    w.model.setData(w.model.index(0, 0), "edited")
    dialogs_log.answers["ask_save_changes"] = dialogs.CANCEL
    w.show()
    w.close()
    asked = [args for name, args in dialogs_log.calls if name == "ask_save_changes"]
    shown = shown_title(w).split("*")[0]
    assert asked == [(shown,)] and sample.name in shown  # as the title names it, not "Untitled"
    assert w.banner.file_label.text().startswith(shown)  # and the line under the shape line
    assert not w.documents.save()  # Save of the untitled demo is Save As; the dialog is cancelled
    suggested = next(args for name, args in dialogs_log.calls if name == "save_file_name")[0]
    assert Path(suggested) == Path.home() / sample.name
    assert Path(suggested).parent != sample.parent  # never over the bundled sample


def test_text_still_in_the_cell_editor_counts_when_the_file_changed_on_disk(opened, qtbot, tmp_path, dialogs_log):
    w = opened
    start_typing(w, qtbot, 1, Q, "typed, then the file changed")
    write_csv(w.doc.path, rows=ROWS[:1])  # another program rewrites the file
    dialogs_log.answers["ask_file_changed"] = dialogs.KEEP_MINE
    assert w.documents.disk_watch.check() == dialogs.KEEP_MINE
    assert [args for n, args in dialogs_log.calls if n == "ask_file_changed"] == [(str(w.doc.path), True)]
    assert cell(w, 1, Q) == "typed, then the file changed" and w.is_modified()


def test_save_as_json_shows_the_turns_as_the_file_stores_them(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow
    from evaleditor.io.load import load_document
    w = MainWindow()
    qtbot.addWidget(w)
    rows = [ROWS[1], ROWS[0], *ROWS[2:5]]  # s1's turns typed 2, 1; s2's numbered 1, 3
    assert w.documents.open_file(write_csv(tmp_path / "cases.csv", rows=rows))
    assert w.documents.save_as(tmp_path / "cases.json", "json")
    window = [r.cells[:3] for r in w.doc.dataset.rows]
    assert window == [r.cells[:3] for r in load_document(tmp_path / "cases.json").dataset.rows]
    assert window[:2] == [["s1", "1", "Weather in Paris?"], ["s1", "2", "And Lyon?"]] and window[3][1] == "2"
    assert not w.is_modified() and "SDK JSON" in w.statusBar().currentMessage()
    w.undo_stack.undo()  # the turns as typed, one step back; the window no longer matches the file
    assert [r.cells for r in w.doc.dataset.rows] == rows and w.is_modified()


def test_a_file_opened_by_a_relative_path_is_saved_where_it_is(qtbot, tmp_path, dialogs_log, monkeypatch):
    from evaleditor.gui import MainWindow
    from evaleditor.io.journal import snapshot
    from evaleditor.io.load import load_document
    (tmp_path / "files").mkdir()
    (tmp_path / "elsewhere").mkdir()
    write_csv(tmp_path / "files" / "cases.csv")
    monkeypatch.chdir(tmp_path / "files")
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file("cases.csv")
    assert snapshot(w.doc)["path"] == str(tmp_path / "files" / "cases.csv")  # what a crash journal keeps
    monkeypatch.chdir(tmp_path / "elsewhere")  # a restored journal is opened from wherever the app starts
    w.model.setData(w.model.index(0, A), "edited")
    assert w.documents.save()
    assert load_document(tmp_path / "files" / "cases.csv").dataset.rows[0].cells[A] == "edited"
    assert not (tmp_path / "elsewhere" / "cases.csv").exists()


@pytest.fixture
def workbook(tmp_path):
    from tests.io.io_builders import tables_xlsx
    return tables_xlsx(tmp_path / "multi.xlsx", {"Notes": [["read me first", 42]],
                                                 "Cases": [["question", "answer"], ["q1", "a1"]],
                                                 "Other cases": [["question", "answer"], ["q2", "a2"]]})


def sheet_names(path):
    import openpyxl
    return openpyxl.load_workbook(path, read_only=True).sheetnames


def test_saving_over_a_workbook_asks_before_its_other_sheets_go(qtbot, workbook, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(workbook) and w.doc.sheet == "Cases"
    w.model.setData(w.model.index(0, 1), "edited")
    dialogs_log.answers["ask_save_leaving_out"] = dialogs.CANCEL
    assert not w.documents.save()
    (_, fmt, lines, in_place, _sheets), = [args for n, args in dialogs_log.calls if n == "ask_save_leaving_out"]
    assert in_place and "\u201cNotes\u201d" in lines[0] and "\u201cOther cases\u201d" in lines[0]
    assert sheet_names(workbook) == ["Notes", "Cases", "Other cases"] and w.is_modified()
    dialogs_log.answers["ask_save_leaving_out"] = dialogs.SAVE_AS  # the default: a new file, this one whole
    dialogs_log.answers["save_file_name"] = str(tmp_path / "cases_only.xlsx")
    assert w.documents.save()
    assert sheet_names(workbook) == ["Notes", "Cases", "Other cases"]
    assert sheet_names(tmp_path / "cases_only.xlsx") == ["Cases"] and w.doc.sheets == ["Cases"]


def test_save_as_onto_the_open_workbook_named_another_way_still_asks_before_its_other_sheets_go(
        qtbot, workbook, tmp_path, dialogs_log):
    """`evaleditor ../x/multi.xlsx`, then Save As the same file (the file dialog names it plainly): the
    same file, so the same question; its other sheets were deleted without one."""
    from evaleditor.gui import MainWindow
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(tmp_path / ".." / tmp_path.name / workbook.name)
    w.model.setData(w.model.index(0, 1), "edited")
    dialogs_log.answers["ask_save_leaving_out"] = dialogs.CANCEL
    assert not w.documents.save_as(workbook)
    (_, _, lines, in_place, _), = [args for n, args in dialogs_log.calls if n == "ask_save_leaving_out"]
    assert in_place and "\u201cOther cases\u201d" in lines[0]
    assert sheet_names(workbook) == ["Notes", "Cases", "Other cases"]


def test_the_question_before_saving_over_a_workbook_says_that_only_the_open_sheet_is_kept(
        qtbot, workbook, dialogs_log, monkeypatch):
    """An .xlsx can hold the other sheets: the point is that this save writes the open one only."""
    from evaleditor.gui import MainWindow
    shown = []

    def cancel(box):
        shown.append((box.text(), box.informativeText()))
        box.button(QMessageBox.StandardButton.Cancel).click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", cancel)
    dialogs_log.answers["ask_save_leaving_out"] = real_ask_save_leaving_out
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(workbook)
    w.model.setData(w.model.index(0, 1), "edited")
    assert not w.documents.save()
    (text, info), = shown
    assert text == "This save keeps only the open sheet: the workbook's other sheets are not written."
    assert "\u201cNotes\u201d" in info and "cannot hold" not in text + info


def test_saving_anyway_leaves_one_sheet_and_the_window_says_so(qtbot, workbook, dialogs_log):
    from evaleditor.gui import MainWindow
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(workbook)
    w.model.setData(w.model.index(0, 1), "edited")
    assert w.documents.save()  # answered "Save Anyway"
    assert sheet_names(workbook) == ["Cases"]  # its name kept
    assert w.doc.sheets == ["Cases"] and not w.actions.sheet.isEnabled()
    w.model.setData(w.model.index(0, 1), "again")
    asked = len([n for n in dialogs_log.names() if n == "ask_save_leaving_out"])
    assert w.documents.save() and len([n for n in dialogs_log.names() if n == "ask_save_leaving_out"]) == asked


def test_save_as_a_table_from_sdk_json_says_what_the_table_leaves_out(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow
    src = tmp_path / "cases.json"
    turns = [{"turn_index": 0, "events": [
        {"author": "user", "content": {"role": "user", "parts": [{"text": "hi"}]}},
        {"author": "planner", "content": {"role": "model", "parts": [{"text": "plan"}]}}]}]
    src.write_text(json.dumps({"eval_cases": [
        {"prompt": {"role": "user", "parts": [{"text": "hi"}]},
         "agent_data": {"agents": {"planner": {}}, "turns": turns}},
        {"prompt": {"role": "user", "parts": [{"text": "plain"}]}}]}), encoding="utf-8")
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(src)
    dialogs_log.answers["ask_save_leaving_out"] = dialogs.CANCEL
    assert not w.documents.save_as(tmp_path / "cases.xlsx", "xlsx")
    (_, fmt, lines, in_place, _sheets), = [args for n, args in dialogs_log.calls if n == "ask_save_leaving_out"]
    assert (fmt, in_place) == ("xlsx", False) and "agent traces" in lines[0] and lines[0].endswith("any: 1)")
    assert not (tmp_path / "cases.xlsx").exists()
    assert w.documents.save_as(tmp_path / "cases.json", "json")  # SDK JSON keeps it all: not asked
    assert len([n for n in dialogs_log.names() if n == "ask_save_leaving_out"]) == 1


def test_saving_a_gb18030_semicolon_csv_keeps_it_gb18030_with_semicolons(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow
    path = tmp_path / "zh.csv"
    path.write_bytes("问题;答案\n你好吗;很好\n".encode("gb18030"))
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path) and w.doc.delimiter == ";"
    w.model.setData(w.model.index(0, 1), "好")
    assert w.documents.save()
    assert "UTF-8" not in w.statusBar().currentMessage()
    assert path.read_bytes() == "问题;答案\n你好吗;好\n".encode("gb18030")


def test_a_workbook_refused_for_control_characters_says_how_many_cells_and_changes_nothing(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow
    path = write_csv(tmp_path / "cases.csv", rows=[["", "", f"q{i}\x01", "a", ""] for i in range(5)])
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path)
    before = w.doc.validator.all_issues()
    assert not w.documents.save_as(tmp_path / "cases.xlsx", "xlsx")  # refused: the first cell is named, all are counted
    (_, message), = [args for n, args in dialogs_log.calls if n == "show_error"]
    assert "5 cells cannot be stored in a workbook" in message and "row 1" in message
    assert w.doc.validator.all_issues() == before and not w.doc.validator.is_workbook()  # the issues as they were
    assert not (tmp_path / "cases.xlsx").exists()


def test_saving_a_trace_into_a_conversation_says_which_turns_go(qtbot, tmp_path, dialogs_log):
    pytest.importorskip("agentplatform")
    from evaleditor.gui import MainWindow
    from tests.io.test_sdk_json import write_json
    from tests.io.test_sdk_traces_and_typed_extras import rich
    path = write_json(tmp_path / "rich.json", rich())
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path)
    headers = w.doc.dataset.headers()
    w.model.setData(w.model.index(0, headers.index("session_id")), "conv-a")
    w.model.setData(w.model.index(0, headers.index("turn_id")), "3")
    dialogs_log.answers["ask_save_leaving_out"] = dialogs.CANCEL
    before = path.read_bytes()
    assert not w.documents.save()
    (_, fmt, lines, in_place, _sheets), = [args for n, args in dialogs_log.calls if n == "ask_save_leaving_out"]
    # the row as the file numbers it (and the window once saved): conv-a's third turn, as convert says
    assert fmt == "json" and in_place and "agent traces" in lines[0] and lines[0].endswith("rows 3")
    assert path.read_bytes() == before
    from evaleditor.cli import _left_out_warnings
    from evaleditor.io.convert import as_planned
    from evaleditor.io.save import plan_save

    plan = plan_save(w.doc, "json")
    assert _left_out_warnings(plan, as_planned(w.doc, plan), "out.json")[0].endswith("(row 3)")


def test_a_chinese_evaluation_set_switched_to_sdk_saves_real_cases(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow
    from evaleditor.io.load import load_document
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(SAMPLES / "evaluation_set_zh.xlsx")
    w.actions.targets["sdk"].trigger()
    assert not w.documents.save_as()  # the dialog (cancelled) proposes SDK JSON for the sdk target
    proposed = next(args for name, args in dialogs_log.calls if name == "save_file_name")
    assert proposed[0].endswith(".json") and proposed[1] == "json"
    assert w.documents.save_as(tmp_path / "cases.json", "json")
    reopened = load_document(tmp_path / "cases.json")
    assert reopened.shape.line == w.doc.shape.line and reopened.shape.mode == "multi-turn"
    assert "missing-question-column" not in reopened.validator.rule_counts
    assert [r.cells[reopened.dataset.field_position("question")] for r in reopened.dataset.rows] == \
        [r.cells[w.doc.dataset.field_position("question")] for r in w.doc.dataset.rows]


def test_save_as_proposes_a_workbook_for_an_evaluation_set_read_from_csv(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow
    path = tmp_path / "zh.csv"
    path.write_text("问题,答案\n你好,好\n", encoding="utf-8")
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path) and w.doc.dataset.target.name == "evaluation-set"
    w.documents.save_as()
    proposed = next(args for name, args in dialogs_log.calls if name == "save_file_name")
    assert proposed[0].endswith(".xlsx") and proposed[1] == "xlsx"


def test_quit_closes_every_window_and_a_cancel_keeps_its_window(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow

    def two_windows():
        windows = []
        for name in ("a.csv", "b.csv"):
            w = MainWindow()
            qtbot.addWidget(w)
            assert w.documents.open_file(write_csv(tmp_path / name))
            w.show()
            windows.append(w)
        return windows

    first, second = two_windows()
    first.actions.quit.trigger()
    assert not first.isVisible() and not second.isVisible()  # Quit is the whole program, not one window
    first, second = two_windows()
    second.model.setData(second.model.index(0, A), "edited")
    dialogs_log.answers["ask_save_changes"] = dialogs.CANCEL
    first.actions.quit.trigger()
    assert second.isVisible() and second.is_modified()  # asked about its edit, and Cancel kept it


def test_a_document_with_no_rows_shows_no_cell_position(window):
    assert window.position_label.text().startswith("Row 1")
    window.set_document(make_doc(rows=[]))
    assert window.model.rowCount() == 0 and window.position_label.text() == ""


def test_a_new_document_starts_with_one_empty_row_to_type_into_and_no_error(window, qtbot):
    window.set_document(None)
    assert window.documents.new_from_template("ground-truth")
    assert window.model.rowCount() == 1 and window.view.currentIndex().row() == 0
    assert window.doc.shape.line == "SINGLE-TURN \u2014 0 rows" and not window.is_modified()
    problems = window.banner.problems
    assert problems.isVisibleTo(window) and "Type your first case" in problems.text()
    assert "no data rows" not in problems.text()
    assert window.doc.dataset.headers()[2] == "question"
    window.issues_panel.refresh()  # the Issues panel and the counts agree with the banner: nothing is wrong yet
    assert "empty-dataset" not in {i.rule for i in window.issues_panel.model.issues()}
    assert window.doc.validator.counts["error"] == 0
    window.model.setData(window.model.index(0, 2), "What is 2+2?")
    assert window.doc.shape.line == "SINGLE-TURN \u2014 1 row"
    qtbot.waitUntil(lambda: not problems.isVisibleTo(window) or "Type your first case" not in problems.text())


def test_a_new_document_saved_empty_is_an_empty_dataset_as_validate_says(window, tmp_path):
    window.set_document(None)
    assert window.documents.new_from_template("ground-truth")
    assert window.documents.save_as(tmp_path / "empty.csv", wait=True)
    window.issues_panel.refresh()
    assert "empty-dataset" in {i.rule for i in window.issues_panel.model.issues()}  # a file now: as the CLI reads it
    assert "Type your first case" not in window.banner.problems.text()


def test_a_long_step_on_a_big_file_shows_the_wait_cursor_and_typing_does_not(qtbot):
    from PySide6.QtGui import QUndoStack
    from PySide6.QtWidgets import QApplication

    from evaleditor.core.commands import Command, SetCells
    from evaleditor.core.dataset import Dataset
    from evaleditor.gui.window.undo import BUSY_ROWS, push

    seen = []

    class Recorded(Command):
        def apply(self, ds):
            cursor = QApplication.overrideCursor()
            seen.append(cursor.shape() if cursor is not None else None)
            return self

    big = Dataset(["question"], [[f"q{i}"] for i in range(BUSY_ROWS)], "ground-truth")
    stack = QUndoStack()
    push(stack, big, Recorded())
    stack.undo()
    assert seen == [Qt.CursorShape.WaitCursor, Qt.CursorShape.WaitCursor]
    assert QApplication.overrideCursor() is None  # and it is gone afterwards
    push(stack, big, SetCells([(big.rows[0].id, big.columns[0].id, "typed")]), typing=True)
    small = Dataset(["question"], [["q"]], "ground-truth")
    push(stack, small, Recorded())
    assert seen[-1] is None and QApplication.overrideCursor() is None
