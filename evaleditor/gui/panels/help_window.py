"""Help (F1): the first steps, the keyboard shortcuts and the rules reference, inside the app.

The shortcuts are read from the window's own actions (so the list cannot drift from the keys), plus
the keys the table handles itself; the rules reference is core/rules_reference.py, the catalogue
docs/rules.md is generated from. `show(window, rule)` opens it at that rule's explanation: every rule
id in the Issues panel and in the Upload Preview links here."""

from __future__ import annotations

import html
import re

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from evaleditor.core.i18n import text as core_text
from evaleditor.core.rules_reference import reference
from evaleditor.gui.panels.tool_window import closing
from evaleditor.gui.window import theme, windows

translate = QCoreApplication.translate
# keys the table (and the window) handle without a menu action: (keys, what), source texts
TABLE_KEYS = (
    ("Enter / Shift+Enter", QT_TRANSLATE_NOOP("Help", "move down / up (finish an edit and move down)")),
    ("Tab / Shift+Tab", QT_TRANSLATE_NOOP("Help", "move right / left")),
    ("F2", QT_TRANSLATE_NOOP("Help", "edit the cell keeping its text (typing replaces it)")),
    ("Ctrl+Wheel", QT_TRANSLATE_NOOP("Help", "zoom the table in or out")),
    ("Shift+F10", QT_TRANSLATE_NOOP("Help", "the cell's menu, its quick fixes first")),
)


def show(window, rule: str | None = None) -> HelpWindow:
    """Open (or raise) the help of `window`, at `rule`'s explanation when given."""
    help_window = windows.raise_tool(window, "help_window", HelpWindow)
    help_window.render()
    help_window.go_to(rule)
    return help_window


def show_for_focus(window) -> HelpWindow:
    """F1: the help at the rule of the issue in focus (the Issues panel's current issue, or the worst
    issue of the table's current cell), else at its start."""
    return show(window, focused_rule(window))


def focused_rule(window) -> str | None:
    focus = window.focusWidget()  # the window's widget with the keyboard focus (or the last one that had it)
    panel = window.issues_panel
    if focus is panel.view and panel.current_issue() is not None:
        return panel.current_issue().rule
    if focus is window.view and window.doc is not None and window.view.currentIndex().isValid():
        row_id, column_id = window.model.cell_ids(window.view.currentIndex())
        issues = sorted((i for i in window.doc.validator.row_issues(row_id) if i.column_id == column_id),
                        key=lambda i: -i.rank)
        return issues[0].rule if issues else None
    return None


def _typed(keys: str) -> bool:
    """A key combination typed on a keyboard (not an X11 media key such as Save or Shift+Save)."""
    key = "+" if keys.endswith("++") else keys.rsplit("+", 1)[-1]
    return len(key) == 1 or bool(re.fullmatch(r"F\d+|Del|Backspace|Ins|Up|Down|Left|Right|Esc|Tab|Enter|Return|Home|End|"
                                          r"PgUp|PgDown|Space|Wheel", key))


def anchor(rule: str) -> str:
    return f"rule-{rule}"


