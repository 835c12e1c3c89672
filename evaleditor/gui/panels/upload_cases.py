"""The list of cases in the Upload Preview: a Qt model over an io/upload_preview.Preview. It keeps
only the preview's entries; a case's turns and verdict are made when its row is painted (the visible
rows of a 100k-row file), and kept until the preview is rebuilt."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, Qt

from evaleditor.core.i18n import localized_message
from evaleditor.core.rules import ERROR
from evaleditor.gui.window import theme
from evaleditor.io.upload_preview import ACCEPT, ALONE, CONVERSATION, SINGLE, Case, Preview

translate = QCoreApplication.translate
R = Qt.ItemDataRole
NUMBER, NAME, TURNS, ROWS, VERDICT = range(5)
_ROOT = QModelIndex()
MAX_CACHED = 2000  # cases kept made; more are made again when scrolled back to
PROMPT_CHARS = 120


def kind_text(kind: str) -> str:
    if kind == CONVERSATION:
        return translate("UploadPreview", "conversation")
    if kind == ALONE:
        return translate("UploadPreview", "no session id: a conversation of one")
    return translate("UploadPreview", "single-turn case")


def verdict_text(verdict: str | None) -> str:
    if verdict is None:
        return ""
    return translate("UploadPreview", "accept") if verdict == ACCEPT else translate("UploadPreview", "reject")


class UploadCasesModel(QAbstractTableModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.preview: Preview | None = None
        self.row_number = lambda row_id: 0  # the window's 1-based number of a row id
        self._made: dict[int, Case] = {}

    def set_preview(self, preview: Preview | None, row_number) -> None:
        self.beginResetModel()
        self.preview, self.row_number = preview, row_number
        self._made = {}
        self.endResetModel()

    def case(self, i: int) -> Case:
        made = self._made.get(i)
        if made is None:
            if len(self._made) >= MAX_CACHED:
                self._made.clear()
            made = self._made[i] = self.preview.case(i)
        return made

    def verdicts(self) -> bool:
        return self.preview is not None and self.preview.verdicts

    def rowCount(self, parent=_ROOT) -> int:  # noqa: N802 - Qt's name
        return 0 if parent.isValid() or self.preview is None else len(self.preview)

    def columnCount(self, parent=_ROOT) -> int:  # noqa: N802 - Qt's name
        return 0 if parent.isValid() else (5 if self.verdicts() else 4)

    def headerData(self, section, orientation, role=R.DisplayRole):  # noqa: N802 - Qt's name
        if orientation != Qt.Orientation.Horizontal or role != R.DisplayRole:
            return None
        if section == TURNS and self.preview is not None and self.preview.objects:
            return translate("UploadPreview", "Prompt")
        return (translate("UploadPreview", "#"), translate("UploadPreview", "Case"),
                translate("UploadPreview", "Turns"), translate("UploadPreview", "Rows"),
                translate("UploadPreview", "Verdict"))[section]

    def data(self, index, role=R.DisplayRole):
        if not index.isValid() or self.preview is None:
            return None
        i, col = index.row(), index.column()
        kind, name, ids = self.preview.entries[i]
        if role == R.DisplayRole:
            if col == NUMBER:
                return f"{i + 1:,}"
            if col == NAME:
                if self.preview.objects:
                    return name or kind_text(SINGLE)
                return name or kind_text(kind)
            if col == TURNS:
                if self.preview.objects:
                    prompt = self.case(i).turns[0].question.replace("\n", " ")
                    return prompt[:PROMPT_CHARS] + ("\u2026" if len(prompt) > PROMPT_CHARS else "")
                return f"{len(ids):,}"
            if col == ROWS:
                return _rows_text([self.row_number(r) for r in ids])
            if col == VERDICT:
                return verdict_text(self.case(i).verdict)
        if role == R.DecorationRole and col == VERDICT:
            return theme.severity_icon(ERROR) if self.case(i).verdict != ACCEPT else None
        if role == R.ToolTipRole and col == VERDICT:
            reasons = self.case(i).reasons
            return "\n".join(f"[{r.rule}] {localized_message(r)}" for r in reasons) or None
        if role == R.ForegroundRole and col == VERDICT and self.case(i).verdict != ACCEPT:
            return theme.scheme().foreground[ERROR]
        return None


def _rows_text(numbers: list[int]) -> str:
    """"4", "4–6" for consecutive rows, "4, 9, 12" otherwise (at most 4 listed)."""
    if not numbers:
        return ""
    ordered = sorted(numbers)
    if ordered == list(range(ordered[0], ordered[-1] + 1)) and len(ordered) > 1:
        return f"{ordered[0]:,}\u2013{ordered[-1]:,}"
    shown = ", ".join(f"{n:,}" for n in numbers[:4])
    return shown + (", \u2026" if len(numbers) > 4 else "")
