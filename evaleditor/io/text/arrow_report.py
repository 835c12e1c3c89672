"""A big UTF-8 CSV read for a report only (`evaleditor validate`, `shape`): pyarrow's columns filtered, so that
only the cells validation reads become Python text.

Validation reads every cell of the columns the dataset-wide rules need (`KEY_FIELDS`: conversations,
duplicate questions) and, of the others, only the cells where a row rule may find something. Which those
may be, C-level passes over the columns tell (numpy over pyarrow's byte offsets, pyarrow's RE2), a
superset: texts of 1 to checks.SHORT characters (a literal null text: arrow_csv's measure), tool calls not in
toolcalls.PLAIN_CALLS_ASCII's form, every cell of a column longer than its field's limit, and every cell of
the rows whose key cells are all empty (whether a row is empty). The file rules read the headers
(file_checks.headers_below reads the first rows only when no column is the question: such a file is read
whole). The other cells are read as "" (a "hollow" table): no row rule finds anything in "" either, so the core, running its own checks on the
table, reports exactly what it reports of the whole table; tests/io/test_arrow_report.py compares the two
reports on generated files. Such a table is for a report: never to show, edit or save.

Only where the whole-table read (delimited.py, arrow_csv.py) would give a plain grid — the header the first
record, no empty edge column (the rows entirely empty, which the grid drops, are dropped here too) — and
pyarrow reads the file as the csv module does (arrow_csv's conditions); otherwise None, and the caller reads
the whole table. A target that wants a workbook (whose rules look for control characters in every cell) is
not read this way either.
"""

from __future__ import annotations

import os
from contextlib import closing
from itertools import compress
from typing import NamedTuple

from evaleditor.core.bulk import ColumnScan
from evaleditor.core.errors import Cancelled, ReadError
from evaleditor.core.targets import QUESTION, SESSION, TOOL_CALLS, TURN, Target
from evaleditor.core.toolcalls import PLAIN_CALLS_ASCII
from evaleditor.io import budget
from evaleditor.io.grid import FIRST_ROWS, Cancel, Progress
from evaleditor.io.text.arrow_csv import Refused, for_the_reference, may_end_inside_quotes, read_ahead

