"""What every tool window (Help, the upload preview) does to close as a dialog would."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QDialogButtonBox, QWidget


def closing(window: QWidget) -> QDialogButtonBox:
    """Esc, the platform's Close keys and Ctrl+W close `window`; returns its Close button, for the caller
    to lay out (a window with no title bar to click, as under some window managers, still closes)."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(window.close)
    keys = [QKeySequence(Qt.Key.Key_Escape), *QKeySequence.keyBindings(QKeySequence.StandardKey.Close)]
    for sequence in dict.fromkeys(keys + [QKeySequence("Ctrl+W")]):  # each once: two would be ambiguous
        QShortcut(sequence, window, window.close)
    return buttons
