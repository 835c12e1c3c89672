"""Find and replace (a tool window, not modal): regex, match case, whole cell, within a column.
It shows the number of matches as you type, before anything is replaced; "Replace all" asks to
confirm that count and is one undo step. Matching lives in core/search.py.

The count runs on the event loop a slice at a time (core/search.count_matches), so typing stays
responsive on a big file: "Counting… N so far", then the total; a small file shows the total at once.
A change of the text, the options, the data or the row filter starts it again."""

from __future__ import annotations

import time

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
from evaleditor.core.search import (
    FindQuery,
    MatchCount,
    check_replacement,
    count_matches,
    find_next_cell,
    replace_all_command,
    replace_cells_command,
    replace_text,
)
from evaleditor.gui import dialogs
from evaleditor.gui.undo import push

translate = QCoreApplication.translate

SLICE_SECONDS = 0.03  # counting between two turns of the event loop (a chunk may run a little over)
CHUNK_CELLS = 2000  # cells counted between two looks at the clock


def _matches_text(matches: int) -> str:
    return (translate("FindReplace", "1 match") if matches == 1
            else translate("FindReplace", "{n:,} matches").format(n=matches))


def _count_text(matches: int, cells: int) -> str:
    where = translate("FindReplace", "1 cell") if cells == 1 else translate("FindReplace", "{n:,} cells").format(n=cells)
    return translate("FindReplace", "{matches} in {cells}").format(matches=_matches_text(matches), cells=where)


