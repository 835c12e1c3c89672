"""Keyboard only: F8 / Shift+F8 walk the issues, Ctrl+Shift+I / C / E reach the Issues panel, the
Conversation panel and the table, Enter in the Issues panel jumps to the cell, F6 cycles the panes;
every menu and action has a mnemonic. Accessibility: names and descriptions on the panes, severity
said in words, colours that stay legible, text that scales with the font, widths measured for CJK."""

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QColor, QContextMenuEvent, QFont, QFontMetrics, QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

from evaleditor.gui.window import theme
from tests.gui.conftest import make_doc

R = Qt.ItemDataRole
K = Qt.Key
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def shown(window, qtbot):
    window.show()
    window.activateWindow()
    qtbot.waitExposed(window)
    window.view.setFocus()
    return window


def key(w, k, mods=Qt.KeyboardModifier.NoModifier):
    """A key press delivered to the widget that has the focus (as a keyboard would)."""
    target = QApplication.focusWidget() or w
    QTest.keyClick(target, k, mods)
    QApplication.processEvents()


def cell(w) -> tuple[int, int]:
    cur = w.view.currentIndex()
    return cur.row(), cur.column()


def test_f8_and_shift_f8_walk_the_issues_from_the_keyboard(shown):
    w = shown
    w.view.go_to(w.model.index(0, 0))
    seen = []
    while True:
        key(w, K.Key_F8)
        if cell(w) in seen:
            break
        seen.append(cell(w))
    assert cell(w) == seen[0]  # it wraps around
    ids = [w.model.cell_ids(w.model.index(*c)) for c in seen]
    assert all(any(i.column_id == col for i in w.doc.validator.row_issues(row)) for row, col in ids)
    assert seen == sorted(seen) and len(seen) >= 3
    key(w, K.Key_F8, Qt.KeyboardModifier.ShiftModifier)
    assert cell(w) == seen[-1]
    key(w, K.Key_F8, Qt.KeyboardModifier.ShiftModifier)
    assert cell(w) == seen[-2]
    assert w.view.hasFocus()


def test_focus_shortcuts_reach_each_pane_and_enter_jumps_to_the_cell(shown):
    w = shown
    key(w, K.Key_I, CTRL_SHIFT)
    panel = w.issues_panel
    assert panel.view.hasFocus() and panel.view.currentIndex().isValid()
    for _ in range(3):
        key(w, K.Key_Down)
    issue = panel.current_issue()
    assert issue is not None and issue.row_id is not None
    key(w, K.Key_Return)
    assert w.view.hasFocus()
    assert w.model.cell_ids(w.view.currentIndex())[0] == issue.row_id
    if issue.column_id is not None:
        assert w.model.cell_ids(w.view.currentIndex())[1] == issue.column_id
    key(w, K.Key_C, CTRL_SHIFT)
    assert w.conversation_panel.browser.hasFocus()
    key(w, K.Key_E, CTRL_SHIFT)
    assert w.view.hasFocus()
    key(w, K.Key_L, CTRL_SHIFT)
    assert w.filter_bar.text.hasFocus()


def test_f6_cycles_the_panes_and_a_hidden_panel_comes_back(shown):
    w = shown
    order = []
    for _ in range(4):
        key(w, K.Key_F6)
        order.append(QApplication.focusWidget())
    assert order == [w.issues_panel.view, w.conversation_panel.browser, w.filter_bar.text, w.view]
    key(w, K.Key_F6, Qt.KeyboardModifier.ShiftModifier)
    assert QApplication.focusWidget() is w.filter_bar.text
    w.issues_dock.hide()
    key(w, K.Key_I, CTRL_SHIFT)
    assert w.issues_dock.isVisible() and w.issues_panel.view.hasFocus()


def test_no_two_actions_share_a_shortcut(window):
    taken: dict[str, str] = {}
    for action in window.findChildren(QAction):
        for seq in action.shortcuts():
            text = seq.toString()
            assert text not in taken, f"{text}: {taken.get(text)} and {action.text()}"
            taken[text] = action.text()
    for wanted in ("F8", "Shift+F8", "Ctrl+Shift+I", "Ctrl+Shift+C", "Ctrl+Shift+E", "F6"):
        assert wanted in taken


def _menus(window):
    for top in window.menuBar().actions():
        yield top.text(), top.menu()


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_every_menu_and_item_has_a_mnemonic_and_they_do_not_clash(qtbot, lang):
    from evaleditor.gui import MainWindow
    from evaleditor.gui.window import language

    try:
        language.apply(lang)
        w = MainWindow()
        qtbot.addWidget(w)
        w.set_document(make_doc())
        letters = []
        for title, menu in _menus(w):
            assert "&" in title, title
            letters.append(title[title.index("&") + 1].upper())
            items = [a for a in menu.actions() if not a.isSeparator() and a.text()
                     and a not in (w.issues_dock.toggleViewAction(), w.conversation_dock.toggleViewAction())
                     and a.menu() is None or (a.menu() is not None and isinstance(a.menu(), QMenu))]
            own = []
            for a in items:
                if a in w.actions.ui_languages.values() and a is not w.actions.ui_languages["system"]:
                    continue  # "English", "简体中文": each language names itself
                if a in (w.issues_dock.toggleViewAction(), w.conversation_dock.toggleViewAction()):
                    continue
                assert "&" in a.text(), f"{title} \u25b8 {a.text()}"
                own.append(a.text()[a.text().index("&") + 1].upper())
            assert len(own) == len(set(own)), (title, own)
        assert len(letters) == len(set(letters))
    finally:
        language.apply("en")


