"""What a cell shows besides its text, cached so that `data()` does no validation work:
per-row issue marks, bounded previews of long cells, conversation bands, column labels.

The model drops entries when the dataset or the validator says they changed.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from evaleditor.core.rules import SEVERITY_RANK
from evaleditor.core.validation import Validator
from evaleditor.gui.panels.issues_model import describe
from evaleditor.gui.table import headers as table_headers
from evaleditor.gui.table.bands import Bands

PREVIEW = 200  # characters shown in a cell
TOOLTIP_TEXT = 1200  # characters of a long cell repeated in its tooltip
NO_MARKS: dict = {}
SYMBOL = {"error": "\u2716", "warning": "\u26a0", "info": "\u2139"}


class CellCache:
    def __init__(self, validator: Validator):
        self.validator = validator
        self.marks_by_row: dict[int, dict] = {}
        self.previews: dict[tuple[int, int], str] = {}
        self.labels: list[table_headers.ColumnLabel] | None = None
        self.bands = Bands(validator)

    def clear(self) -> None:
        self.marks_by_row.clear()
        self.previews.clear()
        self.labels = None
        self.bands.reset()

    def marks(self, row_id: int) -> dict:
        """{column id: (worst severity, tooltip)} plus "row": the row's worst severity; {} if clean."""
        marks = self.marks_by_row.get(row_id)
        if marks is None:
            issues = self.validator.row_issues(row_id)
            if not issues:
                marks = NO_MARKS
            else:
                by_col: dict = {}
                for i in issues:
                    by_col.setdefault(i.column_id, []).append(i)
                marks = {}
                for cid, found in by_col.items():
                    found.sort(key=lambda i: -SEVERITY_RANK[i.severity])
                    tip = "\n".join(f"{SYMBOL[i.severity]} {describe(i)}" for i in found)
                    marks[cid] = (found[0].severity, tip)
                marks["row"] = max((i.severity for i in issues), key=SEVERITY_RANK.__getitem__)
            self.marks_by_row[row_id] = marks
        return marks

    def preview(self, row_id: int, column_id: int, text: str) -> str:
        """The first line, at most PREVIEW characters, with "…" when cut and "⏎" when multi-line."""
        key = (row_id, column_id)
        found = self.previews.get(key)
        if found is None:
            head = text[:PREVIEW + 1]
            breaks = [i for i in (head.find("\n"), head.find("\r")) if i >= 0]
            if breaks:
                found = f"{head[:min(breaks)]} \u23ce \u2026"
            else:
                found = head[:PREVIEW] + ("\u2026" if len(text) > PREVIEW else "")
            self.previews[key] = found
        return found

    def band(self, row_id: int) -> int | None:
        """0, 1 or 2, unlike the conversations beside this row's (table/bands.py); None for a row without a session."""
        return self.bands.band(row_id)

    def column_label(self, position: int) -> table_headers.ColumnLabel:
        if self.labels is None:
            self.labels = table_headers.column_labels(self.validator)
        return self.labels[position]


def tooltip(mark: tuple[str, str] | None, text: str) -> str | None:
    """The cell's issue messages, then (for a long or multi-line cell) its text, bounded."""
    long = len(text) > 60 or "\n" in text
    if mark is None and not long:
        return None
    parts = [mark[1]] if mark is not None else []
    if long:
        shown = text[:TOOLTIP_TEXT] + ("\u2026" if len(text) > TOOLTIP_TEXT else "")
        parts.append(QCoreApplication.translate("Cells", "{n:,} characters:").format(n=len(text)) + "\n" + shown)
    return "\n\n".join(parts)


def is_short(text: str) -> bool:
    return len(text) <= PREVIEW and "\n" not in text and "\r" not in text
