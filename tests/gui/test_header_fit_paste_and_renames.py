"""Column headers that fit their text, a Chinese label never split across
lines in the Conversation panel, paste of a block over a larger selection, the CSV formula question's
default, and renaming a column to spaces or to another column's header."""

import csv

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QItemSelection, QItemSelectionModel, Qt
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from evaleditor.core.errors import WriteError
from evaleditor.gui import MainWindow, dialogs
from evaleditor.gui.dialogs import ask_csv_formulas as real_ask_csv_formulas
from evaleditor.gui.dialogs import ask_text as real_ask_text
from evaleditor.gui.panels.conversation_panel import WORD_JOINER
from evaleditor.gui.table.headers import HEADER_MAX_CHARS
from evaleditor.gui.window import language
from evaleditor.io.load import load_document
from tests.gui.conftest import HEADERS, make_doc, shown_title

H = Qt.Orientation.Horizontal
NEAR_MISS = ["Session_ID", "turn_id", "question", "answer", "expected_tool_calls"]


def select(window, top, left, bottom, right):
    m = window.model
    sm = window.view.selectionModel()
    sm.select(QItemSelection(m.index(top, left), m.index(bottom, right)),
              QItemSelectionModel.SelectionFlag.ClearAndSelect)
    sm.setCurrentIndex(m.index(top, left), QItemSelectionModel.SelectionFlag.NoUpdate)


def cells(window, column):
    return [r.cells[column] for r in window.doc.dataset.rows]


# ----- 1. column headers are readable -----------------------------------------------------------------------
def header_fits(window, column) -> bool:
    """The section is as wide as the header needs for both lines, its icon and the bold current-column font."""
    header = window.view.horizontalHeader()
    return header.sectionSize(column) >= header.sectionSizeHint(column)


def test_a_near_miss_header_is_not_cut_off_on_open(window):
    window.set_document(make_doc(headers=NEAR_MISS))
    label = window.model.headerData(0, H)
    assert label.endswith("NOT read as session_id")
    assert header_fits(window, 0)
    assert "Session_ID" in window.model.headerData(0, H, Qt.ItemDataRole.ToolTipRole)


def test_switching_the_target_refits_headers_and_back(window):
    header = window.view.horizontalHeader()
    before = header.sectionSize(1)
    window.documents.set_target("evaluation-set")
    assert window.model.headerData(1, H).endswith("NOT read as request_id")
    assert header_fits(window, 1) and header.sectionSize(1) > before
    window.documents.set_target("ground-truth")  # the header is short again: the column goes back to its width
    assert header.sectionSize(1) == before


def test_rename_refits_within_a_maximum_and_keeps_a_width_the_user_chose(window):
    header = window.view.horizontalHeader()
    ds = window.doc.dataset
    window.ops.rename_column_to(ds.columns[3].id, "answer written by the support team")
    assert header_fits(window, 3)
    long_name = "a very long header " * 12
    window.ops.rename_column_to(ds.columns[3].id, long_name)
    cap = header.fontMetrics().averageCharWidth() * HEADER_MAX_CHARS + 2 * header.fontMetrics().height()
    assert header.sectionSize(3) <= cap < header.sectionSizeHint(3)
    assert long_name in window.model.headerData(3, H, Qt.ItemDataRole.ToolTipRole)  # the full text
    header.resizeSection(1, 70)  # the user narrows turn_id; an edit changing file issues leaves it
    window.model.setData(window.model.index(0, 2), "")
    window.model.setData(window.model.index(0, 0), "zz")
    assert header.sectionSize(1) == 70


def test_header_fit_reads_no_cells_on_100k_rows(window, monkeypatch):
    rows = [[f"s{i // 4}", str(i % 4 + 1), f"question {i}", "a", ""] for i in range(100_000)]
    window.set_document(make_doc(headers=NEAR_MISS, rows=rows))
    read = []
    real_data = type(window.model).data
    monkeypatch.setattr(type(window.model), "data", lambda self, *a: read.append(a) or real_data(self, *a))
    window.header_fit.fit_all()
    window.header_fit._fit(range(window.model.columnCount()))
    window.documents.set_target("evaluation-set")
    assert read == [] and header_fits(window, 1)


