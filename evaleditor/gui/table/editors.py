"""The popup cell editors: a multi-line editor with a live character count against the target's limit
for long text, and an editor for `expected_tool_calls` that pretty-prints, shows parse errors as you
type and adds a call by name and arguments (delegates.py chooses which).

In the multi-line editors Enter finishes (and the view moves down), Shift+Enter or Alt+Enter starts a
new line, Esc cancels, Ctrl+Tab / Ctrl+Shift+Tab finish and move right / left. Tab never carries the
typing out of the editor unseen: the tool-call editor's Tab moves between its own fields (the JSON, the
tool name, the arguments, its buttons); the text editor opened with F2 or a double click types a tab; the
text editor opened by typing over the cell (entering data, as in a spreadsheet) finishes and moves right. Counts are in characters (Python str length, so
a Chinese character counts one, as the targets count), and the editors' size follows the font.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QApplication,
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from evaleditor.core import toolcalls
from evaleditor.core.i18n import text as core_text
from evaleditor.core.rules import ERROR
from evaleditor.gui.window import theme

translate = QCoreApplication.translate
TEXT_EDITOR_CHARS, TEXT_EDITOR_LINES = 68, 9  # the multi-line editor's least size, in characters and lines
TOOLS_EDITOR_CHARS, TOOLS_EDITOR_LINES = 80, 14


def _error_css() -> str:
    return f"color: {theme.scheme().foreground[ERROR].color().name()}; font-weight: bold;"


def _hint(text: str) -> QLabel:
    label = QLabel(text)
    label.setStyleSheet(f"color: {theme.scheme().muted};")
    return label


class _PopupEditor(QFrame):
    """A framed editor around a QPlainTextEdit that reports Enter / Ctrl+Tab / Esc instead of typing them."""

    submitted = Signal()
    tabbed = Signal(bool)  # backwards
    cancelled = Signal()

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.edit = QPlainTextEdit(self)
        self.edit.setTabChangesFocus(False)
        self.edit.installEventFilter(self)
        self.setFocusProxy(self.edit)
        self.setAttribute(Qt.WidgetAttribute.WA_InputMethodEnabled, True)
        self._original = ""
        self.typed_over = False  # the edit began by typing over the cell (set_value's select_all)

    # The view sends an input-method composition that started the edit to this frame: pass it on.
    def inputMethodEvent(self, event) -> None:
        QApplication.sendEvent(self.edit, event)

    def inputMethodQuery(self, query):
        return self.edit.inputMethodQuery(query)

    def fields(self) -> list[QWidget]:
        """The editor's own widgets that Tab walks, in order."""
        return [self.edit]

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(obj, QWidget) and self.isAncestorOf(obj):
            key = event.key()
            mods = event.modifiers()
            if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
                back = key == Qt.Key.Key_Backtab or bool(mods & Qt.KeyboardModifier.ShiftModifier)
                if mods & Qt.KeyboardModifier.ControlModifier or (self.typed_over and obj is self.edit):
                    self.tabbed.emit(back)
                else:
                    self.tab_within(obj, back)
                return True
            if obj is not self.edit:
                return super().eventFilter(obj, event)
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if mods & (Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.AltModifier):
                    self.edit.insertPlainText("\n")
                    return True
                self.submitted.emit()
                return True
            if key == Qt.Key.Key_Escape:
                self.cancelled.emit()
                return True
        return super().eventFilter(obj, event)

    def tab_within(self, widget: QWidget, back: bool) -> None:
        """Tab inside the editor: to the next of its fields, or a tab typed when the text is the only one."""
        fields = [f for f in self.fields() if f.isEnabled() and f.isVisible()]
        if fields == [self.edit]:
            if not back:
                self.edit.insertPlainText("\t")
            return
        at = fields.index(widget) if widget in fields else 0
        fields[(at + (-1 if back else 1)) % len(fields)].setFocus(Qt.FocusReason.TabFocusReason)

    def set_value(self, text: str, select_all: bool) -> None:
        self._original = text
        self.typed_over = select_all
        self.edit.setPlainText(self.shown_text(text))
        if select_all:
            self.edit.selectAll()
        else:
            self.edit.moveCursor(self.edit.textCursor().MoveOperation.End)

    def shown_text(self, text: str) -> str:
        return text

    def value(self) -> str:
        """What to store: the original when nothing was changed (so line endings stay as they were)."""
        typed = self.edit.toPlainText()
        if typed == self.shown_text(self._original).replace("\r\n", "\n").replace("\r", "\n"):
            return self._original
        return typed


class TextEditor(_PopupEditor):
    """Multi-line text with a live count against the target's limit."""

    def __init__(self, parent: QWidget, limit: int | None, limit_name: str):
        super().__init__(parent)
        self.limit = limit
        self.limit_name = limit_name
        self.count = QLabel()
        self.count.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.edit.setAccessibleName(translate("CellEditor", "Cell text"))
        self.hint = _hint(translate("CellEditor", "Shift+Enter: new line \u00b7 Ctrl+Tab: next cell \u00b7 Esc: cancel"))
        self.bottom = bottom = QBoxLayout(QBoxLayout.Direction.LeftToRight)  # the count under the hint when narrow
        bottom.addWidget(self.hint)
        bottom.addStretch(1)
        bottom.addWidget(self.count)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(3, 3, 3, 3)
        layout.addWidget(self.edit, 1)
        layout.addLayout(bottom)
        self.edit.textChanged.connect(self._update_count)
        self._update_count()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit_bottom()

    def _fit_bottom(self) -> None:
        """The hint and the count side by side when both fit whole, else one above the other: a count
        grown as one types ("23 / 32,767 (Excel cell limit)") cut the hint to "Esc: cance"."""
        margins = self.layout().contentsMargins() if self.layout() is not None else None
        room = self.width() - (margins.left() + margins.right() if margins is not None else 0)
        need = self.hint.sizeHint().width() + self.bottom.spacing() + self.count.sizeHint().width()
        self.bottom.setDirection(QBoxLayout.Direction.LeftToRight if need <= room else QBoxLayout.Direction.TopToBottom)

    def _update_count(self) -> None:
        n = len(self.edit.toPlainText())  # characters, not bytes: 中 counts one
        if self.limit:
            over = n > self.limit
            text = f"{n:,} / {self.limit:,} {self.limit_name}"
            if over:
                text += " \u2014 " + translate("CellEditor", "too long")
            self.count.setText(text)
            self.count.setStyleSheet(_error_css() if over else "")
        else:
            self.count.setText(translate("CellEditor", "{n:,} characters").format(n=n))
            self.count.setStyleSheet("")
        self.count.setAccessibleName(self.count.text())
        self._fit_bottom()


