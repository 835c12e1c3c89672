"""The editor window (PySide6). `from evaleditor.gui import MainWindow`."""

from evaleditor.gui.window.main_window import MainWindow

__all__ = ["MainWindow"]