# ----- 2. the Conversation panel keeps short Chinese labels whole --------------------------------------------
@pytest.fixture
def chinese(qapp):
    language.apply("zh_CN")
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)
    yield
    language.apply("en")
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)


def layout_lines(document, width):
    document.setTextWidth(width)
    document.size()
    lines, block = [], document.begin()
    while block.isValid():
        layout = block.layout()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            text = block.text()[line.textStart():line.textStart() + line.textLength()]
            lines.append(text.replace(WORD_JOINER, "").replace("\u00a0", " "))
        block = block.next()
    return lines


def test_selected_marker_in_chinese_is_never_split_across_lines(window, chinese):
    window.set_document(make_doc(rows=[["s1", "3", "第二个问题", "晴天", ""]]))
    window.view.go_to(window.model.index(0, 2))
    panel = window.conversation_panel
    panel.show_row(window.model.row_id(0))
    panel.render()
    document = panel.browser.document()
    marker = QCoreApplication.translate("ConversationPanel", "selected")
    assert marker == "已选中"
    row = QCoreApplication.translate("ConversationPanel", "row {n}").format(n=1)
    wrapped = 0
    for width in range(120, 320, 4):
        lines = layout_lines(document, width)
        heading = [ln for ln in lines if any(ch in ln for ch in "已选中第轮行")][:3]
        assert any(marker in ln for ln in heading), (width, heading)  # whole, on one line
        assert any(row in ln for ln in heading), (width, heading)
        wrapped += not any("轮" in ln and marker in ln for ln in heading)
    assert wrapped  # some widths did wrap the heading: at a space, not inside 已选中
    assert marker in panel.browser.toPlainText().replace(WORD_JOINER, "")


# ----- 3. paste repeats a block over a selection that is a multiple of it -------------------------------------
def test_paste_1x2_block_into_4x2_selection_tiles_it_in_one_undo_step(window):
    before = [list(r.cells) for r in window.doc.dataset.rows]
    select(window, 0, 2, 3, 3)
    message = window.statusBar()
    window.ops.paste("x\ty\r\n")
    assert cells(window, 2)[:4] == ["x"] * 4 and cells(window, 3)[:4] == ["y"] * 4
    assert cells(window, 2)[4] == before[4][2]  # nothing outside the selection
    assert "repeated" in message.currentMessage()
    assert window.undo_stack.count() == 1
    window.undo_stack.undo()
    assert [r.cells for r in window.doc.dataset.rows] == before


def test_paste_2x1_block_tiles_over_4x3_selection(window):
    select(window, 0, 2, 3, 4)
    window.ops.paste("a\r\nb\r\n")
    assert [r.cells[2:5] for r in window.doc.dataset.rows[:4]] == [["a"] * 3, ["b"] * 3] * 2


def test_paste_block_not_fitting_the_selection_is_pasted_once(window):
    before = [list(r.cells) for r in window.doc.dataset.rows]
    select(window, 0, 2, 3, 4)  # 4x3 is not a multiple of 2x2 in width
    window.ops.paste("a\tb\r\nc\td\r\n")
    rows = [r.cells for r in window.doc.dataset.rows]
    assert [r[2:4] for r in rows[:2]] == [["a", "b"], ["c", "d"]]
    assert rows[2] == before[2] and rows[0][4] == before[0][4]


def test_paste_single_value_still_fills_the_selection(window):
    select(window, 0, 3, 3, 4)
    window.ops.paste("same")
    assert [r.cells[3:5] for r in window.doc.dataset.rows[:4]] == [["same", "same"]] * 4
    assert window.undo_stack.count() == 1


