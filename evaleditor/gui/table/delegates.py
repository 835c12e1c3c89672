"""The cell delegate: one line for short text, the multi-line editor (with a live character count
against the target's limit) for long text and the question/answer/context fields, the tool-calls editor
for `expected_tool_calls` (editors.py).

In the multi-line editors Enter finishes (and the view moves down), Shift+Enter or Alt+Enter starts a
new line, Esc cancels, Ctrl+Tab finishes and moves right (Tab: editors.py). The editors' size follows the font.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QRect, Qt
from PySide6.QtWidgets import QAbstractItemDelegate, QStyledItemDelegate, QWidget

from evaleditor.core.checks import EXCEL_MAX_CHARS
from evaleditor.core.targets import ANSWER, CONTEXT, QUESTION, TOOL_CALLS
from evaleditor.gui.table.editors import (  # noqa: F401 - TextEditor and ToolCallsEditor are imported from here too
    TEXT_EDITOR_CHARS,
    TEXT_EDITOR_LINES,
    TOOLS_EDITOR_CHARS,
    TOOLS_EDITOR_LINES,
    TextEditor,
    ToolCallsEditor,
    _PopupEditor,
)

LONG_FIELDS = (QUESTION, ANSWER, CONTEXT)
Hint = QAbstractItemDelegate.EndEditHint
translate = QCoreApplication.translate


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
            name = translate("CellEditor", "({target} {field} limit)").format(target=ds.target.name, field=fld) \
                if limit else ""
            if limit is None and self.model.validator.is_workbook():
                limit, name = EXCEL_MAX_CHARS, translate("CellEditor", "(Excel cell limit)")
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
        fm = editor.fontMetrics()
        tools = isinstance(editor, ToolCallsEditor)
        width = max(option.rect.width(), fm.averageCharWidth() * (TOOLS_EDITOR_CHARS if tools else TEXT_EDITOR_CHARS))
        height = fm.lineSpacing() * (TOOLS_EDITOR_LINES if tools else TEXT_EDITOR_LINES) + 40
        least = editor.minimumSizeHint()  # its rows of fields and hints, never squeezed
        width, height = max(width, least.width()), max(height, least.height())
        rect = QRect(option.rect.left(), option.rect.top(), min(width, area.width()), min(height, area.height()))
        if rect.right() > area.right():
            rect.moveRight(area.right())
        if rect.bottom() > area.bottom():
            rect.moveBottom(area.bottom())
        rect.moveLeft(max(rect.left(), area.left()))
        rect.moveTop(max(rect.top(), area.top()))
        editor.setGeometry(rect)
