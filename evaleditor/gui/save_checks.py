"""What the window checks and says around a save: cells Excel would run as formulas in a CSV file,
and a save whose file did not read back as written.

CSV formulas: before writing a .csv holding cells that start with =, +, - or @ (io/csv_safety.py),
the window says how many and asks: write them safely (a leading ' makes Excel show them as text),
write them as they are, or cancel. The answer is remembered for that file until the window opens
another document, so repeated Ctrl+S does not ask again; Save As to another .csv asks again.

Self-verifying save: save_document reads the file back before it replaces the old one; a difference
raises VerifyError with the cells that differ. The window then keeps the document modified, the old
file stays on disk (io/save.py), and the error lists the first differences.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject

from evaleditor.core.errors import VerifyError
from evaleditor.core.i18n import error_text
from evaleditor.gui import dialogs


class SaveChecks(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self._csv_choice: tuple[object, str, bool] | None = None  # (document, path, neutralise)

    def neutralise_formulas(self, path: Path, fmt: str) -> bool | None:
        """`neutralise_formulas` for saving the document to `path`; None when the user cancelled."""
        if fmt != "csv":
            return False
        doc = self.window.doc
        key = str(Path(path).absolute())
        if self._csv_choice is not None and self._csv_choice[0] is doc and self._csv_choice[1] == key:
            return self._csv_choice[2]
        from evaleditor.core.export import export_headers, export_rows
        from evaleditor.io.csv_safety import formula_like_cells

        n = len(formula_like_cells(export_headers(doc.dataset), export_rows(doc.dataset)))
        if not n:
            return False
        answer = dialogs.ask_csv_formulas(self.window, n)
        if answer is None:
            return None
        self._csv_choice = (doc, key, answer)
        return answer

    def show_error(self, title: str, exc: BaseException | None, message: str = "") -> None:
        """A failed save: the cells that differ for a VerifyError, else the one-line reason."""
        if isinstance(exc, VerifyError):
            dialogs.show_verify_error(self.window, exc.path, exc.mismatches)
        else:
            dialogs.show_error(self.window, title, error_text(exc) if exc is not None else message)
