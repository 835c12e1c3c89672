"""What the two workbook readers share: choosing the sheet to open, and turning its grid into a table."""

from __future__ import annotations

from collections.abc import Callable

from evaleditor.core.errors import ReadError
from evaleditor.core.i18n import N_
from evaleditor.core.table import LoadNote, RawTable
from evaleditor.core.targets import QUESTION, TARGETS
from evaleditor.io.grid import Grid


def has_question_header(header: list[str], target: str | None = None) -> bool:
    """Whether a header names the question column, for `target` (None: for any target)."""
    targets = [TARGETS[target]] if target else TARGETS.values()
    return any(t.recognise(h) == QUESTION for t in targets for h in header if h)


def pick_sheet(
    path: object, names: list[str], sheet: str | None, first_row: Callable[[str], list[str] | None],
    target: str | None = None,
) -> str:
    """`sheet` if given; else the first sheet whose header names a question — as `target` reads headers
    when given (`--target ground-truth`: an English sheet after a Chinese one), else as any target
    does; else the first with data."""
    if sheet is not None:
        if sheet in names:
            return sheet
        folded = [n for n in names if n.casefold() == sheet.casefold()]
        if len(folded) == 1:
            return folded[0]
        listed = ", ".join(repr(n) for n in names) or "none"
        raise ReadError(path, f"the workbook has no sheet named {sheet!r} (its sheets: {listed})")
    if not names:
        raise ReadError(path, N_("the workbook has no worksheet"))
    first_with_data = first_with_question = None
    for name in names:
        header = first_row(name)
        if header is None:
            continue
        if has_question_header(header, target):
            return name
        if first_with_question is None and target is not None and has_question_header(header):
            first_with_question = name
        if first_with_data is None:
            first_with_data = name
    if first_with_data is None:
        raise ReadError(path, N_("the workbook is empty (no sheet has any cell)"))
    return first_with_question or first_with_data


def grid_to_table(
    path: object, grid: Grid | None, fmt: str, name: str, names: list[str], notes: list[LoadNote]
) -> RawTable:
    if grid is None:
        raise ReadError(path, f"the sheet {name!r} is empty")
    return RawTable(headers=grid.headers, rows=grid.rows, source_format=fmt, sheet=name,
                    sheets=list(names), notes=notes, source_rows=grid.source_rows())
