"""File ▸ Preview Upload…: what the target checked against will receive, made by the code that saves
(io/upload_preview.py). At the top the counts (equal to the shape line) and what the file as a whole
becomes; on the left the cases in the order the target lists them; on the right the selected case:
its turns with the table row beside each (a click selects the row), the verdict and its reasons for
an evaluation set (each rule id links to its explanation in Help), and for SDK JSON the case's
history, prompt, reference and expected calls with its raw JSON.

It follows the window's edits like the shape line, rebuilt a moment after the last change while it is
shown (the wait grows with the time a rebuild took, so typing into a 100k-row file stays fluid)."""

from __future__ import annotations

import html
import time

from PySide6.QtCore import QCoreApplication, QEvent, QItemSelectionModel, Qt, QTimer
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from evaleditor.core.errors import EvalEditorError
from evaleditor.core.i18n import error_text, localized_message
from evaleditor.core.targets import SDK, TARGET_NAMES, get_target
from evaleditor.gui.panels.tool_window import closing
from evaleditor.gui.panels.upload_cases import (
    NAME,
    NUMBER,
    ROWS,
    TURNS,
    UploadCasesModel,
    kind_text,
    verdict_text,
)
from evaleditor.gui.window import theme, windows
from evaleditor.io.upload_preview import (
    ACCEPT,
    ALONE,
    CONVERSATION,
    SINGLE,
    Case,
    Preview,
    build_preview,
    has_preview,
)

translate = QCoreApplication.translate
MIN_DELAY_MS, MAX_DELAY_MS = 200, 3000  # the wait after an edit: twice the last rebuild, within these
MAX_CHARS = 4000  # per field shown


def show(window) -> UploadPreview:
    """Open (or raise) the window's Upload Preview."""
    preview = windows.raise_tool(window, "upload_preview", UploadPreview)
    preview.rebuild()
    return preview


def rule_link(rule: str) -> str:
    return f'<a href="rule:{html.escape(rule)}">{html.escape(rule)}</a>'


