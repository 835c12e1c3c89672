"""The checks themselves: one row, one session, the file. The Validator decides what to re-run."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from evaleditor.core import toolcalls
from evaleditor.core.dataset import Dataset, Row
from evaleditor.core.i18n import N_, Msg
from evaleditor.core.rules import Issue, make_issue
from evaleditor.core.sessions import parse_turn
from evaleditor.core.targets import ANSWER, QUESTION, SESSION, TOOL_CALLS, TURN

if TYPE_CHECKING:
    from evaleditor.core.validation import Validator

EXCEL_MAX_CHARS = 32767
CONTROL_CHARS = "".join(chr(i) for i in range(32) if chr(i) not in "\t\n\r")  # a workbook cannot hold them
CONTROL = re.compile(f"[{re.escape(CONTROL_CHARS)}]")
_NUMBERED = [[str(i) for i in range(1, n + 1)] for n in range(64)]
NULL_TEXTS = {"None", "NA", "N/A", "null", "NaN"}
NULL_VARIANTS = frozenset(v for t in NULL_TEXTS for v in (t, t.lower(), t.upper(), t.capitalize()))


class RowContext:
    """What a row check needs to know, computed once per full validation."""

    def __init__(self, ds: Dataset, workbook: bool):
        self.ds = ds
        self.target = ds.target
        self.workbook = workbook
        self.question = ds.field_position(QUESTION)
        self.answer = ds.field_position(ANSWER)
        self.tools = ds.field_position(TOOL_CALLS)
        self.session = ds.field_position(SESSION)
        self.turn = ds.field_position(TURN)
        self.col_ids = [c.id for c in ds.columns]
        self.max_question = self.target.max_chars.get(QUESTION)
        self.max_answer = self.target.max_chars.get(ANSWER)

    def column_id(self, fld: str) -> int | None:
        pos = self.ds.field_position(fld)
        return None if pos is None else self.col_ids[pos]

    def check(self, row: Row) -> list[Issue]:
        """Row-local issues of a row that is not entirely empty (bulk.py does the same for all rows)."""
        cells = row.cells
        ids = self.col_ids
        t = self.target.name
        rid = row.id
        out: list[Issue] = []
        q = self.question
        if q is not None:
            text = cells[q]
            if not text.strip():
                out.append(empty_question(t, rid, ids[q]))
            elif self.max_question and len(text) > self.max_question:
                out.append(question_too_long(t, rid, ids[q], text, self.max_question))
        a = self.answer
        if a is not None and self.max_answer and len(cells[a]) > self.max_answer:
            out.append(answer_too_long(t, rid, ids[a], cells[a], self.max_answer))
        if self.workbook:
            joined = "\n".join(cells)
            if len(joined) > EXCEL_MAX_CHARS:
                out.extend(too_long_for_excel(t, rid, ids[i], c) for i, c in enumerate(cells) if len(c) > EXCEL_MAX_CHARS)
            if CONTROL.search(joined):
                out.extend(control_character(t, rid, ids[i], c) for i, c in enumerate(cells) if CONTROL.search(c))
        if not NULL_VARIANTS.isdisjoint(cells):
            out.extend(literal_null(t, rid, ids[i], c) for i, c in enumerate(cells) if c in NULL_VARIANTS)
        tc = self.tools
        if tc is not None and cells[tc]:
            problem = toolcalls.problem_msg(cells[tc])
            if problem:
                out.append(invalid_tool_calls(t, rid, ids[tc], problem))
        s = self.session
        if s is not None:
            sid = cells[s]
            if sid and sid != sid.strip():
                out.append(session_whitespace(t, rid, ids[s], sid))
            if sid and self.turn is not None and cells[self.turn].strip() and parse_turn(cells[self.turn]) is None:
                out.append(invalid_turn(t, rid, ids[self.turn], cells[self.turn]))
        out.extend(formula_without_value(t, rid, col_id) for col_id in row.formulas)
        return out


# ----- one function per row-local rule: the wording lives here once ------------------------------
# Messages are msgids with named fields (core/i18n.py): formatted, and translated, only when shown.
TOOL_CALLS_EXAMPLE = ("example", '[{"name": "search", "arguments": {"q": "…"}}]')


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


_NULL_ARGS = {v: (("text", v),) for v in NULL_VARIANTS}  # shared: a big file has tens of thousands


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


def check_session(ds: Dataset, ctx: RowContext, members: list[int], contiguous: bool) -> list[Issue]:
    """Issues of one conversation (row ids in file order)."""
    t = ctx.target.name
    out: list[Issue] = []
    first = members[0]
    sid_col = ctx.col_ids[ctx.session]
    n = len(members)
    tpos = ctx.turn
    if contiguous and tpos is not None and 1 < n <= (ctx.target.max_turns or n) and n < len(_NUMBERED):
        if [ds.row(r).cells[tpos] for r in members] == _NUMBERED[n]:
            return out  # the common case: turns 1..n in file order, rows together
    if n == 1:
        out.append(make_issue("single-turn-session", t, N_("This session id is used by one row only: "
                              "a conversation of one turn"), first, sid_col))
    if ctx.target.max_turns and n > ctx.target.max_turns:
        out.append(make_issue("too-many-turns", t, N_("This conversation has {n} turns; the limit is {limit} "
                              "per session"), first, sid_col, args=(("n", n), ("limit", ctx.target.max_turns))))
    if not contiguous:
        out.append(make_issue("session-rows-not-contiguous", t, N_("The rows of this conversation are interleaved "
                              "with other rows: sort rows by session and turn to keep them together"), first, sid_col))
    if ctx.turn is None:
        return out
    tpos = ctx.turn
    turn_col = ctx.col_ids[tpos]
    rows = [ds.row(r) for r in members]
    texts = [r.cells[tpos] for r in rows]
    numbers = [parse_turn(x) for x in texts]
    numbered = [(r.id, v) for r, v in zip(rows, numbers, strict=True) if v is not None]
    blank = [r.id for r, x in zip(rows, texts, strict=True) if not x.strip()]
    if numbered and blank:
        for rid in blank:
            out.append(make_issue("missing-turn-id", t, N_("This row has no turn number while other rows of its "
                                  "conversation do: renumber the session"), rid, turn_col))
    if not numbered:
        return out
    seen = Counter(v for _, v in numbered)
    for rid, v in numbered:
        if seen[v] > 1:
            out.append(make_issue("duplicate-turn-id", t, N_("Turn {turn} appears {count} times in this "
                                  "conversation: renumber the session"), rid, turn_col,
                                  args=(("turn", v), ("count", seen[v]))))
    distinct = sorted(seen)
    if distinct[0] != 1:
        rid = next(r for r, v in numbered if v == distinct[0])
        if distinct[0] == 0:
            out.append(make_issue("turn-not-starting-at-one", t, N_("The first turn is numbered 0, not 1. It looks "
                                  "0-based: the service counts from 1."), rid, turn_col))
        else:
            out.append(make_issue("turn-not-starting-at-one", t, N_("The first turn is numbered {first}, not 1. "
                                  "Renumber the session from 1."), rid, turn_col, args=(("first", distinct[0]),)))
    for a, b in zip(distinct, distinct[1:], strict=False):
        if b > a + 1:
            for rid, v in numbered:
                if v == b:
                    out.append(make_issue("turn-gap", t, N_("Turn numbers jump from {a} to {b}: renumber the "
                                          "session"), rid, turn_col, args=(("a", a), ("b", b))))
    for (_, prev), (rid, v) in zip(numbered, numbered[1:], strict=False):
        if v < prev:
            out.append(make_issue("turns-out-of-file-order", t, N_("Turn {turn} comes after turn {previous} in the "
                                  "file: the sheet may have been sorted. Sort rows by session and turn"), rid, turn_col,
                                  args=(("turn", v), ("previous", prev))))
            break
    return out


def file_issues(v: Validator, static: list[Issue]) -> list[Issue]:
    ds = v.ds
    target = ds.target
    t = target.name
    out: list[Issue] = list(static)
    fields = ds.fields()
    seen: dict[str, str] = {}
    for col, fld in zip(ds.columns, fields, strict=True):
        if fld is None:
            miss = target.near_miss(col.header)
            if miss == SESSION:
                want = target.header_in(SESSION, ds.headers())
                out.append(make_issue("misspelled-session-column", t, N_("Header {header!r} is not read as the "
                                      "session column (the target wants {want!r}): the whole file will be evaluated "
                                      "as SINGLE-TURN. Rename it to {want!r}"), None, col.id,
                                      args=(("header", col.header), ("want", want))))
            elif miss == TURN:
                want = target.header_in(TURN, ds.headers())
                out.append(make_issue("misspelled-turn-column", t, N_("Header {header!r} is not read as the turn "
                                      "column (the target wants {want!r}). Rename it to {want!r}"), None, col.id,
                                      args=(("header", col.header), ("want", want))))
            else:
                if col.header.strip():
                    out.append(make_issue("unknown-column", t, N_("Column {header!r} is not used by {target}; it is "
                                          "kept in the file"), None, col.id, args=(("header", col.header), ("target", t))))
                else:
                    out.append(make_issue("unknown-column", t, N_("Column with no header is not used by {target}; it "
                                          "is kept in the file"), None, col.id, args=(("target", t),)))
        elif fld in seen:
            out.append(make_issue("duplicate-column", t, N_("Headers {first!r} and {second!r} both mean {field}: "
                                  "keep one, rename or remove the other"), None, col.id,
                                  args=(("first", seen[fld]), ("second", col.header), ("field", fld))))
        else:
            seen[fld] = col.header
    if QUESTION not in seen:
        want = target.header_for(QUESTION)
        out.append(make_issue("missing-question-column", t, N_("No column is read as the question: rename the "
                              "question column to {want!r}"), None, None, QUESTION, args=(("want", want),)))
    if ANSWER not in seen:
        out.append(make_issue("missing-answer-column", t, N_("No answer column: comparison metrics (accuracy …) will "
                              "be unavailable"), None, None, ANSWER))
    if TURN in seen and SESSION not in seen:
        out.append(make_issue("turn-column-without-session", t, N_("Column {header!r} numbers turns, but there is "
                              "no session column: turns have no effect"), None, ds.columns[ds.field_position(TURN)].id,
                              args=(("header", seen[TURN]),)))
    if SESSION in seen and TURN not in seen and v.sessions.sessions:
        out.append(make_issue("no-turn-column", t, N_("Conversations exist but there is no {header!r} column: turns "
                              "will run in file order, which sorting can scramble"), None, None, TURN,
                              args=(("header", target.header_in(TURN, ds.headers())),)))
    rows = v.data_row_count()
    if rows == 0:
        out.append(make_issue("empty-dataset", t, N_("The file has no data rows"), None))
    if target.workbook_only and v.source_format in ("csv", "tsv"):
        out.append(make_issue("unsupported-file-type", t, N_("{target} accepts only Excel workbooks: save as .xlsx"),
                              None, args=(("target", t),)))
    if target.max_file_bytes and v.file_size and v.file_size > target.max_file_bytes:
        out.append(make_issue("file-too-large", t, N_("The file is {size:.1f} MB; the limit is {limit} MB"), None,
                              args=(("size", v.file_size / 1e6), ("limit", target.max_file_bytes // (1024 * 1024)))))
    if target.max_cases and rows > target.max_cases:
        out.append(make_issue("too-many-cases", t, N_("{n:,} cases; the limit is {limit:,} per set"), None,
                              args=(("n", rows), ("limit", target.max_cases))))
    return out
