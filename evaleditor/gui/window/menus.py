"""Context menus: on a cell (its quick fixes first, then editing), on a column header, on a row header."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMenu

from evaleditor.core.fixes import fix_command, fix_label
from evaleditor.core.i18n import localized_message
from evaleditor.core.i18n import text as core_text
from evaleditor.core.rules import RULES, SEVERITY_RANK
from evaleditor.core.targets import SESSION, TURN
from evaleditor.gui.window import theme

translate = QCoreApplication.translate


def cell_menu(w, pos) -> QMenu | None:
    view, model = w.view, w.model
    if model.doc is None:
        return None
    index = view.indexAt(pos)
    menu = QMenu(w)
    if index.isValid():
        if index not in view.selectionModel().selectedIndexes():
            view.go_to(index)
        add_fixes(w, menu, *model.cell_ids(index))
    a = w.actions
    for act in (a.cut, a.copy, a.paste, a.delete_cells, None, a.insert_above, a.insert_below, a.duplicate,
                a.delete_rows, None, a.add_turn, a.new_conversation, a.move_up, a.move_down, None, a.conversation):
        menu.addSeparator() if act is None else menu.addAction(act)
    menu.popup(view.viewport().mapToGlobal(pos))
    return menu


def add_fixes(w, menu: QMenu, row_id: int, column_id: int) -> int:
    """Add "Fix: …" and "Fix all …" for the issues in this cell; return how many actions were added."""
    v = w.model.validator
    issues = sorted((i for i in v.row_issues(row_id) if i.column_id == column_id),
                    key=lambda i: -SEVERITY_RANK[i.severity])
    added = 0
    seen_rules = set()
    for issue in issues:
        label = fix_label(issue.rule)
        if label and fix_command(v, issue) is not None:
            act = menu.addAction(theme.severity_icon(issue.severity),
                                 translate("ContextMenu", "Fix: {fix}").format(fix=core_text(label)))
            act.setToolTip(localized_message(issue))
            act.triggered.connect(lambda _=False, i=issue: w.ops.fix_issue(i))
            added += 1
        n = v.rule_counts.get(issue.rule, 0)
        if label and n > 1 and issue.rule not in seen_rules and RULES[issue.rule].fix:
            seen_rules.add(issue.rule)
            act = menu.addAction(translate("ContextMenu", "Fix all of this kind: {fix} ({n} {rule})").format(
                fix=core_text(label), n=n, rule=issue.rule))
            act.triggered.connect(lambda _=False, r=issue.rule: w.ops.fix_all(r))
            added += 1
    if added:
        menu.addSeparator()
    return added


def header_menu(w, pos) -> QMenu | None:
    model = w.model
    if model.doc is None:
        return None
    header = w.view.horizontalHeader()
    column = header.logicalIndexAt(pos)
    menu = QMenu(w)
    ds = model.ds
    if column >= 0:
        col = ds.columns[column]
        miss = ds.target.near_miss(col.header) if ds.fields()[column] is None else None
        if miss in (SESSION, TURN):
            want = ds.target.header_in(miss, ds.headers())
            act = menu.addAction(theme.severity_icon("warning"),
                                 translate("ContextMenu", "Rename to {header}").format(header=want))
            act.triggered.connect(lambda _=False, c=col.id, h=want: w.ops.rename_column_to(c, h))
            menu.addSeparator()
        menu.addAction(translate("ContextMenu", "Re&name Column\u2026")).triggered.connect(
            lambda _=False: w.ops.rename_column(column))
        menu.addAction(translate("ContextMenu", "Insert Column &Left\u2026")).triggered.connect(
            lambda _=False: w.ops.add_column(column))
        menu.addAction(translate("ContextMenu", "Insert Column &Right\u2026")).triggered.connect(
            lambda _=False: w.ops.add_column(column + 1))
        menu.addAction(translate("ContextMenu", "Re&move Column")).triggered.connect(
            lambda _=False: w.ops.remove_column(column))
    else:
        menu.addAction(translate("ContextMenu", "&Add Column\u2026")).triggered.connect(
            lambda _=False: w.ops.add_column(ds.column_count()))
    menu.popup(header.mapToGlobal(pos))
    return menu


def row_header_menu(w, pos) -> None:
    view = w.view
    row = view.verticalHeader().logicalIndexAt(pos)
    if row >= 0 and row not in view.selected_rows():
        view.selectRow(row)
    menu = QMenu(w)
    a = w.actions
    for act in (a.insert_above, a.insert_below, a.duplicate, a.delete_rows, None, a.add_turn,
                a.new_conversation, a.move_up, a.move_down, None, a.conversation):
        menu.addSeparator() if act is None else menu.addAction(act)
    menu.exec(view.verticalHeader().mapToGlobal(pos))
