"""The window without a mouse, and in its user's language: focus shortcuts for each pane, F6 to cycle
them, accessible names, and re-setting every text when the language changes (View ▸ Language).

Mixed into MainWindow, which provides view, issues_panel, issues_dock, conversation_panel,
conversation_dock, filter_bar, banner, actions, model and the status-bar labels.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from evaleditor.core.rules import ERROR, INFO, WARNING
from evaleditor.gui.window import actions, language, settings, theme

translate = QCoreApplication.translate
# the pane holding the keyboard focus gets a ring in the highlight colour (the others a quiet frame)
FOCUS_RING = "#pane { border: 2px solid palette(midlight); } #pane:focus { border: 2px solid palette(highlight); }"


class PanesMixin:
    def mark_focus(self) -> None:
        """Make the focused pane visible: a focus ring on the table, the issues list, the transcript."""
        for pane in (self.view, self.issues_panel.view, self.conversation_panel.browser):
            pane.setObjectName("pane")  # the rule matches the pane only, not its headers and scroll bars
            pane.setStyleSheet(FOCUS_RING)

    # ----- focus ------------------------------------------------------------------------------------------
    def focus_table(self) -> None:
        """Go ▸ Cases Table (Ctrl+Shift+E): the cases table, at its current cell (the first one if none)."""
        self.view.setFocus()
        if not self.view.currentIndex().isValid() and self.model.rowCount():
            self.view.go_to(self.model.index(0, 0))

    def focus_issues(self) -> None:
        """Go ▸ Issues Panel (Ctrl+Shift+I): show the dock, focus its list on an issue."""
        self.issues_dock.show()
        self.issues_dock.raise_()
        panel = self.issues_panel
        panel.view.setFocus()
        if not panel.view.currentIndex().isValid() and panel.model.rowCount():
            panel.view.setCurrentIndex(panel.model.index(0, 0))

    def focus_conversation(self) -> None:
        """Go ▸ Conversation Panel (Ctrl+Shift+C): show the dock and focus the transcript."""
        self.conversation_dock.show()
        self.conversation_dock.raise_()
        self.conversation_panel.browser.setFocus()

    def focus_filter(self) -> None:
        """Go ▸ Filter Rows (Ctrl+Shift+L): show the filter bar and focus its text."""
        if not self.filter_bar.isVisible():
            self.toggle_filter_bar()
        self.filter_bar.text.setFocus()
        self.filter_bar.text.selectAll()

    def panes(self) -> list[QWidget]:
        """The panes F6 cycles through, in order, those shown."""
        found = [self.view]
        if self.issues_dock.isVisible():
            found.append(self.issues_panel.view)
        if self.conversation_dock.isVisible():
            found.append(self.conversation_panel.browser)
        if self.filter_bar.isVisible():
            found.append(self.filter_bar.text)
        return found

    def focus_next_pane(self, backwards: bool = False) -> None:
        """F6 / Shift+F6: the next (previous) pane after the one holding the focus."""
        panes = self.panes()
        focus = QCoreApplication.instance().focusWidget()
        at = next((i for i, p in enumerate(panes) if focus is not None and (p is focus or p.isAncestorOf(focus))), -1)
        target = panes[(at + (-1 if backwards else 1)) % len(panes)]
        if target is self.view:
            self.focus_table()
        elif target is self.issues_panel.view:
            self.focus_issues()
        else:
            target.setFocus()

    # ----- language ------------------------------------------------------------------------------------------
    def set_ui_language(self, choice: str) -> None:
        """View ▸ Language: System, English or 简体中文. Applies at once, to every window (LanguageChange)."""
        language.choose(choice)
        self.actions.ui_languages[choice].setChecked(True)

    def retranslate(self) -> None:
        """Every text of the window in the current language (called on LanguageChange)."""
        actions.retranslate(self)
        chosen = settings.ui_language()
        if chosen in self.actions.ui_languages:
            self.actions.ui_languages[chosen].setChecked(True)
        self.issues_dock.setWindowTitle(translate("MainWindow", "Issues"))
        self.conversation_dock.setWindowTitle(translate("MainWindow", "Conversation"))
        names = {ERROR: translate("MainWindow", "Errors"), WARNING: translate("MainWindow", "Warnings"),
                 INFO: translate("MainWindow", "Info")}
        for sev, icon in self.count_icons.items():
            icon.setToolTip(names[sev])
            icon.setAccessibleName(names[sev])
        self.view.setAccessibleName(translate("MainWindow", "Cases"))
        self.view.setAccessibleDescription(translate(
            "MainWindow", "One row per test case. Type to replace a cell, F2 to edit it, F8 for the next issue."))
        self.position_label.setAccessibleName(translate("MainWindow", "Current cell"))
        self.model.retranslate()
        self._refresh_banner()
        self._update_counts()
        self.update_title()
        self._current_changed(self.view.currentIndex())

    def _update_counts(self) -> None:
        counts = self.doc.validator.counts if self.doc else {}
        for sev, label in self.count_labels.items():
            n = counts.get(sev, 0)
            label.setText(count_text(sev, n))
            label.setAccessibleName(label.text())

    def _palette_changed(self) -> None:
        theme.invalidate()
        self.view.viewport().update()
        self._refresh_banner()


def count_text(severity: str, n: int) -> str:
    """"1 error", "3 warnings", "2 info" in the current language."""
    if severity == ERROR:
        text = translate("MainWindow", "{n} error") if n == 1 else translate("MainWindow", "{n} errors")
    elif severity == WARNING:
        text = translate("MainWindow", "{n} warning") if n == 1 else translate("MainWindow", "{n} warnings")
    else:
        text = translate("MainWindow", "{n} info")
    return text.format(n=f"{n:,}")