class HelpWindow(QWidget):
    def __init__(self, window):
        super().__init__(window, Qt.WindowType.Window)
        self.w = window
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(False)
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(lambda url: self.go_to(url.fragment() or None, is_anchor=True))
        self.buttons = closing(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser)
        bottom = QVBoxLayout()
        bottom.setContentsMargins(8, 4, 8, 8)
        bottom.addWidget(self.buttons)
        layout.addLayout(bottom)
        self.resize(900, 720)

    def go_to(self, rule: str | None, is_anchor: bool = False) -> None:
        name = rule if is_anchor else (anchor(rule) if rule else "top")
        self.browser.scrollToAnchor(name)

    def render(self) -> None:
        self.setWindowTitle(translate("Help", "evaleditor Help"))
        self.browser.setHtml("".join((self._start(), self._shortcuts(), self._rules())))

    def _start(self) -> str:
        steps = (
            translate("Help", "The banner above the table says how the target will read the file (the shape "
                              "line); a loud strip warns when a header turns a conversation file into single-turn "
                              "cases, with a button that fixes it."),
            translate("Help", "The Issues panel lists every problem: click one to go to its cell; Fix all repairs "
                              "every issue of a kind as one undo step; each rule id links to its explanation below."),
            translate("Help", "F8 and Shift+F8 walk from one issue to the next in the table."),
            translate("Help", "File \u25b8 Preview Upload\u2026 (or the button beside the shape line) shows exactly "
                              "what the target will receive: conversations in replay order, accepted and rejected "
                              "cases, SDK cases as JSON."),
        )
        items = "".join(f"<li>{html.escape(s)}</li>" for s in steps)
        first, keys, rules = (html.escape(translate("Help", "First steps")),
                              html.escape(translate("Help", "Keyboard shortcuts")),
                              html.escape(translate("Help", "Rules reference")))
        return (f'<a name="top"></a><h2>{first}</h2><ul>{items}</ul>'
                f'<p><a href="#shortcuts">{keys}</a> \u00b7 <a href="#rules">{rules}</a></p>')

    def _shortcuts(self) -> str:
        rows = []
        seen = set()
        for action in self.w.findChildren(QAction):
            keys = [k for k in (s.toString(QKeySequence.SequenceFormat.NativeText) for s in action.shortcuts())
                    if _typed(k)]
            label = action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
            label = label.split("(")[0].strip() if label.endswith(")") and "(&" in action.text() else label
            if keys and label and (label, keys[0]) not in seen:
                seen.add((label, keys[0]))
                rows.append((", ".join(keys), label))
        rows += [(keys, translate("Help", what)) for keys, what in TABLE_KEYS]
        body = "".join(f"<tr><td><b>{html.escape(k)}</b></td><td>{html.escape(v)}</td></tr>" for k, v in rows)
        note = translate("Help", "Ctrl++ inserts and Ctrl+- deletes rows, as in Excel and LibreOffice Calc; zoom with "
                                 "Ctrl+Wheel, Ctrl+Alt+= and Ctrl+Alt+- (Excel's zoom keys), Ctrl+0 for 100%.")
        title = html.escape(translate("Help", "Keyboard shortcuts"))
        return (f'<a name="shortcuts"></a><h2>{title}</h2>'
                f'<table cellpadding="3">{body}</table><p>{html.escape(note)}</p>')

    def _rules(self) -> str:
        title = html.escape(translate("Help", "Rules reference"))
        intro = html.escape(translate("Help", "Every issue names one of these rules. Severity is given for ground-truth "
                                              "and sdk, then for evaluation-set; rule ids stay English in every "
                                              "language."))
        # one table for every group, so the columns line up from one group to the next
        out = [f'<a name="rules"></a><h2>{title}</h2>', f"<p>{intro}</p>", "<table cellpadding='3' width='100%'>"]
        group = None
        for e in reference():
            if e.group != group:
                group = e.group
                out.append(f"<tr><td colspan='3'><h3>{html.escape(core_text(group))}</h3></td></tr>")
            severity = theme.severity_label(e.severity) if e.severity else "\u2014"
            if e.only:
                severity += " " + translate("Help", "({target} only)").format(target=e.only)
            es = "\u2014" if e.only else theme.severity_label(e.es_severity) + (
                " " + translate("Help", "(evaluation-set only)") if e.es_only else "")
            fix = translate("Help", "Quick fix: {fix}").format(fix=core_text(e.fix)) if e.fix else ""
            out.append(f'<tr><td width="23%"><a name="{anchor(e.id)}"></a><b><code>{html.escape(e.id)}</code></b></td>'
                       f'<td width="20%">{html.escape(severity)} / {html.escape(es)}</td>'
                       f"<td><b>{html.escape(core_text(e.title))}</b><br/>{html.escape(core_text(e.explanation))}"
                       f"{'<br/><i>' + html.escape(fix) + '</i>' if fix else ''}</td></tr>")
        out.append("</table>")
        return "".join(out)

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.LanguageChange and self.isVisible():
            self.render()
        super().changeEvent(event)
