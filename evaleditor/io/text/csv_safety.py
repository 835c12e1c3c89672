"""CSV injection: cells that Excel would run as formulas when it opens a CSV file.

Excel (and LibreOffice, Google Sheets) treats a CSV cell starting with `=`, `+`, `-` or `@` as a
formula, and OWASP's CSV-injection guidance adds a leading tab or carriage return. A plain number
such as `-3` or `+1.5e3` is left alone: it is read as that number, nothing runs.

Workbooks are not concerned: every .xlsx cell is written as a string cell, never a formula. The CSV
writer keeps cells exactly as they are unless asked (`neutralise_formulas=True`), which prefixes such
cells with a single quote `'` — Excel then shows them as text (with the quote visible in the cell).
"""

from __future__ import annotations

import re

from evaleditor.core.i18n import NP_, Msg

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def is_formula_like(text: str) -> bool:
    return bool(text) and text.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(text)


def formula_like_cells(headers: list[str], rows: list[list[str]]) -> list[tuple[int, int]]:
    """(row index, column index) of every formula-like cell; row index -1 is the header row, 0 the
    first data row."""
    found = [(-1, j) for j, h in enumerate(headers) if is_formula_like(h)]
    for i, row in enumerate(rows):
        if not any(c[:1] in _FIRST for c in row):
            continue  # the common case, one test per row
        found.extend((i, j) for j, c in enumerate(row) if is_formula_like(c))
    return found


_FIRST = frozenset(FORMULA_STARTS)


def neutralise(text: str) -> str:
    """`text` made inert for Excel: a formula-like cell gets a leading `'`."""
    return "'" + text if is_formula_like(text) else text


def neutralise_row(row: list[str]) -> list[str]:
    """The row with formula-like cells neutralised (the same list when none is)."""
    if not any(c[:1] in _FIRST for c in row):
        return row
    return [neutralise(c) for c in row]


def formula_warning(headers: list[str], rows: list[list[str]]) -> Msg | None:
    """The warning for a CSV holding formula-like cells (a Msg: str() is English), else None."""
    n = len(formula_like_cells(headers, rows))
    if not n:
        return None
    return Msg(NP_("{n:,} cell starts with =, +, - or @ and would run as a formula if the CSV is opened in "
                   "Excel; import it with Data > From Text/CSV, or convert to .xlsx, where it stays text",
                   "{n:,} cells start with =, +, - or @ and would run as formulas if the CSV is opened in "
                   "Excel; import it with Data > From Text/CSV, or convert to .xlsx, where they stay text",
                   "n"), (("n", n),))
