"""Every modal question the editor asks, in one place. Tests replace these functions
(monkeypatch `evaleditor.gui.dialogs.<name>`); the rest of the GUI calls them through this module.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget

translate = QCoreApplication.translate


def open_filter() -> str:
    return translate("Dialogs", "Datasets (*.xlsx *.xlsm *.xls *.csv *.tsv *.txt *.json);;Excel workbooks (*.xlsx "
                                "*.xlsm *.xls);;CSV / tab-separated (*.csv *.tsv *.txt);;SDK JSON (*.json);;All files (*)")


def save_filters() -> dict[str, str]:
    return {"xlsx": translate("Dialogs", "Excel workbook (*.xlsx)"), "csv": translate("Dialogs", "CSV, UTF-8 (*.csv)"),
            "json": translate("Dialogs", "SDK JSON (*.json)")}

SAVE, DISCARD, CANCEL = "save", "discard", "cancel"


def ask_save_changes(parent: QWidget | None, name: str) -> str:
    """SAVE, DISCARD or CANCEL for a document with unsaved changes."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(translate("Dialogs", "Unsaved changes"))
    box.setText(translate("Dialogs", "Save the changes to {name}?").format(name=name))
    box.setInformativeText(translate("Dialogs", "Your changes will be lost if you don't save them."))
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
    path, _ = QFileDialog.getOpenFileName(parent, translate("Dialogs", "Open dataset"), directory, open_filter())
    return path or None


def save_file_name(parent: QWidget | None, suggested: str, fmt: str = "xlsx") -> str | None:
    """A path ending in .xlsx, .csv or .json (the chosen filter's suffix is added when missing)."""
    named = save_filters()
    filters = [named[fmt]] + [f for k, f in named.items() if k != fmt]
    path, chosen = QFileDialog.getSaveFileName(parent, translate("Dialogs", "Save dataset as"), suggested,
                                               ";;".join(filters))
    if not path:
        return None
    suffix = next(k for k, f in named.items() if f == chosen) if chosen in named.values() else fmt
    if not path.lower().endswith((".xlsx", ".csv", ".json")):
        path += "." + suffix
    return path


def show_error(parent: QWidget | None, title: str, message: str) -> None:
    QMessageBox.critical(parent, title, message)


def confirm_replace(parent: QWidget | None, matches: int, cells: int) -> bool:
    what = (translate("Dialogs", "1 match") if matches == 1 else
            translate("Dialogs", "{n:,} matches").format(n=matches))
    where = translate("Dialogs", "1 cell") if cells == 1 else translate("Dialogs", "{n:,} cells").format(n=cells)
    return QMessageBox.question(
        parent, translate("Dialogs", "Replace all"),
        translate("Dialogs", "Replace {matches} in {cells}?\nThis is one step in Undo.").format(
            matches=what, cells=where)) == QMessageBox.StandardButton.Yes


def confirm_overwrite_changed(parent: QWidget | None, path: str) -> bool:
    """The file changed on disk since it was opened: overwrite it anyway?"""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(translate("Dialogs", "File changed on disk"))
    box.setText(translate("Dialogs", "{path} was changed by another program since you opened it.").format(path=path))
    box.setInformativeText(translate("Dialogs", "Saving will overwrite those changes. Save anyway?"))
    box.setStandardButtons(QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    return box.exec() == QMessageBox.StandardButton.Save


def ask_text(parent: QWidget | None, title: str, label: str, text: str = "") -> str | None:
    value, ok = QInputDialog.getText(parent, title, label, text=text)
    return value if ok else None


def choose_sheet(parent: QWidget | None, sheets: list[str], current: str | None) -> str | None:
    index = sheets.index(current) if current in sheets else 0
    value, ok = QInputDialog.getItem(parent, translate("Dialogs", "Choose a sheet"), translate("Dialogs", "Sheet:"),
                                     sheets, index, False)
    return value if ok else None


def choose_item(parent: QWidget | None, title: str, label: str, items: list[str]) -> str | None:
    value, ok = QInputDialog.getItem(parent, title, label, items, 0, False)
    return value if ok else None


def show_about(parent: QWidget | None) -> None:
    from evaleditor.gui import about

    about.show_about(parent)
