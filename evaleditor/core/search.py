"""Find, replace and row filters over a dataset: the queries behind the editor's find/replace dialog
and filter bar. Filtering happens here, over the core's rows, never in a Qt proxy model.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Container, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

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


def _scan(rx: re.Pattern[str], rows: Iterable, cols: list[tuple[int, int]], whole: bool,
          cells: list[tuple[int, int]] | None, within: Container[tuple[int, int]] | None = None) -> int:
    """The matches in `rows` (only in the cells `within` holds, when given); appends (row id, column id)
    of each cell with a match to `cells`."""
    search = rx.search
    total = 0
    for row in rows:
        values = row.cells
        for pos, cid in cols:
            if within is not None and (row.id, cid) not in within:
                continue
            text = values[pos]
            if whole or (text and search(text)):
                n = _count(rx, text, whole)
                if n:
                    total += n
                    if cells is not None:
                        cells.append((row.id, cid))
    return total


def find_cells(ds: Dataset, query: FindQuery, row_ids: Iterable[int] | None = None,
               within: Container[tuple[int, int]] | None = None) -> FindResult:
    """Cells matching `query`, in file order (or in the order of `row_ids`, e.g. the visible rows); only
    those `within` holds, when given (a selection's (row id, column id) cells)."""
    if not query.pattern:
        return FindResult(0, [])
    rx = query.compile()
    rows = ds.rows if row_ids is None else [ds.row(r) for r in row_ids]
    cells: list[tuple[int, int]] = []
    total = _scan(rx, rows, _columns(ds, query), query.whole_cell, cells, within)
    return FindResult(total, cells)


@dataclass
class MatchCount:
    """A count of matches by `count_matches`: so far, or final once `complete`."""

    matches: int = 0  # in the rows searched (row_ids, e.g. the visible rows; else every row)
    cells: list[tuple[int, int]] = field(default_factory=list)  # as FindResult.cells
    done: bool = False  # the rows searched are all counted: matches and cells are final
    hidden: int | None = None  # matches in the other rows (hidden by a filter), when asked for
    complete: bool = False  # done, and the other rows counted too when asked for


def count_matches(ds: Dataset, query: FindQuery, row_ids: Sequence[int] | None = None, *,
                  hidden: bool = False, chunk_cells: int = 2000,
                  within: Container[tuple[int, int]] | None = None) -> Iterator[MatchCount]:
    """Counts as `find_cells` does, a few rows (about `chunk_cells` cells) at a time: a generator that
    yields the running MatchCount after each chunk, so that a caller on an event loop can stop between
    chunks and go on later; the last one yielded is `complete`. With `hidden` and `row_ids` it goes on
    to count the matches in the rows not in `row_ids` (MatchCount.hidden). With `within` (a selection's
    cells), only those cells of `row_ids` are counted.

    The pattern is compiled here (ValueError for a bad regex), before the first chunk. The dataset must
    not change while the generator is used: after a change, start again."""
    rx = query.compile() if query.pattern else None
    count = MatchCount(hidden=0 if hidden and row_ids is not None else None)
    return _count_steps(ds, query, rx, None if row_ids is None else list(row_ids), count, chunk_cells, within)


def _count_steps(ds: Dataset, query: FindQuery, rx: re.Pattern[str] | None, row_ids: list[int] | None,
                 count: MatchCount, chunk_cells: int,
                 within: Container[tuple[int, int]] | None) -> Iterator[MatchCount]:
    cols = _columns(ds, query)
    step = max(1, chunk_cells // max(1, len(cols)))
    whole = query.whole_cell
    if rx is not None and cols:
        n = len(ds.rows) if row_ids is None else len(row_ids)
        for start in range(0, n, step):
            if row_ids is None:
                rows = ds.rows[start:start + step]
            else:
                rows = [ds.row(r) for r in row_ids[start:start + step]]
            count.matches += _scan(rx, rows, cols, whole, count.cells, within)
            if start + step < n:
                yield count
    count.done = True
    if count.hidden is not None and rx is not None and cols:
        yield count
        shown = set(row_ids or ())
        n = len(ds.rows)
        for start in range(0, n, step):
            rows = [r for r in ds.rows[start:start + step] if r.id not in shown]
            count.hidden += _scan(rx, rows, cols, whole, None)
            if start + step < n:
                yield count
    count.complete = True
    yield count


def find_next_cell(ds: Dataset, query: FindQuery, after: tuple[int, int], row_ids: Sequence[int] | None = None,
                   *, within: Container[tuple[int, int]] | None = None,
                   backward: bool = False) -> tuple[int, int] | None:
    """The first cell matching `query` after `after` (before it, `backward`), in reading order among the
    rows `row_ids` (in file order: the visible rows, a selection's) or every row, and only the cells
    `within` holds when given (a selection's); going round past the end (the start) and back to `after`
    itself last. `after` is (file position of a row, column position); (-1, -1) for the start. A row
    not among `row_ids` is between its neighbours in the file. Returns (row id, column id), or None
    when no cell matches; it stops at the first match. Raises ValueError for a bad regex."""
    if not query.pattern:
        return None
    rx = query.compile()
    cols = _columns(ds, query)[::-1 if backward else 1]
    whole = query.whole_cell
    n = len(ds.rows) if row_ids is None else len(row_ids)
    positions = range(n) if row_ids is None else ds.positions(row_ids)

    def first(indexes: Iterable[int], keep=lambda _pos: True) -> tuple[int, int] | None:
        for i in indexes:
            row = ds.rows[i] if row_ids is None else ds.row(row_ids[i])
            for pos, cid in cols:
                if within is not None and (row.id, cid) not in within:
                    continue
                text = row.cells[pos]
                if keep(pos) and (rx.match(text) if whole else text and rx.search(text)):
                    return row.id, cid
        return None

    at, column = after
    k = bisect_left(positions, at)  # the row's index among those searched, or the next one's
    if not (k < n and positions[k] == at):  # between rows k - 1 and k
        if backward:
            return first(range(k - 1, -1, -1)) or first(range(n - 1, k - 1, -1))
        return first(range(k, n)) or first(range(k))
    if backward:
        return (first((k,), lambda pos: pos < column) or first(range(k - 1, -1, -1))
                or first(range(n - 1, k, -1)) or first((k,), lambda pos: pos >= column))
    return (first((k,), lambda pos: pos > column) or first(range(k + 1, n)) or first(range(k))
            or first((k,), lambda pos: pos <= column))


def replace_text(rx: re.Pattern[str], text: str, replacement: str, query: FindQuery) -> tuple[str, int]:
    """`text` with every match replaced; the replacement is literal unless the query is a regex."""
    if query.whole_cell:
        m = rx.match(text)
        if not m:
            return text, 0
        return (m.expand(replacement) if query.regex else replacement), 1
    if query.regex:
        return rx.subn(replacement, text)
    return rx.subn(replacement.replace("\\", "\\\\"), text)  # the template of the literal text: no call a match


def _bad_replacement(exc: Exception) -> ValueError:
    return ValueError(Msg(N_("invalid replacement: {error}"), (("error", str(exc)),)))


def check_replacement(query: FindQuery, replacement: str, sample: str | None = None) -> None:
    """Raises ValueError ("invalid replacement: …") when `replacement` does not go with the query's
    regex — `\\3` with one group, an unknown group name, a bad escape — before anything is replaced;
    `sample` (a cell that matches) is then replaced as a trial. A literal replacement is always fine."""
    if not query.regex:
        return
    rx = query.compile()
    try:
        rx.sub(replacement, "")  # parses the template against the pattern's groups, even with no match
        if sample is not None:
            replace_text(rx, sample, replacement, query)
    except (re.error, IndexError) as exc:
        raise _bad_replacement(exc) from None


REPLACE_BLOCK = 5000  # cells replaced in a step of replace_cells_steps: a few milliseconds


def replace_all_command(ds: Dataset, query: FindQuery, replacement: str, row_ids: Iterable[int] | None = None,
                        within: Container[tuple[int, int]] | None = None) -> tuple[SetCells | None, int]:
    """One command replacing every match (one undo step; in `row_ids`, and only the cells `within` holds
    when given), and the number of replacements.

    Raises ValueError for a bad regex or a bad replacement template (`\\9` with no group 9)."""
    check_replacement(query, replacement)
    return replace_cells_command(ds, query, replacement, find_cells(ds, query, row_ids, within).cells)


def replace_cells_command(ds: Dataset, query: FindQuery, replacement: str,
                          cells: Iterable[tuple[int, int]]) -> tuple[SetCells | None, int]:
    """As `replace_all_command`, over `cells` (row id, column id) found for `query` by `find_cells` or
    `count_matches`; a cell that no longer matches is left as it is."""
    steps = replace_cells_steps(ds, query, replacement, cells, block=1 << 62)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def replace_cells_steps(ds: Dataset, query: FindQuery, replacement: str, cells: Iterable[tuple[int, int]],
                        block: int | None = None) -> Generator[tuple[int, int], None, tuple[SetCells | None, int]]:
    """`replace_cells_command` in steps of `block` (REPLACE_BLOCK) cells, each followed by a yield of
    (cells done, cells) — a window runs them in slices with a progress bar and Cancel; returns what it
    returns."""
    block = block or REPLACE_BLOCK
    rx = query.compile()
    cells = list(cells)
    changes = []
    count = 0
    for start in range(0, len(cells), block):
        for row_id, column_id in cells[start:start + block]:
            old = ds.cell(row_id, column_id)
            try:
                new, n = replace_text(rx, old, replacement, query)
            except (re.error, IndexError) as exc:
                raise _bad_replacement(exc) from None
            if new != old:
                changes.append((row_id, column_id, new))
                count += n
        yield min(start + block, len(cells)), len(cells)
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
