"""The Issues dock: every issue, filterable by severity and rule; a click jumps to the cell;
"Fix all" fixes every issue of the chosen kind as one undo step.

The list follows the issues a few times a second at most (REFRESH_MS), also while a big file is being
checked: it lists the issues as they are found. Only the lines that changed change, and the user's
place stays: the issue chosen stays chosen, the line at the top stays at the top."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QMenu,
    QPushButton,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from evaleditor.core.document import Document
from evaleditor.core.fixes import fix_label
from evaleditor.core.i18n import text as core_text
from evaleditor.core.rules import ERROR, INFO, RULES, WARNING, Issue
from evaleditor.gui.panels.issues_model import RULE_COLUMN, IssuesModel
from evaleditor.gui.window import theme

REFRESH_MS = 150  # the list follows the issues at most this often
COLUMN_CHARS = {0: 12, 2: 7, 3: 14}  # initial widths of Severity, Row, Column in average characters (Rule: its ids)
translate = QCoreApplication.translate


class IssuesPanel(QWidget):
    issueActivated = Signal(object)  # Issue
    fixAllRequested = Signal(str)  # rule id
    ruleHelpRequested = Signal(str)  # rule id: its explanation in Help (a click on the rule id, a link)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.model = IssuesModel(self)
        self._timer = QTimer(self, singleShot=True, interval=REFRESH_MS, timeout=self.refresh)
        self.toggles: dict[str, QToolButton] = {}
        self._menu_said = None  # what Fix all's menu says (_offer_every_fix)
        self._rules_said = None  # what the rule filter offers (_rebuild_rules)
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        for sev in (ERROR, WARNING, INFO):
            b = QToolButton(checkable=True, checked=True)
            b.setIcon(theme.severity_icon(sev))
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            b.toggled.connect(self._filters_changed)
            self.toggles[sev] = b
            bar.addWidget(b)
        self.rule_combo = QComboBox()
        self.rule_combo.setMinimumContentsLength(18)
        self.rule_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.rule_combo.currentIndexChanged.connect(self._filters_changed)
        bar.addWidget(self.rule_combo, 1)
        self.fix_button = QPushButton()
        self.fix_button.clicked.connect(self._fix_all)
        bar.addWidget(self.fix_button)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setWordWrap(False)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.view.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.view.setTabKeyNavigation(False)  # Tab leaves the list; arrows move, Enter jumps to the cell
        hh = self.view.horizontalHeader()
        char = max(self.fontMetrics().averageCharWidth(), 1)
        for col, chars in COLUMN_CHARS.items():
            hh.resizeSection(col, chars * char + 24)
        hh.resizeSection(1, max(map(self.fontMetrics().horizontalAdvance, RULES)) + 24)  # every rule id whole
        hh.setStretchLastSection(True)
        self.view.clicked.connect(self._clicked)
        self.view.activated.connect(self._activated)
        self.view.selectionModel().currentRowChanged.connect(lambda *_: self._update_fix_button())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.view, 1)
        self.retranslate()

    def retranslate(self) -> None:
        names = {ERROR: translate("IssuesPanel", "Show errors"), WARNING: translate("IssuesPanel", "Show warnings"),
                 INFO: translate("IssuesPanel", "Show info")}
        for sev, b in self.toggles.items():
            b.setToolTip(names[sev])
            b.setAccessibleName(names[sev])
        self.rule_combo.setAccessibleName(translate("IssuesPanel", "Rule filter"))
        self.view.setAccessibleName(translate("IssuesPanel", "Issues"))
        self.view.setAccessibleDescription(translate("IssuesPanel", "Every issue of the file. Enter goes to its "
                                                                    "cell; F8 and Shift+F8 walk them from the table."))
        self.setAccessibleName(translate("IssuesPanel", "Issues panel"))
        if self.model.doc is not None:
            self._keeping_place(self.model.refresh)  # the messages in the new language
        self._show_rules_and_counts()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def set_document(self, doc: Document | None) -> None:
        self.model.set_document(doc)
        self._show_rules_and_counts()

    def schedule_refresh(self) -> None:
        """The issues changed: the list follows within REFRESH_MS (not later however often they change:
        a check in slices changes them all the time)."""
        if not self._timer.isActive():
            self._timer.start()

    def refresh(self) -> None:
        """The list, the rule filter's counts and Fix all up to date now."""
        self._timer.stop()  # a refresh asked for before this one is done by it
        self._keeping_place(self.model.sync)
        self._show_rules_and_counts()

    def _show_rules_and_counts(self) -> None:
        if self._rebuild_rules():
            self.model.reset()  # the rule filtered by has no issue left: every rule's again
        self.show_counts()
        self._update_fix_button()

    def _keeping_place(self, change) -> None:
        """Run `change` of the list, the issue chosen still chosen and the line at the top (once the user
        scrolled) still at the top, wherever the lines before them went."""
        selected = self.current_issue()
        top = self.view.rowAt(0)
        top_issue = self.model.issue(top) if top > 0 else None
        change()
        if selected is not None and self.current_issue() != selected:
            line = self.model.line_of(selected)
            if line is not None:
                self.view.selectRow(line)
        if top_issue is not None:
            line = self.model.line_of(top_issue)
            if line is not None and line != self.view.rowAt(0):
                self.view.scrollTo(self.model.index(line, 0), QAbstractItemView.ScrollHint.PositionAtTop)

    def current_issue(self) -> Issue | None:
        idx = self.view.currentIndex()
        return self.model.issue(idx.row()) if idx.isValid() and idx.row() < self.model.rowCount() else None

    def chosen_rule(self) -> str | None:
        rule = self.rule_combo.currentData()
        if rule:
            return rule
        issue = self.current_issue()
        return issue.rule if issue is not None else None

    # ----- internals -----------------------------------------------------------------------------
    def _filters_changed(self) -> None:
        sev = {s for s, b in self.toggles.items() if b.isChecked()}
        self.model.set_filter(sev, self.rule_combo.currentData() or None)
        self._update_fix_button()

    def _rebuild_rules(self) -> bool:
        """The rule filter's choices: every rule, then each rule with issues and its count; the same rules
        as before are updated in place, not rebuilt under the user. True when the rule filtered by has no
        issue left (the filter is then every rule)."""
        doc = self.model.doc
        combo = self.rule_combo
        current = combo.currentData()
        counts = doc.validator.rule_counts if doc is not None else {}
        present = sorted((r for r, n in counts.items() if n > 0), key=lambda r: list(RULES).index(r))
        said = present, doc and doc.dataset.target.name, translate("IssuesPanel", "All rules")  # the language too
        combo.blockSignals(True)
        if said == self._rules_said:  # the same rules, other counts
            for i, rule in enumerate(present, 1):
                combo.setItemText(i, f"{rule} ({counts[rule]})")
        else:
            self._rules_said = said
            combo.clear()
            combo.addItem(said[-1], None)
            for rule in present:
                severity = RULES[rule].severity_for(doc.dataset.target.name)
                combo.addItem(theme.severity_icon(severity), f"{rule} ({counts[rule]})", rule)
                title = translate("IssuesPanel", "{severity}: {title}").format(
                    severity=theme.severity_label(severity), title=core_text(RULES[rule].title))
                combo.setItemData(combo.count() - 1, title, Qt.ItemDataRole.ToolTipRole)
        at = combo.findData(current) if current else 0
        combo.setCurrentIndex(max(at, 0))
        combo.blockSignals(False)
        if current and at < 0:
            self.model.rule = None
            return True
        return False

    def show_counts(self) -> None:
        """The severity toggles say the validator's counts (kept current while a check runs, like the
        status bar's; the list follows within REFRESH_MS)."""
        doc = self.model.doc
        counts = doc.validator.counts if doc is not None else {}
        for sev, b in self.toggles.items():
            b.setText(f"{counts.get(sev, 0):,}")
            b.setAccessibleDescription(translate("IssuesPanel", "{n} \u00d7 {severity}").format(
                n=f"{counts.get(sev, 0):,}", severity=theme.severity_label(sev)))

    def _update_fix_button(self) -> None:
        rule = self.chosen_rule()
        if rule is None and self._offer_every_fix():
            return
        self._drop_menu()
        label = fix_label(rule) if rule else None
        doc = self.model.doc
        n = doc.validator.rule_counts.get(rule, 0) if (doc is not None and rule) else 0
        self.fix_button.setEnabled(bool(label) and n > 0)
        self.fix_button.setText(translate("IssuesPanel", "Fix all: {fix} ({n})").format(fix=core_text(label), n=n)
                                if label and n else translate("IssuesPanel", "Fix all"))
        self.fix_button.setToolTip(translate("IssuesPanel", "Fix every {rule} issue as one undo step").format(rule=rule)
                                   if label else translate("IssuesPanel", "Choose a rule (or an issue) that has a "
                                                                          "quick fix"))

    def _offer_every_fix(self) -> bool:
        """Under "All rules" with no issue chosen, Fix all is a menu of every kind with a quick fix
        (its count): what can be fixed is offered from wherever the user stands. The menu is made again
        only when what it says changes, and not while it is open."""
        doc = self.model.doc
        counts = doc.validator.rule_counts if doc is not None else {}
        fixable = [(r, counts[r]) for r in RULES if counts.get(r, 0) > 0 and fix_label(r)]
        if not fixable:
            return False
        said = (fixable, translate("IssuesPanel", "Fix all"))  # the language too
        menu = self.fix_button.menu()
        if menu is not None and (menu.isVisible() or self._menu_said == said):
            return True
        self._drop_menu()
        self._menu_said = said
        menu = QMenu(self.fix_button)
        for rule, n in fixable:
            action = menu.addAction(translate("IssuesPanel", "{fix} — {rule} ({n})").format(
                fix=core_text(fix_label(rule)), rule=rule, n=f"{n:,}"))
            action.triggered.connect(lambda _=False, r=rule: self.fixAllRequested.emit(r))
        self.fix_button.setMenu(menu)
        self.fix_button.setEnabled(True)
        self.fix_button.setText(translate("IssuesPanel", "Fix all (1 kind)") if len(fixable) == 1 else
                                translate("IssuesPanel", "Fix all ({n} kinds)").format(n=len(fixable)))
        self.fix_button.setToolTip(translate("IssuesPanel", "Every kind of issue with a quick fix; each is one undo step"))
        return True

    def _drop_menu(self) -> None:
        menu = self.fix_button.menu()
        if menu is not None:
            self.fix_button.setMenu(None)
            menu.deleteLater()
        self._menu_said = None

    def _fix_all(self) -> None:
        rule = self.chosen_rule()
        if rule:
            self.fixAllRequested.emit(rule)

    def _clicked(self, index: QModelIndex) -> None:
        """A click on a rule id (shown as a link) opens its explanation; elsewhere goes to the cell."""
        if index.isValid() and index.column() == RULE_COLUMN:
            self.ruleHelpRequested.emit(self.model.issue(index.row()).rule)
            return
        self._activated(index)

    def _activated(self, index: QModelIndex) -> None:
        if index.isValid():
            self.issueActivated.emit(self.model.issue(index.row()))
            self._update_fix_button()
