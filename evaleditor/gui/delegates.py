"""Cell editors: one line for short text, a multi-line editor with a live character count against the
target's limit for long text, and an editor for `expected_tool_calls` that pretty-prints, shows parse
errors as you type and adds a call by name and arguments.

In the multi-line editors Enter finishes (and the view moves down), Shift+Enter or Alt+Enter starts a
new line, Tab finishes and moves right, Esc cancels.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QEvent, QObject, QRect, Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QStyledItemDelegate,
    QVBoxLayout,
    QWidget,
)

from evaleditor.core import toolcalls
from evaleditor.core.checks import EXCEL_MAX_CHARS
from evaleditor.core.targets import ANSWER, CONTEXT, QUESTION, TOOL_CALLS
from evaleditor.gui import theme

LONG_FIELDS = (QUESTION, ANSWER, CONTEXT)
Hint = QAbstractItemDelegate.EndEditHint


def _hint(text: str) -> QLabel:
    label = QLabel(text)
    label.setStyleSheet(f"color: {theme.scheme().muted};")
    return label


class _PopupEditor(QFrame):
    """A framed editor around a QPlainTextEdit that reports Enter / Tab / Esc instead of typing them."""

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

    # The view sends an input-method composition that started the edit to this frame: pass it on.
    def inputMethodEvent(self, event) -> None:
        QApplication.sendEvent(self.edit, event)

    def inputMethodQuery(self, query):
        return self.edit.inputMethodQuery(query)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if obj is self.edit and event.type() == QEvent.Type.KeyPress:
            key = event.key()
            mods = event.modifiers()
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if mods & (Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.AltModifier):
                    self.edit.insertPlainText("\n")
                    return True
                self.submitted.emit()
                return True
            if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
                self.tabbed.emit(key == Qt.Key.Key_Backtab)
                return True
            if key == Qt.Key.Key_Escape:
                self.cancelled.emit()
                return True
        return super().eventFilter(obj, event)

    def set_value(self, text: str, select_all: bool) -> None:
        self._original = text
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
        hint = _hint("Shift+Enter: new line \u00b7 Esc: cancel")
        bottom = QHBoxLayout()
        bottom.addWidget(hint)
        bottom.addStretch(1)
        bottom.addWidget(self.count)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(3, 3, 3, 3)
        layout.addWidget(self.edit, 1)
        layout.addLayout(bottom)
        self.edit.textChanged.connect(self._update_count)
        self._update_count()

    def _update_count(self) -> None:
        n = len(self.edit.toPlainText())
        if self.limit:
            over = n > self.limit
            self.count.setText(f"{n:,} / {self.limit:,} {self.limit_name}" + (" \u2014 too long" if over else ""))
            self.count.setStyleSheet("color: #d32f2f; font-weight: bold;" if over else "")
        else:
            self.count.setText(f"{n:,} characters")
            self.count.setStyleSheet("")


class ToolCallsEditor(_PopupEditor):
    """`expected_tool_calls`: pretty-printed JSON, its problem shown live, "add a call" fields."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.repair_button = QPushButton("Repair")
        self.repair_button.clicked.connect(self._repair)
        self.name = QLineEdit()
        self.name.setPlaceholderText("tool name")
        self.arguments = QLineEdit()
        self.arguments.setPlaceholderText('arguments, e.g. {"city": "Paris"}')
        self.add_button = QPushButton("Add call")
        self.add_button.clicked.connect(self._add_call)
        self.name.returnPressed.connect(self._add_call)
        self.arguments.returnPressed.connect(self._add_call)
        status_row = QHBoxLayout()
        status_row.addWidget(self.status, 1)
        status_row.addWidget(self.repair_button)
        add_row = QHBoxLayout()
        add_row.addWidget(self.name, 1)
        add_row.addWidget(self.arguments, 2)
        add_row.addWidget(self.add_button)
        add_row.addWidget(_hint("Enter: done \u00b7 Esc: cancel"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(3, 3, 3, 3)
        layout.addWidget(self.edit, 1)
        layout.addLayout(status_row)
        layout.addLayout(add_row)
        self.edit.textChanged.connect(self._check)

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
        problem = toolcalls.problem(text)
        if problem is None:
            n = len(toolcalls.parse(text) or [])
            self.status.setText(f"\u2714 {n} valid call{'s' if n != 1 else ''}" if text.strip() else "Empty: no tool calls")
            self.status.setStyleSheet("")
            self.repair_button.setEnabled(False)
        else:
            self.status.setText(f"\u2716 {problem}")
            self.status.setStyleSheet("color: #d32f2f;")
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
            self.status.setText("\u2716 Fix the JSON above before adding a call")
            return
        raw = self.arguments.text().strip() or "{}"
        try:
            args = json.loads(raw)
        except json.JSONDecodeError as exc:
            self.status.setText(f"\u2716 Arguments are not JSON: {exc.msg}")
            return
        if not isinstance(args, dict):
            self.status.setText("\u2716 Arguments must be a JSON object, like {\"city\": \"Paris\"}")
            return
        calls.append({"name": name, "arguments": args})
        self.edit.setPlainText(json.dumps(calls, ensure_ascii=False, indent=2))
        self.name.clear()
        self.arguments.clear()
        self.edit.setFocus()


class CellDelegate(QStyledItemDelegate):
    """Chooses the editor per cell; `select_all` is set by the view when typing started the edit."""

    def __init__(self, model, parent=None):
        super().__init__(parent)
        self.model = model
        self.select_all = False

    def _kind(self, index) -> str:
        ds = self.model.ds
        fld = ds.fields()[index.column()]
        if fld == TOOL_CALLS:
            return "tools"
        text = index.data(Qt.ItemDataRole.EditRole) or ""
        if fld in LONG_FIELDS or "\n" in text or len(text) > 80:
            return "long"
        return "line"

    def createEditor(self, parent, option, index):
        kind = self._kind(index)
        if kind == "line":
            return super().createEditor(parent, option, index)
        if kind == "tools":
            editor: _PopupEditor = ToolCallsEditor(parent)
        else:
            ds = self.model.ds
            fld = ds.fields()[index.column()]
            limit = ds.target.max_chars.get(fld) if fld else None
            name = f"({ds.target.name} {fld} limit)" if limit else ""
            if limit is None and self.model.validator.is_workbook():
                limit, name = EXCEL_MAX_CHARS, "(Excel cell limit)"
            editor = TextEditor(parent, limit, name)
        editor.submitted.connect(lambda e=editor: self._finish(e, Hint.SubmitModelCache))
        editor.tabbed.connect(lambda back, e=editor: self._finish(
            e, Hint.EditPreviousItem if back else Hint.EditNextItem))
        editor.cancelled.connect(lambda e=editor: self.closeEditor.emit(e, Hint.RevertModelCache))
        return editor

    def _finish(self, editor: QWidget, hint) -> None:
        self.commitData.emit(editor)
        self.closeEditor.emit(editor, hint)

    def setEditorData(self, editor, index):
        if isinstance(editor, _PopupEditor):
            editor.set_value(index.data(Qt.ItemDataRole.EditRole) or "", self.select_all)
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor, model, index):
        if isinstance(editor, _PopupEditor):
            model.setData(index, editor.value(), Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)

    def updateEditorGeometry(self, editor, option, index):
        if not isinstance(editor, _PopupEditor):
            super().updateEditorGeometry(editor, option, index)
            return
        area = editor.parentWidget().rect() if editor.parentWidget() else option.rect
        width = max(option.rect.width(), 560 if isinstance(editor, ToolCallsEditor) else 480)
        height = 280 if isinstance(editor, ToolCallsEditor) else 190
        rect = QRect(option.rect.left(), option.rect.top(), min(width, area.width()), min(height, area.height()))
        if rect.right() > area.right():
            rect.moveRight(area.right())
        if rect.bottom() > area.bottom():
            rect.moveBottom(area.bottom())
        rect.moveLeft(max(rect.left(), area.left()))
        rect.moveTop(max(rect.top(), area.top()))
        editor.setGeometry(rect)
