"""Row-local rules, each defined once, and the two ways they run.

A `CellRule` says which cells of a row it reads, what it finds in one cell's text, the issue it makes
of a finding, and its candidates in a whole column: the positions of the cells that may hold a
finding, found by C-level calls (`map` of a str method or a regex, a join and one translate, a set
lookup) that leave out every cell that certainly holds none. From that one table
`RowContext.check(row)` re-checks one edited row, and `RowContext.check_all(…)` checks every row of a
file at once, running the per-cell finding only on the candidates, so that Python-level work happens
only in cells that may hold a finding. Both give a row's issues in the same order: rule by rule, cells
left to right.
Session and file rules are in file_checks.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter, itemgetter, ne, not_, or_

from evaleditor.core import toolcalls
from evaleditor.core.bulk import CONTROL, ColumnScan, scan_column, where
from evaleditor.core.dataset import Dataset, Row
from evaleditor.core.i18n import N_, Msg
from evaleditor.core.rules import Issue, make_issue
from evaleditor.core.sessions import parse_turn
from evaleditor.core.targets import ANSWER, QUESTION, SESSION, TOOL_CALLS, TURN

EXCEL_MAX_CHARS = 32767
NULL_TEXTS = {"None", "NA", "N/A", "null", "NaN"}
NULL_VARIANTS = frozenset(v for t in NULL_TEXTS for v in (t, t.lower(), t.upper(), t.capitalize()))
SHORT = max(map(len, NULL_VARIANTS))  # the `short` of every column scan: texts that may be a null text
TOOL_CALLS_EXAMPLE = ("example", '[{"name": "search", "arguments": {"q": "…"}}]')
_NULL_ARGS = {v: (("text", v),) for v in NULL_VARIANTS}  # shared: a big file has tens of thousands


@dataclass(frozen=True)
class CellRule:
    rule: str
    cells: Callable[[RowContext], Sequence[int]]  # the positions of the cells it reads
    finds: Callable[[RowContext, str], object]  # a finding (truthy) in one cell's text
    issue: Callable[[RowContext, int, int, str, object], Issue]  # (ctx, row id, column id, text, finding)
    candidates: Callable[[RowContext, Sequence[str]], Sequence[int]] = lambda ctx, column: range(len(column))
    workbook: bool = False  # checked only for a document that is (to be) a workbook
    needs: str | None = None  # a field whose cell in the same row must be filled for the rule to apply
    repeats: bool = False  # cells often repeat: a whole-file pass finds once per distinct text


class RowContext:
    """What the row rules need to know about a dataset, computed once per full validation."""

    def __init__(self, ds: Dataset, workbook: bool, scans: Sequence[ColumnScan] | None = None):
        """`scans`: what a reader learnt of each column as it read (core/table.RawTable.scans), which the
        first check_all takes instead of scanning the columns again; not taken for a workbook, whose
        rules also ask for the control characters, which a reader does not look for."""
        self.ds = ds
        self.target = ds.target
        self.t = ds.target.name
        self.workbook = workbook
        self.question = ds.field_position(QUESTION)
        self.answer = ds.field_position(ANSWER)
        self.tools = ds.field_position(TOOL_CALLS)
        self.session = ds.field_position(SESSION)
        self.turn = ds.field_position(TURN)
        self.col_ids = [c.id for c in ds.columns]
        self.every = range(len(self.col_ids))
        self.max_question = self.target.max_chars.get(QUESTION)
        self.max_answer = self.target.max_chars.get(ANSWER)
        self.rules = [r for r in RULES if workbook or not r.workbook]
        self._scans: dict[int, tuple[Sequence[str], ColumnScan]] = {}  # during check_all, by column
        self._read_scans = None if workbook else scans

    def scan(self, column: Sequence[str]) -> ColumnScan:
        """Within check_all: what the rules ask of a whole column (`bulk.scan_column`, once a column)."""
        found = self._scans.get(id(column))
        if found is None:
            found = self._scans[id(column)] = (column, scan_column(column, SHORT, self.workbook))
        return found[1]

    def column_id(self, fld: str) -> int | None:
        pos = self.ds.field_position(fld)
        return None if pos is None else self.col_ids[pos]

    def check(self, row: Row) -> list[Issue]:
        """Row-local issues of one row that is not entirely empty."""
        cells = row.cells
        ids = self.col_ids
        out: list[Issue] = []
        for rule in self.rules:
            if rule.needs is not None:
                need = self.ds.field_position(rule.needs)
                if need is None or not cells[need]:
                    continue
            for pos in rule.cells(self):
                text = cells[pos]
                found = rule.finds(self, text)
                if found:
                    out.append(rule.issue(self, row.id, ids[pos], text, found))
        out.extend(formula_without_value(self.t, row.id, col_id) for col_id in row.formulas)
        return out

    def check_all(self, rows: Sequence[Row], columns: list[Sequence[str]],
                  empty: set[int]) -> dict[int, tuple[Issue, ...]]:
        """`check` of every row not in `empty`, by row id (rows without issues left out), from the same
        rules column by column. `columns`: the cells column by column (bulk.columns_of). Tuples: the
        validator shows most of them as they are, so no second container is made."""
        if not rows or not self.col_ids:
            return {}
        try:
            return self._check_all(rows, columns, empty)
        finally:
            self._scans.clear()

    def _check_all(self, rows: Sequence[Row], columns: list[Sequence[str]],
                   empty: set[int]) -> dict[int, tuple[Issue, ...]]:
        out: dict[int, list[Issue]] = {}
        if self._read_scans is not None:
            self._scans = {id(column): (column, scan) for column, scan in zip(columns, self._read_scans, strict=True)}
            self._read_scans = None  # true of the cells as read: once
        ids = self.ds.row_ids() if rows is self.ds.rows else list(map(_ids, rows))
        col_ids = self.col_ids
        for rule in self.rules:
            need = None
            if rule.needs is not None:
                pos = self.ds.field_position(rule.needs)
                if pos is None:
                    continue
                need = columns[pos]
            hits: list[tuple[int, int, Issue]] = []  # (row, column, issue)
            for pos in rule.cells(self):
                column = columns[pos]
                candidates = rule.candidates(self, column)
                if not candidates:
                    continue
                if rule.repeats:  # each distinct text once
                    seen = {text: rule.finds(self, text) for text in set(map(column.__getitem__, candidates))}
                    found = [(i, seen[column[i]]) for i in candidates if seen[column[i]]]
                else:
                    finds = rule.finds
                    found = [(i, f) for i in candidates if (f := finds(self, column[i]))]
                hits += [(i, pos, rule.issue(self, ids[i], col_ids[pos], column[i], f)) for i, f in found
                         if (need is None or need[i]) and ids[i] not in empty]
            if len(rule.cells(self)) > 1:
                hits.sort(key=_ROW_CELL)
            for i, _, issue in hits:
                out.setdefault(ids[i], []).append(issue)
        for i in where(map(_formulas, rows)):  # most files have none: one C-level pass
            if ids[i] not in empty:
                out.setdefault(ids[i], []).extend(formula_without_value(self.t, ids[i], c) for c in rows[i].formulas)
        return {rid: tuple(found) for rid, found in out.items()}


_ids, _formulas = attrgetter("id"), attrgetter("formulas")
_ROW_CELL = itemgetter(0, 1)


# ----- the rules: which cells, what is found in one, the column filter, the wording ------------------------
# Messages are msgids with named fields (core/i18n.py): formatted, and translated, only when shown.
def _field(name: str) -> Callable[[RowContext], Sequence[int]]:
    def cells(ctx: RowContext) -> Sequence[int]:
        pos = getattr(ctx, name)
        return () if pos is None else (pos,)

    return cells


def _every(ctx: RowContext) -> Sequence[int]:
    return ctx.every


def _longer_than(ctx: RowContext, limit: int | None, column: Sequence[str]) -> Sequence[int]:
    if not limit or ctx.scan(column).longest <= limit:
        return ()
    return where(map(limit.__lt__, map(len, column)))


def _blank(ctx: RowContext, column: Sequence[str]) -> list[int]:
    return where(map(or_, map(not_, column), map(str.isspace, column)))


def _null_texts(ctx: RowContext, column: Sequence[str]) -> list[int]:
    """Hashing only the short texts: a set lookup of every cell would hash a column of long answers."""
    short = ctx.scan(column).short
    return list(map(short.__getitem__, where(map(NULL_VARIANTS.__contains__, map(column.__getitem__, short)))))


def _unusual_tool_calls(ctx: RowContext, column: Sequence[str]) -> list[int]:
    """The filled cells not in the form json.dumps writes (toolcalls.PLAIN_CALLS: known valid unparsed)."""
    filled = where(column)
    plain = map(toolcalls.PLAIN_CALLS.fullmatch, map(column.__getitem__, filled))
    return list(map(filled.__getitem__, where(map(not_, plain))))


def _spaced_ends(ctx: RowContext, column: Sequence[str]) -> list[int]:
    return where(map(ne, column, map(str.strip, column)))


def _bad_turns(ctx: RowContext, column: Sequence[str]) -> list[int]:
    bad = {text for text in set(column) if _bad_turn(text)}  # a few distinct texts: "1" … "8"
    return where(map(bad.__contains__, column)) if bad else []


def empty_question(t: str, rid: int, col: int) -> Issue:
    return make_issue("empty-question", t, N_("The question is empty: every case needs one"), rid, col)


def question_too_long(t: str, rid: int, col: int, text: str, limit: int) -> Issue:
    return make_issue("question-too-long", t, N_("The question has {n:,} characters; the limit is {limit:,}"),
                      rid, col, args=(("n", len(text)), ("limit", limit)))


def answer_too_long(t: str, rid: int, col: int, text: str, limit: int) -> Issue:
    return make_issue("answer-too-long", t, N_("The answer has {n:,} characters; the limit is {limit:,}"),
                      rid, col, args=(("n", len(text)), ("limit", limit)))


def too_long_for_excel(t: str, rid: int, col: int, text: str) -> Issue:
    return make_issue("cell-too-long-for-excel", t, N_("{n:,} characters: Excel holds at most {limit:,} in a "
                      "cell; shorten it before saving"), rid, col, args=(("n", len(text)), ("limit", EXCEL_MAX_CHARS)))


def control_character(t: str, rid: int, col: int, text: str) -> Issue:
    m = CONTROL.search(text)
    return make_issue("control-character", t, N_("Holds the control character {code}, which a workbook cannot "
                      "store: remove it"), rid, col, args=(("code", f"U+{ord(m.group()):04X}"),))


def literal_null(t: str, rid: int, col: int, text: str) -> Issue:
    return make_issue("literal-null-text", t, N_("'{text}' is kept as typed, but many tools read it as an empty "
                      "value"), rid, col, args=_NULL_ARGS.get(text) or (("text", text),))


def invalid_tool_calls(t: str, rid: int, col: int, problem: Msg) -> Issue:
    return make_issue("invalid-tool-calls", t, N_("Expected tool calls: {problem}. Write a JSON array like "
                      "{example}"), rid, col, args=(("problem", problem), TOOL_CALLS_EXAMPLE))


def session_whitespace(t: str, rid: int, col: int, sid: str) -> Issue:
    return make_issue("whitespace-in-session-id", t, N_("Session id {sid!r} has spaces at an end: the service "
                      "treats it as different from {trimmed!r}"), rid, col, args=(("sid", sid), ("trimmed", sid.strip())))


def invalid_turn(t: str, rid: int, col: int, text: str) -> Issue:
    return make_issue("invalid-turn-id", t, N_("Turn number {text!r} is not a whole number ≥ 0"), rid, col,
                      args=(("text", text),))


def formula_without_value(t: str, rid: int, col: int) -> Issue:
    return make_issue("formula-without-value", t, N_("A formula with no saved value: what the service reads is "
                      "unknown. Open the file in Excel and save it, or type the value"), rid, col)


def _spaced(sid: str) -> bool:
    return bool(sid) and sid != sid.strip()


def _bad_turn(text: str) -> bool:
    return bool(text.strip()) and parse_turn(text) is None


RULES: tuple[CellRule, ...] = (
    CellRule("empty-question", _field("question"),
             lambda ctx, text: not text or text.isspace(),
             lambda ctx, rid, col, text, _: empty_question(ctx.t, rid, col), _blank),
    CellRule("question-too-long", _field("question"),
             lambda ctx, text: ctx.max_question and len(text) > ctx.max_question and not text.isspace(),
             lambda ctx, rid, col, text, _: question_too_long(ctx.t, rid, col, text, ctx.max_question),
             lambda ctx, column: _longer_than(ctx, ctx.max_question, column)),
    CellRule("answer-too-long", _field("answer"),
             lambda ctx, text: ctx.max_answer and len(text) > ctx.max_answer,
             lambda ctx, rid, col, text, _: answer_too_long(ctx.t, rid, col, text, ctx.max_answer),
             lambda ctx, column: _longer_than(ctx, ctx.max_answer, column)),
    CellRule("cell-too-long-for-excel", _every,
             lambda ctx, text: len(text) > EXCEL_MAX_CHARS,
             lambda ctx, rid, col, text, _: too_long_for_excel(ctx.t, rid, col, text),
             lambda ctx, column: _longer_than(ctx, EXCEL_MAX_CHARS, column), workbook=True),
    CellRule("control-character", _every,
             lambda ctx, text: CONTROL.search(text) is not None,
             lambda ctx, rid, col, text, _: control_character(ctx.t, rid, col, text),
             lambda ctx, column: ctx.scan(column).control, workbook=True),
    CellRule("literal-null-text", _every,
             lambda ctx, text: text in NULL_VARIANTS,
             lambda ctx, rid, col, text, _: literal_null(ctx.t, rid, col, text),
             _null_texts),
    CellRule("invalid-tool-calls", _field("tools"),
             lambda ctx, text: toolcalls.problem_msg(text) if text else None,
             lambda ctx, rid, col, text, problem: invalid_tool_calls(ctx.t, rid, col, problem),
             _unusual_tool_calls, repeats=True),
    CellRule("whitespace-in-session-id", _field("session"),
             lambda ctx, text: _spaced(text),
             lambda ctx, rid, col, text, _: session_whitespace(ctx.t, rid, col, text),
             _spaced_ends),
    CellRule("invalid-turn-id", _field("turn"),
             lambda ctx, text: _bad_turn(text),
             lambda ctx, rid, col, text, _: invalid_turn(ctx.t, rid, col, text),
             _bad_turns, needs=SESSION, repeats=True),
)