def test_paste_wider_than_the_table_adds_columns_in_the_same_undo_step(window, tmp_path):
    """As Excel and Calc grow the sheet: the block's extra columns become new columns (column_N), which a
    save keeps; one Undo takes the cells, the rows and the columns back."""
    from evaleditor.io.load import load_document
    window.set_document(make_doc(["question", "answer", "context"], [["q1", "a1", "c1"], ["q2", "a2", "c2"]]))
    select(window, 1, 2, 1, 2)  # the last column of the last row
    window.ops.paste("1\t2\t3\t4\r\n5\t6\t7\t8\r\n")
    ds = window.doc.dataset
    assert ds.headers() == ["question", "answer", "context", "column_4", "column_5", "column_6"]
    assert [r.cells for r in ds.rows] == [["q1", "a1", "c1", "", "", ""], ["q2", "a2", "1", "2", "3", "4"],
                                          ["", "", "5", "6", "7", "8"]]
    assert window.model.columnCount() == 6
    message = window.statusBar().currentMessage()
    assert "Pasted 2 \u00d7 4" in message and "column_4, column_5, column_6" in message
    assert window.undo_stack.count() == 1
    assert window.documents.save_as(tmp_path / "grown.xlsx", wait=True)
    again = load_document(tmp_path / "grown.xlsx").dataset
    assert again.headers() == ds.headers() and [r.cells for r in again.rows] == [r.cells for r in ds.rows]
    window.undo_stack.undo()
    assert ds.headers() == ["question", "answer", "context"] and window.model.columnCount() == 3
    assert [r.cells for r in ds.rows] == [["q1", "a1", "c1"], ["q2", "a2", "c2"]]


# ----- 4. a CSV with =1+1 saves back identical unless the user asks for the apostrophe ------------------------
FORMULA_ROWS = [["s1", "1", "=1+1", "@SUM(A1)", ""], ["s1", "2", "plain", "-3", ""]]


def csv_rows(path):
    with open(path, encoding="utf-8-sig", newline="") as f:
        return list(csv.reader(f))


@pytest.fixture
def formula_csv(qtbot, tmp_path):
    path = tmp_path / "cases.csv"
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f).writerows([HEADERS, *FORMULA_ROWS])
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path)
    return w, path


def test_ctrl_s_with_the_default_answer_keeps_every_cell_identical(formula_csv, dialogs_log, monkeypatch):
    window, path = formula_csv
    shown = {}

    def press_enter(box):  # what Enter does: the default button
        shown["buttons"] = [b.text() for b in box.buttons()]
        box.defaultButton().click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", press_enter)
    dialogs_log.answers["ask_csv_formulas"] = real_ask_csv_formulas
    assert window.documents.save()
    assert csv_rows(path)[1:] == FORMULA_ROWS
    assert [r.cells for r in load_document(path).dataset.rows] == FORMULA_ROWS
    assert not window.is_modified() and cells(window, 2)[0] == "=1+1"
    safe = [t for t in shown["buttons"] if "'" in t]
    assert safe and "read back" in safe[0]  # the other choice says what it does to the cells


def test_safe_write_shows_the_apostrophe_in_the_window_and_undo_takes_it_back(formula_csv, dialogs_log, qtbot):
    window, path = formula_csv
    dialogs_log.answers["ask_csv_formulas"] = True
    assert window.documents.save()
    assert csv_rows(path)[1][2:4] == ["'=1+1", "'@SUM(A1)"]
    assert cells(window, 2)[0] == "'=1+1" and cells(window, 3)[:2] == ["'@SUM(A1)", "-3"]
    reopened = [r.cells for r in load_document(path).dataset.rows]
    assert reopened == [r.cells for r in window.doc.dataset.rows]  # the window shows what the file holds
    qtbot.waitUntil(lambda: not window.is_modified())  # ... and says it matches the file
    assert "*" not in shown_title(window)
    window.undo_stack.undo()
    assert cells(window, 2)[0] == "=1+1" and window.is_modified()  # now it differs from the file, and says so
    assert "*" in shown_title(window)
    asked = dialogs_log.names().count("ask_csv_formulas")
    dialogs_log.answers["ask_csv_formulas"] = False  # the formulas are back: saving asks again
    assert window.documents.save() and dialogs_log.names().count("ask_csv_formulas") == asked + 1
    assert csv_rows(path)[1][2] == "=1+1" and cells(window, 2)[0] == "=1+1"


