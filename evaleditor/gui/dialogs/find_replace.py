"""Find and replace (a tool window, not modal): regex, match case, whole cell, within a column.
It shows the number of matches as you type, before anything is replaced; "Replace all" asks to
confirm that count and is one undo step. Matching lives in core/search.py.

The count runs on the event loop a slice at a time, so typing stays responsive on a big file
(match_count.py)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QKeySequence, QShortcut
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

from evaleditor.core.search import (
    FindQuery,
    MatchCount,
    check_replacement,
    find_next_cell,
    replace_all_command,
    replace_cells_command,
    replace_cells_steps,
    replace_text,
)
from evaleditor.gui import dialogs
from evaleditor.gui.dialogs.match_count import LiveCount
from evaleditor.gui.dialogs.selected_cells import SearchScope
from evaleditor.gui.window.loader import SlicedTask
from evaleditor.gui.window.undo import push

translate = QCoreApplication.translate
SLICED_CELLS = 20_000  # a replace-all of more cells than this runs in slices, with a progress bar and Cancel


class FindReplaceDialog(QDialog):
    @classmethod
    def show_for(cls, window, replace: bool = False) -> FindReplaceDialog:
        """Edit ▸ Find or Replace: `window`'s dialog (made once: window.find_dialog), its find text selected
        (for Replace, its replacement once there is a text to find)."""
        if window.find_dialog is None:
            window.find_dialog = cls(window)
        dialog = window.find_dialog
        dialog.refresh_columns()
        dialog.scope.offer()
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        edit = dialog.replace_edit if replace and dialog.find_edit.text() else dialog.find_edit
        edit.setFocus()
        edit.selectAll()
        return dialog

    def __init__(self, window):
        super().__init__(window)
        self.window_ = window
        self.setModal(False)
        self.find_edit = QLineEdit()
        self.replace_edit = QLineEdit()
        self.regex = QCheckBox()
        self.match_case = QCheckBox()
        self.whole_cell = QCheckBox()
        self.in_selection = QCheckBox()
        self.column = QComboBox()
        self.count_label = QLabel(" ")
        self.count_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.labels = [QLabel() for _ in range(3)]
        form = QFormLayout()
        for label, field in zip(self.labels, (self.find_edit, self.replace_edit, self.column), strict=True):
            label.setBuddy(field)
            form.addRow(label, field)
        options = QHBoxLayout()
        for box in (self.regex, self.match_case, self.whole_cell, self.in_selection):
            options.addWidget(box)
            box.toggled.connect(self.schedule_count)
        self.scope = SearchScope(window, self.in_selection)  # hears the selection before the dialog
        window.view.selectionModel().selectionChanged.connect(self._selection_changed)
        window.model.modelReset.connect(self._selection_changed)
        window.model.layoutChanged.connect(self._selection_changed)
        options.addStretch(1)
        self.next_button = QPushButton()
        self.next_button.setDefault(True)
        self.previous_button = QPushButton()
        self.replace_button = QPushButton()
        self.replace_all_button = QPushButton()
        self.close_button = close = QPushButton()
        buttons = QHBoxLayout()
        for b in (self.next_button, self.previous_button, self.replace_button, self.replace_all_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(options)
        layout.addWidget(self.count_label)
        layout.addLayout(buttons)
        self.next_button.clicked.connect(self.find_next)
        self.previous_button.clicked.connect(self.find_previous)
        keys = QKeySequence.StandardKey
        for sequence, slot in ((keys.FindNext, self.find_next), (keys.FindPrevious, self.find_previous),
                               ("Shift+Return", self.find_previous), ("Shift+Enter", self.find_previous)):
            QShortcut(sequence, self, slot)  # F3, Shift+F3 (Ctrl+G on macOS); Enter is Find next
        self.replace_button.clicked.connect(self.replace_current)
        self.replace_all_button.clicked.connect(self.replace_all)
        close.clicked.connect(self.close)
        self.find_edit.textChanged.connect(self.schedule_count)
        self.column.currentIndexChanged.connect(self.schedule_count)
        self.count = LiveCount(self)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(translate("FindReplace", "Find and replace"))
        self.find_edit.setPlaceholderText(translate("FindReplace", "text or regular expression"))
        self.replace_edit.setPlaceholderText(translate("FindReplace", "replacement (\\1 for a group when regex)"))
        self.regex.setText(translate("FindReplace", "Regular e&xpression"))
        self.match_case.setText(translate("FindReplace", "Match &case"))
        self.whole_cell.setText(translate("FindReplace", "W&hole cell"))
        self.in_selection.setText(translate("FindReplace", "In &selection only"))
        for label, text in zip(self.labels, (translate("FindReplace", "&Find:"), translate("FindReplace", "Re&place with:"),
                                             translate("FindReplace", "&Within:")), strict=True):
            label.setText(text)
        self.next_button.setText(translate("FindReplace", "Find &next"))
        self.previous_button.setText(translate("FindReplace", "Find pre&vious"))
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

    def _selection_changed(self, *_args) -> None:
        """The scope changed (it heard first): with the box on, the count is of the new selection."""
        if self.in_selection.isChecked():
            self.schedule_count()

    # ----- the live count (match_count.LiveCount) ----------------------------------------------------
    def schedule_count(self) -> None:
        self.count.schedule()

    def start_count(self) -> None:
        self.count.start()

    def update_count(self) -> MatchCount | None:
        """The complete count now (match_count.LiveCount.finish)."""
        return self.count.finish()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.find_edit.text() and not self.count.is_current():
            self.schedule_count()

    def hideEvent(self, event) -> None:
        """Stops counting, and gives the keyboard back to the table (its current cell): Ctrl+S, F6 …
        work at once after Escape or Close."""
        self.count.stop()
        super().hideEvent(event)
        window = self.window_
        if not event.spontaneous() and window.isVisible() and not window.isMinimized():
            window.activateWindow()
            window.view.setFocus(Qt.FocusReason.OtherFocusReason)

    # ----- actions --------------------------------------------------------------------------------
    def find_next(self, backward: bool = False) -> bool:
        """Makes the next matching cell after the current one (before it, `backward`) current, among the
        visible rows, going round past the end; it stops at that cell, and the count goes on (or starts)
        on the event loop. With In selection only, among the selection's cells, the selection kept: the
        current cell moves inside it, as in Excel and Calc."""
        model = self.model
        if model.doc is None or not self.find_edit.text():
            return False
        scope = self.scope.cells()
        try:
            hit = find_next_cell(model.ds, self.query(), self._current_cell(), self.scope.rows(), within=scope,
                                 backward=backward)
        except ValueError as exc:
            self.count.stop()
            self.count.show_error(exc)
            return False
        if not self.count.is_current():
            self.start_count()
        if hit is None:
            return False
        self.window_.view.go_to(model.index_of(*hit), select=scope is None)
        return True

    def find_previous(self) -> bool:
        return self.find_next(backward=True)

    def _current_cell(self) -> tuple[int, int]:
        """The table's current cell as (file position of its row, column); (-1, -1) for none."""
        cur = self.window_.view.currentIndex()
        if not cur.isValid():
            return -1, -1
        return self.model.ds.position(self.model.row_id(cur.row())), cur.column()

    def replace_current(self) -> None:
        """Replaces the matches in the current cell, when it is one searched (in the column chosen, in
        the selection with In selection only), then finds the next."""
        cur = self.window_.view.currentIndex()
        model = self.model
        if cur.isValid() and model.doc is not None:
            query = self.query()
            cell = model.cell_ids(cur)
            scope = self.scope.cells()
            if query.column_id in (None, cell[1]) and (scope is None or cell in scope):
                replacement = self.replace_edit.text()
                try:
                    check_replacement(query, replacement)  # `\3` with one group: said, not raised
                    rx = query.compile()
                    text = model.ds.cell(*cell)
                    new, n = replace_text(rx, text, replacement, query)
                except (ValueError, IndexError) as exc:
                    self.count.show_error(exc)
                    return
                if n and new != text:
                    model.setData(cur, new)
        self.find_next()

    def replace_all(self) -> int:
        """Replaces every match in the visible rows, as one undo step, once the user confirmed the count
        (and, with a row filter, how many matches the hidden rows keep). A replacement that does not go
        with the pattern (`\\3` with one group) is shown instead of the question. Returns how many were
        replaced, or -1 for one of more than SLICED_CELLS cells, which runs in slices (the window's
        progress bar, Cancel) and says its count when done."""
        if self.window_.tasks.current is not None:  # a replace-all (or a load, a save) is under way
            return 0
        found = self.update_count()
        if not found or not found.cells:
            return 0
        model = self.model
        query, replacement = self.query(), self.replace_edit.text()
        try:
            check_replacement(query, replacement, model.ds.cell(*found.cells[0]))
        except ValueError as exc:
            self.count.show_error(exc)
            return 0
        if not dialogs.confirm_replace(self, found.matches, len(found.cells), found.hidden):
            return 0
        current = self.count.is_current() and self.count.counted is found
        if current and len(found.cells) > SLICED_CELLS:  # in slices, with a progress bar and Cancel
            self.window_.tasks.start(translate("FindReplace", "Replacing\u2026"), None, lambda done: self._replaced(*done),
                                     translate("FindReplace", "Cannot replace"), task=SlicedTask(
                                         replace_cells_steps(model.ds, query, replacement, found.cells), self.window_))
            return -1
        try:
            if current:
                command, count = replace_cells_command(model.ds, query, replacement, found.cells)
            else:  # the data changed while the question was open
                command, count = replace_all_command(model.ds, query, replacement, self.scope.rows(),
                                                              self.scope.cells())
        except ValueError as exc:
            self.count.show_error(exc)
            return 0
        return self._replaced(command, count)

    def _replaced(self, command, count: int) -> int:
        """Apply a replace-all's command as one undo step and say how many were replaced."""
        push(self.model.undo_stack, self.model.ds, command)
        done = (translate("FindReplace", "Replaced 1 match. Undo reverts it.") if count == 1 else
                translate("FindReplace", "Replaced {n:,} matches. Undo reverts them all.").format(n=count))
        self.count_label.setText(done)
        self.window_.statusBar().showMessage(translate("FindReplace", "Replaced {n:,}").format(n=count), 5000)
        return count
