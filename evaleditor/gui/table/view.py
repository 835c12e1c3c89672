"""The cases table: fixed row heights (never resizeRowsToContents), spreadsheet keys.

Enter moves down (after finishing an edit too), Tab moves right (after finishing an edit too, without
opening the next cell's editor), typing starts an edit that replaces the cell, F2 or a double click
edits keeping the text. Input methods (Chinese, Japanese …) start an edit the same way a key does.
Initial column widths are measured with the font (horizontalAdvance), so a column of Chinese text gets
the room its full-width characters take; row heights follow the font.
The context-menu key (or Shift+F10) opens the cell menu at the current cell. The current cell of a
selection of several cells is drawn as Excel and Calc draw it: unselected, in a frame of the selection's
colour, so that it shows inside the selection (Find next with "In selection only" moves it there) also
while the keyboard is elsewhere.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QItemSelectionModel, Qt
from PySide6.QtGui import QContextMenuEvent, QPainter, QPen
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QStyle,
    QStyleOptionViewItem,
    QTableView,
)

Hint = QAbstractItemDelegate.EndEditHint
Trigger = QAbstractItemView.EditTrigger
Cursor = QAbstractItemView.CursorAction
FIT_SAMPLE_ROWS = 60  # rows measured per column for its initial width
FIT_MAX_CHARS = 48  # a column starts at most this many average characters wide (long text is elided)
FIT_PADDING = 28  # room for the severity icon and the cell margins, in pixels at the default font


class CasesView(QTableView):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setEditTriggers(Trigger.DoubleClicked | Trigger.EditKeyPressed | Trigger.AnyKeyPressed)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setTabKeyNavigation(True)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.setAttribute(Qt.WidgetAttribute.WA_InputMethodEnabled, True)
        self.setCornerButtonEnabled(True)
        fm = self.fontMetrics()
        vh = self.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(fm.height() + 10)
        vh.setMinimumSectionSize(fm.height() + 4)
        vh.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        vh.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        hh = self.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setDefaultSectionSize(200)
        hh.setMinimumSectionSize(60)
        hh.setStretchLastSection(True)
        hh.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        hh.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        hh.setHighlightSections(True)

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().paintEvent(event)
        cur = self.currentIndex()
        if cur.isValid() and self.selectionModel().isSelected(cur) and several_cells_selected(self):
            rect = self.visualRect(cur)
            if rect.intersects(event.rect()):
                self._paint_active_cell(cur, rect)

    def _paint_active_cell(self, index, rect) -> None:
        """The current cell inside the selection: its own colours, framed (one cell: the others as Qt
        paints them, with no per-cell Python)."""
        option = QStyleOptionViewItem()
        self.initViewItemOption(option)
        option.rect = rect
        option.state &= ~QStyle.StateFlag.State_Selected
        painter = QPainter(self.viewport())
        painter.fillRect(rect, option.palette.base())  # over the selection's colour
        self.itemDelegateForIndex(index).paint(painter, option, index)
        painter.setPen(QPen(option.palette.highlight().color(), 2))
        painter.drawRect(rect.adjusted(1, 1, -1, -1))
        painter.end()

    def keyboardSearch(self, search: str) -> None:  # noqa: N802 - Qt's name
        """Qt's type-to-find walks every row (1 s a key at 100k rows) when the table cannot be edited
        (during a load or save); a spreadsheet has no such thing: Ctrl+F finds."""

    def setModel(self, model) -> None:  # noqa: N802 - Qt's name
        super().setModel(model)
        gutter = getattr(model, "gutterChanged", None)
        if gutter is not None:  # a repaint, not headerDataChanged: that re-measures 200 sections (~20 ms)
            gutter.connect(self.repaint_gutter)
        for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved, model.layoutChanged):
            signal.connect(self.fit_gutter)
        model.headerDataChanged.connect(lambda orientation, *_: orientation == Qt.Orientation.Horizontal
                                        and self.fit_gutter())
        self.fit_gutter()

    def fit_gutter(self, *_) -> None:
        """One gutter width for the document, whatever its rows' state: the widest row number, the
        session (GUTTER_SESSION_CHARS, elided in the middle) and turn when there is a session column,
        and room for the severity icon — so no column shifts when a row turns valid or invalid."""
        from evaleditor.core.targets import SESSION
        from evaleditor.gui.table.headers import GUTTER_SESSION_CHARS

        model, header = self.model(), self.verticalHeader()
        ds = getattr(model, "ds", None)
        text = "8" * len(str(max(1, model.rowCount() if model is not None else 1)))
        if ds is not None and ds.field_position(SESSION) is not None:
            text += "  " + "m" * GUTTER_SESSION_CHARS + "\u00b7888"
        style = header.style()
        margin = style.pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        icon = style.pixelMetric(QStyle.PixelMetric.PM_SmallIconSize, None, header)
        header.setFixedWidth(header.fontMetrics().horizontalAdvance(text) + icon + 4 * margin + 4)

    def repaint_gutter(self, first: int, last: int) -> None:
        """Repaint the row headers of rows first..last that are on screen."""
        header = self.verticalHeader()
        viewport = header.viewport()
        top = max(header.sectionViewportPosition(first), 0)
        bottom = min(header.sectionViewportPosition(last) + header.sectionSize(last), viewport.height())
        if bottom > top:
            viewport.update(0, top, viewport.width(), bottom - top)

    def fit_columns(self) -> None:
        """Width of each column from its header lines and a sample of its cells, measured with the font's
        horizontalAdvance (a Chinese character is about twice a Latin one), between the header's minimum
        and FIT_MAX_CHARS average characters."""
        model = self.model()
        if model is None or model.columnCount() == 0:
            return
        fm = self.fontMetrics()
        header_fm = self.horizontalHeader().fontMetrics()
        widest = fm.averageCharWidth() * FIT_MAX_CHARS
        rows = model.rowCount()
        step = max(1, rows // FIT_SAMPLE_ROWS)
        sample = list(range(0, rows, step))[:FIT_SAMPLE_ROWS]
        pad = FIT_PADDING * max(1.0, fm.height() / 16)
        for col in range(model.columnCount()):
            head = str(model.headerData(col, Qt.Orientation.Horizontal) or "")
            width = max((header_fm.horizontalAdvance(line) for line in head.split("\n")), default=0)
            for row in sample:
                text = str(model.index(row, col).data() or "")[:FIT_MAX_CHARS * 2]
                width = max(width, fm.horizontalAdvance(text))
                if width >= widest:
                    break
            self.setColumnWidth(col, int(min(max(width, 0), widest) + pad))

    def fit_viewport(self) -> None:
        """Narrow the widest columns (their text elides) until every column shows in the viewport, none
        below what its header needs (headers stay readable): no data column starts hidden behind a panel
        while the window has the room."""
        model, header = self.model(), self.horizontalHeader()
        n = model.columnCount() if model is not None else 0
        room = self.viewport().width()
        widths = [self.columnWidth(c) for c in range(n)]
        if not n or sum(widths) <= room:
            return
        left, cap = room, 0
        for i, w in enumerate(sorted(widths)):  # the narrow ones keep their width, the rest share what is left
            if w * (n - i) > left:
                cap = left // (n - i)
                break
            left -= w
        for c, w in enumerate(widths):
            narrow = max(cap, header.minimumSectionSize(), header.sectionSizeHint(c))
            if w > narrow:
                self.setColumnWidth(c, narrow)

    def event(self, event) -> bool:
        """A keyboard context menu (Menu key, Shift+F10) arrives here in the view's coordinates; the cell
        menu expects the viewport's (as a mouse gives): open it on the current cell."""
        if event.type() == QEvent.Type.ContextMenu and event.reason() == QContextMenuEvent.Reason.Keyboard \
                and self.currentIndex().isValid():
            self.scrollTo(self.currentIndex())
            self.customContextMenuRequested.emit(self.visualRect(self.currentIndex()).center())
            return True
        return super().event(event)

    def edit(self, index, trigger=None, event=None):
        if trigger is None:
            return super().edit(index)
        delegate = self.itemDelegateForIndex(index) if index.isValid() else None
        if delegate is not None and hasattr(delegate, "select_all"):
            delegate.select_all = trigger == Trigger.AnyKeyPressed
        return super().edit(index, trigger, event)

    def keyPressEvent(self, event):
        key = event.key()
        if (key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.state() != QAbstractItemView.State.EditingState
                and not event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            self.move_current(-1 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1, 0)
            return
        if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab) and self._at_the_end(
                Cursor.MovePrevious if key == Qt.Key.Key_Backtab else Cursor.MoveNext):
            event.accept()  # unaccepted, Qt would move the focus out of the table (and the typing with it)
            return
        super().keyPressEvent(event)

    def inputMethodEvent(self, event):
        """A committed input-method text with no composition before it (some IMEs, on-screen
        keyboards) opens the editor with that text, as a typed key would; Qt alone drops it."""
        commit = event.commitString()
        if commit and not event.preeditString() and self.state() != QAbstractItemView.State.EditingState:
            index = self.currentIndex()
            if index.isValid() and self.edit(index, Trigger.AnyKeyPressed, None):
                editor = self.indexWidget(index)
                target = editor.focusProxy() or editor if editor is not None else None
                if isinstance(target, QLineEdit):
                    target.selectAll()
                    target.insert(commit)
                elif isinstance(target, QPlainTextEdit):
                    target.insertPlainText(commit)
                if target is not None:
                    target.setFocus()
                event.accept()
                return
        super().inputMethodEvent(event)

    def closeEditor(self, editor, hint):
        if hint == Hint.SubmitModelCache:  # Enter: finish, then move down like a spreadsheet
            super().closeEditor(editor, Hint.NoHint)
            self.move_current(1, 0)
            return
        if hint in (Hint.EditNextItem, Hint.EditPreviousItem):
            # Tab / Shift+Tab: finish, then move like Tab outside an editor does, without opening the next
            # cell's editor (Qt would, with the cursor after the old text): typing there then replaces the
            # cell, in every column, as after Enter; F2 edits it keeping the text.
            super().closeEditor(editor, Hint.NoHint)
            action = Cursor.MoveNext if hint == Hint.EditNextItem else Cursor.MovePrevious
            self.go_to(self.moveCursor(action, Qt.KeyboardModifier.NoModifier))
            return
        super().closeEditor(editor, hint)

    def _at_the_end(self, action) -> bool:
        model, cur = self.model(), self.currentIndex()
        return model is not None and cur.isValid() and (
            (action == Cursor.MoveNext and cur.row() == model.rowCount() - 1 and cur.column() == model.columnCount() - 1)
            or (action == Cursor.MovePrevious and cur.row() == 0 and cur.column() == 0))

    def moveCursor(self, action, modifiers):  # noqa: N802 - Qt's name
        """Tab on the last cell stays there and Shift+Tab on the first (Qt wraps to the other end: with
        type-to-edit, a silent overwrite far away)."""
        if self._at_the_end(action):
            return self.currentIndex()
        return super().moveCursor(action, modifiers)

    def move_current(self, drow: int, dcol: int) -> None:
        model = self.model()
        if model is None or model.rowCount() == 0:
            return
        cur = self.currentIndex()
        row = max(0, min(model.rowCount() - 1, (cur.row() if cur.isValid() else -1) + drow))
        col = max(0, min(model.columnCount() - 1, (cur.column() if cur.isValid() else 0) + dcol))
        self.go_to(model.index(row, col))

    def go_to(self, index, select: bool = True) -> None:
        """Make `index` current and (unless not `select`: the selection stays as it is) selected, and
        scroll it into view."""
        if not index.isValid():
            return
        flag = QItemSelectionModel.SelectionFlag
        self.selectionModel().setCurrentIndex(index, flag.ClearAndSelect if select else flag.NoUpdate)
        self.scrollTo(index)

    def selection_ranges(self) -> list[tuple[int, int, int, int]]:
        """(top, left, bottom, right) of each selected range; the current cell when nothing is selected."""
        ranges = [(r.top(), r.left(), r.bottom(), r.right()) for r in self.selectionModel().selection()]
        if not ranges and self.currentIndex().isValid():
            cur = self.currentIndex()
            ranges = [(cur.row(), cur.column(), cur.row(), cur.column())]
        return ranges

    def selected_rows(self) -> list[int]:
        """Model rows touched by the selection (or the current row), ascending."""
        rows: set[int] = set()
        for top, _, bottom, _ in self.selection_ranges():
            rows.update(range(top, bottom + 1))
        return sorted(rows)

    def selected_cells(self) -> list[tuple[int, int]]:
        cells: set[tuple[int, int]] = set()
        for top, left, bottom, right in self.selection_ranges():
            cells.update((r, c) for r in range(top, bottom + 1) for c in range(left, right + 1))
        return sorted(cells)

    def commit_editor(self) -> None:
        """Finish an edit in progress (before saving, or when the document is replaced)."""
        if self.state() != QAbstractItemView.State.EditingState:
            return
        editor = self.indexWidget(self.currentIndex())
        delegate = self.itemDelegateForIndex(self.currentIndex())
        if editor is not None and delegate is not None:
            delegate.commitData.emit(editor)
            delegate.closeEditor.emit(editor, Hint.NoHint)


def several_cells_selected(view: QAbstractItemView) -> bool:
    """More than one cell of `view` is selected (Find's In selection only is offered; the current cell is
    drawn framed inside the selection)."""
    ranges = view.selectionModel().selection()
    return len(ranges) > 1 or any(r.width() * r.height() > 1 for r in ranges)
