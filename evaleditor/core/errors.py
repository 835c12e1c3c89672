"""Errors that carry a one-line reason for the user (never a traceback)."""

from __future__ import annotations

from typing import NamedTuple


class EvalEditorError(Exception):
    """Base: str(err) is the one-line reason shown to the user."""


def one_line(text: str) -> str:
    """`text` with line breaks and other control characters escaped (`\\n`): a file name or a key
    taken from a file cannot break a message over several lines."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in text)


class ReadError(EvalEditorError):
    def __init__(self, path: object, reason: object):  # a str, or an i18n.Msg: translated when shown (error_text)
        self.path = str(path)
        self.reason_msg = None if isinstance(reason, str) else reason
        self.reason = one_line(str(reason))
        super().__init__(f"{one_line(self.path)}: {self.reason}")


class WriteError(EvalEditorError):
    def __init__(self, path: object, reason: object):  # a str, or an i18n.Msg: translated when shown (error_text)
        self.path = str(path)
        self.reason_msg = None if isinstance(reason, str) else reason
        self.reason = one_line(str(reason))
        super().__init__(f"{one_line(self.path)}: {self.reason}")


class ReadOnlyTarget(WriteError):
    """The file a save would replace is read-only: replaced only when the user says so."""


class UnstorableCell(WriteError):
    """The data holds what the output format cannot store (a lone surrogate, a control character): the
    data's fault, not the disk's, so `convert` exits 1 (refused because of the data), not 2. The reason
    names the first such cell; `cells` counts them all."""

    cells = 1


class Mismatch(NamedTuple):
    """One cell that did not read back as written.

    `row`: the 1-based row number as the editor shows it; None for the header row (or the whole file).
    `column`: the column's header as written (for SDK JSON: the path inside the case, e.g.
    `eval_cases[3].prompt.parts[0].text`); None when a whole row is missing or extra.
    `expected` / `found`: what was written and what was read back ("" when absent).
    """

    row: int | None
    column: str | None
    expected: str
    found: str

    def place(self) -> str:
        if self.row is None:
            return f"header {self.column!r}" if self.column is not None else "the file"
        if self.column is None:
            return f"row {self.row}"
        return f"row {self.row}, column {self.column}"


class VerifyError(WriteError):
    """The file written did not read back as what was meant to be written; the old file was kept.

    `mismatches` holds every difference found (the window can list them); str(err) is one line naming
    how many and the first few.
    """

    SHOWN = 3

    def __init__(self, path: object, mismatches: list[Mismatch], reason: str | None = None):
        self.mismatches = list(mismatches)
        if reason is None:
            reason = f"the saved file did not read back as written: {self.summary()}; the old file was kept"
        super().__init__(path, reason)

    def summary(self) -> str:
        """How many cells differ and where the first few are: `2 cells differ (row 12, column answer; …)`."""
        n = len(self.mismatches)
        first = "; ".join(m.place() for m in self.mismatches[:self.SHOWN])
        more = ", …" if n > self.SHOWN else ""
        return f"{n:,} cell{'s' if n != 1 else ''} differ{'s' if n == 1 else ''} ({first}{more})"


class Cancelled(EvalEditorError):
    """A long read or write was cancelled by the user."""
