"""IssuesModel: the validator's issues as a table (severity, rule, row, column, message), filtered by
severity and rule, in file order. It hears which rows' issues changed and, when the panel syncs it (a
few times a second at most), replaces only those rows' issues in the list: a check of a big file lists
its issues as they are found, and an edit changes a few lines, not the whole list (a reset would lose
the user's place). Rows and columns are shown by looking the stable ids up, so the list stays right
while rows move. Messages are rendered in the current language when shown; the severity is always
also said in words."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import chain
from operator import attrgetter

from PySide6.QtCore import QT_TRANSLATE_NOOP, QAbstractTableModel, QCoreApplication, QModelIndex, Qt
from PySide6.QtGui import QFont, QGuiApplication

from evaleditor.core.document import Document
from evaleditor.core.i18n import localized_message
from evaleditor.core.rules import ERROR, INFO, WARNING, Issue
from evaleditor.gui.window import theme

R = Qt.ItemDataRole
translate = QCoreApplication.translate
HEADERS = (QT_TRANSLATE_NOOP("Issues", "Severity"), QT_TRANSLATE_NOOP("Issues", "Rule"),
           QT_TRANSLATE_NOOP("Issues", "Row"), QT_TRANSLATE_NOOP("Issues", "Column"),
           QT_TRANSLATE_NOOP("Issues", "Message"))
ISSUE_ROLE = int(R.UserRole) + 1
RULE_COLUMN = 1  # shown as a link to the rule's explanation in Help
SPAN_GAP = 1000  # changed rows further apart than this are synced as separate spans of the file
WHOLE_ROWS = 20_000  # more changed rows than this: the whole list is built again (one pass over the rows)
_ROOT = QModelIndex()
_ROW_ID = attrgetter("id")


class IssuesModel(QAbstractTableModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: Document | None = None
        self.severities = {ERROR, WARNING, INFO}
        self.rule: str | None = None
        self._issues: list[Issue] = []  # the file's issues (the first `_head`), then the rows' in file order
        self._head = 0
        self._changed: set[int] = set()  # rows whose issues changed since the last sync
        self._file_changed = False
        self._whole = False  # rows came, went or moved, or columns changed: the whole list again

    def set_document(self, doc: Document | None) -> None:
        if self.doc is not None:
            self.doc.dataset.unsubscribe(self)
            self.doc.validator.listeners.remove(self._heard)
        self.doc = doc
        if doc is not None:
            doc.dataset.subscribe(self)
            doc.validator.listeners.append(self._heard)
        self.reset()

    def set_filter(self, severities: set[str] | None = None, rule: str | None | bool = False) -> None:
        if severities is not None:
            self.severities = set(severities)
        if rule is not False:
            self.rule = rule  # type: ignore[assignment]
        self.reset()

    # ----- what changed: the validator's reports and the dataset's changes (core listeners) -------------------
    def _heard(self, rows: set[int], file_changed: bool) -> None:
        if not self._whole:
            self._changed |= rows
            self._file_changed |= file_changed

    def before_change(self, change) -> None:
        pass

    def after_change(self, change) -> None:
        if change.kind != "cells":  # a position or a header the list shows may be another now
            self._whole = True
            self._changed = set()

    def pending(self) -> bool:
        """Issues changed since the last sync."""
        return bool(self._changed or self._file_changed or self._whole)

    # ----- the list ------------------------------------------------------------------------------------
    def _kept(self, issues) -> list[Issue]:
        sev, rule = self.severities, self.rule
        return [i for i in issues if i.severity in sev and (rule is None or i.rule == rule)]

    def _everything(self) -> tuple[list[Issue], int]:
        """The list as it should be now, and its head (the file's issues)."""
        if self.doc is None:
            return [], 0
        v = self.doc.validator
        everything, n = v.all_issues(), len(v.file_issues())  # the file's first
        head = self._kept(everything[:n])
        return head + self._kept(everything[n:]), len(head)

    def reset(self) -> None:
        """The list built again as a reset: another document, another filter."""
        self.beginResetModel()
        self._issues, self._head = self._everything()
        self._changed, self._file_changed, self._whole = set(), False, False
        self.endResetModel()

    def refresh(self) -> None:
        """The whole list built again, changing only the lines that differ (a new language: all repainted)."""
        self._changed, self._file_changed, self._whole = set(), False, False
        issues, head = self._everything()
        self._splice(0, len(self._issues), issues)
        self._head = head
        if self._issues:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._issues) - 1, len(HEADERS) - 1))

    def sync(self) -> bool:
        """Brings the list up to date with what changed since the last sync, changing only the lines of
        the rows whose issues changed; True when something was heard."""
        if not self.pending():
            return False
        if self.doc is None or self._whole or len(self._changed) > WHOLE_ROWS:
            self.refresh()
            return True
        v, ds = self.doc.validator, self.doc.dataset
        changed, self._changed = self._changed, set()
        positions = sorted(ds.positions(changed))  # no row came or went since (else _whole)
        for span in reversed(_spans(positions)):  # from the end: the lines before keep their places
            a, b = self._lines_of(span[0], span[-1])
            listed = ds.positions(dict.fromkeys(i.row_id for i in self._issues[a:b]))  # the rows' with issues
            rows = [ds.rows[p].id for p in sorted({*listed, *span})]  # only those can have issues: not every row
            self._splice(a, b, self._kept(chain.from_iterable(map(v.row_issues, rows))))
        if self._file_changed:
            self._file_changed = False
            head = self._kept(v.file_issues())
            self._splice(0, self._head, head)
            self._head = len(head)
        return True

    def _lines_of(self, first: int, last: int) -> tuple[int, int]:
        """The lines (a, b: a slice) of the issues of the rows at positions first..last."""
        key = self._position_of
        a = bisect_left(self._issues, first, self._head, key=key)
        return a, bisect_right(self._issues, last, a, key=key)

    def _position_of(self, issue: Issue) -> int:
        return self.doc.dataset.position(issue.row_id)

    def _splice(self, a: int, b: int, new: list[Issue]) -> None:
        """Lines a..b (a slice) become `new`: only the lines that differ are removed and inserted."""
        old = self._issues
        n = min(b - a, len(new))
        same = 0
        while same < n and old[a + same] == new[same]:
            same += 1
        tail = 0
        while tail < n - same and old[b - 1 - tail] == new[len(new) - 1 - tail]:
            tail += 1
        a, b, new = a + same, b - tail, new[same:len(new) - tail]
        if b > a:
            self.beginRemoveRows(_ROOT, a, b - 1)
            del old[a:b]
            self.endRemoveRows()
        if new:
            self.beginInsertRows(_ROOT, a, a + len(new) - 1)
            old[a:a] = new
            self.endInsertRows()

    def line_of(self, issue: Issue) -> int | None:
        """The line showing `issue`, or None."""
        if issue.row_id is None or self.doc is None or not self.doc.dataset.has_row(issue.row_id):
            lines = range(self._head)
        else:
            position = self.doc.dataset.position(issue.row_id)
            lines = range(*self._lines_of(position, position))
        return next((i for i in lines if self._issues[i] == issue), None)

    def issue(self, row: int) -> Issue:
        return self._issues[row]

    def issues(self) -> list[Issue]:
        return list(self._issues)

    def rowCount(self, parent=_ROOT) -> int:
        return 0 if parent.isValid() else len(self._issues)

    def columnCount(self, parent=_ROOT) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section, orientation, role=R.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == R.DisplayRole and 0 <= section < len(HEADERS):
            return translate("Issues", HEADERS[section])
        return None

    def flags(self, index):
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index, role=R.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._issues):
            return None
        issue = self._issues[index.row()]
        col = index.column()
        if role in (R.DisplayRole, R.AccessibleTextRole):
            if col == 0:
                return theme.severity_label(issue.severity)
            if col == 1:
                return issue.rule
            if col == 2:
                return self._row_text(issue)
            if col == 3:
                return self._column_text(issue)
            return localized_message(issue)
        if role == R.DecorationRole and col == 0:
            return theme.severity_icon(issue.severity)
        if role in (R.ToolTipRole, R.AccessibleDescriptionRole):
            return describe(issue)
        if role == R.ForegroundRole and col == RULE_COLUMN:
            return QGuiApplication.palette().link()
        if role == R.FontRole and col == RULE_COLUMN:
            return _link_font()
        if role == R.TextAlignmentRole and col == 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == ISSUE_ROLE:
            return issue
        return None

    def _row_text(self, issue: Issue) -> str:
        if issue.row_id is None:
            return translate("Issues", "file")
        ds = self.doc.dataset
        return str(ds.position(issue.row_id) + 1) if ds.has_row(issue.row_id) else ""

    def _column_text(self, issue: Issue) -> str:
        ds = self.doc.dataset
        if issue.column_id is not None:
            try:
                return ds.columns[ds.column_position(issue.column_id)].header
            except KeyError:
                return ""
        return issue.field or ""


def describe(issue: Issue) -> str:
    """"Error: The question is empty … [empty-question]": severity in words, message, rule id."""
    return translate("Issues", "{severity}: {message} [{rule}]").format(
        severity=theme.severity_label(issue.severity), message=localized_message(issue), rule=issue.rule)


def _link_font() -> QFont:
    font = QFont()
    font.setUnderline(True)
    return font


def _spans(positions: list[int]) -> list[list[int]]:
    """Sorted row positions in runs, split where two are more than SPAN_GAP apart."""
    spans: list[list[int]] = []
    for p in positions:
        if spans and p - spans[-1][-1] <= SPAN_GAP:
            spans[-1].append(p)
        else:
            spans.append([p])
    return spans
