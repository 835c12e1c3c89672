"""Find, replace and row filters over a dataset: the queries behind the editor's find/replace dialog
and filter bar. Filtering happens here, over the core's rows, never in a Qt proxy model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from evaleditor.core.commands import SetCells
from evaleditor.core.dataset import Dataset
from evaleditor.core.i18n import N_, NP_, Msg
from evaleditor.core.rules import ERROR, WARNING
from evaleditor.core.validation import Validator


@dataclass(frozen=True)
class FindQuery:
    pattern: str
    regex: bool = False
    match_case: bool = False
    whole_cell: bool = False
    column_id: int | None = None  # search one column only

    def compile(self) -> re.Pattern[str]:
        """The compiled pattern; raises ValueError with a one-line reason for a bad regex."""
        source = self.pattern if self.regex else re.escape(self.pattern)
        if self.whole_cell:
            source = rf"(?:{source})\Z"
        flags = 0 if self.match_case else re.IGNORECASE
        try:
            return re.compile(source, flags | re.DOTALL if self.regex else flags)
        except re.error as exc:
            raise ValueError(Msg(N_("invalid regular expression: {error}"), (("error", str(exc)),))) from None


@dataclass(frozen=True)
class FindResult:
    matches: int  # occurrences
    cells: list[tuple[int, int]]  # (row id, column id) of cells with at least one match


def _columns(ds: Dataset, query: FindQuery) -> list[tuple[int, int]]:
    """(position, column id) of the columns searched."""
    return [(i, c.id) for i, c in enumerate(ds.columns) if query.column_id in (None, c.id)]


def _count(rx: re.Pattern[str], text: str, whole: bool) -> int:
    if whole:
        return 1 if rx.match(text) else 0
    return sum(1 for _ in rx.finditer(text)) if text else 0


def find_cells(ds: Dataset, query: FindQuery, row_ids: Iterable[int] | None = None) -> FindResult:
    """Cells matching `query`, in file order (or in the order of `row_ids`, e.g. the visible rows)."""
    if not query.pattern:
        return FindResult(0, [])
    rx = query.compile()
    cols = _columns(ds, query)
    rows = ds.rows if row_ids is None else [ds.row(r) for r in row_ids]
    search = rx.search
    total = 0
    cells = []
    for row in rows:
        values = row.cells
        for pos, cid in cols:
            text = values[pos]
            if query.whole_cell or (text and search(text)):
                n = _count(rx, text, query.whole_cell)
                if n:
                    total += n
                    cells.append((row.id, cid))
    return FindResult(total, cells)


def replace_text(rx: re.Pattern[str], text: str, replacement: str, query: FindQuery) -> tuple[str, int]:
    """`text` with every match replaced; the replacement is literal unless the query is a regex."""
    if query.whole_cell:
        m = rx.match(text)
        if not m:
            return text, 0
        return (m.expand(replacement) if query.regex else replacement), 1
    if query.regex:
        return rx.subn(replacement, text)
    return rx.subn(lambda _m: replacement, text)


def replace_all_command(ds: Dataset, query: FindQuery, replacement: str,
                        row_ids: Iterable[int] | None = None) -> tuple[SetCells | None, int]:
    """One command replacing every match (one undo step), and the number of replacements.

    Raises ValueError for a bad regex or a bad replacement template (`\\9` with no group 9)."""
    found = find_cells(ds, query, row_ids)
    if not found.cells:
        return None, 0
    rx = query.compile()
    changes = []
    count = 0
    for row_id, column_id in found.cells:
        old = ds.cell(row_id, column_id)
        try:
            new, n = replace_text(rx, old, replacement, query)
        except (re.error, IndexError) as exc:
            raise ValueError(Msg(N_("invalid replacement: {error}"), (("error", str(exc)),))) from None
        if new != old:
            changes.append((row_id, column_id, new))
            count += n
    if not changes:
        return None, 0
    return SetCells(changes, Msg(NP_("Replace all ({n} replacement)", "Replace all ({n} replacements)", "n"),
                                 (("n", count),))), count


# ----- row filters ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class RowFilter:
    text: str = ""  # case-insensitive substring of any cell
    session: str | None = None  # rows of this session id only
    has_errors: bool = False
    has_warnings: bool = False  # with has_errors: rows with an error or a warning

    @property
    def active(self) -> bool:
        return bool(self.text) or self.session is not None or self.has_errors or self.has_warnings


def filter_rows(v: Validator, flt: RowFilter) -> list[int] | None:
    """Row ids passing the filter, in file order; None when the filter is inactive (every row)."""
    if not flt.active:
        return None
    ds = v.ds
    if flt.session is not None:
        rows = [ds.row(r) for r in v.sessions.sessions.get(flt.session, [])]
    else:
        rows = ds.rows
    severities = set()
    if flt.has_errors:
        severities.add(ERROR)
    if flt.has_warnings:
        severities.add(WARNING)
    if severities:
        issues = v.row_issues
        rows = [r for r in rows if any(i.severity in severities for i in issues(r.id))]
    needle = flt.text.casefold()
    if needle:
        sep = "\x1f"  # unit separator: cannot be typed, so a match never spans two cells
        rows = [r for r in rows if needle in sep.join(r.cells).casefold()]
    return [r.id for r in rows]
