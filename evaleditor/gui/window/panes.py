"""The window without a mouse: focus shortcuts for each pane and F6 to cycle them, with a focus ring on
the pane that holds the keyboard. PaneFocus is handed the panes it moves between and touches nothing
else (MainWindow makes one: `window.focus`)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QDockWidget, QWidget

# the pane holding the keyboard focus gets a ring in the highlight colour (the others a quiet frame)
FOCUS_RING = "#pane { border: 2px solid palette(midlight); } #pane:focus { border: 2px solid palette(highlight); }"


class PaneFocus:
    def __init__(self, view, model, issues_dock: QDockWidget, issues_panel, conversation_dock: QDockWidget,
                 conversation_panel, filter_bar, show_filter_bar: Callable[[], None]):
        self.view, self.model = view, model
        self.issues_dock, self.issues_panel = issues_dock, issues_panel
        self.conversation_dock, self.conversation_panel = conversation_dock, conversation_panel
        self.filter_bar, self._show_filter_bar = filter_bar, show_filter_bar

    def mark(self) -> None:
        """Make the focused pane visible: a focus ring on the table, the issues list, the transcript."""
        for pane in (self.view, self.issues_panel.view, self.conversation_panel.browser):
            pane.setObjectName("pane")  # the rule matches the pane only, not its headers and scroll bars
            pane.setStyleSheet(FOCUS_RING)

    def then_table(self, action):
        """`action`, then the keyboard focus back on the table (arrow keys move there again): for a button
        or list outside the table (not a text field)."""
        def run(*args) -> None:
            action(*args)
            self.view.setFocus(Qt.FocusReason.OtherFocusReason)
        return run

    def table(self) -> None:
        """Go ▸ Cases Table (Ctrl+Shift+E): the cases table, at its current cell (the first one if none)."""
        self.view.setFocus()
        if not self.view.currentIndex().isValid() and self.model.rowCount():
            self.view.go_to(self.model.index(0, 0))

    def issues(self) -> None:
        """Go ▸ Issues Panel (Ctrl+Shift+I): show the dock, focus its list on an issue."""
        self.issues_dock.show()
        self.issues_dock.raise_()
        panel = self.issues_panel
        panel.view.setFocus()
        if not panel.view.currentIndex().isValid() and panel.model.rowCount():
            panel.view.setCurrentIndex(panel.model.index(0, 0))

    def conversation(self) -> None:
        """Go ▸ Conversation Panel (Ctrl+Shift+C): show the dock and focus the transcript."""
        self.conversation_dock.show()
        self.conversation_dock.raise_()
        self.conversation_panel.browser.setFocus()

    def filter(self) -> None:
        """Go ▸ Filter Rows (Ctrl+Shift+L): show the filter bar and focus its text."""
        if not self.filter_bar.isVisible():
            self._show_filter_bar()
        self.filter_bar.text.setFocus()
        self.filter_bar.text.selectAll()

    def shown(self) -> list[QWidget]:
        """The panes F6 cycles through, in order, those shown."""
        found = [self.view]
        if self.issues_dock.isVisible():
            found.append(self.issues_panel.view)
        if self.conversation_dock.isVisible():
            found.append(self.conversation_panel.browser)
        if self.filter_bar.isVisible():
            found.append(self.filter_bar.text)
        return found

    def next(self, backwards: bool = False) -> None:
        """F6 / Shift+F6: the next (previous) pane after the one holding the focus."""
        panes = self.shown()
        focus = QCoreApplication.instance().focusWidget()
        at = next((i for i, p in enumerate(panes) if focus is not None and (p is focus or p.isAncestorOf(focus))), -1)
        target = panes[(at + (-1 if backwards else 1)) % len(panes)]
        if target is self.view:
            self.table()
        elif target is self.issues_panel.view:
            self.issues()
        else:
            target.setFocus()