class UploadPreview(QWidget):
    def __init__(self, window):
        super().__init__(window, Qt.WindowType.Window)
        self.w = window
        self.preview: Preview | None = None
        self.last_ms = 0.0
        self.target_label = QLabel()
        self.target_combo = QComboBox()
        for name in TARGET_NAMES:
            if has_preview(name):
                self.target_combo.addItem(name, name)  # target ids are public names: never translated
        self.target_label.setBuddy(self.target_combo)
        self.target_combo.activated.connect(lambda i: self.w.documents.set_target(self.target_combo.itemData(i)))
        self.counts = QLabel()
        font = QFont(self.font())
        font.setBold(True)
        font.setPointSizeF(max(font.pointSizeF(), 1) * 1.3)
        self.counts.setFont(font)
        self.counts.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.RichText)
        self.note.linkActivated.connect(self._link)
        self.model = UploadCasesModel(self)
        self.list = QTableView()
        self.list.setModel(self.model)
        self.list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.verticalHeader().hide()
        self.list.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.list.horizontalHeader().setStretchLastSection(True)
        self.list.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.list.selectionModel().currentRowChanged.connect(lambda *_: self.render_case())
        self.detail = QTextBrowser()
        self.detail.setOpenLinks(False)
        self.detail.anchorClicked.connect(lambda url: self._link(url.toString()))
        self.raw = QPlainTextEdit()
        self.raw.setReadOnly(True)
        self.raw.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.detail)
        right.addWidget(self.raw)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.list)
        split.addWidget(right)
        split.setSizes([420, 620])
        top = QHBoxLayout()
        top.addWidget(self.counts, 1)
        top.addWidget(self.target_label)
        top.addWidget(self.target_combo)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.note)
        layout.addWidget(split, 1)
        self.buttons = closing(self)  # Esc, Ctrl+W or Close, as Help closes
        layout.addWidget(self.buttons)
        self._timer = QTimer(self, singleShot=True, interval=MIN_DELAY_MS, timeout=self.rebuild)
        m = window.model
        for signal in (m.modelReset, m.dataChanged, m.structureChanged, m.issuesChanged, m.fileIssuesChanged,
                       m.headerDataChanged, m.layoutChanged):
            signal.connect(self.schedule)
        self.resize(1100, 700)
        self.retranslate()

    # ----- building ---------------------------------------------------------------------------------------
    def schedule(self, *_args) -> None:
        """Rebuild a moment after the last change, while shown."""
        if self.isVisible():
            self._timer.start(int(min(MAX_DELAY_MS, max(MIN_DELAY_MS, 2 * self.last_ms))))

    def rebuild(self) -> None:
        doc = self.w.doc
        keep = self.list.currentIndex().row()
        started = time.perf_counter()
        self.preview, problem = None, ""
        if doc is not None and has_preview(doc.dataset.target.name):
            try:
                self.preview = build_preview(doc)
            except EvalEditorError as exc:  # an SDK save refused (a column named like an SDK key)
                problem = error_text(exc)
        ds = doc.dataset if doc is not None else None
        self.model.set_preview(self.preview, (lambda rid: ds.position(rid) + 1) if ds is not None else (lambda rid: 0))
        self.last_ms = (time.perf_counter() - started) * 1000
        self._header(doc, problem)
        self.list.resizeColumnToContents(NUMBER)
        objects = self.preview is not None and self.preview.objects
        widest = self.list.fontMetrics().horizontalAdvance(kind_text(ALONE)) + 16
        self.list.setColumnWidth(NAME, 180 if objects else max(self.list.columnWidth(NAME), min(widest, 320)))
        hh = self.list.horizontalHeader()
        hh.setStretchLastSection(not objects)  # SDK: the prompt takes the room; tables: the last column
        if self.model.columnCount() > TURNS:
            hh.setSectionResizeMode(TURNS, QHeaderView.ResizeMode.Stretch if objects
                                    else QHeaderView.ResizeMode.Interactive)
        if self.model.rowCount() < 5000:
            self.list.resizeColumnToContents(ROWS)
        if self.model.rowCount():
            row = min(max(keep, 0), self.model.rowCount() - 1)
            self.list.selectionModel().setCurrentIndex(
                self.model.index(row, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows)
        self.render_case()

    def _header(self, doc, problem: str) -> None:
        p = self.preview
        if doc is not None:
            self.target_combo.setCurrentIndex(max(0, self.target_combo.findData(doc.dataset.target.name)))
        self.setWindowTitle(translate("UploadPreview", "Upload Preview \u2014 {target}").format(
            target=doc.dataset.target.name) if doc is not None else translate("UploadPreview", "Upload Preview"))
        if p is None:
            self.counts.setText(translate("UploadPreview", "No file open") if doc is None else "")
            self.note.setText(html.escape(problem))
            return
        self.counts.setText(p.shape.line)  # counted from the cases listed: equal to the shape line
        lines = [html.escape(self._what_it_becomes(p))]
        if p.verdicts:
            rejected = sum(1 for i in range(len(p)) if p.case(i).verdict != ACCEPT)
            if rejected is not None:
                lines.append(html.escape(translate("UploadPreview", "{ok:,} accepted, {bad:,} rejected").format(
                    ok=len(p) - rejected, bad=rejected)))
        for issue in p.refusals:
            lines.append(f'<span style="color:{theme.scheme().foreground["error"].color().name()}">\u2716 ' + html.escape(
                translate("UploadPreview", "The import refuses the whole file:")) + f" {rule_link(issue.rule)} "
                + html.escape(localized_message(issue)) + "</span>")
        self.note.setText("<br/>".join(lines))

    def _what_it_becomes(self, p: Preview) -> str:
        if p.objects and p.target != SDK:  # another platform's records (io/platform_preview.py)
            text = translate("UploadPreview", "One record per row, as the file holds it (below the case).")
            if p.shape.mode == "multi-turn" and not get_target(p.target).conversations:
                text += " " + translate("UploadPreview", "{target} evaluates every row on its own: a "
                                                         "conversation's turns are sent as separate records.").format(
                    target=p.target)
            return text
        if p.objects:
            return translate("UploadPreview", "One case per row. Turn k of a conversation is sent with turns 1 \u2026 "
                                              "k-1 as its history; a row with no session id is a case of its own.")
        if p.shape.mode == "single-turn":
            return translate("UploadPreview", "No column is read as a session id: every row is a single-turn case.")
        alone = sum(1 for kind, _, _ in p.entries if kind == ALONE)
        return translate("UploadPreview", "Conversations are replayed turn by turn in turn order. A row with an "
                                          "empty {header} is a conversation of one turn (a single-turn case): "
                                          "{n:,} here.").format(header=p.session_header, n=alone)

    # ----- the selected case ------------------------------------------------------------------------------
    def current_case(self) -> Case | None:
        index = self.list.currentIndex()
        return self.model.case(index.row()) if index.isValid() and self.preview is not None else None

    def render_case(self) -> None:
        case = self.current_case()
        objects = self.preview is not None and self.preview.objects
        self.raw.setVisible(objects)
        if case is None:
            self.detail.setHtml("")
            self.raw.setPlainText("")
            return
        self.detail.setHtml(self.case_html(case))
        self.raw.setPlainText(case.raw or "")

    def case_html(self, case: Case) -> str:
        t = lambda s: html.escape(s)  # noqa: E731
        parts = []
        if case.kind == CONVERSATION and not (self.preview is not None and self.preview.objects):
            parts.append("<h3>" + t(translate("UploadPreview", "Conversation {name}: {n} turns, in the order "
                                                               "replayed").format(name=case.name, n=len(case.turns)))
                         + "</h3>")
        else:
            parts.append("<h3>" + t(case.name or kind_text(case.kind if case.kind != CONVERSATION else SINGLE))
                         + "</h3>")
        if case.verdict is not None:
            colour = theme.scheme().foreground["error"].color().name() if case.verdict != ACCEPT else "inherit"
            parts.append(f'<p style="color:{colour}"><b>' + t(verdict_text(case.verdict)) + "</b></p>")
            for issue in case.reasons:
                parts.append("<p>\u2716 " + rule_link(issue.rule) + " " + t(localized_message(issue)) + "</p>")
        objects = self.preview is not None and self.preview.objects
        for n, turn in enumerate(case.turns, 1):
            if objects:
                head = translate("UploadPreview", "Turn {n} of conversation {name}").format(
                    n=turn.turn, name=case.session) if case.session else kind_text(SINGLE)
            elif case.session:
                head = translate("UploadPreview", "Turn {n}").format(n=n)
                if turn.turn:
                    head += " (" + translate("UploadPreview", "turn cell {value}").format(value=turn.turn) + ")"
            else:  # a case of its own: a turn number (or the turn cell) means nothing here
                head = ""
            row = translate("UploadPreview", "row {n}").format(n=f"{turn.row:,}")
            lead = f"<b>{t(head)}</b> \u00b7 " if head else ""
            parts.append(f"<p>{lead}<a href=\"row:{turn.row_id}\">{t(row)}</a></p>")
            if turn.history:
                parts.append("<p><i>" + t(translate("UploadPreview", "History sent before the prompt:")) + "</i><br/>"
                             + "<br/>".join(f"<b>{t(a)}</b>: {_field(x)}" for a, x in turn.history) + "</p>")
            question = translate("UploadPreview", "Prompt") if objects else translate("UploadPreview", "Question")
            for label, value in ((question, turn.question),
                                 (translate("UploadPreview", "Reference") if objects
                                  else translate("UploadPreview", "Answer"), turn.answer),
                                 (translate("UploadPreview", "Expected calls"), turn.tool_calls)):
                if value or label == question:  # an empty question is shown: it is what gets sent
                    shown = _field(value) if value else "<i>" + t(translate("UploadPreview", "(empty)")) + "</i>"
                    parts.append(f"<p><b>{t(label)}:</b> {shown}</p>")
        return "".join(parts)

    def _link(self, target: str) -> None:
        kind, _, value = target.partition(":")
        if kind == "row" and value.isdigit():
            self.w.navigation.go_to_issue(None, int(value))
            self.w.activateWindow()
        elif kind == "rule":
            from evaleditor.gui.panels import help_window
            help_window.show(self.w, value)

    # ----- language -----------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.target_label.setText(translate("UploadPreview", "For &target:"))
        self.target_combo.setToolTip(translate("UploadPreview", "The target checked against (the same as the "
                                                                "window's)"))
        self.list.setAccessibleName(translate("UploadPreview", "Cases as the target lists them"))
        self.detail.setAccessibleName(translate("UploadPreview", "The selected case"))
        self.raw.setAccessibleName(translate("UploadPreview", "The selected case as the file holds it"))
        if self.isVisible():
            self.rebuild()

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


def _field(text: str) -> str:
    shown = text if len(text) <= MAX_CHARS else text[:MAX_CHARS] + "\u2026"
    return html.escape(shown).replace("\n", "<br/>")
