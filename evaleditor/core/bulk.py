"""Row-local checks over every row at once, column by column.

The same rules and wording as `RowContext.check` (which re-checks one edited row), arranged so that
most of the work is one C-level call per column — a join and one regex search, a set intersection,
`max(map(len, …))` — and Python-level work happens only on cells that hold a problem. Opening a
100k-row file is dominated by this pass; the incremental path never uses it. The property test in
tests/core/test_incremental.py keeps the two in agreement.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter, itemgetter

from evaleditor.core import checks, toolcalls
from evaleditor.core.checks import CONTROL, CONTROL_CHARS, EXCEL_MAX_CHARS, NULL_VARIANTS, RowContext
from evaleditor.core.dataset import Row
from evaleditor.core.i18n import Msg
from evaleditor.core.rules import Issue
from evaleditor.core.sessions import parse_turn

_CONTROL_BYTES = CONTROL_CHARS.encode()  # in UTF-8 these bytes stand only for themselves
_ids = attrgetter("id")
_cells = attrgetter("cells")


def columns_of(rows: Sequence[Row], width: int) -> list[Sequence[str]]:
    """The cells column by column (`width` columns)."""
    cells = list(map(_cells, rows))
    if not cells:
        return [[] for _ in range(width)]
    if min(map(len, cells)) == max(map(len, cells)) == width:  # as every reader leaves them: one C call
        return list(zip(*cells, strict=True))
    return [list(map(itemgetter(c), cells)) for c in range(width)]


def empty_rows(rows: Sequence[Row]) -> set[int]:
    """Ids of the rows that are entirely empty (`Row.is_empty`): one C-level pass when there are none."""
    if all(map(any, map(_cells, rows))):
        return set()
    return {r.id for r in rows if r.is_empty()}


def _has_control(texts: Sequence[str]) -> bool:
    """`CONTROL.search` over all of `texts`, 4x faster: deleting those bytes from the UTF-8 changes its length."""
    data = "\n".join(texts).encode("utf-8", "surrogatepass")
    return len(data.translate(None, _CONTROL_BYTES)) != len(data)


def regular_sessions(ctx: RowContext, columns: list[Sequence[str]], sessions: dict[str, list[int]]) -> set[str]:
    """Sessions with no session issue, found in one pass: rows together, turns "1" … "n" as text in
    file order, 1 < n <= the target's limit. `checks.check_session` finds nothing in them either."""
    s, t = ctx.session, ctx.turn
    if s is None:
        return set()
    turns = columns[t] if t is not None else None
    seen: set[str] = set()
    broken: set[str] = set()
    previous = ""
    k = 0
    for i, sid in enumerate(columns[s]):
        if sid != previous:
            previous, k = sid, 0
            if sid:
                if sid in seen:
                    broken.add(sid)  # its rows are not together
                seen.add(sid)
        if sid:
            k += 1
            if turns is not None and turns[i] != str(k):
                broken.add(sid)
    limit = ctx.target.max_turns
    return {sid for sid in seen - broken if sid in sessions and 1 < len(sessions[sid]) <= (limit or len(sessions[sid]))}


def check_all(ctx: RowContext, rows: Sequence[Row], columns: list[Sequence[str]],
              empty: set[int]) -> dict[int, tuple[Issue, ...]]:
    """Row id -> row-local issues, for the rows not in `empty`, in `RowContext.check`'s order.
    `columns`: the cells column by column (`columns_of`). Tuples: the validator shows most of them
    as they are (a third of a big file's rows may have one), so no second container is made."""
    out: dict[int, list[Issue]] = {}
    if not rows or not ctx.col_ids:
        return out
    t = ctx.target.name
    ids = list(map(_ids, rows))
    col_ids = ctx.col_ids

    def add(i: int, issue: Issue) -> None:
        if ids[i] not in empty:
            out.setdefault(ids[i], []).append(issue)

    q = ctx.question
    if q is not None:
        qcol = columns[q]
        for i in [i for i, text in enumerate(qcol) if not text or text.isspace()]:
            add(i, checks.empty_question(t, ids[i], col_ids[q]))
        if ctx.max_question and max(map(len, qcol)) > ctx.max_question:
            for i, text in enumerate(qcol):
                if len(text) > ctx.max_question and not text.isspace():
                    add(i, checks.question_too_long(t, ids[i], col_ids[q], text, ctx.max_question))
    a = ctx.answer
    if a is not None and ctx.max_answer and max(map(len, columns[a])) > ctx.max_answer:
        for i, text in enumerate(columns[a]):
            if len(text) > ctx.max_answer:
                add(i, checks.answer_too_long(t, ids[i], col_ids[a], text, ctx.max_answer))
    per_cell: list[tuple[int, int, Issue]] = []  # (row, column, issue): ordered below like check()
    if ctx.workbook:
        for c, col in enumerate(columns):
            if max(map(len, col)) > EXCEL_MAX_CHARS:
                per_cell += [(i, c, checks.too_long_for_excel(t, ids[i], col_ids[c], x))
                             for i, x in enumerate(col) if len(x) > EXCEL_MAX_CHARS]
        _flush(per_cell, add)
        for c, col in enumerate(columns):
            if _has_control(col):
                per_cell += [(i, c, checks.control_character(t, ids[i], col_ids[c], x))
                             for i, x in enumerate(col) if CONTROL.search(x)]
        _flush(per_cell, add)
    for c, col in enumerate(columns):
        if not NULL_VARIANTS.isdisjoint(col):
            per_cell += [(i, c, checks.literal_null(t, ids[i], col_ids[c], x))
                         for i, x in enumerate(col) if x in NULL_VARIANTS]
    _flush(per_cell, add)
    tc = ctx.tools
    if tc is not None:
        seen: dict[str, Msg | None] = {}
        for i, text in enumerate(columns[tc]):
            if text:
                problem = seen[text] if text in seen else seen.setdefault(text, toolcalls.problem_msg(text))
                if problem:
                    add(i, checks.invalid_tool_calls(t, ids[i], col_ids[tc], problem))
    s = ctx.session
    if s is not None:
        scol = columns[s]
        spaced = {x for x in set(scol) if x and x != x.strip()}
        tpos = ctx.turn
        bad_turns = set()
        if tpos is not None:
            bad_turns = {x for x in set(columns[tpos]) if x.strip() and parse_turn(x) is None}
        if spaced or bad_turns:
            tcol = columns[tpos] if tpos is not None else None
            for i, sid in enumerate(scol):
                if sid in spaced:
                    add(i, checks.session_whitespace(t, ids[i], col_ids[s], sid))
                if sid and tcol is not None and tcol[i] in bad_turns:
                    add(i, checks.invalid_turn(t, ids[i], col_ids[tpos], tcol[i]))
    for i, row in enumerate(rows):
        if row.formulas:
            for col_id in row.formulas:
                add(i, checks.formula_without_value(t, row.id, col_id))
    for rid, found in out.items():  # each list is freed as its tuple replaces it: no second peak
        out[rid] = tuple(found)
    return out  # type: ignore[return-value]


_ROW_CELL = itemgetter(0, 1)


def _flush(per_cell: list[tuple[int, int, Issue]], add) -> None:
    """Add one rule's findings row by row, each row's cells left to right (as check() does)."""
    per_cell.sort(key=_ROW_CELL)
    for i, _, issue in per_cell:
        add(i, issue)
    per_cell.clear()
