"""IssuesModel: the validator's issues as a table (severity, rule, row, column, message), filtered by
severity and rule. It is rebuilt (debounced by the panel) when the issues change; rows and columns
are shown by looking the stable ids up, so the list stays right while rows move. Messages are
rendered in the current language when shown; the severity is always also said in words."""

from __future__ import annotations

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
_ROOT = QModelIndex()


class IssuesModel(QAbstractTableModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: Document | None = None
        self.severities = {ERROR, WARNING, INFO}
        self.rule: str | None = None
        self._issues: list[Issue] = []

    def set_document(self, doc: Document | None) -> None:
        self.doc = doc
        self.refresh()

    def set_filter(self, severities: set[str] | None = None, rule: str | None | bool = False) -> None:
        if severities is not None:
            self.severities = set(severities)
        if rule is not False:
            self.rule = rule  # type: ignore[assignment]
        self.refresh()

    def refresh(self) -> None:
        self.beginResetModel()
        if self.doc is None:
            self._issues = []
        else:
            sev, rule = self.severities, self.rule
            self._issues = [i for i in self.doc.validator.all_issues()
                            if i.severity in sev and (rule is None or i.rule == rule)]
        self.endResetModel()

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
