"""The window's menus and actions (File, Edit, Data, View, Go), with standard shortcuts."""

from __future__ import annotations

from functools import partial
from types import SimpleNamespace

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu

from evaleditor.core.fixes import fix_label
from evaleditor.core.rules import RULES
from evaleditor.core.targets import TARGET_NAMES
from evaleditor.gui import dialogs, settings
from evaleditor.gui.banner import TARGET_HELP

Key = QKeySequence.StandardKey


def _act(menu: QMenu, text: str, slot, shortcut=None, tip: str = "") -> QAction:
    action = QAction(text, menu.parent() or menu)
    if shortcut is not None:
        keys = shortcut if isinstance(shortcut, list) else [shortcut]
        seqs: list[QKeySequence] = []
        for k in keys:
            for seq in (QKeySequence.keyBindings(k) if isinstance(k, Key) else [QKeySequence(k)]):
                if seq not in seqs:
                    seqs.append(seq)
        action.setShortcuts(seqs)
    if tip:
        action.setStatusTip(tip)
        action.setToolTip(tip)
    action.triggered.connect(lambda _checked=False: slot())
    menu.addAction(action)
    return action


def build(w) -> SimpleNamespace:
    """Create the menus on `w` (a MainWindow); return the actions by name."""
    a = SimpleNamespace()
    ops = w.ops
    mb = w.menuBar()

    m = mb.addMenu("&File")
    new_menu = m.addMenu("&New from template")
    for name in TARGET_NAMES:
        _act(new_menu, TARGET_HELP[name], partial(w.new_from_template, name))
    a.open = _act(m, "&Open\u2026", w.open_dialog, Key.Open)
    a.recent = m.addMenu("Open &Recent")
    a.recent.aboutToShow.connect(lambda: _fill_recent(w, a.recent))
    a.sheet = _act(m, "Open Another &Sheet\u2026", w.choose_sheet)
    m.addSeparator()
    a.save = _act(m, "&Save", w.save, Key.Save)
    a.save_as = _act(m, "Save &As\u2026", w.save_as, Key.SaveAs)
    m.addSeparator()
    a.quit = _act(m, "&Quit", w.close, Key.Quit)

    m = mb.addMenu("&Edit")
    a.undo = w.undo_stack.createUndoAction(w, "&Undo")
    a.undo.setShortcuts(QKeySequence.keyBindings(Key.Undo))
    a.redo = w.undo_stack.createRedoAction(w, "&Redo")
    redo_keys = QKeySequence.keyBindings(Key.Redo)
    if QKeySequence("Ctrl+Y") not in redo_keys:
        redo_keys.append(QKeySequence("Ctrl+Y"))
    a.redo.setShortcuts(redo_keys)
    m.addAction(a.undo)
    m.addAction(a.redo)
    m.addSeparator()
    a.cut = _act(m, "Cu&t", w.cut, Key.Cut)
    a.copy = _act(m, "&Copy", w.copy, Key.Copy)
    a.paste = _act(m, "&Paste", w.paste, Key.Paste)
    a.delete_cells = _act(m, "&Delete Cells", w.delete_cells, [Key.Delete, "Backspace"])
    m.addSeparator()
    a.find = _act(m, "&Find and Replace\u2026", w.show_find, [Key.Find, Key.Replace, "Ctrl+H"])
    m.addSeparator()
    a.insert_above = _act(m, "Insert Row &Above", partial(ops.insert_row, False), "Ctrl+Shift+=")
    a.insert_below = _act(m, "Insert Row &Below", partial(ops.insert_row, True), ["Ctrl+=", "Ctrl++"])
    a.duplicate = _act(m, "D&uplicate Rows", ops.duplicate_rows, "Ctrl+D")
    a.delete_rows = _act(m, "Delete &Rows", ops.delete_rows, "Ctrl+-")
    a.add_turn = _act(m, "Add &Turn to Conversation", ops.add_turn, "Ctrl+T",
                      "A new row at the end of the selected row's conversation, with the next turn number")
    a.new_conversation = _act(m, "&New Conversation", ops.new_conversation, "Ctrl+Shift+T",
                              "A new row with a new session id, turn 1")
    a.move_up = _act(m, "Move Rows U&p", partial(ops.move_rows, -1), "Alt+Up")
    a.move_down = _act(m, "Move Rows Do&wn", partial(ops.move_rows, 1), "Alt+Down")
    m.addSeparator()
    a.add_column = _act(m, "Add Co&lumn\u2026", ops.add_column)
    a.rename_column = _act(m, "Rena&me Column\u2026", ops.rename_column)
    a.remove_column = _act(m, "Remo&ve Column", ops.remove_column)

    m = mb.addMenu("&Data")
    a.target_menu = m.addMenu("&Target")
    a.target_group = QActionGroup(w)
    a.targets = {}
    for name in TARGET_NAMES:
        act = QAction(TARGET_HELP[name], w, checkable=True)
        act.triggered.connect(lambda _=False, n=name: w.set_target(n))
        a.target_group.addAction(act)
        a.target_menu.addAction(act)
        a.targets[name] = act
    lang_menu = m.addMenu("&Headers When Saving As")
    lang_group = QActionGroup(w)
    a.languages = {}
    for lang, text in (("en", "English"), ("zh", "Chinese (\u4e2d\u6587, evaluation-set)")):
        act = QAction(text, w, checkable=True, checked=settings.header_language() == lang)
        act.triggered.connect(lambda _=False, lg=lang: settings.set_header_language(lg))
        lang_group.addAction(act)
        lang_menu.addAction(act)
        a.languages[lang] = act
    m.addSeparator()
    a.sort = _act(m, "&Sort by Session and Turn", ops.sort_by_session_and_turn,
                  tip="Gather each conversation at its first row, turns in order; other rows keep their place")
    a.renumber = _act(m, "&Renumber Turns", ops.renumber_turns, tip="Number every conversation's turns 1, 2, 3 \u2026")
    a.fix_menu = m.addMenu("&Fix All")
    a.fix_menu.aboutToShow.connect(lambda: _fill_fixes(w, a.fix_menu))

    m = mb.addMenu("&View")
    a.view_menu = m
    a.filter_bar = _act(m, "&Filter Bar", w.toggle_filter_bar, "Ctrl+Shift+F")
    a.filter_bar.setCheckable(True)
    a.filter_bar.setChecked(True)
    m.addSeparator()

    m = mb.addMenu("&Go")
    a.next_issue = _act(m, "&Next Issue", ops.next_issue, "F8")
    a.previous_issue = _act(m, "&Previous Issue", partial(ops.next_issue, True), "Shift+F8")
    a.conversation = _act(m, "Show Only This &Conversation", w.filter_to_conversation)

    m = mb.addMenu("&Help")
    a.about = _act(m, "&About evaleditor", lambda: dialogs.show_about(w))
    return a


def _fill_recent(w, menu: QMenu) -> None:
    menu.clear()
    files = settings.recent_files()
    for path in files:
        _act(menu, path, partial(w.open_file, path))
    if not files:
        menu.addAction("(none)").setEnabled(False)
    else:
        menu.addSeparator()
        _act(menu, "Clear Recent Files", settings.clear_recent)


def _fill_fixes(w, menu: QMenu) -> None:
    menu.clear()
    doc = w.model.doc
    counts = doc.validator.rule_counts if doc is not None else {}
    rules = [r for r in RULES if counts.get(r, 0) > 0 and fix_label(r)]
    for rule in rules:
        _act(menu, f"{fix_label(rule)} \u2014 {rule} ({counts[rule]})", partial(w.ops.fix_all, rule))
    if not rules:
        menu.addAction("(nothing to fix automatically)").setEnabled(False)
