"""What the window says about its document in words: its name, the window's title, the banner's source
line (the file, or that it is not saved yet, and its sheet) and the note when two columns share a
header. Pure functions of the document (no widget)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

APP = "evaleditor"
translate = QCoreApplication.translate


def document_name(doc) -> str:
    """The file's name; for a document never saved, the name it was given (the demo's) or Untitled."""
    if doc.path is not None:
        return doc.path.name
    return doc.display_name or translate("MainWindow", "Untitled")


def window_title(doc) -> str:
    """"name[*] — evaleditor": Qt shows the platform's modified mark for `[*]` (an asterisk; on macOS
    the dot in the close button) from setWindowModified."""
    return APP if doc is None else f"{document_name(doc)}[*] \u2014 {APP}"


def source_line(doc) -> str:
    """The banner's first words: the file's path (or "name (not saved yet)") and its sheet."""
    if doc is None:
        return ""
    source = str(doc.path) if doc.path else translate("MainWindow", "{name} (not saved yet)").format(
        name=document_name(doc))
    if doc.sheet and len(doc.sheets) > 1:
        source += " \u00b7 " + translate("MainWindow", "sheet \u201c{sheet}\u201d of {n}").format(
            sheet=doc.sheet, n=len(doc.sheets))
    elif doc.sheet:
        source += " \u00b7 " + translate("MainWindow", "sheet \u201c{sheet}\u201d").format(sheet=doc.sheet)
    return source


def duplicate_header(doc, column: int, header: str) -> str:
    """After column `column` was headed `header` (Rename Column, a quick fix, Undo …): the note when
    another column now has the same header (ignoring case and surrounding spaces) — allowed, but rarely
    meant; else ""."""
    if doc is None or not header.strip():
        return ""
    key = header.strip().casefold()
    if not any(i != column and c.header.strip().casefold() == key for i, c in enumerate(doc.dataset.columns)):
        return ""
    return "\u26a0 " + translate("MainWindow", "Another column is also headed \u201c{header}\u201d: the file will "
                                               "have two columns with that header").format(header=_short(header.strip()))


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "\u2026"
