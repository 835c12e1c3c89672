"""Every modal question the editor asks, in one place. Tests replace these functions
(monkeypatch `evaleditor.gui.dialogs.<name>`); the rest of the GUI calls them through this module.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget

OPEN_FILTER = ("Datasets (*.xlsx *.xlsm *.xls *.csv *.tsv *.txt *.json);;Excel workbooks (*.xlsx *.xlsm *.xls);;"
               "CSV / tab-separated (*.csv *.tsv *.txt);;SDK JSON (*.json);;All files (*)")
SAVE_FILTERS = {"xlsx": "Excel workbook (*.xlsx)", "csv": "CSV, UTF-8 (*.csv)", "json": "SDK JSON (*.json)"}

SAVE, DISCARD, CANCEL = "save", "discard", "cancel"


def ask_save_changes(parent: QWidget | None, name: str) -> str:
    """SAVE, DISCARD or CANCEL for a document with unsaved changes."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("Unsaved changes")
    box.setText(f"Save the changes to {name}?")
    box.setInformativeText("Your changes will be lost if you don't save them.")
    box.setStandardButtons(QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                           | QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Save)
    answer = box.exec()
    if answer == QMessageBox.StandardButton.Save:
        return SAVE
    if answer == QMessageBox.StandardButton.Discard:
        return DISCARD
    return CANCEL


def open_file_name(parent: QWidget | None, directory: str = "") -> str | None:
    path, _ = QFileDialog.getOpenFileName(parent, "Open dataset", directory, OPEN_FILTER)
    return path or None


def save_file_name(parent: QWidget | None, suggested: str, fmt: str = "xlsx") -> str | None:
    """A path ending in .xlsx, .csv or .json (the chosen filter's suffix is added when missing)."""
    filters = [SAVE_FILTERS[fmt]] + [f for k, f in SAVE_FILTERS.items() if k != fmt]
    path, chosen = QFileDialog.getSaveFileName(parent, "Save dataset as", suggested, ";;".join(filters))
    if not path:
        return None
    suffix = next(k for k, f in SAVE_FILTERS.items() if f == chosen) if chosen in SAVE_FILTERS.values() else fmt
    if not path.lower().endswith((".xlsx", ".csv", ".json")):
        path += "." + suffix
    return path


def show_error(parent: QWidget | None, title: str, message: str) -> None:
    QMessageBox.critical(parent, title, message)


def confirm_replace(parent: QWidget | None, matches: int, cells: int) -> bool:
    return QMessageBox.question(
        parent, "Replace all",
        f"Replace {matches:,} match{'es' if matches != 1 else ''} in {cells:,} cell{'s' if cells != 1 else ''}?\n"
        "This is one step in Undo.") == QMessageBox.StandardButton.Yes


def confirm_overwrite_changed(parent: QWidget | None, path: str) -> bool:
    """The file changed on disk since it was opened: overwrite it anyway?"""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("File changed on disk")
    box.setText(f"{path} was changed by another program since you opened it.")
    box.setInformativeText("Saving will overwrite those changes. Save anyway?")
    box.setStandardButtons(QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    return box.exec() == QMessageBox.StandardButton.Save


def ask_text(parent: QWidget | None, title: str, label: str, text: str = "") -> str | None:
    value, ok = QInputDialog.getText(parent, title, label, text=text)
    return value if ok else None


def choose_sheet(parent: QWidget | None, sheets: list[str], current: str | None) -> str | None:
    index = sheets.index(current) if current in sheets else 0
    value, ok = QInputDialog.getItem(parent, "Choose a sheet", "Sheet:", sheets, index, False)
    return value if ok else None


def choose_item(parent: QWidget | None, title: str, label: str, items: list[str]) -> str | None:
    value, ok = QInputDialog.getItem(parent, title, label, items, 0, False)
    return value if ok else None


def show_about(parent: QWidget | None) -> None:
    from evaleditor.gui import about

    about.show_about(parent)