def test_safe_write_in_the_background_ends_clean_too(formula_csv, dialogs_log, qtbot):
    window, path = formula_csv
    window.documents.background_rows = 0
    dialogs_log.answers["ask_csv_formulas"] = True
    window.model.setData(window.model.index(1, 2), "=2+2")
    assert window.documents.save()
    qtbot.waitUntil(lambda: window.tasks.current is None and not window.is_modified(), timeout=10000)
    assert csv_rows(path)[2][2] == "'=2+2" and cells(window, 2)[:2] == ["'=1+1", "'=2+2"]


def test_a_failed_safe_write_leaves_the_cells_as_typed(formula_csv, dialogs_log, monkeypatch):
    from evaleditor.io import save

    window, path = formula_csv

    def fail(doc, target, *a, **k):
        raise WriteError(target, "disk full")

    monkeypatch.setattr(save, "save_document", fail)
    dialogs_log.answers["ask_csv_formulas"] = True
    assert not window.documents.save()
    assert "show_error" in dialogs_log.names()
    assert cells(window, 2)[0] == "=1+1" and window.undo_stack.count() == 0 and not window.is_modified()


# ----- 5. renaming a column to spaces, or to another column's header -----------------------------------------
def test_header_dialog_refuses_spaces_and_warns_about_a_taken_header(qtbot):
    box = dialogs.HeaderDialog(None, "Rename column", "New header:", "answer", taken=["question", "New Col"])
    qtbot.addWidget(box)
    box.show()
    assert box.ok_button.isEnabled() and box.message.text() == ""
    box.edit.setText("  ")
    assert not box.ok_button.isEnabled() and box.message.isVisible()
    assert "empty or only spaces" in box.message.text()
    qtbot.keyClick(box.edit, Qt.Key.Key_Return)
    assert box.result() != QDialog.DialogCode.Accepted and box.isVisible()  # Enter does not accept it
    box.edit.setText(" new col ")
    assert box.ok_button.isEnabled() and "already headed" in box.message.text()
    qtbot.keyClick(box.edit, Qt.Key.Key_Return)
    assert box.result() == QDialog.DialogCode.Accepted


def test_rename_column_to_spaces_is_refused(window, dialogs_log, monkeypatch, qtbot):
    def type_and_enter(box):
        box.show()
        box.edit.setText("  ")
        qtbot.keyClick(box.edit, Qt.Key.Key_Return)
        shown = box.message.text()
        box.reject()
        type_and_enter.message = shown
        return box.result()

    monkeypatch.setattr(dialogs.HeaderDialog, "exec", type_and_enter)
    dialogs_log.answers["ask_text"] = real_ask_text
    window.ops.rename_column(3)
    assert window.doc.dataset.headers() == HEADERS and window.undo_stack.count() == 0
    assert "empty or only spaces" in type_and_enter.message


def test_renaming_a_column_like_another_warns_but_is_allowed(window):
    ds = window.doc.dataset
    window.ops.rename_column_to(ds.columns[3].id, "new col")
    assert "Another column" not in window.statusBar().currentMessage()
    window.ops.rename_column_to(ds.columns[4].id, "new col")
    assert ds.headers()[3:] == ["new col", "new col"]
    assert "Another column is also headed \u201cnew col\u201d" in window.statusBar().currentMessage()
    QApplication.processEvents()


def test_the_issues_list_shows_every_rule_id_whole(window):
    from evaleditor.core.rules import RULES
    panel = window.issues_panel
    width = panel.view.horizontalHeader().sectionSize(1)
    assert all(panel.fontMetrics().horizontalAdvance(rule) < width for rule in RULES)
