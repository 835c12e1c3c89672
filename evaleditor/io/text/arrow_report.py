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
record, no row entirely empty, no empty edge column — and pyarrow reads the file as the csv module does
(arrow_csv's conditions); otherwise None, and the caller reads the whole table. A target that wants a
workbook (whose rules look for control characters in every cell) is not read this way either.
"""

from __future__ import annotations

import os
from contextlib import closing

from evaleditor.core.bulk import ColumnScan
from evaleditor.core.checks import SHORT
from evaleditor.core.targets import QUESTION, SESSION, TOOL_CALLS, TURN, Target
from evaleditor.core.toolcalls import PLAIN_CALLS_ASCII
from evaleditor.io import budget
from evaleditor.io.grid import Cancel, Progress
from evaleditor.io.text.arrow_csv import BLOCK_BYTES, _may_end_inside_quotes
from evaleditor.io.text.long_cells import MANY_LINES

KEY_FIELDS = (SESSION, TURN, QUESTION)  # read whole: the conversations and duplicate questions need every cell
# how each row rule (checks.RULES) is left out of the hollow cells: a test checks that every rule is here
FILTERED = {
    "empty-question": "key", "whitespace-in-session-id": "key", "invalid-turn-id": "key",
    "question-too-long": "key", "answer-too-long": "a column longer than its limit is read whole",
    "literal-null-text": "short texts", "invalid-tool-calls": "tool calls not in the plain form",
    "cell-too-long-for-excel": "workbook targets are not read this way",
    "control-character": "workbook targets are not read this way",
}
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


def hollow_read(path: str | os.PathLike[str], delimiter: str, headers: list[str],
                roles: list[tuple[bool, str | None, int | None]], limits: budget.TableBudget,
                progress: Progress | None = None, cancel: Cancel | None = None
                ) -> tuple[list[list[str]], list[ColumnScan]] | None:
    """The data rows of the UTF-8 file at `path`, whose first record is `headers`, hollow (see above), and
    what validation asks of each column (ColumnScan, the texts kept); None where the whole table must be read.
    `roles`: column_roles'."""
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:
        return None
    from evaleditor.core.errors import ReadError

    size = os.path.getsize(path)
    try:
        table = _table(path, delimiter, len(headers), limits, size, progress, cancel)
    except (pa.ArrowException, ReadError):  # a ragged row, not UTF-8; the budget: the reference says it
        return None
    if table is None or [c[0].as_py() for c in table.columns] != headers or not headers[0] or not headers[-1]:
        return None  # another header than the csv module's first record, or an edge column that may be empty
    data = table.slice(1)
    n = data.num_rows
    if not n:
        return None
    sizes = [pc.min_max(pc.binary_length(c)).as_py() for c in data.columns]
    longest = [size["max"] for size in sizes]
    if max(longest) > budget.MAX_CELL_CHARS or any(
            most >= MANY_LINES and _many_lines(c, pc) for c, most in zip(data.columns, longest, strict=True)):
        return None  # a cell the reference refuses or reports (arrow_csv._for_the_reference)
    last = table.column(len(headers) - 1)[-1].as_py()
    if _may_end_inside_quotes(path, size, last):
        return None
    # a text of more than 4 bytes a character has more characters (a column of long texts: none to look at)
    short = [pc.match_substring_regex(c, _SHORT) if size["min"] <= 4 * SHORT else None
             for c, size in zip(data.columns, sizes, strict=True)]
    keys = [i for i, (key, _, _) in enumerate(roles) if key]
    blank_keys = _all_blank([data.column(i) for i in keys], pc, pa)
    blank_rows = pc.indices_nonzero(blank_keys).to_pylist()
    columns: list[list[str]] = []
    for column, (key, fld, limit), is_short, most in zip(data.columns, roles, short, longest, strict=True):
        if key or (limit is not None and most > limit):
            columns.append(column.to_pylist())
            continue
        texts = [""] * n
        wanted = _candidates(column, fld, is_short, pc)
        if blank_rows:
            wanted = blank_keys if wanted is None else pc.or_(wanted, blank_keys)
        if wanted is not None:
            _fill(texts, pc.indices_nonzero(wanted).to_pylist(), pc.filter(column, wanted).to_pylist())
        columns.append(texts)
    rows = list(map(list, zip(*columns, strict=True)))
    if any(not any(rows[i]) for i in blank_rows):
        return None  # an empty row, which the grid drops
    scans = [ColumnScan(most, [] if is_short is None else pc.indices_nonzero(is_short).to_pylist(), [], texts)
             for most, is_short, texts in zip(longest, short, columns, strict=True)]
    return rows, scans


def _table(path, delimiter: str, width: int, limits: budget.TableBudget, size: int, progress: Progress | None,
           cancel: Cancel | None):
    """Every record of the file as a pyarrow table of `width` text columns, read batch by batch (the budget
    asked after each); None when the first record is not `width` cells."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    from evaleditor.core.errors import Cancelled

    with pa.OSFile(os.fspath(path)) as source, closing(pcsv.open_csv(
            source,
            read_options=pcsv.ReadOptions(autogenerate_column_names=True, use_threads=True, block_size=BLOCK_BYTES),
            parse_options=pcsv.ParseOptions(delimiter=delimiter, newlines_in_values=True),
            convert_options=pcsv.ConvertOptions(column_types={f"f{i}": pa.string() for i in range(width)},
                                                strings_can_be_null=False, quoted_strings_can_be_null=False))) as reader:
        if reader.schema.names != [f"f{i}" for i in range(width)] or any(t != pa.string() for t in reader.schema.types):
            return None
        batches, rows = [], 0
        for batch in reader:
            if cancel is not None and cancel():
                raise Cancelled()
            batches.append(batch)
            rows += batch.num_rows
            limits.check(rows, width)
            if progress is not None:
                progress(min(source.tell(), size), size)
    if progress is not None:
        progress(size, size)
    return pa.Table.from_batches(batches, reader.schema)


def _candidates(column, fld: str | None, is_short, pc):
    """The cells of a column that is not read whole where a row rule may find something (a superset), as a
    boolean column; None for none."""
    found = [is_short] if is_short is not None else []
    if fld == TOOL_CALLS:
        found.append(pc.invert(pc.match_substring_regex(column, _PLAIN_OR_EMPTY)))
    return _reduce(pc.or_, found) if found else None


def _many_lines(column, pc) -> bool:
    """Whether a cell of `column` may span MANY_LINES lines: counted cell by cell only in the chunks whose
    bytes hold that many line ends (numpy, which pyarrow imports, counts them at memory speed)."""
    import numpy as np

    for chunk in column.chunks:
        data = chunk.buffers()[2]
        if data is None or np.count_nonzero(np.frombuffer(data, dtype=np.uint8) <= 13) < MANY_LINES - 1:
            continue  # (a chunk's buffer may hold more than its texts: a superset)
        if pc.max(pc.count_substring_regex(chunk, _LINE_BREAK)).as_py() >= MANY_LINES - 1:
            return True
    return False


def _fill(texts: list[str], at, found: list[str]) -> None:
    for i, text in zip(at, found, strict=True):
        texts[i] = text


def _all_blank(columns: list, pc, pa):
    """Whether each row's cells of `columns` are all empty, as a boolean column."""
    return _reduce(pc.and_, [pc.invert(pc.cast(pc.binary_length(c), pa.bool_())) for c in columns])


def _reduce(both, columns: list):
    found = columns[0]
    for more in columns[1:]:
        found = both(found, more)
    return found

