"""The filter bar: rows containing a text, rows of one session, rows with errors / warnings.
The filtering itself is core/search.filter_rows; the model maps the visible row ids."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from evaleditor.core.search import RowFilter
from evaleditor.gui.window import theme

translate = QCoreApplication.translate


def all_sessions() -> str:
    """The session choice meaning "no session filter", in the current language."""
    return translate("FilterBar", "All conversations")


class SessionCombo(QComboBox):
    """Editable; filled with the session ids only when opened (a file may have thousands)."""

    aboutToShow = Signal()

    def showPopup(self) -> None:
        self.aboutToShow.emit()
        super().showPopup()


class FilterBar(QWidget):
    filterChanged = Signal(object)  # RowFilter

    def __init__(self, parent=None):
        super().__init__(parent)
        self.sessions_source = lambda: []  # set by the window: the current session ids
        self.text = QLineEdit()
        self.text.setClearButtonEnabled(True)
        self.session = SessionCombo()
        self.session.setEditable(True)
        self.session.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.session.addItem(all_sessions())
        self.session.setMinimumContentsLength(16)
        self.session.aboutToShow.connect(self._fill_sessions)
        self.errors = QToolButton(checkable=True)
        self.errors.setIcon(theme.severity_icon("error"))
        self.warnings = QToolButton(checkable=True)
        self.warnings.setIcon(theme.severity_icon("warning"))
        for b in (self.errors, self.warnings):
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            b.toggled.connect(self._changed_now)
        self.clear_button = QToolButton()
        self.clear_button.clicked.connect(self.clear)
        self.summary = QLabel()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        layout.addWidget(self.text, 2)
        self.session_label = QLabel()
        self.session_label.setBuddy(self.session)
        layout.addWidget(self.session_label)
        layout.addWidget(self.session, 1)
        layout.addWidget(self.errors)
        layout.addWidget(self.warnings)
        layout.addWidget(self.clear_button)
        layout.addWidget(self.summary)
        self._timer = QTimer(self, singleShot=True, interval=250, timeout=self._changed_now)
        self.text.textChanged.connect(self._timer.start)
        self.session.currentTextChanged.connect(self._timer.start)
        self._summary = (0, 0, False)
        self.retranslate()

    def retranslate(self) -> None:
        old_all = self.session.itemText(0)
        self.text.setPlaceholderText(translate("FilterBar", "Filter rows containing\u2026"))
        self.text.setAccessibleName(translate("FilterBar", "Filter text"))
        self.session_label.setText(translate("FilterBar", "C&onversation:"))
        self.session.setAccessibleName(translate("FilterBar", "Conversation filter"))
        self.errors.setText(translate("FilterBar", "Has errors"))
        self.warnings.setText(translate("FilterBar", "Has warnings"))
        self.clear_button.setText(translate("FilterBar", "Clear"))
        self.clear_button.setAccessibleName(translate("FilterBar", "Clear the filter"))
        self.setAccessibleName(translate("FilterBar", "Filter bar"))
        self.setAccessibleDescription(translate("FilterBar", "Show only the rows containing a text, of one "
                                                             "conversation, or with errors or warnings"))
        self.session.blockSignals(True)
        self.session.setItemText(0, all_sessions())
        if self.session.currentText() == old_all:
            self.session.setEditText(all_sessions())
        self.session.blockSignals(False)
        self.show_summary(*self._summary)

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def current(self) -> RowFilter:
        sid = self.session.currentText()
        return RowFilter(self.text.text(), None if sid in ("", all_sessions()) else sid,
                         self.errors.isChecked(), self.warnings.isChecked())

    def set_session(self, sid: str | None) -> None:
        self.session.setEditText(sid or all_sessions())
        self._changed_now()

    def clear(self) -> None:
        for w in (self.text, self.session, self.errors, self.warnings):
            w.blockSignals(True)
        self.text.clear()
        self.session.setEditText(all_sessions())
        self.errors.setChecked(False)
        self.warnings.setChecked(False)
        for w in (self.text, self.session, self.errors, self.warnings):
            w.blockSignals(False)
        self._changed_now()

    def show_summary(self, shown: int, total: int, active: bool) -> None:
        self._summary = (shown, total, active)
        self.summary.setText(translate("FilterBar", "Showing {shown:,} of {total:,} rows").format(
            shown=shown, total=total) if active else "")

    def _fill_sessions(self) -> None:
        text = self.session.currentText()
        self.session.blockSignals(True)
        self.session.clear()
        self.session.addItem(all_sessions())
        self.session.addItems(sorted(self.sessions_source()))
        self.session.setEditText(text)
        self.session.blockSignals(False)

    def _changed_now(self) -> None:
        self._timer.stop()
        self.filterChanged.emit(self.current())