KEY_FIELDS = (SESSION, TURN, QUESTION)  # read whole: the conversations and duplicate questions need every cell
# the row rules (checks.RULES) whose cells the hollow read keeps, each said how: a test checks that every
# rule is here (a new one must say how too)
FILTERED = (
    "empty-question", "whitespace-in-session-id", "invalid-turn-id", "question-too-long",  # key columns: whole
    "answer-too-long",  # a column longer than its field's limit: read whole
    "literal-null-text",  # short texts (ColumnScan.short: arrow_csv's measure)
    "invalid-tool-calls",  # tool calls not in the plain form (_PLAIN_OR_EMPTY)
    "cell-too-long-for-excel", "control-character",  # workbook targets: not read this way (column_roles)
)
# a record batch: each calls RE2 on the tool calls, which compiles its pattern each time (0.4 ms); bigger ones
# keep more of the file at a time (peak RSS at 175 MB: 255 MiB with 1 MB, 325 with 4, 400 with 8)
BLOCK_BYTES = 4 << 20
_PLAIN_OR_EMPTY = f"^(?:{PLAIN_CALLS_ASCII})?$"


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
    Record batch by record batch, each let go once filtered (the file's bytes are never all held): a thread
    parses and measures the next ones meanwhile (arrow_csv.read_ahead)."""
    try:  # _filtered's kernels: pyarrow.compute's, without the 0.1 s its import takes (it writes a Python
        # wrapper for each kernel); numpy counts with them. A pyarrow whose private module moved them: the
        # whole table is read
        import numpy  # noqa: F401
        import pyarrow as pa
        from pyarrow._compute import MatchSubstringOptions, call_function  # noqa: F401
    except ImportError:  # the whole table is read
        return None
    size = os.path.getsize(path)
    width = len(headers)
    longest = [0] * width
    short: list[list[int]] = [[] for _ in range(width)]
    columns: list[list[str]] = [[] for _ in range(width)]
    table: list[list[str]] = []
    source_rows: list[int] = []
    first, last, header = 0, "", True  # the batch's first data row (the header is not one), the last cell
    try:
        with pa.OSFile(os.fspath(path)) as source, \
                closing(read_ahead(source, delimiter, width, BLOCK_BYTES)) as batches:
            for batch, read, measured in batches:
                if cancel is not None and cancel():
                    raise Cancelled()
                limits.check(first + batch.num_rows + (not header), width)  # the records read
                if progress is not None:
                    progress(min(read, size), size)
                longest = [max(most, m.longest) for most, m in zip(longest, measured, strict=True)]
                if any(not key and limit is not None and most > limit
                       for most, (key, _, limit) in zip(longest, roles, strict=True)):
                    return None  # a text a row rule finds too long: in any cell of the column (none of the
                    # targets read this way has such a limit)
                if any(m.suspect for m in measured) and any(map(for_the_reference, (
                        column.to_pylist() for column, m in zip(batch.columns, measured, strict=True) if m.suspect))):
                    return None  # a cell the reference refuses or reports
                if header:
                    if [column[0].as_py() for column in batch.columns] != headers or not headers[0] or not headers[-1]:
                        return None  # not the csv module's first record, or an edge column that may be empty
                    batch, header = batch.slice(1), False
                if not batch.num_rows:
                    continue
                last = batch.column(width - 1)[-1].as_py()
                texts, shorts, kept = _filtered(batch, [m.short for m in measured], first, roles)
                for c, (more, at) in enumerate(zip(texts, shorts, strict=True)):
                    columns[c] += more
                    short[c] += map(len(table).__add__, at)
                table += map(list, zip(*texts, strict=True))
                if len(source_rows) < FIRST_ROWS:  # the header is record 1
                    source_rows += [first + 2 + i for i in kept[:FIRST_ROWS - len(source_rows)]]
                first += batch.num_rows
    except pa.ArrowException:  # a ragged row, bytes not UTF-8
        raise Refused() from None
    except ReadError:  # the budget: the reference says it
        return None
    if not table or may_end_inside_quotes(path, size, last):
        return None
    if progress is not None:
        progress(size, size)
    scans = [ColumnScan(most, at, [], texts) for most, at, texts in zip(longest, short, columns, strict=True)]
    return Hollow(table, scans, source_rows)


def _filtered(batch, short: list[list[int]], first: int, roles: list[tuple[bool, str | None, int | None]]):
    """A record batch's columns as text, hollow, less its rows entirely empty; each column's short texts (the
    data rows `short`, the batch's first being `first`) among the rows kept; the rows kept (in the batch)."""
    import numpy as np
    import pyarrow as pa
    from pyarrow._compute import MatchSubstringOptions, call_function

    n = batch.num_rows
    blank = _all_empty([column for column, (key, _, _) in zip(batch.columns, roles, strict=True) if key])
    blanks = np.flatnonzero(blank)  # rows whose key cells are all empty: a rule may find something in the others
    texts: list[list[str]] = []
    shorts = [np.array(at, dtype=np.int64) - first for at in short]
    for column, at, (key, fld, _) in zip(batch.columns, shorts, roles, strict=True):
        if key:
            texts.append(column.to_pylist())
            continue
        wanted = np.union1d(at, blanks)
        if fld == TOOL_CALLS:
            plain = call_function("match_substring_regex", [column], MatchSubstringOptions(_PLAIN_OR_EMPTY))
            wanted = np.union1d(wanted, _indices(call_function("indices_nonzero", [call_function("invert", [plain])])))
        hollow = [""] * n
        if len(wanted):
            found = call_function("take", [column, pa.Array.from_buffers(pa.int64(), len(wanted),
                                                                          [None, pa.py_buffer(wanted)])])
            for i, text in zip(wanted.tolist(), found.to_pylist(), strict=True):
                hollow[i] = text
        texts.append(hollow)
    if not len(blanks) or not (empty := _all_empty(batch.columns)).any():
        return texts, [at.tolist() for at in shorts], range(n)
    keep = ~empty
    keeps, at = keep.tolist(), np.cumsum(keep) - 1  # a row's place among those kept (a short text's is kept)
    return [list(compress(t, keeps)) for t in texts], [at[s].tolist() for s in shorts], np.flatnonzero(keep).tolist()


def _indices(array):
    """pyarrow's array of indices (uint64) as numpy's int64, from its buffer. (Array.to_numpy and pa.array
    import pandas, which imports pyarrow.compute: 0.4 s.)"""
    import numpy as np

    return np.frombuffer(array.buffers()[1], dtype=np.uint64)[array.offset:array.offset + len(array)].astype(np.int64)


def _all_empty(columns: list):
    """Whether each row's cells of `columns` (a record batch's) are all empty, as a numpy array of booleans:
    from the byte offsets pyarrow keeps beside the texts."""
    import numpy as np

    empty = None
    for column in columns:
        offsets = np.frombuffer(column.buffers()[1], dtype=np.int32)[column.offset:column.offset + len(column) + 1]
        here = offsets[1:] == offsets[:-1]
        empty = here if empty is None else empty & here
    return empty
