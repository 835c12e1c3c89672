"""Which of the window's actions are enabled. Save, Save As, Preview Upload and Close with a document,
Open Another Sheet with a workbook of several sheets, Reopen with Encoding with a text file, Undo and Redo as the undo stack allows; while a background task runs
(tasks.py) the table is read-only and only Quit, Copy and the Filter Bar toggle stay enabled (the banner
too is disabled), each coming back as it was. ActionStates is handed the window (whose actions it
finds), the table's model and view, the banner and the undo stack (MainWindow makes one:
`window.action_states`)."""

from __future__ import annotations

from PySide6.QtGui import QAction, QUndoStack

from evaleditor.gui.window.documents import ENCODED_FORMATS


class ActionStates:
    def __init__(self, window, model, view, banner, undo_stack: QUndoStack):
        self.window, self.model, self.view, self.banner, self.undo_stack = window, model, view, banner, undo_stack
        self.busy = False
        self._disabled: list[QAction] = []

    def update(self) -> None:
        if self.busy:
            return
        a, doc = self.window.actions, self.model.doc
        for act in (a.save, a.save_as, a.preview, a.close):
            act.setEnabled(doc is not None)
        a.sheet.setEnabled(bool(doc and len(doc.sheets) > 1))
        # a text file on disk: not a workbook, nor the .xlsx a GB18030 CSV was saved as
        a.encoding.menuAction().setEnabled(bool(doc and doc.path and doc.source_format in ENCODED_FORMATS))
        a.undo.setEnabled(self.undo_stack.canUndo())
        a.redo.setEnabled(self.undo_stack.canRedo())

    def set_busy(self, busy: bool) -> None:
        """A background task starts (True) or ended (False)."""
        self.busy = busy
        self.model.read_only = busy
        if busy:
            self.view.commit_editor()
            a = self.window.actions
            keep = {a.quit, a.copy, a.filter_bar}
            self._disabled = [act for act in self.window.findChildren(QAction) if act.isEnabled() and act not in keep]
            for act in self._disabled:
                act.setEnabled(False)
            self.banner.setEnabled(False)
        else:
            for act in self._disabled:
                act.setEnabled(True)
            self._disabled = []
            self.banner.setEnabled(True)
            self.update()