def test_panes_have_accessible_names_and_descriptions(window):
    for widget in (window.view, window.issues_panel.view, window.conversation_panel.browser, window.banner,
                   window.filter_bar, window.banner.target_combo, window.filter_bar.text):
        assert widget.accessibleName(), widget
    for widget in (window.view, window.issues_panel.view, window.banner, window.filter_bar):
        assert widget.accessibleDescription(), widget
    assert window.banner.target_label.buddy() is window.banner.target_combo


def test_severity_is_said_in_words_not_only_colours(window):
    model = window.model
    bad = model.index(5, 2)  # empty question
    assert model.data(bad, R.AccessibleDescriptionRole).startswith("\u2716 Error: The question is empty")
    assert "Error: " in model.data(bad, R.ToolTipRole)
    assert model.data(model.index(4, 2), R.AccessibleDescriptionRole) is None
    issues = window.issues_panel.model
    assert issues.data(issues.index(0, 0), R.AccessibleTextRole) in ("Error", "Warning", "Info")
    assert issues.data(issues.index(0, 4), R.AccessibleDescriptionRole).split(":")[0] in ("Error", "Warning", "Info")


def test_the_cell_menu_opens_at_the_current_cell_from_the_keyboard(shown, monkeypatch):
    from evaleditor.gui.window import main_window

    opened = []
    monkeypatch.setattr(main_window, "cell_menu", lambda w, pos: opened.append(w.view.indexAt(pos)))
    view = shown.view
    view.go_to(shown.model.index(3, 2))
    # what Qt sends for the Menu key / Shift+F10: the focus widget's cursor rectangle, in its own coordinates
    at = view.inputMethodQuery(Qt.InputMethodQuery.ImCursorRectangle).center()
    QApplication.sendEvent(view, QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, at, view.mapToGlobal(at)))
    assert opened == [shown.model.index(3, 2)]


@pytest.mark.parametrize("dark", [False, True])
def test_severity_colours_are_legible(dark):
    table = theme._DARK if dark else theme._LIGHT
    for sev, (bg, fg) in table.items():
        assert theme.contrast_ratio(fg, bg) >= 7, sev  # WCAG AAA for text
    base = "#1e1e1e" if dark else "#ffffff"
    muted = "#a0a8b4" if dark else "#5a6472"
    assert theme.contrast_ratio(muted, base) >= 4.5


def test_high_contrast_takes_the_colours_from_the_palette(qapp, monkeypatch):
    pal = QPalette()
    pal.setColor(QPalette.ColorRole.Base, QColor("black"))
    pal.setColor(QPalette.ColorRole.Text, QColor("yellow"))
    scheme = theme.high_contrast_scheme(pal)
    for sev in ("error", "warning", "info"):
        fg, bg = scheme.foreground[sev].color(), scheme.background[sev].color()
        assert (fg.name(), bg.name()) == ("#ffff00", "#000000")
        assert theme.contrast_ratio(fg, bg) >= 7
    # the patch is undone before the cache is cleared: a repaint in between (a window fixture's
    # teardown) cached the high-contrast scheme for every later test (white issue cells)
    with monkeypatch.context() as patch:
        patch.setattr(theme, "is_high_contrast", lambda: True)
        theme.invalidate()
        try:
            assert theme.scheme().background["error"].color() == QApplication.palette().color(QPalette.ColorRole.Base)
        finally:
            theme.invalidate()
    theme.invalidate()


def test_the_shape_line_scales_with_the_font(window, qapp):
    banner = window.banner
    base = banner.font().pointSizeF()
    assert banner.shape_label.font().pointSizeF() == pytest.approx(base * 1.55)
    bigger = QFont(banner.font())
    bigger.setPointSizeF(base * 2)
    banner.setFont(bigger)
    QApplication.processEvents()
    assert banner.shape_label.font().pointSizeF() == pytest.approx(base * 2 * 1.55)
    assert window.view.verticalHeader().defaultSectionSize() >= window.view.fontMetrics().height()


def test_initial_column_widths_are_measured_with_the_font(qtbot):
    from evaleditor.gui import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    cjk = "\u5e2e\u6211\u8ba2\u4e00\u5f20\u660e\u5929\u53bb\u4e0a\u6d77\u7684\u9ad8\u94c1\u7968"  # 14 characters
    w.set_document(make_doc(["question", "answer", "context"], [[cjk, "a" * 14, ""], ["short", "b", ""]]))
    fm = QFontMetrics(w.view.font())
    assert w.view.columnWidth(0) >= fm.horizontalAdvance(cjk)
    assert w.view.columnWidth(1) >= fm.horizontalAdvance("a" * 14)
    if fm.horizontalAdvance(cjk) > fm.horizontalAdvance("a" * 14) * 1.5:  # a CJK font is installed
        assert w.view.columnWidth(0) > w.view.columnWidth(1)


def test_the_multiline_editor_counts_chinese_characters_at_the_limit(qtbot):
    from evaleditor.gui.table.delegates import TextEditor

    editor = TextEditor(None, 2000, "(evaluation-set question limit)")
    qtbot.addWidget(editor)
    editor.set_value("\u95ee" * 1999 + "\uff1f", False)  # full-width question mark: one character
    assert editor.count.text().startswith("2,000 / 2,000") and "too long" not in editor.count.text()
    editor.edit.insertPlainText("\u3002")
    assert editor.count.text().startswith("2,001 / 2,000") and "too long" in editor.count.text()
    assert QCoreApplication.translate("CellEditor", "too long") == "too long"
