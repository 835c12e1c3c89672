"""Find and replace (a tool window, not modal): regex, match case, whole cell, within a column.
It shows the number of matches as you type, before anything is replaced; "Replace all" asks to
confirm that count and is one undo step. Matching lives in core/search.py."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from evaleditor.core.i18n import error_text
from evaleditor.core.search import FindQuery, FindResult, find_cells, replace_all_command, replace_text
from evaleditor.gui import dialogs
from evaleditor.gui.undo import push

translate = QCoreApplication.translate


def _count_text(matches: int, cells: int) -> str:
    what = (translate("FindReplace", "1 match") if matches == 1
            else translate("FindReplace", "{n:,} matches").format(n=matches))
    where = translate("FindReplace", "1 cell") if cells == 1 else translate("FindReplace", "{n:,} cells").format(n=cells)
    return translate("FindReplace", "{matches} in {cells}").format(matches=what, cells=where)


class FindReplaceDialog(QDialog):
    def __init__(self, window):
        super().__init__(window)
        self.window_ = window
        self.setModal(False)
        self.find_edit = QLineEdit()
        self.replace_edit = QLineEdit()
        self.regex = QCheckBox()
        self.match_case = QCheckBox()
        self.whole_cell = QCheckBox()
        self.column = QComboBox()
        self.count_label = QLabel(" ")
        self.count_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.labels = [QLabel() for _ in range(3)]
        form = QFormLayout()
        for label, field in zip(self.labels, (self.find_edit, self.replace_edit, self.column), strict=True):
            label.setBuddy(field)
            form.addRow(label, field)
        options = QHBoxLayout()
        for box in (self.regex, self.match_case, self.whole_cell):
            options.addWidget(box)
            box.toggled.connect(self.schedule_count)
        options.addStretch(1)
        self.next_button = QPushButton()
        self.next_button.setDefault(True)
        self.replace_button = QPushButton()
        self.replace_all_button = QPushButton()
        self.close_button = close = QPushButton()
        buttons = QHBoxLayout()
        for b in (self.next_button, self.replace_button, self.replace_all_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(options)
        layout.addWidget(self.count_label)
        layout.addLayout(buttons)
        self.next_button.clicked.connect(self.find_next)
        self.replace_button.clicked.connect(self.replace_current)
        self.replace_all_button.clicked.connect(self.replace_all)
        close.clicked.connect(self.close)
        self.find_edit.textChanged.connect(self.schedule_count)
        self.column.currentIndexChanged.connect(self.schedule_count)
        self._timer = QTimer(self, singleShot=True, interval=200, timeout=self.update_count)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(translate("FindReplace", "Find and replace"))
        self.find_edit.setPlaceholderText(translate("FindReplace", "text or regular expression"))
        self.replace_edit.setPlaceholderText(translate("FindReplace", "replacement (\\1 for a group when regex)"))
        self.regex.setText(translate("FindReplace", "Regular e&xpression"))
        self.match_case.setText(translate("FindReplace", "Match &case"))
        self.whole_cell.setText(translate("FindReplace", "W&hole cell"))
        for label, text in zip(self.labels, (translate("FindReplace", "&Find:"), translate("FindReplace", "Re&place with:"),
                                             translate("FindReplace", "&Within:")), strict=True):
            label.setText(text)
        self.next_button.setText(translate("FindReplace", "Find &next"))
        self.replace_button.setText(translate("FindReplace", "&Replace"))
        self.replace_all_button.setText(translate("FindReplace", "Replace &all"))
        self.close_button.setText(translate("FindReplace", "Close"))
        self.refresh_columns()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # ----- state ----------------------------------------------------------------------------------
    @property
    def model(self):
        return self.window_.model

    def refresh_columns(self) -> None:
        current = self.column.currentData()
        self.column.blockSignals(True)
        self.column.clear()
        self.column.addItem(translate("FindReplace", "All columns"), None)
        if self.model.doc is not None:
            for col in self.model.ds.columns:
                self.column.addItem(col.header or translate("FindReplace", "(no header)"), col.id)
        at = self.column.findData(current) if current is not None else 0
        self.column.setCurrentIndex(max(at, 0))
        self.column.blockSignals(False)

    def query(self) -> FindQuery:
        return FindQuery(self.find_edit.text(), self.regex.isChecked(), self.match_case.isChecked(),
                         self.whole_cell.isChecked(), self.column.currentData())

    def _rows(self) -> list[int] | None:
        return self.model.visible_row_ids() if self.model.filtered else None

    def search(self) -> FindResult | None:
        """The matches over the visible rows; None (with the reason shown) for a bad pattern."""
        if self.model.doc is None:
            return None
        try:
            return find_cells(self.model.ds, self.query(), self._rows())
        except ValueError as exc:
            self.count_label.setText(f"\u2716 {error_text(exc)}")
            return None

    def schedule_count(self) -> None:
        self._timer.start()

    def update_count(self) -> FindResult | None:
        found = self.search()
        if found is not None:
            if not self.find_edit.text():
                self.count_label.setText(" ")
            else:
                text = _count_text(found.matches, len(found.cells))
                if self.model.filtered:
                    text = translate("FindReplace", "{count} in the filtered rows").format(count=text)
                self.count_label.setText(text)
        return found

    # ----- actions --------------------------------------------------------------------------------
    def find_next(self) -> bool:
        found = self.update_count()
        if not found or not found.cells:
            return False
        view = self.window_.view
        cur = view.currentIndex()
        here = (cur.row(), cur.column()) if cur.isValid() else (-1, -1)
        model = self.model
        ds = model.ds
        positions = [((model.row_of(r), ds.column_position(c)), (r, c)) for r, c in found.cells]
        after = [p for p in positions if p[0] > here] or positions
        row_id, column_id = after[0][1]
        view.go_to(model.index_of(row_id, column_id))
        return True

    def replace_current(self) -> None:
        view = self.window_.view
        cur = view.currentIndex()
        model = self.model
        if cur.isValid() and model.doc is not None:
            query = self.query()
            row_id, column_id = model.cell_ids(cur)
            if query.column_id in (None, column_id):
                try:
                    rx = query.compile()
                    text = model.ds.cell(row_id, column_id)
                    new, n = replace_text(rx, text, self.replace_edit.text(), query)
                except (ValueError, IndexError) as exc:
                    self.count_label.setText(f"\u2716 {error_text(exc)}")
                    return
                if n and new != text:
                    model.setData(cur, new)
        self.find_next()

    def replace_all(self) -> int:
        found = self.update_count()
        if not found or not found.cells:
            return 0
        if not dialogs.confirm_replace(self, found.matches, len(found.cells)):
            return 0
        model = self.model
        try:
            command, count = replace_all_command(model.ds, self.query(), self.replace_edit.text(), self._rows())
        except ValueError as exc:
            self.count_label.setText(f"\u2716 {error_text(exc)}")
            return 0
        push(model.undo_stack, model.ds, command)
        done = (translate("FindReplace", "Replaced 1 match. Undo reverts it.") if count == 1 else
                translate("FindReplace", "Replaced {n:,} matches. Undo reverts them all.").format(n=count))
        self.count_label.setText(done)
        self.window_.statusBar().showMessage(translate("FindReplace", "Replaced {n:,}").format(n=count), 5000)
        return count
