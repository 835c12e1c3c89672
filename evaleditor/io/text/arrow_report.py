"""A big UTF-8 CSV read for a report only (`evaleditor validate`, `shape`): pyarrow's columns filtered, so that
only the cells validation reads become Python text.

Validation reads every cell of the columns the dataset-wide rules need (`KEY_FIELDS`: conversations,
duplicate questions) and, of the others, only the cells where a row rule may find something. Which those
may be, pyarrow.compute tells from the columns at C speed, a superset (`_candidates`): texts of 1 to
checks.SHORT characters (a literal null text), tool calls not in toolcalls.PLAIN_CALLS_ASCII's form, every
cell of a column longer than its field's limit, and every cell of the rows whose key cells are all empty
(whether a row is empty). The file rules read the headers (file_checks.headers_below reads the first rows
only when no column is the question: such a file is read whole). The other cells are read as ""
(a "hollow" table): no row rule finds anything in "" either, so the core, running its own checks on the
table, reports exactly what it reports of the whole table; tests/io/test_arrow_report.py compares the two
reports on generated files. Such a table is for a report: never to show, edit or save.

Only where the whole-table read (delimited.py, arrow_csv.py) would give a plain grid — the header the first
record, no empty edge column (the rows entirely empty, which the grid drops, are dropped batch by batch) — and
pyarrow reads the file as the csv module does (arrow_csv's conditions); otherwise None, and the caller reads
the whole table. A target that wants a workbook (whose rules look for control characters in every cell) is
not read this way either.
"""

from __future__ import annotations

import os
from contextlib import closing
from typing import NamedTuple

from evaleditor.core.bulk import ColumnScan
from evaleditor.core.checks import SHORT
from evaleditor.core.targets import QUESTION, SESSION, TOOL_CALLS, TURN, Target
from evaleditor.core.toolcalls import PLAIN_CALLS_ASCII
from evaleditor.io import budget
from evaleditor.io.grid import FIRST_ROWS, Cancel, Progress
from evaleditor.io.text.arrow_csv import Refused, may_end_inside_quotes, open_records
from evaleditor.io.text.long_cells import MANY_LINES

KEY_FIELDS = (SESSION, TURN, QUESTION)  # read whole: the conversations and duplicate questions need every cell
# the row rules (checks.RULES) whose cells the hollow read keeps, each said how: a test checks that every
# rule is here (a new one must say how too)
FILTERED = (
    "empty-question", "whitespace-in-session-id", "invalid-turn-id", "question-too-long",  # key columns: whole
    "answer-too-long",  # a column longer than its field's limit: read whole
    "literal-null-text",  # short texts (_SHORT)
    "invalid-tool-calls",  # tool calls not in the plain form (_PLAIN_OR_EMPTY)
    "cell-too-long-for-excel", "control-character",  # workbook targets: not read this way (column_roles)
)
# a record batch: each costs some 40 pyarrow.compute calls (1 MB blocks: 0.3 s more CPU at 175 MB); bigger
# ones keep more of the file at a time (peak RSS at 175 MB: 255 MiB with 1 MB, 325 with 4, 400 with 8)
BLOCK_BYTES = 4 << 20
_SHORT = f"^(?s:.{{1,{SHORT}}})$"  # RE2: 1 to SHORT characters
_PLAIN_OR_EMPTY = f"^(?:{PLAIN_CALLS_ASCII})?$"
_LINE_BREAK = r"\r\n|\r|\n"  # long_cells.line_breaks


def column_roles(headers: list[str], target: Target) -> list[tuple[bool, str | None, int | None]] | None:
    """Per column: (key, its field, its length limit); None when the target's rules read every cell (a
    workbook target's) or no question column is read (no key column: every row would be read whole)."""
    if target.workbook_only:
        return None
    fields = [target.recognise(h) for h in headers]
    if QUESTION not in fields:
        return None
    return [(f in KEY_FIELDS, f, target.max_chars.get(f) if f else None) for f in fields]


class Hollow(NamedTuple):
    rows: list[list[str]]  # the data rows, hollow
    scans: list[ColumnScan]  # what validation asks of each column, the texts kept
    source_rows: list[int]  # the file's record (1-based) of the first FIRST_ROWS rows (RawTable.source_rows)


