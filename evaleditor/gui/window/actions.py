"""The window's menus and actions (File, Edit, Data, View, Go), with standard shortcuts.

Texts are English source strings marked QT_TRANSLATE_NOOP("Menus", …) and kept on each action (the
`source_text` property), so that `retranslate` can re-set them all when the language changes.
Every menu has a mnemonic (&File; 文件(&F) in Chinese)."""

from __future__ import annotations

from functools import partial
from types import SimpleNamespace

import shiboken6
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QApplication, QMenu

from evaleditor.core.fixes import fix_label
from evaleditor.core.i18n import text as core_text
from evaleditor.core.rules import RULES
from evaleditor.core.targets import TARGET_NAMES
from evaleditor.gui import dialogs
from evaleditor.gui.panels import help_window, upload_preview
from evaleditor.gui.panels.banner import TARGET_CONTEXT, TARGET_HELP
from evaleditor.gui.window import language, settings, windows

# File ▸ Reopen with Encoding: a text file's encoding, when the one guessed is wrong (io/text/delimited.py)
REOPEN_ENCODINGS = (("utf-8", "&UTF-8"), ("gb18030", "&GB18030 (Chinese)"), ("cp932", "&Shift-JIS (Japanese)"),
                    ("big5", "&Big5 (Traditional Chinese)"), ("cp949", "EUC-&KR (Korean)"),
                    ("cp1252", "&Windows-1252 (Western)"), ("utf-16", "UTF-1&6"))
Key = QKeySequence.StandardKey
translate = QCoreApplication.translate
CTX = "Menus"
SOURCE, TIP, CONTEXT = "source_text", "source_tip", "source_context"


def _set_texts(action: QAction) -> None:
    source, tip = action.property(SOURCE), action.property(TIP)
    context = action.property(CONTEXT) or CTX
    if source:
        action.setText(translate(context, source))
    if tip:
        action.setStatusTip(translate(context, tip))
        action.setToolTip(translate(context, tip))


def _menu(parent, text: str) -> QMenu:
    """A (sub)menu whose title is the source `text` (marked QT_TRANSLATE_NOOP("Menus", …))."""
    menu = parent.addMenu(translate(CTX, text))
    menu.menuAction().setProperty(SOURCE, text)
    return menu


def _act(menu: QMenu, text: str, slot, shortcut=None, tip: str = "", context: str = "") -> QAction:
    action = QAction(menu.parent() or menu)
    action.setProperty(SOURCE, text)
    if context:
        action.setProperty(CONTEXT, context)
    if tip:
        action.setProperty(TIP, tip)
    _set_texts(action)
    if shortcut is not None:
        keys = shortcut if isinstance(shortcut, list) else [shortcut]
        seqs: list[QKeySequence] = []
        for k in keys:
            for seq in (QKeySequence.keyBindings(k) if isinstance(k, Key) else [QKeySequence(k)]):
                if seq not in seqs:
                    seqs.append(seq)
        action.setShortcuts(seqs)
    action.triggered.connect(lambda _checked=False: slot())
    menu.addAction(action)
    return action


