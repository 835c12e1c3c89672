"""Where the current cell is and going to another: the status bar says the current cell's row and column
(the conversation panel shows its conversation); an issue activated in the Issues panel (or a row in the
conversation) selects its cell, or its header for a column issue, clearing a filter that hides it; the
filter bar's filter shows the rows it keeps. Navigation is handed the table's view and model, the
filter bar, the current-cell label and the conversation panel, and touches nothing else (MainWindow
makes one: `window.navigation`)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel

from evaleditor.core.search import filter_rows
from evaleditor.gui.window.checking import finish_now

translate = QCoreApplication.translate


class Navigation:
    def __init__(self, view, model, filter_bar, position_label: QLabel, conversation_panel):
        self.view, self.model, self.filter_bar = view, model, filter_bar
        self.position_label, self.conversation_panel = position_label, conversation_panel

    def current_row_id(self) -> int | None:
        cur = self.view.currentIndex()
        return self.model.row_id(cur.row()) if cur.isValid() else None

    def show_position(self, current=None, _previous=None) -> None:
        """Say where the current cell (`current`) is: "Row 12 · question → query"."""
        doc = self.model.doc
        current = self.view.currentIndex() if current is None else current
        if doc is None or not current.isValid():
            self.position_label.setText("")
            self.conversation_panel.show_row(None)
            return
        rid = self.model.row_id(current.row())
        col = doc.dataset.columns[current.column()]
        fld = doc.dataset.fields()[current.column()]
        what = col.header + (f" \u2192 {fld}" if fld and fld != col.header else "")
        self.position_label.setText(translate("MainWindow", "Row {n} \u00b7 {column}").format(
            n=f"{doc.dataset.position(rid) + 1:,}", column=what))
        self.conversation_panel.show_row(rid)

    def go_to_issue(self, issue, row_id: int | None = None) -> None:
        """Select the issue's cell (its header for a column issue), clearing a filter that hides it."""
        doc = self.model.doc
        if doc is None:
            return
        column_id = None
        if issue is not None:
            row_id, column_id = issue.row_id, issue.column_id
        if row_id is None:
            if column_id is not None:
                col = doc.dataset.column_position(column_id)
                self.view.selectColumn(col)
                self.view.scrollTo(self.model.index(max(self.view.currentIndex().row(), 0), col))
            return
        if not doc.dataset.has_row(row_id):
            return
        if self.model.row_of(row_id) is None:
            self.filter_bar.clear()
        self.view.go_to(self.model.index_of(row_id, column_id))
        self.view.setFocus()

    def apply_filter(self, flt) -> None:
        doc = self.model.doc
        if doc is None:
            return
        if flt.has_errors or flt.has_warnings:
            finish_now(doc)
        current = self.current_row_id()
        self.model.set_visible(filter_rows(doc.validator, flt))
        if current is not None and self.model.row_of(current) is not None:
            self.view.go_to(self.model.index_of(current))
        self.show_filter_summary()

    def show_filter_summary(self) -> None:
        doc = self.model.doc
        total = doc.dataset.row_count() if doc else 0
        self.filter_bar.show_summary(self.model.rowCount(), total, self.model.filtered)

    def filter_to_conversation(self) -> None:
        """Data ▸ Show Only This Conversation: the filter bar keeps the current row's conversation."""
        rid = self.current_row_id()
        if rid is not None:
            self.filter_bar.set_session(self.model.doc.validator.sessions.session_of.get(rid))
