"""MainWindow: the banner, the filter bar, the cases table, the Issues and Conversation docks and the
status bar, around one Document, which it shows (set_document). Each other part is an object handed what
it touches: opening and saving in documents.py (`self.documents`), the one background job in tasks.py
(`self.tasks`), which actions are enabled in action_states.py, the current cell, going to an issue and
filtering in navigation.py (`self.navigation`), the keyboard between panes in panes.py (`self.focus`),
the status bar's counts in status_counts.py; menus in actions.py, the window's texts in captions.py, its
size and layout between runs in placement.py."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QUndoStack
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QVBoxLayout, QWidget

from evaleditor.core.document import Document
from evaleditor.gui.panels import help_window
from evaleditor.gui.panels.banner import ShapeBanner
from evaleditor.gui.panels.conversation_panel import ConversationPanel
from evaleditor.gui.panels.filter_bar import FilterBar
from evaleditor.gui.panels.first_tip import FirstStartTip
from evaleditor.gui.panels.issues_panel import IssuesPanel
from evaleditor.gui.table.delegates import CellDelegate
from evaleditor.gui.table.frozen import FrozenColumn
from evaleditor.gui.table.header_sort import HeaderSort
from evaleditor.gui.table.headers import HeaderFit
from evaleditor.gui.table.model import CasesModel
from evaleditor.gui.table.view import CasesView
from evaleditor.gui.table.wrap import WrapRows
from evaleditor.gui.table.zoom import TableZoom
from evaleditor.gui.window import actions, captions, language, placement, recovery, settings, theme, windows
from evaleditor.gui.window.action_states import ActionStates
from evaleditor.gui.window.checking import CheckRunner
from evaleditor.gui.window.documents import Documents
from evaleditor.gui.window.loader import ProgressStrip
from evaleditor.gui.window.menus import cell_menu, header_menu, row_header_menu
from evaleditor.gui.window.navigation import Navigation
from evaleditor.gui.window.operations import Operations
from evaleditor.gui.window.panes import PaneFocus
from evaleditor.gui.window.save_checks import SaveChecks
from evaleditor.gui.window.status_counts import StatusCounts
from evaleditor.gui.window.tasks import Tasks

translate = QCoreApplication.translate


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
        self.navigation = Navigation(self.view, self.model, self.filter_bar, self.position_label,
                                     self.conversation_panel)
        self.action_states = ActionStates(self, self.model, self.view, self.banner, self.undo_stack)
        self.save_checks = SaveChecks(self)  # asked before a save; says why a save or a task failed
        self.tasks = Tasks(self, self.view, self.progress, self.statusBar(), self.save_checks.show_error,
                           self.action_states.set_busy)
        self.recovery = recovery.Journal(self)  # crash journal of the unsaved edits
        self.documents = Documents(self, self.view, self.undo_stack, self.tasks, self.recovery, self.save_checks)
        self.ops = Operations(self, self.model, self.view, self.undo_stack, self.statusBar(), self.documents)

        self.focus = PaneFocus(self.view, self.model, self.issues_dock, self.issues_panel, self.conversation_dock,
                               self.conversation_panel, self.filter_bar, self.toggle_filter_bar)
        self.actions = actions.build(self)
        for dock in (self.issues_dock, self.conversation_dock):
            self.actions.view_menu.addAction(dock.toggleViewAction())
        self._connect()
        self.setAcceptDrops(True)
        placement.restore(self, self.filter_bar, self.actions.filter_bar)
        placement.fit_screen(self)
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
        self.navigation.show_position()

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
        self._banner_timer = QTimer(self, singleShot=True, interval=0, timeout=self.refresh_banner)
        m.issuesChanged.connect(self._issues_changed)
        m.fileIssuesChanged.connect(self._banner_timer.start)
        m.structureChanged.connect(self._banner_timer.start)
        m.structureChanged.connect(lambda: self.navigation.show_position())  # the row number, the column's header
        m.headerDataChanged.connect(lambda orientation, *_: orientation == Qt.Orientation.Horizontal
                                    and self.navigation.show_position())
        m.dataChanged.connect(lambda *_: self.conversation_panel.schedule_render())
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self.undo_stack.indexChanged.connect(self._drop_stale_shape_message)
        self.view.selectionModel().currentChanged.connect(self.navigation.show_position)
        self.view.customContextMenuRequested.connect(lambda pos: cell_menu(self, pos))
        self.view.horizontalHeader().customContextMenuRequested.connect(lambda pos: header_menu(self, pos))
        self.view.verticalHeader().customContextMenuRequested.connect(
            lambda pos: row_header_menu(self, pos))
        self.banner.targetChosen.connect(self.focus.then_table(self.documents.set_target))
        self.banner.renameRequested.connect(self.focus.then_table(self.ops.rename_column_to))
        self.banner.fixRequested.connect(self.focus.then_table(self.ops.fix_issue))
        self.banner.previewRequested.connect(self.actions.preview.trigger)
        self.issues_panel.ruleHelpRequested.connect(lambda rule: help_window.show(self, rule))
        self.filter_bar.filterChanged.connect(self.navigation.apply_filter)
        self.issues_panel.issueActivated.connect(self.navigation.go_to_issue)
        self.issues_panel.fixAllRequested.connect(self.focus.then_table(self.ops.fix_all))
        self.conversation_panel.rowActivated.connect(lambda rid: self.navigation.go_to_issue(None, rid))
        self.checker.progressed.connect(self.banner.show_checking)
        self.checker.finished.connect(self._checked)
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
        self.action_states.update()
        if doc is not None:
            self.actions.targets[doc.dataset.target.name].setChecked(True)
            if self.model.rowCount():
                self.view.go_to(self.model.index(0, 0))
        self.navigation.show_position()  # a document with no rows has no current cell: the old one is not shown
        if doc is not None:
            self.first_tip.offer()
        self.view.setFocus()
        if doc is not None:
            doc.validator.defer_big_changes = True  # a replace-all, a sort: checked again in slices
        self.checker.start(doc.validator if doc is not None else None)

    def _checked(self) -> None:
        """The document's rows have all been checked: the shape line stops saying so, the panel lists all
        (the banner's refresh the last slice asked for is this one)."""
        self._banner_timer.stop()
        self.refresh_banner()
        self.counts.show(self.doc.validator.counts if self.doc else {})
        self.issues_panel.refresh()

    def update_title(self) -> None:
        self.setWindowTitle(captions.window_title(self.doc))
        self.setWindowModified(self.is_modified())

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
        self.issues_panel.show_counts()  # at once, as the status bar's: the list follows within REFRESH_MS
        self.issues_panel.schedule_refresh()
        self._banner_timer.start()

    def refresh_banner(self) -> None:
        self.banner.update_from(self.doc, captions.source_line(self.doc))
        self.navigation.show_filter_summary()

    def _column_renamed(self, column: int, header: str) -> None:
        if note := captions.duplicate_header(self.doc, column, header):
            self.statusBar().showMessage(note, 10000)

    def toggle_filter_bar(self) -> None:
        self.filter_bar.setVisible(not self.filter_bar.isVisible())
        self.actions.filter_bar.setChecked(self.filter_bar.isVisible())

    def show_find(self, replace: bool = False) -> None:
        """Edit ▸ Find (Ctrl+F), or Replace (Ctrl+H: the replacement's field once there is a text to find)."""
        from evaleditor.gui.dialogs.find_replace import FindReplaceDialog
        FindReplaceDialog.show_for(self, replace)

    def changeEvent(self, event) -> None:
        if event.type() in (QEvent.Type.ApplicationPaletteChange, QEvent.Type.PaletteChange) \
                and self._built:
            self._palette_changed()
        elif event.type() == QEvent.Type.LanguageChange and self._built:
            self.retranslate()
        super().changeEvent(event)

    def closeEvent(self, event) -> None:
        if not self.documents.close():  # the edits kept: the window stays
            event.ignore()
            return
        placement.save(self, self.filter_bar)
        event.accept()

    def dragEnterEvent(self, event) -> None:
        if windows.local_files(event):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        """Every dropped file opens: one alone in this window, several each in a window of their own, the
        first in this one when it holds nothing (windows.open_paths)."""
        if paths := windows.local_files(event):
            event.acceptProposedAction()
            windows.open_paths(paths, self)