def hollow_read(path: str | os.PathLike[str], delimiter: str, headers: list[str],
                roles: list[tuple[bool, str | None, int | None]], limits: budget.TableBudget,
                progress: Progress | None = None, cancel: Cancel | None = None) -> Hollow | None:
    """The data rows of the UTF-8 file at `path`, whose first record is `headers`, hollow (see above), less
    the rows entirely empty (which the grid drops); None where the whole table must be read; Refused raised
    where pyarrow's reader refuses the file, as arrow_csv.arrow_records' would. `roles`: column_roles'.
    Record batch by record batch, each let go once filtered (the file's bytes are never all held)."""
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:
        return None
    from evaleditor.core.errors import ReadError

    size = os.path.getsize(path)
    width = len(headers)
    longest = [0] * width
    short: list[list[int]] = [[] for _ in range(width)]
    whole: list[list[str]] = [[] for _ in range(width)]  # a key column's texts
    found: list[list[tuple[int, str]]] = [[] for _ in range(width)]  # another's (row, text) where a rule may find
    source_rows: list[int] = []
    keys = [c for c, (key, _, _) in enumerate(roles) if key]
    rows, records, last, header = 0, 0, "", True  # rows kept, data records read
    try:
        for batch in _batches(path, delimiter, width, limits, size, progress, cancel):
            if header:
                if [column[0].as_py() for column in batch.columns] != headers or not headers[0] or not headers[-1]:
                    return None  # not the csv module's first record, or an edge column that may be empty
                batch, header = batch.slice(1), False
            if not batch.num_rows:
                continue
            last, read = batch.column(width - 1)[-1].as_py(), batch.num_rows  # an empty row's too
            blank = _all_blank([batch.column(c) for c in keys], pc, pa)
            batch, blank, kept = _without_empty_rows(batch, blank, pc, pa)
            if len(source_rows) < FIRST_ROWS:  # the header is record 1
                source_rows += [records + 2 + i for i in kept[:FIRST_ROWS - len(source_rows)]]
            records += read
            if not batch.num_rows:
                continue
            blanks = pc.indices_nonzero(blank).to_pylist()
            for c, (column, (key, fld, limit)) in enumerate(zip(batch.columns, roles, strict=True)):
                sizes = pc.min_max(pc.binary_length(column)).as_py()
                most = longest[c] = max(longest[c], sizes["max"])
                if most > budget.MAX_CELL_CHARS or (sizes["max"] >= MANY_LINES and _many_lines(column, pc)) or \
                        (not key and limit is not None and most > limit):
                    return None  # a cell the reference refuses or reports (arrow_csv._for_the_reference); one
                    # that a row rule finds too long, in any cell of the column (none of the targets read this way)
                # a text of more than 4 bytes a character has more characters (long texts only: none to look at)
                is_short = pc.match_substring_regex(column, _SHORT) if sizes["min"] <= 4 * SHORT else None
                if is_short is not None:
                    short[c] += map(rows.__add__, pc.indices_nonzero(is_short).to_pylist())
                if key:
                    whole[c] += column.to_pylist()
                    continue
                wanted = _candidates(column, fld, is_short, pc)
                if blanks:
                    wanted = blank if wanted is None else pc.or_(wanted, blank)
                if wanted is not None:
                    found[c] += zip(map(rows.__add__, pc.indices_nonzero(wanted).to_pylist()),
                                    pc.filter(column, wanted).to_pylist(), strict=True)
            rows += batch.num_rows
    except pa.ArrowException:  # a ragged row, bytes not UTF-8
        raise Refused() from None
    except ReadError:  # the budget: the reference says it
        return None
    if not rows or may_end_inside_quotes(path, size, last):
        return None
    columns = [texts if key else _hollow(rows, found[c])
               for c, (texts, (key, _, _)) in enumerate(zip(whole, roles, strict=True))]
    table = list(map(list, zip(*columns, strict=True)))
    scans = [ColumnScan(most, at, [], texts) for most, at, texts in zip(longest, short, columns, strict=True)]
    return Hollow(table, scans, source_rows)


def _batches(path, delimiter: str, width: int, limits: budget.TableBudget, size: int, progress: Progress | None,
             cancel: Cancel | None):
    """The file's record batches (arrow_csv.open_records': the first holds the header); the budget asked after
    each. pyarrow's threads parse the batches ahead while this one is filtered."""
    import pyarrow as pa

    from evaleditor.core.errors import Cancelled

    with pa.OSFile(os.fspath(path)) as source, \
            closing(open_records(source, delimiter, width, BLOCK_BYTES, threads=True)) as reader:
        rows = 0
        for batch in reader:
            if cancel is not None and cancel():
                raise Cancelled()
            rows += batch.num_rows
            limits.check(rows, width)
            if progress is not None:
                progress(min(source.tell(), size), size)
            yield batch
    if progress is not None:
        progress(size, size)


def _hollow(rows: int, found: list[tuple[int, str]]) -> list[str]:
    texts = [""] * rows
    for i, text in found:
        texts[i] = text
    return texts


def _candidates(column, fld: str | None, is_short, pc):
    """The cells of a column that is not read whole where a row rule may find something (a superset), as a
    boolean column; None for none."""
    found = [is_short] if is_short is not None else []
    if fld == TOOL_CALLS:
        found.append(pc.invert(pc.match_substring_regex(column, _PLAIN_OR_EMPTY)))
    return _reduce(pc.or_, found) if found else None


def _many_lines(column, pc) -> bool:
    """Whether a cell of `column` (an array) may span MANY_LINES lines: counted cell by cell only when its
    bytes hold that many line ends (numpy, which pyarrow imports, counts them at memory speed; the buffer may
    hold more than the array's texts: a superset)."""
    import numpy as np

    data = column.buffers()[2]
    if data is None or np.count_nonzero(np.frombuffer(data, dtype=np.uint8) <= 13) < MANY_LINES - 1:
        return False
    return pc.max(pc.count_substring_regex(column, _LINE_BREAK)).as_py() >= MANY_LINES - 1


def _without_empty_rows(batch, blank, pc, pa):
    """The record batch less its rows whose every cell is empty (the grid drops them), `blank` (whose key
    cells are all empty) likewise, and the indices in the batch of the rows kept."""
    if pc.any(blank).as_py():
        empty = _all_blank(batch.columns, pc, pa)
        if pc.any(empty).as_py():
            keep = pc.invert(empty)
            return batch.filter(keep), pc.filter(blank, keep), pc.indices_nonzero(keep).to_pylist()
    return batch, blank, range(batch.num_rows)


def _all_blank(columns: list, pc, pa):
    """Whether each row's cells of `columns` are all empty, as a boolean column."""
    return _reduce(pc.and_, [pc.invert(pc.cast(pc.binary_length(c), pa.bool_())) for c in columns])


def _reduce(both, columns: list):
    found = columns[0]
    for more in columns[1:]:
        found = both(found, more)
    return found

