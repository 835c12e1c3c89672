"""The banner above the table: the shape line in large text with the target chooser beside it, a loud
strip when a header is a near miss of the session (or turn) column, with a one-click rename, and the
other file-level problems in a line each.

The shape line is the target's own wording and is never translated; everything around it is. Each
strip says its severity in words too (icon, colour and the accessible name), never by colour alone."""

from __future__ import annotations

import html

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QComboBox, QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from evaleditor.core.document import Document
from evaleditor.core.fixes import fix_label
from evaleditor.core.i18n import localized_message
from evaleditor.core.i18n import text as core_text
from evaleditor.core.rules import ERROR, RULES, WARNING, Issue
from evaleditor.core.targets import (
    AZURE,
    BEDROCK,
    EVALUATION_SET,
    GROUND_TRUTH,
    LANGSMITH,
    PROMPTFOO,
    SDK,
    SDK_FLAT,
    SESSION,
    TARGET_NAMES,
    TURN,
)
from evaleditor.gui.window import settings, theme

translate = QCoreApplication.translate
TARGET_CONTEXT = "Targets"
TARGET_HELP = {  # source texts: translate(TARGET_CONTEXT, …) when shown
    GROUND_TRUTH: QT_TRANSLATE_NOOP("Targets", "ground-truth \u2014 hosted evaluation service (.csv / .xlsx)"),
    EVALUATION_SET: QT_TRANSLATE_NOOP("Targets", "evaluation-set \u2014 agent platform upload (.xlsx, limits)"),
    SDK: QT_TRANSLATE_NOOP("Targets", "sdk \u2014 Evaluation SDK JSON"),
    SDK_FLAT: QT_TRANSLATE_NOOP("Targets", "sdk-flat \u2014 Evaluation SDK flat table (.jsonl / .csv)"),
    AZURE: QT_TRANSLATE_NOOP("Targets", "azure-foundry \u2014 Azure AI Foundry evaluation (.jsonl / .csv)"),
    BEDROCK: QT_TRANSLATE_NOOP("Targets", "bedrock \u2014 Amazon Bedrock model evaluation (.jsonl, \u2264 1,000 prompts)"),
    LANGSMITH: QT_TRANSLATE_NOOP("Targets", "langsmith \u2014 LangSmith dataset (.jsonl / .csv)"),
    PROMPTFOO: QT_TRANSLATE_NOOP("Targets", "promptfoo \u2014 promptfoo test cases (.csv)"),
}
BANNER_SCALE = 1.55  # the shape line's size, relative to the application font
# file-level problems shown as a coloured strip with a one-click fix, loudest first
LOUD_RULES = ("misspelled-session-column", "missing-question-column", "unsupported-file-type",
              "misspelled-turn-column")
MAX_LINES = 4
# quick fixes that act on the whole file, and the row rules whose advice they carry out
WHOLE_FILE_FIXES = ("sort-sessions", "add-turn-numbers")
ADVICE_RULES = ("turns-out-of-file-order",)
SYMBOLS = {ERROR: "\u2716", WARNING: "\u26a0"}