class _Changes:
    """Listens to the dataset (which holds it weakly): `n` grows with every change, so that a count
    (and the cells it found) can tell it is out of date — also for rows hidden by a filter, which the
    table model says nothing about."""

    def __init__(self):
        self.n = 0

    def before_change(self, change) -> None:
        pass

    def after_change(self, change) -> None:
        self.n += 1


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
        self._timer = QTimer(self, singleShot=True, interval=200, timeout=self.start_count)
        self._slice = QTimer(self, singleShot=True, interval=0, timeout=self._count_slice)
        self._steps = None  # the count under way (a count_matches generator), or None
        self._counted: MatchCount | None = None  # the latest count, so far or complete
        self._key = None  # what it counts: (query, data and filter version)
        self._changes = _Changes()
        self._watched = None  # the dataset _changes listens to
        self.model.modelReset.connect(self._model_reset)  # another document, or another row filter
        self._watch()
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

    def _show_error(self, exc: Exception) -> None:
        self.count_label.setText(f"\u2716 {error_text(exc)}")

    # ----- the live count -------------------------------------------------------------------------
    def _watch(self) -> None:
        ds = self.model.ds if self.model.doc is not None else None
        if ds is not self._watched:
            if self._watched is not None:
                self._watched.unsubscribe(self._changes)
            if ds is not None:
                ds.subscribe(self._changes)
            self._watched = ds

    def _model_reset(self) -> None:
        self._watch()
        self._changes.n += 1  # the rows shown changed: a count under way starts again at its next slice

    def _current_key(self):
        return self.query(), self._changes.n

    def _is_current(self) -> bool:
        """The latest count (complete or under way) is for the text, options, data and filter shown."""
        return self._counted is not None and self._key == self._current_key()

    def _stop_count(self) -> None:
        self._timer.stop()
        self._slice.stop()
        self._steps = None
        if self._counted is not None and not self._counted.complete:
            self._counted = None  # a count stopped half way is no count

    def schedule_count(self) -> None:
        self._stop_count()
        self._timer.start()

    def _begin_count(self) -> bool:
        """Sets up a new count of the current query; False (with the reason shown) when there is none."""
        self._stop_count()
        self._counted = None
        if self.model.doc is None:
            return False
        if not self.find_edit.text():
            self.count_label.setText(" ")
            return False
        try:
            self._steps = count_matches(self.model.ds, self.query(), self._rows(), hidden=self.model.filtered,
                                        chunk_cells=CHUNK_CELLS)
        except ValueError as exc:
            self._show_error(exc)
            return False
        self._key = self._current_key()
        self._counted = MatchCount()
        return True

    def start_count(self) -> None:
        """Counts the matches, a slice of at most ~SLICE_SECONDS now and the rest on later turns of the
        event loop: the label says "Counting… N so far", then the total."""
        if self._begin_count():
            self._count_slice()

    def _count_slice(self) -> None:
        if self._steps is None:
            return
        if self._key != self._current_key():  # the data or the filter changed since the count began
            self.start_count()
            return
        deadline = time.monotonic() + SLICE_SECONDS
        for counted in self._steps:
            self._counted = counted
            if counted.complete or time.monotonic() >= deadline:
                break
        if self._counted.complete:
            self._steps = None
        else:
            self._slice.start()
        self._show_count(self._counted)

    def _show_count(self, counted: MatchCount) -> None:
        if not counted.done:
            self.count_label.setText(translate("FindReplace", "Counting\u2026 {matches} so far").format(
                matches=_matches_text(counted.matches)))
            return
        text = _count_text(counted.matches, len(counted.cells))
        if counted.hidden is not None:
            if counted.complete and counted.hidden:
                text = translate("FindReplace", "{count} in the filtered rows; {hidden} in hidden rows").format(
                    count=text, hidden=_matches_text(counted.hidden))
            else:
                text = translate("FindReplace", "{count} in the filtered rows").format(count=text)
        self.count_label.setText(text)

    def update_count(self) -> MatchCount | None:
        """The complete count now, at once (for an action that needs it, e.g. Replace all): the one under
        way is finished, a current one reused. None (with the reason shown) for no text or a bad pattern."""
        if not self._is_current() and not self._begin_count():
            return None
        self._timer.stop()
        self._slice.stop()
        if self._steps is not None:
            for counted in self._steps:
                self._counted = counted
            self._steps = None
        self._show_count(self._counted)
        return self._counted

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.find_edit.text() and not self._is_current():
            self.schedule_count()

    def hideEvent(self, event) -> None:
        """Stops counting, and gives the keyboard back to the table (its current cell): Ctrl+S, F6 …
        work at once after Escape or Close."""
        self._stop_count()
        super().hideEvent(event)
        window = self.window_
        if not event.spontaneous() and window.isVisible() and not window.isMinimized():
            window.activateWindow()
            window.view.setFocus(Qt.FocusReason.OtherFocusReason)

    # ----- actions --------------------------------------------------------------------------------
    def find_next(self) -> bool:
        """Makes the next matching cell after the current one (in the visible rows) current, going round
        to the first; it stops at that cell, and the count goes on (or starts) on the event loop."""
        model = self.model
        if model.doc is None or not self.find_edit.text():
            return False
        view = self.window_.view
        cur = view.currentIndex()
        here = (cur.row(), cur.column()) if cur.isValid() else (-1, -1)
        try:
            hit = find_next_cell(model.ds, self.query(), here, model.visible_row_ids() if model.filtered else None)
        except ValueError as exc:
            self._stop_count()
            self._show_error(exc)
            return False
        if not self._is_current():
            self.start_count()
        if hit is None:
            return False
        view.go_to(model.index_of(*hit))
        return True

    def replace_current(self) -> None:
        view = self.window_.view
        cur = view.currentIndex()
        model = self.model
        if cur.isValid() and model.doc is not None:
            query = self.query()
            row_id, column_id = model.cell_ids(cur)
            if query.column_id in (None, column_id):
                replacement = self.replace_edit.text()
                try:
                    check_replacement(query, replacement)  # `\3` with one group: said, not raised
                    rx = query.compile()
                    text = model.ds.cell(row_id, column_id)
                    new, n = replace_text(rx, text, replacement, query)
                except (ValueError, IndexError) as exc:
                    self._show_error(exc)
                    return
                if n and new != text:
                    model.setData(cur, new)
        self.find_next()

    def replace_all(self) -> int:
        """Replaces every match in the visible rows, as one undo step, once the user confirmed the count
        (and, with a row filter, how many matches the hidden rows keep). A replacement that does not go
        with the pattern (`\\3` with one group) is shown instead of the question."""
        found = self.update_count()
        if not found or not found.cells:
            return 0
        model = self.model
        query, replacement = self.query(), self.replace_edit.text()
        try:
            check_replacement(query, replacement, model.ds.cell(*found.cells[0]))
        except ValueError as exc:
            self._show_error(exc)
            return 0
        if not dialogs.confirm_replace(self, found.matches, len(found.cells), found.hidden):
            return 0
        try:
            if self._is_current() and self._counted is found:
                command, count = replace_cells_command(model.ds, query, replacement, found.cells)
            else:  # the data changed while the question was open
                command, count = replace_all_command(model.ds, query, replacement, self._rows())
        except ValueError as exc:
            self._show_error(exc)
            return 0
        push(model.undo_stack, model.ds, command)
        done = (translate("FindReplace", "Replaced 1 match. Undo reverts it.") if count == 1 else
                translate("FindReplace", "Replaced {n:,} matches. Undo reverts them all.").format(n=count))
        self.count_label.setText(done)
        self.window_.statusBar().showMessage(translate("FindReplace", "Replaced {n:,}").format(n=count), 5000)
        return count