def build(w) -> SimpleNamespace:
    """Create the menus on `w` (a MainWindow); return the actions by name."""
    a = SimpleNamespace()
    ops = w.ops
    mb = w.menuBar()

    m = _menu(mb, QT_TRANSLATE_NOOP("Menus", "&File"))
    a.new = _act(m, QT_TRANSLATE_NOOP("Menus", "&New"), partial(windows.new_document, w), [Key.New, "Ctrl+N"],
                 QT_TRANSLATE_NOOP("Menus", "An empty document with the headers of the target checked against"))
    new_menu = _menu(m, QT_TRANSLATE_NOOP("Menus", "New from &Template"))
    for name in TARGET_NAMES:
        _act(new_menu, TARGET_HELP[name], partial(w.documents.new_from_template, name), context=TARGET_CONTEXT)
    a.open = _act(m, QT_TRANSLATE_NOOP("Menus", "&Open\u2026"), w.documents.open_dialog, Key.Open)
    a.recent = _menu(m, QT_TRANSLATE_NOOP("Menus", "Open &Recent"))
    a.recent.aboutToShow.connect(lambda: _fill_recent(w, a.recent))
    a.sheet = _act(m, QT_TRANSLATE_NOOP("Menus", "Open Another S&heet\u2026"), w.documents.choose_sheet)
    a.encoding = _menu(m, QT_TRANSLATE_NOOP("Menus", "Reopen with &Encoding"))
    a.encodings = {}
    for code, name in REOPEN_ENCODINGS:  # encoding names are the same in every language
        act = QAction(name, w)
        act.triggered.connect(lambda _=False, c=code: w.documents.reopen_with_encoding(c))
        a.encoding.addAction(act)
        a.encodings[code] = act
    m.addSeparator()
    a.save = _act(m, QT_TRANSLATE_NOOP("Menus", "&Save"), w.documents.save, Key.Save)
    a.save_as = _act(m, QT_TRANSLATE_NOOP("Menus", "Save &As\u2026"), w.documents.save_as, Key.SaveAs)
    a.preview = _act(m, QT_TRANSLATE_NOOP("Menus", "Pre&view Upload\u2026"), partial(upload_preview.show, w),
                     "Ctrl+Shift+U", QT_TRANSLATE_NOOP("Menus", "What the target will receive from this file, case by "
                                                                "case, made by the code that saves"))
    a.close = _act(m, QT_TRANSLATE_NOOP("Menus", "&Close"), partial(windows.close_document, w), [Key.Close, "Ctrl+W"])
    m.addSeparator()
    # every window of this process (`evaleditor A.xlsx B.csv` opens two), each asking about its changes;
    # a Cancel keeps that window and the ones not closed yet
    a.quit = _act(m, QT_TRANSLATE_NOOP("Menus", "&Quit"), QApplication.closeAllWindows, Key.Quit)

    m = _menu(mb, QT_TRANSLATE_NOOP("Menus", "&Edit"))
    stack = w.undo_stack
    a.undo = QAction(w, enabled=False)
    a.undo.triggered.connect(stack.undo)
    a.undo.setShortcuts(QKeySequence.keyBindings(Key.Undo))
    a.redo = QAction(w, enabled=False)
    a.redo.triggered.connect(stack.redo)
    for signal in (stack.undoTextChanged, stack.redoTextChanged, stack.canUndoChanged, stack.canRedoChanged):
        signal.connect(lambda *_: update_undo_texts(w))
    redo_keys = QKeySequence.keyBindings(Key.Redo)
    if QKeySequence("Ctrl+Y") not in redo_keys:
        redo_keys.append(QKeySequence("Ctrl+Y"))
    a.redo.setShortcuts(redo_keys)
    m.addAction(a.undo)
    m.addAction(a.redo)
    m.addSeparator()
    a.cut = _act(m, QT_TRANSLATE_NOOP("Menus", "Cu&t"), w.ops.cut, Key.Cut)
    a.copy = _act(m, QT_TRANSLATE_NOOP("Menus", "&Copy"), w.ops.copy, Key.Copy)
    a.paste = _act(m, QT_TRANSLATE_NOOP("Menus", "&Paste"), w.ops.paste, Key.Paste)
    # Explicit keys, not Key.Delete: on X11 (KDE, GNOME …) that standard key also means Ctrl+D, which
    # would make Ctrl+D ambiguous with Fill Down and do nothing at all.
    a.delete_cells = _act(m, QT_TRANSLATE_NOOP("Menus", "&Delete Cells"), w.ops.delete_cells, ["Del", "Backspace"])
    # Excel's and LibreOffice Calc's keys
    a.fill_down = _act(m, QT_TRANSLATE_NOOP("Menus", "Fi&ll Down"), partial(ops.fill, True), "Ctrl+D",
                       QT_TRANSLATE_NOOP("Menus", "Copy the top cell of each selected column into the selected "
                                                  "cells below it (one row selected: the row above)"))
    a.fill_right = _act(m, QT_TRANSLATE_NOOP("Menus", "Fill Ri&ght"), partial(ops.fill, False), "Ctrl+R",
                        QT_TRANSLATE_NOOP("Menus", "Copy the leftmost cell of each selected row into the selected "
                                                   "cells right of it (one column selected: the column to the left)"))
    m.addSeparator()
    # Excel's and LibreOffice Calc's keys; Ctrl+H, not Key.Replace, which is Ctrl+R (Fill Right) under KDE
    a.find = _act(m, QT_TRANSLATE_NOOP("Menus", "&Find\u2026"), w.show_find, Key.Find)
    a.replace = _act(m, QT_TRANSLATE_NOOP("Menus", "R&eplace\u2026"), partial(w.show_find, True), "Ctrl+H")
    m.addSeparator()
    # Ctrl++ inserts above the selection as in Excel and Calc (Ctrl+Shift+= is the same keys on a US layout)
    a.insert_above = _act(m, QT_TRANSLATE_NOOP("Menus", "Insert Row &Above"), partial(ops.insert_row, False),
                          ["Ctrl++", "Ctrl+Shift+="])
    a.insert_below = _act(m, QT_TRANSLATE_NOOP("Menus", "Insert Row &Below"), partial(ops.insert_row, True), "Ctrl+=")
    a.duplicate = _act(m, QT_TRANSLATE_NOOP("Menus", "Dupl&icate Rows"), ops.duplicate_rows, "Ctrl+Shift+D")
    a.delete_rows = _act(m, QT_TRANSLATE_NOOP("Menus", "Delete R&ows"), ops.delete_rows, "Ctrl+-")
    a.add_turn = _act(m, QT_TRANSLATE_NOOP("Menus", "Add Tur&n to Conversation"), ops.add_turn, "Ctrl+T",
                      QT_TRANSLATE_NOOP("Menus", "A new row at the end of the selected row's conversation, with the "
                                                 "next turn number"))
    a.new_conversation = _act(m, QT_TRANSLATE_NOOP("Menus", "New Conver&sation"), ops.new_conversation,
                              "Ctrl+Shift+T", QT_TRANSLATE_NOOP("Menus", "A new row with a new session id, turn 1"))
    a.move_up = _act(m, QT_TRANSLATE_NOOP("Menus", "Mo&ve Rows Up"), partial(ops.move_rows, -1), "Alt+Up")
    a.move_down = _act(m, QT_TRANSLATE_NOOP("Menus", "Move Rows Do&wn"), partial(ops.move_rows, 1), "Alt+Down")
    m.addSeparator()
    columns = _menu(m, QT_TRANSLATE_NOOP("Menus", "Colu&mns"))  # the Edit menu has no letter left for three more
    a.add_column = _act(columns, QT_TRANSLATE_NOOP("Menus", "&Add Column\u2026"), ops.add_column)
    a.rename_column = _act(columns, QT_TRANSLATE_NOOP("Menus", "&Rename Column\u2026"), ops.rename_column)
    a.remove_column = _act(columns, QT_TRANSLATE_NOOP("Menus", "Re&move Column"), ops.remove_column)

    m = _menu(mb, QT_TRANSLATE_NOOP("Menus", "&Data"))
    a.target_menu = _menu(m, QT_TRANSLATE_NOOP("Menus", "&Target"))
    a.target_group = QActionGroup(w)
    a.targets = {}
    for name in TARGET_NAMES:
        act = QAction(w, checkable=True)
        act.setProperty(SOURCE, TARGET_HELP[name])
        act.setProperty(CONTEXT, TARGET_CONTEXT)
        _set_texts(act)
        act.triggered.connect(lambda _=False, n=name: w.documents.set_target(n))
        a.target_group.addAction(act)
        a.target_menu.addAction(act)
        a.targets[name] = act
    lang_menu = _menu(m, QT_TRANSLATE_NOOP("Menus", "&Headers When Saving As"))
    lang_group = QActionGroup(w)
    a.languages = {}
    for lang, text in ((None, QT_TRANSLATE_NOOP("Menus", "Keep As They Are")),
                       ("en", QT_TRANSLATE_NOOP("Menus", "English")),
                       ("zh", QT_TRANSLATE_NOOP("Menus", "Chinese (\u4e2d\u6587, evaluation-set)"))):
        act = QAction(w, checkable=True, checked=settings.header_language() == lang)
        act.setProperty(SOURCE, text)
        _set_texts(act)
        act.triggered.connect(lambda _=False, lg=lang: settings.set_header_language(lg))
        lang_group.addAction(act)
        lang_menu.addAction(act)
        a.languages[lang] = act
    m.addSeparator()
    a.sort = _act(m, QT_TRANSLATE_NOOP("Menus", "&Sort by Session and Turn"), ops.sort_by_session_and_turn,
                  tip=QT_TRANSLATE_NOOP("Menus", "Gather each conversation at its first row, turns in order; other "
                                                 "rows keep their place"))
    a.renumber = _act(m, QT_TRANSLATE_NOOP("Menus", "&Renumber Turns"), ops.renumber_turns,
                      tip=QT_TRANSLATE_NOOP("Menus", "Number every conversation's turns 1, 2, 3 \u2026"))
    a.fix_menu = _menu(m, QT_TRANSLATE_NOOP("Menus", "&Fix All"))
    a.fix_menu.aboutToShow.connect(lambda: _fill_fixes(w, a.fix_menu))

    m = _menu(mb, QT_TRANSLATE_NOOP("Menus", "&View"))
    a.view_menu = m
    a.filter_bar = _act(m, QT_TRANSLATE_NOOP("Menus", "&Filter Bar"), w.toggle_filter_bar, "Ctrl+Shift+F")
    a.filter_bar.setCheckable(True)
    a.filter_bar.setChecked(True)
    a.wrap_text = _act(m, QT_TRANSLATE_NOOP("Menus", "&Wrap Text"), lambda: w.wrap_rows.set_enabled(a.wrap_text.isChecked()),
                       tip=QT_TRANSLATE_NOOP("Menus", "Show long and multi-line cells in full, on taller rows"))
    a.wrap_text.setCheckable(True)
    a.freeze = _act(m, QT_TRANSLATE_NOOP("Menus", "Freeze First &Column"),
                    lambda: w.frozen.set_enabled(a.freeze.isChecked()),
                    tip=QT_TRANSLATE_NOOP("Menus", "Keep the first column in view while scrolling right (the row "
                                                   "gutter always stays)"))
    a.freeze.setCheckable(True)
    zoom = _menu(m, QT_TRANSLATE_NOOP("Menus", "&Zoom"))
    a.zoom_in = _act(zoom, QT_TRANSLATE_NOOP("Menus", "Zoom &In"), lambda: w.zoom.step(1), ["Ctrl+Alt+=", "Ctrl+Alt++"])
    a.zoom_out = _act(zoom, QT_TRANSLATE_NOOP("Menus", "Zoom &Out"), lambda: w.zoom.step(-1), "Ctrl+Alt+-")
    a.zoom_reset = _act(zoom, QT_TRANSLATE_NOOP("Menus", "&Actual Size (100%)"), w.zoom.reset, "Ctrl+0")
    a.ui_language_menu = _menu(m, QT_TRANSLATE_NOOP("Menus", "&Language"))
    ui_group = QActionGroup(w)
    a.ui_languages = {}
    chosen = settings.ui_language()
    for choice in language.CHOICES:
        act = QAction(w, checkable=True, checked=choice == chosen)
        if choice == language.SYSTEM:
            act.setProperty(SOURCE, QT_TRANSLATE_NOOP("Menus", "&System Language"))
            _set_texts(act)
        else:
            act.setText(language.NATIVE_NAMES[choice])  # a language names itself, in every language
        act.triggered.connect(lambda _=False, c=choice: w.set_ui_language(c))
        ui_group.addAction(act)
        a.ui_language_menu.addAction(act)
        a.ui_languages[choice] = act
    m.addSeparator()

    m = _menu(mb, QT_TRANSLATE_NOOP("Menus", "&Go"))
    a.next_issue = _act(m, QT_TRANSLATE_NOOP("Menus", "&Next Issue"), ops.next_issue, "F8")
    a.previous_issue = _act(m, QT_TRANSLATE_NOOP("Menus", "&Previous Issue"), partial(ops.next_issue, True), "Shift+F8")
    a.conversation = _act(m, QT_TRANSLATE_NOOP("Menus", "Show Only This &Conversation"), w.navigation.filter_to_conversation)
    m.addSeparator()
    a.focus_table = _act(m, QT_TRANSLATE_NOOP("Menus", "Cases &Table"), w.focus.table, "Ctrl+Shift+E",
                         QT_TRANSLATE_NOOP("Menus", "Move the keyboard focus to the cases table"))
    a.focus_issues = _act(m, QT_TRANSLATE_NOOP("Menus", "&Issues Panel"), w.focus.issues, "Ctrl+Shift+I",
                          QT_TRANSLATE_NOOP("Menus", "Show the Issues panel and move the keyboard focus to its list"))
    a.focus_conversation = _act(m, QT_TRANSLATE_NOOP("Menus", "Con&versation Panel"), w.focus.conversation,
                                "Ctrl+Shift+C", QT_TRANSLATE_NOOP("Menus", "Show the Conversation panel and move "
                                                                           "the keyboard focus to it"))
    a.focus_filter = _act(m, QT_TRANSLATE_NOOP("Menus", "&Filter Rows\u2026"), w.focus.filter, "Ctrl+Shift+L",
                          QT_TRANSLATE_NOOP("Menus", "Show the filter bar and move the keyboard focus to its text"))
    a.next_pane = _act(m, QT_TRANSLATE_NOOP("Menus", "Ne&xt Pane"), w.focus.next, "F6")
    a.previous_pane = _act(m, QT_TRANSLATE_NOOP("Menus", "Previous P&ane"), lambda: w.focus.next(True),
                           "Shift+F6")

    m = _menu(mb, QT_TRANSLATE_NOOP("Menus", "&Help"))
    a.help = _act(m, QT_TRANSLATE_NOOP("Menus", "evaleditor &Help"), partial(help_window.show_for_focus, w),
                  [Key.HelpContents, "F1"], QT_TRANSLATE_NOOP("Menus", "First steps, keyboard shortcuts and the rules "
                                                                      "reference (at the rule of the selected issue)"))
    a.about = _act(m, QT_TRANSLATE_NOOP("Menus", "&About evaleditor"), lambda: dialogs.show_about(w))
    update_undo_texts(w, a)
    return a


