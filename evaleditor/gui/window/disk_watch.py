"""The open file changed on disk (Excel saved over it, a sync tool replaced it) while the window has it.

Checked when the window becomes active again (it gets the focus back from another program or window)
and before Save writes over the file. A change is a different (mtime, size) from what the window last
read or wrote (`documents.file_stamp`). The question (dialogs.ask_file_changed) has three answers:

- Reload: open the file again from disk; unsaved edits in the window are lost (the question says so).
- Keep Mine: the window's version wins. Neither the focus check nor Save asks again about that
  version of the file; Save overwrites it. A later change on disk asks again.
- Save As…: save the window's version under another name (both versions are kept).

Cancel (Escape) answers nothing: the focus check does not ask again about that version, but Save does.
A file that vanished is not asked about (Save writes it again).
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

from evaleditor.gui import dialogs


def file_stamp(path: Path | None) -> tuple[int, int] | None:
    try:
        st = os.stat(path) if path else None
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size) if st else None


class DiskWatch(QObject):
    """Handed the window it watches (its activation, `doc`, the table's open editor, the question's
    parent) and the window's Documents (what was read or written last; reload, Save As)."""

    def __init__(self, window, documents):
        super().__init__(window)
        self.window, self.documents = window, documents
        self.kept: tuple[int, int] | None = None  # Keep Mine: Save overwrites this version
        self.asked: tuple[int, int] | None = None  # the focus check asked about this version
        self._asking = False
        self._queued = False
        window.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if obj is self.window and event.type() == QEvent.Type.ActivationChange and not self._queued \
                and self.window.isActiveWindow():
            self._queued = True  # ask after the activation is handled, not inside it
            QTimer.singleShot(0, self._activated)
        return False

    def _activated(self) -> None:
        self._queued = False
        self.check()

    def changed_stamp(self) -> tuple[int, int] | None:
        """The file's (mtime, size) when it differs from what the window read or wrote, else None."""
        doc, read = self.window.doc, self.documents.file_stamp
        if doc is None or doc.path is None or read is None:
            return None
        now = file_stamp(doc.path)
        return now if now is not None and now != read else None

    def check(self) -> str | None:
        """The focus check: ask when the file changed and this version was not asked about yet."""
        if self._asking or self.documents.tasks.current is not None or QApplication.activeModalWidget() is not None:
            return None
        stamp = self.changed_stamp()
        if stamp is None or stamp in (self.kept, self.asked):
            return None
        answer = self._ask(stamp)
        if answer == dialogs.SAVE_AS:
            self.documents.save_as()
        return answer

    def before_save(self, wait: bool) -> bool | None:
        """Before Save writes over the file: None to go on writing, else the result of Save."""
        stamp = self.changed_stamp()
        if stamp is None or stamp == self.kept:
            return None
        answer = self._ask(stamp)
        if answer == dialogs.KEEP_MINE:
            return None
        if answer == dialogs.SAVE_AS:
            return self.documents.save_as(wait=wait)
        return False  # reloaded (nothing to save any more) or cancelled

    def _ask(self, stamp: tuple[int, int]) -> str:
        w = self.window
        w.view.commit_editor()  # text still in a cell is an edit Reload would drop: asked about as one
        self._asking = True
        try:
            answer = dialogs.ask_file_changed(w, str(w.doc.path), w.is_modified())
        finally:
            self._asking = False
        self.asked = stamp
        if answer == dialogs.KEEP_MINE:
            self.kept = stamp
        elif answer == dialogs.RELOAD:
            self.reload()
        return answer

    def reload(self) -> bool:
        """Open the file again from disk (same sheet, when the user had a choice of sheets and the file is
        still a workbook, and target), dropping the window's edits. A file of one sheet, or one that has
        become text (a workbook named .csv replaced by the CSV), is read as it is now: text has no sheet
        to ask for."""
        from evaleditor.io import has_sheets

        doc = self.window.doc
        sheet = doc.sheet if len(doc.sheets) > 1 and has_sheets(doc.path) else None
        return self.documents.open_file(doc.path, sheet=sheet, target=doc.dataset.target.name, discard=True)
