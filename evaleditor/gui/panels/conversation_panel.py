"""The Conversation dock: the current row's conversation as the service replays it — per turn the
question, the expected answer and the expected tool calls. Clicking a turn selects its row.

Line breaking: Qt may break a line between any two Chinese (or Japanese) characters, as it should in
running text; the panel's own short labels ("Turn 1", "row 4", "◀ selected", the field names) are kept
whole with word joiners (U+2060) and no-break spaces, so that "已选中" moves to the next line in one
piece instead of ending as "已选" / "中". The dataset's text wraps normally."""

from __future__ import annotations

import html

from PySide6.QtCore import QCoreApplication, QEvent, QTimer, QUrl, Signal
from PySide6.QtWidgets import QLabel, QTextBrowser, QVBoxLayout, QWidget

from evaleditor.core.conversation import transcript
from evaleditor.core.document import Document
from evaleditor.core.targets import TOOL_CALLS, TURN
from evaleditor.gui.window import theme

MAX_TURNS = 200  # a pathological "conversation" of thousands of rows is cut, with a note
MAX_CHARS = 4000  # per field
WORD_JOINER, NO_BREAK_SPACE = "\u2060", "\u00a0"
translate = QCoreApplication.translate


def keep_together(text: str) -> str:
    """`text` as one unbreakable piece of a line: no-break spaces, and a word joiner between two
    characters where either is not ASCII (Latin words do not break inside anyway)."""
    out = []
    for i, ch in enumerate(text):
        if i and ch != " " and text[i - 1] != " " and not (ch.isascii() and text[i - 1].isascii()):
            out.append(WORD_JOINER)
        out.append(ch)
    return "".join(out).replace(" ", NO_BREAK_SPACE)


def _label(text: str) -> str:
    """A short label of the panel (translated text, not the user's), HTML-escaped and kept whole."""
    return html.escape(keep_together(text))


class ConversationPanel(QWidget):
    rowActivated = Signal(int)  # row id

    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: Document | None = None
        self.row_id: int | None = None
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self._clicked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.browser, 1)
        self.setFocusProxy(self.browser)
        self._timer = QTimer(self, singleShot=True, interval=80, timeout=self.render)
        self.retranslate()

    def retranslate(self) -> None:
        self.setAccessibleName(translate("ConversationPanel", "Conversation panel"))
        self.browser.setAccessibleName(translate("ConversationPanel", "Conversation"))
        self.browser.setAccessibleDescription(translate(
            "ConversationPanel", "The selected row's conversation, turn by turn, as the service replays it. Tab "
                                 "moves between the turns' links; Enter selects that row."))
        self.render()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def set_document(self, doc: Document | None) -> None:
        self.doc = doc
        self.row_id = None
        self.render()

    def show_row(self, row_id: int | None) -> None:
        if row_id != self.row_id:
            self.row_id = row_id
            self._timer.start()

    def schedule_render(self) -> None:
        """Render soon: at most 80 ms after the first change, however many follow (a check pass reports
        a block of rows every few milliseconds; restarting the wait would put the panel off until it ends)."""
        if not self._timer.isActive():
            self._timer.start()

    def render(self) -> None:
        doc, rid = self.doc, self.row_id
        if doc is None or rid is None or not doc.dataset.has_row(rid):
            self.title.setText(translate("ConversationPanel", "Select a row to see its conversation."))
            self.browser.clear()
            return
        sid, turns = transcript(doc.validator, rid)
        n = len(turns)
        if sid is None:
            self.title.setText(translate("ConversationPanel", "<b>Single-turn case</b> (no session id)"))
        else:
            title = (translate("ConversationPanel", "<b>Conversation {sid}</b> \u2014 1 turn, in the order the service "
                                                    "replays them") if n == 1 else
                     translate("ConversationPanel", "<b>Conversation {sid}</b> \u2014 {n} turns, in the order the "
                                                    "service replays them"))
            self.title.setText(title.format(sid=html.escape(sid), n=n))
        muted = theme.scheme().muted
        highlight = theme.scheme().header_band[0].color().name()
        ds = doc.dataset
        parts = []
        names = tuple(_label(n) for n in (translate("ConversationPanel", "Question"),
                                          translate("ConversationPanel", "Expected answer"),
                                          translate("ConversationPanel", "Expected tool calls")))
        tools = ds.target.knows(TOOL_CALLS)  # evaluation-set has no such field: no "(empty)" for it
        tpos = ds.field_position(TURN)
        turn_header = ds.columns[tpos].header if tpos is not None else TURN
        for turn in turns[:MAX_TURNS]:
            current = turn.row_id == rid
            row_no = ds.position(turn.row_id) + 1
            row_text = _label(translate("ConversationPanel", "row {n}").format(n=row_no))
            if sid is None:  # a case of its own: a turn number (or the turn cell) means nothing here
                link = f"<b>{row_text}</b>"
            else:
                label = _label(translate("ConversationPanel", "Turn {n}").format(n=turn.number))
                if turn.turn_text and turn.turn_text.strip() != str(turn.number):  # as typed, under its own header
                    label += " " + translate("ConversationPanel", "({header} {value})").format(
                        header=html.escape(turn_header), value=html.escape(turn.turn_text))
                link = f"<b>{label}</b> \u00b7 {row_text}"
            marker = " " + _label("\u25c0 " + translate("ConversationPanel", "selected")) if current else ""
            bg = f' bgcolor="{highlight}"' if current else ""
            parts.append(
                f'<table width="100%" cellpadding="6" cellspacing="0" border="1"{bg} '
                f'style="border-color:{muted}; border-style:solid; margin-bottom:8px"><tr><td>'
                f'<a href="row:{turn.row_id}">{link}</a>'
                f'<span style="color:{muted}">{marker}</span><br/>'
                f'{_field(names[0], turn.question, muted)}'
                f'{_field(names[1], turn.answer, muted)}'
                + (_field(names[2], turn.tool_calls, muted, mono=True) if tools else "")
                + "</td></tr></table>")
        if n > MAX_TURNS:
            parts.append("<p>" + translate("ConversationPanel", "\u2026 and {n} more turns.").format(
                n=f"{n - MAX_TURNS:,}") + "</p>")
        self.browser.setHtml("".join(parts))

    def _clicked(self, url: QUrl) -> None:
        text = url.toString()
        if text.startswith("row:"):
            try:
                self.rowActivated.emit(int(text[4:]))
            except ValueError:
                pass


def _field(name: str, text: str, muted: str, mono: bool = False) -> str:
    if not text.strip():
        empty = _label(translate("ConversationPanel", "(empty)"))
        body = f'<i style="color:{muted}">{empty}</i>'
    else:
        shown = text[:MAX_CHARS] + ("\u2026" if len(text) > MAX_CHARS else "")
        body = html.escape(shown).replace("\n", "<br/>")
        if mono:
            body = f'<span style="font-family: monospace">{body.replace("  ", "&nbsp;&nbsp;")}</span>'
    return f'<div style="margin-top:4px"><span style="color:{muted}">{name}</span><br/>{body}</div>'
