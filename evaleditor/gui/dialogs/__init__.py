"""Every modal question the editor asks, in one place. Tests replace these functions
(monkeypatch `evaleditor.gui.dialogs.<name>`); the rest of the GUI calls them through this module.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

translate = QCoreApplication.translate


def open_filter() -> str:
    return translate("Dialogs", "Datasets (*.xlsx *.xlsm *.xls *.ods *.csv *.tsv *.txt *.json *.jsonl);;Spreadsheets "
                                "(*.xlsx *.xlsm *.xls *.ods);;CSV / tab-separated (*.csv *.tsv *.txt);;SDK JSON (*.json);;"
                                "JSON Lines (*.jsonl);;All files (*)")


def save_filters() -> dict[str, str]:
    return {"xlsx": translate("Dialogs", "Excel workbook (*.xlsx)"), "csv": translate("Dialogs", "CSV, UTF-8 (*.csv)"),
            "json": translate("Dialogs", "SDK JSON (*.json)"), "jsonl": translate("Dialogs", "JSON Lines (*.jsonl)")}

SAVE, DISCARD, CANCEL = "save", "discard", "cancel"
SORT_SESSIONS, SORT_ANYWAY = "sort-sessions", "sort-anyway"


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
    """A path ending in .xlsx, .csv, .json or .jsonl (the chosen filter's suffix is added when missing)."""
    named = save_filters()
    filters = [named[fmt]] + [f for k, f in named.items() if k != fmt]
    path, chosen = QFileDialog.getSaveFileName(parent, translate("Dialogs", "Save dataset as"), suggested,
                                               ";;".join(filters))
    if not path:
        return None
    suffix = next(k for k, f in named.items() if f == chosen) if chosen in named.values() else fmt
    if not path.lower().endswith((".xlsx", ".csv", ".json", ".jsonl")):
        path += "." + suffix
    return path


def show_error(parent: QWidget | None, title: str, message: str) -> None:
    QMessageBox.critical(parent, title, message)


def confirm_replace(parent: QWidget | None, matches: int, cells: int, hidden: int | None = None) -> bool:
    """Replace all? `hidden`: with a row filter, the matches in the rows it hides (left as they are);
    None without a filter."""
    what = (translate("Dialogs", "1 match") if matches == 1 else
            translate("Dialogs", "{n:,} matches").format(n=matches))
    where = translate("Dialogs", "1 cell") if cells == 1 else translate("Dialogs", "{n:,} cells").format(n=cells)
    if hidden is None:
        text = translate("Dialogs", "Replace {matches} in {cells}?\nThis is one step in Undo.").format(
            matches=what, cells=where)
    else:
        if hidden == 0:
            left = translate("Dialogs", "The rows hidden by the filter have no matches.")
        elif hidden == 1:
            left = translate("Dialogs", "1 match in the rows hidden by the filter is left as it is.")
        else:
            left = translate("Dialogs", "{n:,} matches in the rows hidden by the filter are left as they are.").format(
                n=hidden)
        text = translate("Dialogs", "Replace {matches} in {cells} in the filtered rows?\n{left}\n"
                                    "This is one step in Undo.").format(matches=what, cells=where, left=left)
    return QMessageBox.question(parent, translate("Dialogs", "Replace all"), text) == QMessageBox.StandardButton.Yes


RELOAD, KEEP_MINE, SAVE_AS = "reload", "keep", "save_as"


def ask_file_changed(parent: QWidget | None, path: str, modified: bool) -> str:
    """The file changed on disk since the window read or saved it: RELOAD, KEEP_MINE, SAVE_AS or CANCEL."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(translate("Dialogs", "File changed on disk"))
    box.setText(translate("Dialogs", "\u201c{name}\u201d was changed by another program.").format(name=Path(path).name))
    if modified:
        info = translate("Dialogs", "<b>Reload</b> shows the version on disk; your unsaved changes in this window are "
                                    "lost.<br><b>Keep Mine</b> goes on with your version; saving replaces the file on "
                                    "disk.<br><b>Save As\u2026</b> saves your version under another name, so both are "
                                    "kept.")
    else:
        info = translate("Dialogs", "You have no unsaved changes here.<br><b>Reload</b> shows the version on disk.<br>"
                                    "<b>Keep Mine</b> goes on with the version shown here; saving replaces the file on "
                                    "disk.<br><b>Save As\u2026</b> saves the version shown here under another name, so "
                                    "both are kept.")
    box.setInformativeText(f"<p>{html.escape(path)}</p><p>{info}</p>")
    reload = box.addButton(translate("Dialogs", "&Reload"), QMessageBox.ButtonRole.DestructiveRole
                           if modified else QMessageBox.ButtonRole.AcceptRole)
    keep = box.addButton(translate("Dialogs", "&Keep Mine"), QMessageBox.ButtonRole.AcceptRole)
    save_as = box.addButton(translate("Dialogs", "Save &As\u2026"), QMessageBox.ButtonRole.ActionRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(save_as if modified else reload)  # Enter never overwrites the other program's change
    box.exec()
    return {reload: RELOAD, keep: KEEP_MINE, save_as: SAVE_AS}.get(box.clickedButton(), CANCEL)


def ask_sort_scrambles(parent: QWidget | None, column: str, sessions: list[str]) -> str:
    """Sorting by `column` would put the turns of these conversations out of order: SORT_SESSIONS (sort
    by session and turn instead, the default), SORT_ANYWAY or CANCEL."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(translate("Dialogs", "Sort would scramble conversations"))
    if len(sessions) == 1:
        text = translate("Dialogs", "Sorting by \u201c{column}\u201d puts the turns of conversation {example} out of "
                                    "order.").format(column=column, example=sessions[0])
    else:
        text = translate("Dialogs", "Sorting by \u201c{column}\u201d puts the turns of {n} conversations out of "
                                    "order (for example {example}).").format(column=column, n=f"{len(sessions):,}",
                                                                            example=sessions[0])
    box.setText(text)
    box.setInformativeText(translate("Dialogs", "The service replays each conversation in turn order, or in file order "
                                                "without a turn column. Sort by Session and Turn keeps every "
                                                "conversation whole and in order."))
    by_sessions = box.addButton(translate("Dialogs", "Sort by &Session and Turn"), QMessageBox.ButtonRole.AcceptRole)
    anyway = box.addButton(translate("Dialogs", "Sort &Anyway"), QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(by_sessions)
    box.exec()
    return {by_sessions: SORT_SESSIONS, anyway: SORT_ANYWAY}.get(box.clickedButton(), CANCEL)


def ask_save_leaving_out(parent: QWidget | None, name: str, fmt: str, lines: list[str], in_place: bool,
                         other_sheets: bool = False) -> str:
    """A save that leaves out what the document holds: SAVE, SAVE_AS (only offered, and the default,
    when the save replaces the file the document came from) or CANCEL. `other_sheets`: what goes is
    the other sheets of the workbook being replaced (a workbook holds sheets; this save writes one)."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(translate("Dialogs", "Not everything can be saved"))
    if other_sheets:
        box.setText(translate("Dialogs", "This save keeps only the open sheet: the workbook's other sheets are not "
                                         "written."))
    else:
        box.setText(translate("Dialogs", "A .{format} file cannot hold everything that is open here.").format(format=fmt))
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    if in_place:
        info = translate("Dialogs", "Saving replaces \u201c{name}\u201d, and this is lost from it. <b>Save As\u2026</b> "
                                    "writes a new file, which leaves this out too, and keeps this one whole."
                         ).format(name=html.escape(name))
    else:
        info = translate("Dialogs", "The new file leaves this out; the file it came from is not changed, and this "
                                    "window keeps it until it is closed.")
    left_out = translate("Dialogs", "Left out:")
    box.setInformativeText(f"<p>{left_out}</p><ul>{items}</ul><p>{info}</p>")
    save_as = box.addButton(translate("Dialogs", "Save &As\u2026"), QMessageBox.ButtonRole.AcceptRole) if in_place else None
    save = box.addButton(translate("Dialogs", "&Save Anyway") if in_place else translate("Dialogs", "&Save"),
                         QMessageBox.ButtonRole.DestructiveRole if in_place else QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(save_as or save)
    box.exec()
    return {save: SAVE, save_as: SAVE_AS}.get(box.clickedButton(), CANCEL)


def ask_replace_read_only(parent: QWidget | None, name: str) -> bool:
    """Whether to replace the read-only file `name` (as editors ask: Cancel is the default)."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(translate("Dialogs", "Read-only file"))
    box.setText(translate("Dialogs", "{name} is read-only.").format(name=name))
    box.setInformativeText(translate("Dialogs", "Replace it anyway? The new file stays read-only."))
    replace = box.addButton(translate("Dialogs", "&Replace"), QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is replace


def ask_csv_formulas(parent: QWidget | None, n: int) -> bool | None:
    """Cells that Excel would run as formulas, in a CSV being saved: False to write them as they are (the
    default: every cell reads back as typed), True to prefix them with ' (the cells change, here and in
    the file), None to cancel the save."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(translate("Dialogs", "Cells that Excel runs as formulas"))
    box.setText(translate("Dialogs", "1 cell starts with =, +, - or @.") if n == 1 else
                translate("Dialogs", "{n:,} cells start with =, +, - or @.").format(n=n))
    box.setInformativeText(translate(
        "Dialogs", "When Excel opens a CSV file it runs such cells as formulas, which can be harmful if the data came "
                   "from elsewhere.\n\nWrite As Is keeps every cell exactly as it is here.\nAdd an apostrophe "
                   "makes Excel show them as text, but changes the cells: they start with ' in this window and in "
                   "the file, and read back that way (Undo removes it here)."))
    as_is = box.addButton(translate("Dialogs", "Write As &Is"), QMessageBox.ButtonRole.AcceptRole)
    safe = box.addButton(translate("Dialogs", "Add an &Apostrophe (cells read back with ')"),
                         QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(as_is)
    box.exec()
    return {safe: True, as_is: False}.get(box.clickedButton())


def ask_csv_encoding(parent: QWidget | None, name: str, encoding: str, char: str) -> bool:
    """Save keeps a CSV's encoding, but `encoding` cannot hold `char`: True to write this file as UTF-8
    (with a BOM; its delimiter and line ends kept), False to cancel the save."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(translate("Dialogs", "Save in another encoding?"))
    box.setText(translate("Dialogs", "{name} is written in {encoding}, which cannot hold \u201c{char}\u201d.").format(
        name=name, encoding=encoding.upper(), char=char))
    box.setInformativeText(translate(
        "Dialogs", "Save As UTF-8 writes it as UTF-8 with a BOM, which every character fits and Excel opens; "
                   "its delimiter and line ends stay as they are."))
    utf8 = box.addButton(translate("Dialogs", "Save As &UTF-8"), QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(utf8)
    box.exec()
    return box.clickedButton() is utf8


VERIFY_SHOWN = 20


def _value(text: str) -> str:
    if not text:
        return translate("Dialogs", "(nothing)")
    text = text.replace("\r\n", "\n").replace("\n", "\u23ce")
    return "\u201c" + (text[:60] + "\u2026" if len(text) > 60 else text) + "\u201d"


def mismatch_line(m) -> str:
    """One core.errors.Mismatch: `row 12, column answer: expected “a”, found “b”`."""
    if m.row is None and m.column is None:
        place = translate("Dialogs", "the file")
    elif m.row is None:
        place = translate("Dialogs", "header \u201c{column}\u201d").format(column=m.column)
    elif m.column is None:
        place = translate("Dialogs", "row {row}").format(row=m.row)
    else:
        place = translate("Dialogs", "row {row}, column {column}").format(row=m.row, column=m.column)
    return translate("Dialogs", "{place}: expected {expected}, found {found}").format(
        place=place, expected=_value(m.expected), found=_value(m.found))


def show_verify_error(parent: QWidget | None, path: str, mismatches: list) -> None:
    """A save whose file did not read back as written: the old file was kept; list the differences."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Critical)
    box.setWindowTitle(translate("Dialogs", "Cannot save"))
    box.setText(translate("Dialogs", "The file was not saved: it did not read back as written."))
    n = len(mismatches)
    lines = [mismatch_line(m) for m in mismatches[:VERIFY_SHOWN]]
    if n > VERIFY_SHOWN:
        lines.append(translate("Dialogs", "\u2026 and {n:,} more").format(n=n - VERIFY_SHOWN))
    head = translate("Dialogs", "{path} is unchanged, and your changes are still here, unsaved.").format(path=path)
    what = translate("Dialogs", "1 cell differs:") if n == 1 else \
        translate("Dialogs", "{n:,} cells differ:").format(n=n)
    box.setInformativeText("\n".join([head, "", what, *lines]))
    box.exec()


def ask_restore(parent: QWidget | None, entries: list) -> list | None:
    """Journals of unsaved work found at start-up (gui/window/restoring.Entry: name, folder, rows, saved_at):
    the entries to restore ([] discards them all), or None to decide at the next start."""
    from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

    dialog = QDialog(parent)
    dialog.setWindowTitle(translate("Dialogs", "Restore unsaved changes"))
    layout = QVBoxLayout(dialog)
    label = QLabel(translate("Dialogs", "<b>evaleditor did not close normally</b>, and these files had unsaved "
                                        "changes. Restore them?"))
    label.setWordWrap(True)
    layout.addWidget(label)
    items = QTreeWidget()
    items.setRootIsDecorated(False)
    items.setAccessibleName(translate("Dialogs", "Unsaved changes found"))
    items.setHeaderLabels([translate("Dialogs", "File"), translate("Dialogs", "Folder"), translate("Dialogs", "Rows"),
                           translate("Dialogs", "Last change")])
    for entry in entries:
        when = entry.saved_at.astimezone().strftime("%Y-%m-%d %H:%M") if entry.saved_at else ""
        item = QTreeWidgetItem(items, [entry.name, entry.folder, f"{entry.rows:,}", when])
        item.setCheckState(0, Qt.CheckState.Checked)
        item.setToolTip(1, entry.folder)
        item.setTextAlignment(2, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    for column in range(4):
        items.resizeColumnToContents(column)
    rows_height = items.sizeHintForRow(0) * min(max(len(entries), 3), 8) if entries else 0
    items.setFixedHeight(rows_height + items.header().sizeHint().height() + 2 * items.frameWidth() + 4)
    layout.addWidget(items)
    note = QLabel(translate("Dialogs", "Restored files open with their changes unsaved: save them to keep the changes. "
                                       "Files you untick are discarded."))
    note.setWordWrap(True)
    layout.addWidget(note)
    buttons = QDialogButtonBox()
    buttons.addButton(translate("Dialogs", "&Restore"), QDialogButtonBox.ButtonRole.AcceptRole)
    discard = buttons.addButton(translate("Dialogs", "&Discard All"), QDialogButtonBox.ButtonRole.DestructiveRole)
    buttons.accepted.connect(dialog.accept)
    discard.clicked.connect(lambda: dialog.done(2))
    layout.addWidget(buttons)
    dialog.resize(max(640, items.header().length() + 40), dialog.sizeHint().height())
    result = dialog.exec()
    if result == 2:
        return []
    if result != 1:  # closed (Escape): ask again at the next start
        return None
    return [e for i, e in enumerate(entries) if items.topLevelItem(i).checkState(0) == Qt.CheckState.Checked]


class HeaderDialog(QDialog):
    """Asks for a column header. OK stays disabled while the text is empty or only spaces (a one-line
    reason says why); a header equal to one in `taken` (ignoring case and surrounding spaces) is
    allowed, with a one-line warning."""

    def __init__(self, parent: QWidget | None, title: str, label: str, text: str = "", taken: Sequence[str] = ()):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.taken = {t.strip().casefold() for t in taken}
        layout = QVBoxLayout(self)
        prompt = QLabel(label)
        prompt.setTextFormat(Qt.TextFormat.PlainText)
        prompt.setWordWrap(True)
        layout.addWidget(prompt)
        self.edit = QLineEdit(text)
        self.edit.selectAll()
        prompt.setBuddy(self.edit)
        layout.addWidget(self.edit)
        self.message = QLabel()
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)
        self.message.setMinimumHeight(2 * self.message.fontMetrics().lineSpacing())  # room for either note
        layout.addWidget(self.message)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.edit.textChanged.connect(self._check)
        self._check(text)
        self.resize(max(420, self.sizeHint().width()), self.sizeHint().height())

    def _check(self, text: str) -> None:
        if not text.strip():
            note = translate("Dialogs", "A header cannot be empty or only spaces.")
        elif text.strip().casefold() in self.taken:
            note = "\u26a0 " + translate("Dialogs", "Another column is already headed \u201c{header}\u201d: the file "
                                                    "will have two columns with that header.").format(
                header=_value(text.strip())[1:-1])
        else:
            note = ""
        self.ok_button.setEnabled(bool(text.strip()))
        self.message.setText(note)
        self.edit.setAccessibleDescription(note)

    def accept(self) -> None:
        if self.edit.text().strip():  # Enter in the line edit with OK disabled does nothing
            super().accept()


def ask_text(parent: QWidget | None, title: str, label: str, text: str = "", taken: Sequence[str] = ()) -> str | None:
    """A column header (Add Column, Rename Column): never empty or only spaces; `taken`, the other
    columns' headers, gets a warning when repeated. None when cancelled."""
    dialog = HeaderDialog(parent, title, label, text, taken)
    return dialog.edit.text() if dialog.exec() == QDialog.DialogCode.Accepted else None


def choose_sheet(parent: QWidget | None, sheets: list[str], current: str | None) -> str | None:
    index = sheets.index(current) if current in sheets else 0
    value, ok = QInputDialog.getItem(parent, translate("Dialogs", "Choose a sheet"), translate("Dialogs", "Sheet:"),
                                     sheets, index, False)
    return value if ok else None


def choose_item(parent: QWidget | None, title: str, label: str, items: list[str]) -> str | None:
    value, ok = QInputDialog.getItem(parent, title, label, items, 0, False)
    return value if ok else None


def show_about(parent: QWidget | None) -> None:
    from evaleditor.gui.dialogs import about

    about.show_about(parent)