class ToolCallsEditor(_PopupEditor):
    """`expected_tool_calls`: pretty-printed JSON, its problem shown live, "add a call" fields."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.edit.setAccessibleName(translate("CellEditor", "Expected tool calls (JSON)"))
        self.repair_button = QPushButton(translate("CellEditor", "Repair"))
        self.repair_button.clicked.connect(self._repair)
        self.name = QLineEdit()
        self.name.setPlaceholderText(translate("CellEditor", "tool name"))
        self.name.setAccessibleName(translate("CellEditor", "Tool name"))
        self.arguments = QLineEdit()
        self.arguments.setPlaceholderText(translate("CellEditor", 'arguments, e.g. {"city": "Paris"}'))
        self.arguments.setAccessibleName(translate("CellEditor", "Arguments (a JSON object)"))
        self.add_button = QPushButton(translate("CellEditor", "Add call"))
        self.add_button.clicked.connect(self._add_call)
        status_row = QHBoxLayout()
        status_row.addWidget(self.status, 1)
        status_row.addWidget(self.repair_button)
        add_row = QHBoxLayout()
        add_row.addWidget(self.name, 1)
        add_row.addWidget(self.arguments, 2)
        add_row.addWidget(self.add_button)
        for field in (self.name, self.arguments):  # the placeholder says what the field is for: never cut it
            field.setMinimumWidth(field.fontMetrics().horizontalAdvance(field.placeholderText()) + 16)
        hint = _hint(translate("CellEditor", "Enter: done \u00b7 Ctrl+Tab: next cell \u00b7 Esc: cancel"))
        hint.setAlignment(Qt.AlignmentFlag.AlignRight)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(3, 3, 3, 3)
        layout.addWidget(self.edit, 1)
        layout.addLayout(status_row)
        layout.addLayout(add_row)
        layout.addWidget(hint)
        self.edit.textChanged.connect(self._check)
        for widget in (self.name, self.arguments, self.add_button, self.repair_button):
            widget.installEventFilter(self)

    def fields(self) -> list[QWidget]:
        return [self.edit, self.name, self.arguments, self.add_button, self.repair_button]

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        """Enter in the tool name or arguments adds the call (and does not finish the edit)."""
        if event.type() == QEvent.Type.KeyPress and obj in (self.name, self.arguments) \
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self._add_call()
            return True
        return super().eventFilter(obj, event)

    def shown_text(self, text: str) -> str:
        calls = toolcalls.parse(text)
        return json.dumps(calls, ensure_ascii=False, indent=2) if calls else text

    def value(self) -> str:
        """Valid calls are stored as compact JSON; anything else exactly as typed."""
        value = super().value()
        if value is self._original or value == self._original:
            return self._original
        calls = toolcalls.parse(value)
        return toolcalls.dumps(calls) if calls else value

    def _check(self) -> None:
        text = self.edit.toPlainText()
        problem = toolcalls.problem_msg(text)
        if problem is None:
            n = len(toolcalls.parse(text) or [])
            if not text.strip():
                self.status.setText(translate("CellEditor", "Empty: no tool calls"))
            elif n == 1:
                self.status.setText("\u2714 " + translate("CellEditor", "1 valid call"))
            else:
                self.status.setText("\u2714 " + translate("CellEditor", "{n} valid calls").format(n=n))
            self.status.setStyleSheet("")
            self.repair_button.setEnabled(False)
        else:
            self.status.setText("\u2716 " + translate("CellEditor", "Error: {problem}").format(problem=core_text(problem)))
            self.status.setStyleSheet(_error_css())
            self.repair_button.setEnabled(toolcalls.repair(text) is not None)

    def _repair(self) -> None:
        fixed = toolcalls.repair(self.edit.toPlainText())
        if fixed is not None:
            self.edit.setPlainText(self.shown_text(fixed))

    def _add_call(self) -> None:
        name = self.name.text().strip()
        if not name:
            self.name.setFocus()
            return
        calls = toolcalls.parse(self.edit.toPlainText())
        if calls is None:
            self.status.setText("\u2716 " + translate("CellEditor", "Fix the JSON above before adding a call"))
            return
        raw = self.arguments.text().strip() or "{}"
        try:
            args = json.loads(raw)
        except json.JSONDecodeError as exc:
            self.status.setText("\u2716 " + translate("CellEditor", "Arguments are not JSON: {error}").format(error=exc.msg))
            return
        if not isinstance(args, dict):
            self.status.setText("\u2716 " + translate("CellEditor", 'Arguments must be a JSON object, like '
                                                                   '{"city": "Paris"}'))
            return
        calls.append({"name": name, "arguments": args})
        self.edit.setPlainText(json.dumps(calls, ensure_ascii=False, indent=2))
        self.name.clear()
        self.arguments.clear()
        self.edit.setFocus()
