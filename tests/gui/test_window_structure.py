"""The window's parts are objects handed what they touch, not mixins: a reader finds where a method
lives (window.documents, window.tasks, window.navigation …), and MainWindow inherits Qt's window alone."""

import ast
from pathlib import Path

from PySide6.QtWidgets import QMainWindow

from evaleditor.gui import MainWindow

WINDOW = Path(__file__).resolve().parents[2] / "evaleditor" / "gui" / "window"


def test_main_window_inherits_qts_window_alone():
    assert MainWindow.__bases__ == (QMainWindow,)


def test_no_class_of_the_window_package_is_a_mixin():
    found = [f"{path.name}: {node.name}" for path in WINDOW.glob("*.py")
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.ClassDef) and node.name.endswith("Mixin")]
    assert not found
