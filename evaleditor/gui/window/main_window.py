"""MainWindow: the banner, the filter bar, the cases table, the Issues and Conversation docks and the
status bar, around one Document. Opening and saving live in documents.py (`self.documents`), the one
background job in tasks.py (`self.tasks`); menus in actions.py; moving the keyboard between panes in
panes.py (`self.focus`); the status bar's counts in status_counts.py."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer
from PySide6.QtGui import QAction, QGuiApplication, QUndoStack
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QVBoxLayout, QWidget

from evaleditor.core.document import Document
from evaleditor.core.search import filter_rows
from evaleditor.gui.panels import help_window
from evaleditor.gui.panels.banner import ShapeBanner
from evaleditor.gui.panels.conversation_panel import ConversationPanel
from evaleditor.gui.panels.filter_bar import FilterBar
from evaleditor.gui.panels.first_tip import FirstStartTip
from evaleditor.gui.panels.issues_panel import IssuesPanel
from evaleditor.gui.table import clipboard
from evaleditor.gui.table.delegates import CellDelegate
from evaleditor.gui.table.frozen import FrozenColumn
from evaleditor.gui.table.header_sort import HeaderSort
from evaleditor.gui.table.headers import HeaderFit
from evaleditor.gui.table.model import CasesModel
from evaleditor.gui.table.view import CasesView
from evaleditor.gui.table.wrap import WrapRows
from evaleditor.gui.table.zoom import TableZoom
from evaleditor.gui.window import actions, language, recovery, settings, theme
from evaleditor.gui.window.checking import CheckRunner
from evaleditor.gui.window.documents import Documents
from evaleditor.gui.window.loader import ProgressStrip
from evaleditor.gui.window.menus import cell_menu, header_menu, row_header_menu
from evaleditor.gui.window.operations import Operations
from evaleditor.gui.window.panes import PaneFocus
from evaleditor.gui.window.save_checks import SaveChecks
from evaleditor.gui.window.status_counts import StatusCounts
from evaleditor.gui.window.tasks import Tasks
from evaleditor.gui.window.undo import wait_cursor

APP = "evaleditor"
translate = QCoreApplication.translate
FRAME_ROOM = (40, 60)  # pixels of the screen left for the window frame and title bar (width, height)


class MainWindow(QMainWindow):
    _built = False  # until the end of __init__: no retranslate or repaint from early change events

    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: Document | None = None
        self.undo_stack = QUndoStack(self)
        self.model = CasesModel(parent=self)
        self.model.undo_stack = self.undo_stack
        self.view = CasesView()
        self.table = self.view  # the QTableView showing the cases (test contract)
        self.view.setModel(self.model)
        self.delegate = CellDelegate(self.model, self.view)
        self.view.setItemDelegate(self.delegate)
        self.header_fit = HeaderFit(self.view, self._column_renamed)  # columns wide enough for their headers
        self.zoom = TableZoom(self.view)  # Ctrl+wheel, View ▸ Zoom
        self.wrap_rows = WrapRows(self.view, self.model)  # View ▸ Wrap Text
        self.frozen = FrozenColumn(self.view)  # View ▸ Freeze First Column
        self.ops = Operations(self)
        self.header_sort = HeaderSort(self)  # a click on a header sorts by its column
        self.find_dialog = None
        self.checker = CheckRunner(self)  # a big file's rows are checked after it is shown

        self.banner = ShapeBanner()
        self.filter_bar = FilterBar()
        self.filter_bar.sessions_source = lambda: list(self.doc.validator.sessions.sessions) if self.doc else []
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.banner)
        self.first_tip = FirstStartTip()  # once, for a new user: the banner, Issues, F8, Preview Upload
        self.first_tip.helpRequested.connect(lambda: help_window.show(self))
        layout.addWidget(self.first_tip)
        layout.addWidget(self.filter_bar)
        layout.addWidget(self.view, 1)
        self.setCentralWidget(central)

        self.issues_panel = IssuesPanel()
        self.issues_dock = self._dock("issues", self.issues_panel, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.conversation_panel = ConversationPanel()
        self.conversation_dock = self._dock("conversation", self.conversation_panel,
                                            Qt.DockWidgetArea.RightDockWidgetArea)

        self.counts = StatusCounts(self.statusBar(), self.fontMetrics().height())
        self.position_label = QLabel()
        self.progress = ProgressStrip()
        self.statusBar().addPermanentWidget(self.position_label)
        self.statusBar().addPermanentWidget(self.progress)
        self.save_checks = SaveChecks(self)  # asked before a save; says why a save or a task failed
        self.tasks = Tasks(self, self.progress, self.statusBar(), self.save_checks.show_error, self._set_busy)
        self.recovery = recovery.Journal(self)  # crash journal of the unsaved edits
        self.documents = Documents(self, self.view, self.undo_stack, self.tasks, self.recovery, self.save_checks)

        self.focus = PaneFocus(self.view, self.model, self.issues_dock, self.issues_panel, self.conversation_dock,
                               self.conversation_panel, self.filter_bar, self.toggle_filter_bar)
        self.actions = actions.build(self)
        for dock in (self.issues_dock, self.conversation_dock):
            self.actions.view_menu.addAction(dock.toggleViewAction())
        self._connect()
        self.setAcceptDrops(True)
        self._restore_settings()
        self._fit_screen()
        self._built = True
        self.focus.mark()
        self.retranslate()
        self.set_document(None)

    # ----- language ------------------------------------------------------------------------------------------
    def set_ui_language(self, choice: str) -> None:
        """View ▸ Language: System, English or 简体中文. Applies at once, to every window (LanguageChange)."""
        language.choose(choice)
        self.actions.ui_languages[choice].setChecked(True)

    def retranslate(self) -> None:
        """Every text of the window in the current language (called on LanguageChange)."""
        actions.retranslate(self)
        chosen = settings.ui_language()
        if chosen in self.actions.ui_languages:
            self.actions.ui_languages[chosen].setChecked(True)
        self.issues_dock.setWindowTitle(translate("MainWindow", "Issues"))
        self.conversation_dock.setWindowTitle(translate("MainWindow", "Conversation"))
        self.counts.retranslate()
        self.view.setAccessibleName(translate("MainWindow", "Cases"))
        self.view.setAccessibleDescription(translate(
            "MainWindow", "One row per test case. Type to replace a cell, F2 to edit it, F8 for the next issue."))
        self.position_label.setAccessibleName(translate("MainWindow", "Current cell"))
        self.model.retranslate()
        self.refresh_banner()
        self.counts.show(self.doc.validator.counts if self.doc else {})
        self.update_title()
        self._current_changed(self.view.currentIndex())

    def _palette_changed(self) -> None:
        theme.invalidate()
        self.view.viewport().update()
        self.refresh_banner()

    def _dock(self, name: str, widget: QWidget, area) -> QDockWidget:
        dock = QDockWidget(self)  # the title is set by retranslate(); the object name keeps the saved layout
        dock.setObjectName(f"{name}_dock")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _connect(self) -> None:
        m = self.model
        m.issuesChanged.connect(self._issues_changed)
        m.fileIssuesChanged.connect(self._update_banner)
        m.structureChanged.connect(self._update_banner)
        m.structureChanged.connect(self._refresh_position)  # the row number, the column's header
        m.headerDataChanged.connect(lambda orientation, *_: orientation == Qt.Orientation.Horizontal
                                    and self._refresh_position())
        m.dataChanged.connect(lambda *_: self.conversation_panel.schedule_render())
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self.undo_stack.indexChanged.connect(self._drop_stale_shape_message)
        self.view.selectionModel().currentChanged.connect(self._current_changed)
        self.view.customContextMenuRequested.connect(lambda pos: cell_menu(self, pos))
        self.view.horizontalHeader().customContextMenuRequested.connect(lambda pos: header_menu(self, pos))
        self.view.verticalHeader().customContextMenuRequested.connect(
            lambda pos: row_header_menu(self, pos))
        # a button or list outside the table (not a text field) gives the keyboard back to the table
        self.banner.targetChosen.connect(self._then_table(self.documents.set_target))
        self.banner.renameRequested.connect(self._then_table(self.ops.rename_column_to))
        self.banner.fixRequested.connect(self._then_table(self.ops.fix_issue))
        self.banner.previewRequested.connect(self.actions.preview.trigger)
        self.issues_panel.ruleHelpRequested.connect(lambda rule: help_window.show(self, rule))
        self.filter_bar.filterChanged.connect(self.apply_filter)
        self.issues_panel.issueActivated.connect(self.go_to_issue)
        self.issues_panel.fixAllRequested.connect(self._then_table(self.ops.fix_all))
        self.conversation_panel.rowActivated.connect(lambda rid: self.go_to_issue(None, rid))
        self.checker.progressed.connect(self.banner.show_checking)
        self.checker.finished.connect(self._checked)
        self._banner_timer = QTimer(self, singleShot=True, interval=0, timeout=self.refresh_banner)
        hints = getattr(QGuiApplication.styleHints(), "accessibility", None)
        if hints is not None:  # the system's high-contrast setting changed: colours from the palette
            hints().contrastPreferenceChanged.connect(lambda *_: self._palette_changed())

    # ----- document shown ------------------------------------------------------------------------------
    def set_document(self, doc: Document | None) -> None:
        """Show `doc` (a reset: the only one, besides filtering)."""
        self.doc = doc
        self.filter_bar.blockSignals(True)
        self.filter_bar.clear()
        self.filter_bar.blockSignals(False)
        self.model.set_document(doc)
        self.view.fit_columns()
        self.header_fit.fit_all()
        self.view.fit_viewport()  # no column starts hidden behind a panel: now, and once the layout settled
        QTimer.singleShot(0, self.view.fit_viewport)
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self.issues_panel.set_document(doc)
        self.conversation_panel.set_document(doc)
        if self.find_dialog is not None:
            self.find_dialog.refresh_columns()
        self.refresh_banner()
        self.counts.show(self.doc.validator.counts if self.doc else {})
        self.update_title()
        self.update_action_states()
        if doc is not None:
            self.actions.targets[doc.dataset.target.name].setChecked(True)
            if self.model.rowCount():
                self.view.go_to(self.model.index(0, 0))
        self._refresh_position()  # a document with no rows has no current cell: the old one is not shown
        if doc is not None:
            self.first_tip.offer()
        self.view.setFocus()
        if doc is not None:
            doc.validator.defer_big_changes = True  # a replace-all, a sort: checked again in slices
        self.checker.start(doc.validator if doc is not None else None)

    def _checked(self) -> None:
        """The document's rows have all been checked: the shape line stops saying so, the panel lists all."""
        self.refresh_banner()
        self.counts.show(self.doc.validator.counts if self.doc else {})
        self.issues_panel.refresh()

    def finish_checking(self) -> None:
        """What needs every issue (a save, a fix-all, F8, an errors filter) first checks the rows not yet
        checked, now."""
        if self.doc is not None and self.doc.validator.checking is not None:
            with wait_cursor():
                self.doc.validator.finish_checking()

    def update_action_states(self) -> None:
        doc = self.doc
        if self.tasks.current is not None:
            return
        for name in ("save", "save_as"):
            getattr(self.actions, name).setEnabled(doc is not None)
        self.actions.sheet.setEnabled(bool(doc and len(doc.sheets) > 1))
        self.actions.undo.setEnabled(self.undo_stack.canUndo())
        self.actions.redo.setEnabled(self.undo_stack.canRedo())

    def update_title(self) -> None:
        """"name[*] — evaleditor": Qt shows the platform's modified mark for `[*]` (an asterisk; on
        macOS the dot in the close button) from setWindowModified."""
        self.setWindowTitle(APP if self.doc is None else f"{self.document_name()}[*] \u2014 {APP}")
        self.setWindowModified(self.is_modified())

    def document_name(self) -> str:
        """The file's name; for a document never saved, the name it was given (the demo's) or Untitled."""
        if self.doc.path is not None:
            return self.doc.path.name
        return self.doc.display_name or translate("MainWindow", "Untitled")

    def _clean_changed(self, _clean: bool) -> None:
        if shiboken6.isValid(self) and shiboken6.isValid(self.undo_stack):  # not while being destroyed
            self.update_title()

    def _drop_stale_shape_message(self, _index: int) -> None:
        """An edit (or an undo) can change the shape: "Opened g.xlsx: SINGLE-TURN — 4 rows" goes from the
        status bar rather than contradict the banner's shape line."""
        said = self.documents.shape_message
        if said and self.statusBar().currentMessage() == said:
            self.statusBar().clearMessage()

    def is_modified(self) -> bool:
        return self.doc is not None and not self.undo_stack.isClean()

    def _issues_changed(self) -> None:
        if self.doc is not None and self.doc.validator.checking is not None and not self.checker.running():
            self.checker.start(self.doc.validator)  # a big change is checked again
            self._banner_timer.start()
        self.counts.show(self.doc.validator.counts if self.doc else {})
        self.issues_panel.schedule_refresh()
        self._banner_timer.start()

    def _then_table(self, action):
        """`action`, then the keyboard focus back on the table (arrow keys move there again)."""
        def run(*args) -> None:
            action(*args)
            self.view.setFocus(Qt.FocusReason.OtherFocusReason)
        return run

    def _update_banner(self) -> None:
        self._banner_timer.start()

    def refresh_banner(self) -> None:
        source = ""
        if self.doc is not None:
            d = self.doc
            source = str(d.path) if d.path else translate("MainWindow", "{name} (not saved yet)").format(
                name=self.document_name())
            if d.sheet and len(d.sheets) > 1:
                source += " \u00b7 " + translate("MainWindow", "sheet \u201c{sheet}\u201d of {n}").format(
                    sheet=d.sheet, n=len(d.sheets))
            elif d.sheet:
                source += " \u00b7 " + translate("MainWindow", "sheet \u201c{sheet}\u201d").format(sheet=d.sheet)
        self.banner.update_from(self.doc, source)
        self._update_filter_summary()

    def _column_renamed(self, column: int, header: str) -> None:
        """A column's header changed (Rename Column, a quick fix, Undo …): say so when another column
        now has the same header (ignoring case and surrounding spaces) — allowed, but rarely meant."""
        if self.doc is None or not header.strip():
            return
        key = header.strip().casefold()
        if any(i != column and c.header.strip().casefold() == key for i, c in enumerate(self.doc.dataset.columns)):
            self.statusBar().showMessage("\u26a0 " + translate(
                "MainWindow", "Another column is also headed \u201c{header}\u201d: the file will have two columns "
                              "with that header").format(header=_short(header.strip())), 10000)

    def _refresh_position(self) -> None:
        self._current_changed(self.view.currentIndex())

    def _current_changed(self, current, _previous=None) -> None:
        if self.doc is None or not current.isValid():
            self.position_label.setText("")
            self.conversation_panel.show_row(None)
            return
        rid = self.model.row_id(current.row())
        col = self.doc.dataset.columns[current.column()]
        fld = self.doc.dataset.fields()[current.column()]
        what = col.header + (f" \u2192 {fld}" if fld and fld != col.header else "")
        self.position_label.setText(translate("MainWindow", "Row {n} \u00b7 {column}").format(
            n=f"{self.doc.dataset.position(rid) + 1:,}", column=what))
        self.conversation_panel.show_row(rid)

    # ----- navigation and filters ------------------------------------------------------------------------------
    def go_to_issue(self, issue, row_id: int | None = None) -> None:
        """Select the issue's cell (its header for a column issue), clearing a filter that hides it."""
        if self.doc is None:
            return
        column_id = None
        if issue is not None:
            row_id, column_id = issue.row_id, issue.column_id
        if row_id is None:
            if column_id is not None:
                col = self.doc.dataset.column_position(column_id)
                self.view.selectColumn(col)
                self.view.scrollTo(self.model.index(max(self.view.currentIndex().row(), 0), col))
            return
        if not self.doc.dataset.has_row(row_id):
            return
        if self.model.row_of(row_id) is None:
            self.filter_bar.clear()
        self.view.go_to(self.model.index_of(row_id, column_id))
        self.view.setFocus()

    def apply_filter(self, flt) -> None:
        if self.doc is None:
            return
        if flt.has_errors or flt.has_warnings:
            self.finish_checking()
        current = self.ops.current_row_id()
        self.model.set_visible(filter_rows(self.doc.validator, flt))
        if current is not None and self.model.row_of(current) is not None:
            self.view.go_to(self.model.index_of(current))
        self._update_filter_summary()

    def _update_filter_summary(self) -> None:
        total = self.doc.dataset.row_count() if self.doc else 0
        self.filter_bar.show_summary(self.model.rowCount(), total, self.model.filtered)

    def filter_to_conversation(self) -> None:
        rid = self.ops.current_row_id()
        if rid is not None:
            self.filter_bar.set_session(self.doc.validator.sessions.session_of.get(rid))

    def toggle_filter_bar(self) -> None:
        self.filter_bar.setVisible(not self.filter_bar.isVisible())
        self.actions.filter_bar.setChecked(self.filter_bar.isVisible())

    # ----- clipboard ---------------------------------------------------------------------------------------
    def copy(self) -> None:
        if self.doc is not None:
            n = clipboard.copy(self.view, self.model)
            self.statusBar().showMessage(translate("MainWindow", "Copied {n:,} cells").format(n=n), 3000)

    def cut(self) -> None:
        if self.ops.ready():
            clipboard.cut(self.view, self.model)

    def paste(self, text: str | None = None) -> None:
        if self.ops.ready():
            self.statusBar().showMessage(clipboard.paste(self.view, self.model, text), 5000)

    def delete_cells(self) -> None:
        if self.ops.ready():
            clipboard.clear(self.view, self.model)

    def show_find(self) -> None:
        from evaleditor.gui.dialogs.find_replace import FindReplaceDialog
        if self.find_dialog is None:
            self.find_dialog = FindReplaceDialog(self)
        self.find_dialog.refresh_columns()
        self.find_dialog.show()
        self.find_dialog.raise_()
        self.find_dialog.activateWindow()
        self.find_dialog.find_edit.setFocus()
        self.find_dialog.find_edit.selectAll()

    def changeEvent(self, event) -> None:
        if event.type() in (QEvent.Type.ApplicationPaletteChange, QEvent.Type.PaletteChange) \
                and self._built:
            self._palette_changed()
        elif event.type() == QEvent.Type.LanguageChange and self._built:
            self.retranslate()
        super().changeEvent(event)

    def _set_busy(self, busy: bool) -> None:
        """While a task runs the table is read-only and only Quit and the view toggles stay enabled."""
        self.model.read_only = busy
        if busy:
            self.view.commit_editor()
            keep = {self.actions.quit, self.actions.copy, self.actions.filter_bar}
            self._disabled = [a for a in self.findChildren(QAction) if a.isEnabled() and a not in keep]
            for a in self._disabled:
                a.setEnabled(False)
            self.banner.setEnabled(False)
        else:
            for a in getattr(self, "_disabled", []):
                a.setEnabled(True)
            self._disabled = []
            self.banner.setEnabled(True)
            self.update_action_states()

    def closeEvent(self, event) -> None:
        if not self.documents.close():  # the edits kept: the window stays
            event.ignore()
            return
        self.save_settings()
        event.accept()

    def dragEnterEvent(self, event) -> None:
        if any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        """Every dropped file opens: one alone in this window (as before), several each in a window of
        their own, the first in this one when it holds nothing (gui/window/windows.py)."""
        from evaleditor.gui.window import windows
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            windows.open_paths(paths, self)

    # ----- settings -------------------------------------------------------------------------------------------
    def _restore_settings(self) -> None:
        s = settings.settings()
        geometry, state = s.value("window/geometry"), s.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)
        self.filter_bar.setVisible(s.value("window/filter_bar", "true") in (True, "true"))
        self.actions.filter_bar.setChecked(self.filter_bar.isVisibleTo(self) or not self.isVisible())

    def _fit_screen(self) -> None:
        """On first start 1400x900 where the screen has room, else what fits it (room left for the frame
        and title bar), centred; a saved size that no longer fits (a smaller screen now) is cut to fit."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            return
        room = screen.availableGeometry()
        first = not self.isVisible() and settings.settings().value("window/geometry") is None
        width = min(1400 if first else self.width(), room.width() - FRAME_ROOM[0])
        height = min(900 if first else self.height(), room.height() - FRAME_ROOM[1])
        if first or (width, height) != (self.width(), self.height()):
            self.resize(width, height)
            self.move(room.x() + (room.width() - width - FRAME_ROOM[0] // 2) // 2,
                      room.y() + (room.height() - height - FRAME_ROOM[1]) // 2)

    def save_settings(self) -> None:
        s = settings.settings()
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState())
        s.setValue("window/filter_bar", "true" if self.filter_bar.isVisibleTo(self) else "false")


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "\u2026"