class _Strip(QFrame):
    """A coloured strip: icon, message, and a fix button."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.icon = QLabel()
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.button = QPushButton()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.addWidget(self.icon)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.button)
        self.issue: Issue | None = None
        self.new_header = ""

    def show_issue(self, issue: Issue, loud: str, button: str, new_header: str = "") -> None:
        self.issue, self.new_header = issue, new_header
        bg, fg = theme.scheme().strip[issue.severity]
        border = f"border: 2px solid {fg};" if theme.is_high_contrast() else ""
        self.setStyleSheet(f"_Strip {{ background: {bg}; border-radius: 4px; {border} }} QLabel {{ color: {fg}; }}")
        size = self.fontMetrics().height() + 6
        self.icon.setPixmap(theme.severity_icon(issue.severity, size).pixmap(size, size))
        word = theme.severity_label(issue.severity)
        self.icon.setToolTip(word)
        self.icon.setAccessibleName(word)
        message = localized_message(issue)
        detail = "" if message == loud else f"<br/>{html.escape(message)}"  # one sentence is not said twice
        self.text.setText(f"<b>{html.escape(loud)}</b>{detail}")
        self.setAccessibleName(translate("Banner", "{severity}: {text}").format(severity=word, text=loud))
        self.setAccessibleDescription(message)
        self.button.setText(button)
        self.button.setAccessibleDescription(loud)
        self.show()


class ShapeBanner(QFrame):
    targetChosen = Signal(str)
    renameRequested = Signal(int, str)  # column id, new header
    fixRequested = Signal(object)  # an Issue whose fix needs a choice (the window asks)
    previewRequested = Signal()  # Preview Upload…

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("banner")
        self._doc: Document | None = None
        self._source = ""
        self.shape_label = QLabel()
        self._scale_font()
        self.shape_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                                 | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.shape_label.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.shape_label.setWordWrap(True)
        self.checking_label = QLabel()  # "checking… 40%" beside the shape line while a big file's rows are checked
        self.checking_label.setStyleSheet(f"color: {theme.scheme().muted};")
        self.checking_label.hide()
        self.file_label = QLabel()
        self.file_label.setWordWrap(True)
        self.file_label.setStyleSheet(f"color: {theme.scheme().muted};")
        self.target_combo = QComboBox()
        for name in TARGET_NAMES:  # the same list as Data ▸ Target (gui/window/actions.py)
            self.target_combo.addItem(name, name)  # target ids are public names: never translated
        self.target_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.target_combo.setMinimumContentsLength(14)
        self.target_combo.activated.connect(lambda i: self.targetChosen.emit(self.target_combo.itemData(i)))
        top = QHBoxLayout()
        titles = QVBoxLayout()
        titles.setSpacing(0)
        shape_row = QHBoxLayout()  # the shape line takes the room (it wraps only when the window is narrow)
        shape_row.addWidget(self.shape_label, 1)
        shape_row.addWidget(self.checking_label, 0, Qt.AlignmentFlag.AlignBottom)
        titles.addLayout(shape_row)
        titles.addWidget(self.file_label)
        top.addLayout(titles, 1)
        self.target_label = QLabel()
        self.target_label.setBuddy(self.target_combo)
        top.addWidget(self.target_label)
        top.addWidget(self.target_combo)
        self.preview_button = QPushButton()
        self.preview_button.clicked.connect(self.previewRequested)
        top.addWidget(self.preview_button)
        self.strips = [_Strip(self) for _ in range(3)]
        for strip in self.strips:
            strip.hide()
            strip.button.clicked.connect(lambda _=False, s=strip: self._clicked(s))
        self.problems = QLabel()
        self.problems.setWordWrap(True)
        self.problems.setTextFormat(Qt.TextFormat.RichText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(6)
        layout.addLayout(top)
        for strip in self.strips:
            layout.addWidget(strip)
        layout.addWidget(self.problems)
        self.retranslate()

    def retranslate(self) -> None:
        self.target_label.setText(translate("Banner", "Check &against:"))
        self.target_combo.setToolTip(translate("Banner", "Which upload target the file is checked against: its "
                                                         "headers, limits and rules"))
        self.target_combo.setAccessibleName(translate("Banner", "Target"))
        self.preview_button.setText(translate("Banner", "Preview &Upload\u2026"))
        self.preview_button.setToolTip(translate("Banner", "What the target will receive from this file, case by case"))
        self.target_combo.setAccessibleDescription(self.target_combo.toolTip())
        for i in range(self.target_combo.count()):
            help_text = translate(TARGET_CONTEXT, TARGET_HELP[self.target_combo.itemData(i)])
            self.target_combo.setItemData(i, help_text, Qt.ItemDataRole.ToolTipRole)
            self.target_combo.setItemData(i, help_text, Qt.ItemDataRole.AccessibleTextRole)
        self.setAccessibleName(translate("Banner", "Dataset shape"))
        self.setAccessibleDescription(translate("Banner", "How the target will read the file, and the problems "
                                                          "that change it"))
        self.shape_label.setAccessibleName(translate("Banner", "Shape"))
        self.problems.setAccessibleName(translate("Banner", "File problems"))
        self.update_from(self._doc, self._source)

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.FontChange:
            self._scale_font()
        super().changeEvent(event)

    def _scale_font(self) -> None:
        """The shape line: bold, BANNER_SCALE × the widget's font, so it follows the system size."""
        font = QFont(self.font())
        if font.pointSizeF() > 0:
            font.setPointSizeF(font.pointSizeF() * BANNER_SCALE)
        else:
            font.setPixelSize(round(font.pixelSize() * BANNER_SCALE))
        font.setBold(True)
        self.shape_label.setFont(font)

    def update_from(self, doc: Document | None, source: str = "") -> None:
        self._doc, self._source = doc, source
        self.preview_button.setEnabled(doc is not None)
        if doc is None:
            self.shape_label.setText(translate("Banner", "No file open"))
            self.checking_label.hide()
            self.file_label.setText(translate("Banner", "Open a dataset (File \u25b8 Open), drop one here, or start "
                                                        "from a template."))
            for strip in self.strips:
                strip.hide()
            self.problems.hide()
            self.target_combo.setCurrentIndex(max(0, self.target_combo.findData(settings.last_target())))
            return
        ds = doc.dataset
        self.shape_label.setText(doc.shape.line)
        self.show_checking(*(doc.validator.checking.progress() if doc.validator.checking else (0, 0)))
        self.file_label.setText(source)
        at = self.target_combo.findData(ds.target.name)
        self.target_combo.setCurrentIndex(at)
        issues = doc.validator.file_issues()
        loud = [i for i in issues if i.rule in LOUD_RULES]
        loud.sort(key=lambda i: LOUD_RULES.index(i.rule))
        advice = self._advice(doc, issues)  # advice with a one-click fix gets its button here
        shown = (loud + advice)[:len(self.strips)]
        for strip, issue in zip(self.strips, shown + [None] * len(self.strips), strict=False):
            if issue is None:
                strip.hide()
            elif issue in loud:
                self._show_strip(strip, ds, issue)
            else:
                strip.show_issue(issue, core_text(RULES[issue.rule].title), core_text(fix_label(issue.rule)))
        rest = [i for i in issues if i not in shown and i.severity in (ERROR, WARNING)]
        lines = []
        if doc.validator.awaiting_first_case and ds.rows and not doc.validator.data_row_count():  # File ▸ New's row
            lines.append(html.escape(translate("Banner", "Type your first case in the empty row.")))
        if rest or lines:
            lines += [f"{SYMBOLS[i.severity]} " + html.escape(translate("Banner", "{severity}: {text}").format(
                severity=theme.severity_label(i.severity), text=localized_message(i))) for i in rest[:MAX_LINES]]
            if len(rest) > MAX_LINES:
                lines.append(html.escape(translate("Banner", "\u2026 and {n} more in the Issues panel").format(
                    n=len(rest) - MAX_LINES)))
            self.problems.setText("<br/>".join(lines))
            self.problems.show()
        else:
            self.problems.hide()

    @staticmethod
    def _advice(doc: Document, file_issues: list[Issue]) -> list[Issue]:
        """One issue per whole-file quick fix the document has (sort rows by session and turn, add turn
        numbers): its advice, said in the banner with the fix's button beside it."""
        v = doc.validator
        out, fixes = [], set()
        candidates = [i for i in file_issues if i.rule not in LOUD_RULES]
        for rule in ADVICE_RULES:
            if v.rule_counts.get(rule, 0) and not any(i.rule == rule for i in candidates):
                candidates.append(next((i for i in v.all_issues() if i.rule == rule), None))
        for issue in candidates:
            if issue is None or issue.severity not in (ERROR, WARNING) or RULES[issue.rule].fix not in WHOLE_FILE_FIXES:
                continue
            if RULES[issue.rule].fix not in fixes:
                fixes.add(RULES[issue.rule].fix)
                out.append(issue)
        return out

    def show_checking(self, done: int, total: int) -> None:
        """`done` of `total` rows checked so far; hidden when the document's rows are all checked."""
        checking = self._doc is not None and self._doc.validator.checking is not None
        self.checking_label.setVisible(checking)
        if checking:
            text = translate("Banner", "checking\u2026")
            self.checking_label.setText(f"{text} {done * 100 // total}%" if total else text)
            self.checking_label.setAccessibleName(self.checking_label.text())

    def _show_strip(self, strip: _Strip, ds, issue: Issue) -> None:
        if issue.rule == "missing-question-column":
            strip.show_issue(issue, translate("Banner", "No question column: every case needs a question."),
                             translate("Banner", "Choose the question column\u2026"))
            return
        if issue.rule == "unsupported-file-type":
            strip.show_issue(issue, localized_message(issue), translate("Banner", "Save as .xlsx\u2026"))
            return
        header = ds.columns[ds.column_position(issue.column_id)].header
        if issue.rule == "misspelled-session-column":
            want = ds.target.header_in(SESSION, ds.headers())
            shout = translate("Banner", "The service will read this file as SINGLE-TURN: header \u201c{header}\u201d "
                                        "is not {want}.").format(header=header, want=want)
        else:
            want = ds.target.header_in(TURN, ds.headers())
            shout = translate("Banner", "Turn numbers will be ignored: header \u201c{header}\u201d is not "
                                        "{want}.").format(header=header, want=want)
        strip.show_issue(issue, shout, translate("Banner", "Rename \u201c{header}\u201d to {want}").format(
            header=header, want=want), want)

    def _clicked(self, strip: _Strip) -> None:
        issue = strip.issue
        if issue is None:
            return
        if strip.new_header and issue.column_id is not None:
            self.renameRequested.emit(issue.column_id, strip.new_header)
        else:
            self.fixRequested.emit(issue)
