"""The rules of a conversation (one session's rows) and of the file as a whole; the row rules are in
checks.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import repeat

from evaleditor.core.checks import RowContext
from evaleditor.core.dataset import Dataset
from evaleditor.core.i18n import N_
from evaleditor.core.rules import Issue, make_issue
from evaleditor.core.sessions import parse_turn
from evaleditor.core.targets import ANSWER, EVALUATION_SET, QUESTION, SESSION, TURN, get_target

_NUMBERED = [[str(i) for i in range(1, n + 1)] for n in range(64)]


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
        out.append(single_turn_session(t, first, sid_col))
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


HEADER_SEARCH_ROWS = 5  # data rows looked at for the real header row (a title above it)


def headers_below(ds: Dataset) -> int | None:
    """The file's row (1-based) of one of the first data rows that holds a question header — the headers
    of a sheet with a title row above them — or None. A row read from no file counts from 2 (headers on 1)."""
    targets = [ds.target, get_target(EVALUATION_SET)]
    for position, row in enumerate(ds.rows[:HEADER_SEARCH_ROWS]):
        if any(tg.recognise(cell) == QUESTION for cell in row.cells if cell for tg in targets):
            return ds.source_rows.get(row.id, position + 2)
    return None


def single_turn_session(t: str, rid: int, col: int) -> Issue:
    return make_issue("single-turn-session", t, N_("This session id is used by one row only: a conversation of "
                      "one turn"), rid, col)


def single_turn_sessions(t: str, rids: Iterable[int], col: int | None) -> Iterator[Issue]:
    """`single_turn_session` of each row of `rids`, made at C speed (a big file has thousands)."""
    one = single_turn_session(t, 0, col)
    return map(Issue._make, zip(repeat(one.rule), repeat(one.severity), repeat(one.template), rids, repeat(col),
                                repeat(one.field), repeat(one.args)))


def file_issues(ds: Dataset, static: list[Issue], rows: int, has_sessions: bool, source_format: str | None,
                file_size: int | None) -> list[Issue]:
    """File-level issues: the reader's (`static`), then the headers', then the whole file's (`rows`:
    the data rows; `has_sessions`: some row belongs to a conversation)."""
    target = ds.target
    t = target.name
    out: list[Issue] = list(static)
    fields = ds.fields()
    seen: dict[str, str] = {}
    for col, fld in zip(ds.columns, fields, strict=True):
        if fld is None:
            miss = target.near_miss(col.header)
            if miss == SESSION and SESSION not in fields:  # else a session column is read: not a misspelling
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
            elif target.only_keys is not None:  # its file holds its own keys only (io/platforms/bedrock.py)
                if col.header in target.only_keys:
                    continue
                out.append(make_issue("unknown-column", t, N_("Column {header!r} is not used by {target}, whose file "
                                      "does not hold it: it is left out when saved for {target}"), None, col.id,
                                      args=(("header", col.header), ("target", t))))
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
    keys_unknown = not ds.columns and source_format == "jsonl"  # no records: a .jsonl names no keys to miss
    if QUESTION not in seen and not keys_unknown:
        want = target.header_in(QUESTION, ds.headers())
        if (row := headers_below(ds)) is not None:
            out.append(make_issue("missing-question-column", t, N_("No column is read as the question: the headers "
                                  "look like they are on row {row}: delete the rows above it"), None, None, QUESTION,
                                  args=(("row", row),)))
        else:
            out.append(make_issue("missing-question-column", t, N_("No column is read as the question: rename the "
                                  "question column to {want!r}"), None, None, QUESTION, args=(("want", want),)))
    if ANSWER not in seen and not keys_unknown:
        out.append(make_issue("missing-answer-column", t, N_("No answer column: comparison metrics (accuracy …) will "
                              "be unavailable"), None, None, ANSWER))
    if TURN in seen and SESSION not in seen:
        out.append(make_issue("turn-column-without-session", t, N_("Column {header!r} numbers turns, but there is "
                              "no session column: turns have no effect"), None, ds.columns[ds.field_position(TURN)].id,
                              args=(("header", seen[TURN]),)))
    if SESSION in seen and TURN not in seen and has_sessions:
        out.append(make_issue("no-turn-column", t, N_("Conversations exist but there is no {header!r} column: turns "
                              "will run in file order, which sorting can scramble"), None, None, TURN,
                              args=(("header", target.header_in(TURN, ds.headers())),)))
    if rows == 0:
        out.append(make_issue("empty-dataset", t, N_("The file has no data rows"), None))
    if target.workbook_only and (source_format in ("csv", "tsv") or any(i.rule == "workbook-named-as-text"
                                                                         for i in static)):  # text, or so named
        out.append(make_issue("unsupported-file-type", t, N_("{target} accepts only Excel workbooks: save as .xlsx"),
                              None, args=(("target", t),)))
    if target.max_file_bytes and file_size and file_size > target.max_file_bytes:
        out.append(make_issue("file-too-large", t, N_("The file is {size:.1f} MB; the limit is {limit} MB"), None,
                              args=(("size", file_size / 1e6), ("limit", target.max_file_bytes // (1024 * 1024)))))
    if target.max_cases and rows > target.max_cases:
        if target.cases_rule == "too-many-cases":
            out.append(make_issue("too-many-cases", t, N_("{n:,} cases; the limit is {limit:,} per set"), None,
                                  args=(("n", rows), ("limit", target.max_cases))))
        else:
            out.append(make_issue(target.cases_rule, t, N_("{n:,} prompts; {service} takes at most {limit:,} per "
                                  "evaluation job: split the file"), None,
                                  args=(("n", rows), ("service", target.title), ("limit", target.max_cases))))
    if not target.conversations and has_sessions:
        out.append(make_issue("conversation-not-supported", t, N_("{service} evaluates every row on its own: the "
                              "conversations are sent as single prompts, without their earlier turns"), None,
                              args=(("service", target.title),)))
    return out