def retranslate(w) -> None:
    """Re-set every menu and action text in the current language (after a LanguageChange)."""
    for action in w.findChildren(QAction):
        _set_texts(action)
    update_undo_texts(w)


def update_undo_texts(w, a: SimpleNamespace | None = None) -> None:
    """"Undo Paste" / "Redo Add turn": the command's text (core/i18n.py Msg or msgid) translated."""
    a = a or w.actions
    stack = w.undo_stack
    if not all(shiboken6.isValid(o) for o in (w, stack, a.undo, a.redo)):  # being destroyed
        return
    undo, redo = stack.undoText(), stack.redoText()
    a.undo.setText(translate("Menus", "&Undo {command}").format(command=undo) if undo else translate("Menus", "&Undo"))
    a.redo.setText(translate("Menus", "&Redo {command}").format(command=redo) if redo else translate("Menus", "&Redo"))
    busy = getattr(w, "task", None) is not None
    a.undo.setEnabled(stack.canUndo() and not busy)
    a.redo.setEnabled(stack.canRedo() and not busy)


def _fill_recent(w, menu: QMenu) -> None:
    menu.clear()
    files = settings.recent_files()
    for path in files:
        menu.addAction(path).triggered.connect(lambda _=False, p=path: w.documents.open_file(p))
    if not files:
        menu.addAction(translate("Menus", "(none)")).setEnabled(False)
    else:
        menu.addSeparator()
        _act(menu, QT_TRANSLATE_NOOP("Menus", "Clear Recent Files"), settings.clear_recent)


def _fill_fixes(w, menu: QMenu) -> None:
    menu.clear()
    doc = w.model.doc
    counts = doc.validator.rule_counts if doc is not None else {}
    rules = [r for r in RULES if counts.get(r, 0) > 0 and fix_label(r)]
    for rule in rules:
        text = translate("Menus", "{fix} \u2014 {rule} ({n})").format(fix=core_text(fix_label(rule)), rule=rule,
                                                                   n=counts[rule])
        menu.addAction(text).triggered.connect(lambda _=False, r=rule: w.ops.fix_all(r))
    if not rules:
        menu.addAction(translate("Menus", "(nothing to fix automatically)")).setEnabled(False)
