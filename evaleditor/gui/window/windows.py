"""The process's windows, as a spreadsheet user expects them: File ▸ New (Ctrl+N) and several dropped
files each get a window of their own; Close (Ctrl+W) closes the document and leaves the last window
open and empty (as Excel does); a file Finder hands to the running app (macOS QFileOpenEvent) opens in
the window that holds nothing, else in a new one.

Windows are kept alive here (they have no parent) until they are closed."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtWidgets import QApplication, QWidget

_OPEN: list[QWidget] = []  # every MainWindow this process made and has not closed
_CASCADE = QPoint(28, 28)  # a new window's offset from the one it was opened from


def track(window: QWidget) -> None:
    """Keep `window` alive until it is destroyed (a MainWindow deletes itself when closed)."""
    if window not in _OPEN:
        _OPEN.append(window)
        window.destroyed.connect(lambda *_: _forget(window))


def _forget(window: QWidget) -> None:
    if window in _OPEN:
        _OPEN.remove(window)


def tracked() -> list[QWidget]:
    """The windows `track` keeps alive, in the order they were made."""
    return list(_OPEN)


def open_windows() -> list[QWidget]:
    """The windows still shown, in the order they were made."""
    from evaleditor.gui.window.main_window import MainWindow

    return [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]


def new_window(path=None, near: QWidget | None = None):
    """A new window, shown (cascaded from `near`), holding `path` when given."""
    from evaleditor.gui.window.main_window import MainWindow

    window = MainWindow()
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    track(window)
    if near is not None:
        window.resize(near.size())
        window.move(near.pos() + _CASCADE)
    window.show()
    if path is not None:
        window.documents.open_file(path)
    return window


def raise_tool(window, name: str, make) -> QWidget:
    """The tool window `window.<name>` (Upload Preview, Help), made by `make(window)` the first time,
    shown in front and active."""
    tool = getattr(window, name, None)
    if tool is None:
        tool = make(window)
        setattr(window, name, tool)
    tool.show()
    tool.raise_()
    tool.activateWindow()
    return tool


def is_blank(window) -> bool:
    """A window a new file may replace: no document, nothing running."""
    return window.doc is None and window.tasks.current is None


def local_files(event) -> list[str]:
    """The local files a drag carries (nothing else is taken)."""
    return [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]


def open_paths(paths: list[str], window=None) -> None:
    """Open every one of `paths`: the first in `window` when it holds nothing (or, being its only
    file, as a drop onto it replaces its document today), each other one in a window of its own."""
    rest = list(paths)
    if window is not None and rest and (is_blank(window) or len(rest) == 1):
        window.documents.open_file(rest.pop(0))
    for path in rest:
        new_window(path, window)


class FileOpenFilter(QObject):
    """macOS: Finder's "Open With" (and a file dropped on the Dock icon) reaches the running app as a
    QFileOpenEvent on the application; open it in the active window if it is blank, else a new one."""

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.FileOpen and event.file():
            active = QApplication.activeWindow()
            target = active if active in open_windows() and is_blank(active) else None
            if target is None:
                target = next((w for w in open_windows() if is_blank(w)), None)
            if target is not None:
                target.documents.open_file(event.file())
            else:
                new_window(event.file())
            return True
        return super().eventFilter(obj, event)




def new_document(window) -> None:
    """File ▸ New (Ctrl+N): an empty document from the template of the target the window checks
    against (the last one chosen when it holds nothing), in this window when it is blank, else in a
    new one, as a spreadsheet opens a new workbook beside the one being edited."""
    from evaleditor.gui.window import settings

    target = window.doc.dataset.target.name if window.doc is not None else settings.last_target()
    if not is_blank(window):
        window = new_window(near=window)
    window.documents.new_from_template(target)


def close_document(window) -> bool:
    """File ▸ Close (Ctrl+W): close the document, asking about its changes first. The window closes
    too when another one is open; the last one stays, empty, so the app is not gone by accident."""
    if window.tasks.current is not None or not window.documents.maybe_save():
        return False
    window.recovery.discard()
    window.set_document(None)
    if any(w is not window for w in open_windows()):
        window.close()
    return True
