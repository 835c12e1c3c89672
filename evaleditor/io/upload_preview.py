"""What a target will receive from the file a save writes (the window's Upload Preview), built from
the code that saves: the document made what the file holds by the plan Save follows
(`io.save.plan_save`: header spelling, SDK turn order, a platform's cells), then `core/export` (the headers and rows
of a .csv/.xlsx) read the way the target reads them, or `sdk.write.SdkCases` (the cases of SDK JSON).

A preview is a list of cases cheap to make at 100k rows: the list holds row ids only, and a case's
turns, verdict and raw JSON are made when it is shown (`Preview.case`). Its `shape` is counted from
that list, independently of the validator's shape line, which it must equal.

A target plugs in with one function: `register(name, build)`, `build(doc) -> Preview`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from evaleditor.core.dataset import Dataset
from evaleditor.core.document import Document
from evaleditor.core.export import export_headers
from evaleditor.core.rules import ERROR, Issue
from evaleditor.core.saving import SavePlan, default_format
from evaleditor.core.shape import Shape
from evaleditor.core.targets import (
    ANSWER,
    EVALUATION_SET,
    GROUND_TRUTH,
    QUESTION,
    SDK,
    SESSION,
    TOOL_CALLS,
    TURN,
    get_target,
)

# what a case is to its target
CONVERSATION = "conversation"  # the rows of one session id, replayed in turn order
ALONE = "alone"  # a row whose session id is empty: a conversation of one
SINGLE = "single"  # no session column: every row is a single-turn case
ACCEPT, REJECT = "accept", "reject"


@dataclass(frozen=True)
class Turn:
    """One turn of a case, with the table row it comes from."""

    row_id: int
    row: int  # 1-based data row number, as the editor shows it
    turn: str  # the turn cell as written ("" without a turn column)
    question: str
    answer: str = ""
    tool_calls: str = ""
    history: tuple[tuple[str, str], ...] = ()  # SDK: (author, text) of the turns sent before this one


@dataclass(frozen=True)
class Case:
    kind: str  # CONVERSATION, ALONE or SINGLE
    name: str  # the session id, or the SDK case id ("" when none)
    turns: tuple[Turn, ...]
    verdict: str | None = None  # ACCEPT / REJECT where the target decides per case (evaluation-set)
    reasons: tuple[Issue, ...] = ()  # why it is rejected
    raw: str | None = None  # the case's JSON as written (SDK)
    session: str = ""  # SDK: the conversation (source_case_id) the case is a turn of


@dataclass
class Preview:
    """The cases of `target`, in the order the target lists them. `entries[i]` is (kind, name, row ids)
    of case i; `make(i)` builds its Case. `refusals`: errors about the whole file (the upload or
    import refuses it however good its cases are)."""

    target: str
    shape: Shape
    entries: list[tuple[str, str, tuple[int, ...]]]
    make: Callable[[int], Case]
    refusals: list[Issue] = field(default_factory=list)
    session_header: str | None = None  # the column read as session id, as written
    verdicts: bool = False  # each case is accepted or rejected (Case.verdict)
    objects: bool = False  # each case is one object with its raw JSON (SDK JSON and its flat forms)

    def __len__(self) -> int:
        return len(self.entries)

    def case(self, i: int) -> Case:
        return self.make(i)


Builder = Callable[[Document], Preview]
_BUILDERS: dict[str, Builder] = {}


def register(target: str, build: Builder) -> None:
    """Make `build` the preview of `target` (the one function a new target supplies)."""
    _BUILDERS[target] = build


def has_preview(target: str) -> bool:
    return target in _builders()


def build_preview(doc: Document) -> Preview:
    """The preview of `doc` for the target it is checked against."""
    return _builders()[doc.dataset.target.name](doc)


# ----- tables (.csv / .xlsx) ---------------------------------------------------------------------------------
def as_saved(doc: Document, plan: SavePlan | None = None) -> Dataset:
    """The dataset a save of `doc` in the format its target takes writes (by `plan`, else the save's
    plan: saved_plan): the document itself when the plan changes nothing, else a copy (same row and
    column ids) with the plan applied."""
    from evaleditor.core.saving import planned_dataset

    plan = plan or saved_plan(doc)
    return plan.planned if plan.planned is not None else planned_dataset(doc.dataset, plan.command, plan.target)


def saved_plan(doc: Document) -> SavePlan:
    """The plan of a save of `doc` in the format its target takes (what it built stays with it)."""
    from evaleditor.io.save import plan_save

    return plan_save(doc, default_format(doc))  # the save's: promptfoo's answers are checks (io/platforms for_target)


def _layout(sessions: Sequence[str], turns: Sequence[str]) -> dict[str, list[int]]:
    from evaleditor.io.sdk.conversations import conversation_layout  # the writer's own turn order

    return conversation_layout(sessions, turns)


Entry = tuple[str, str, tuple[int, ...]]


def _entries_from_index(doc: Document, spos: int | None) -> list[Entry]:
    """The cases from the validator's session index, kept up to date edit by edit: when the save
    writes the document as it is, its conversations are the index's (one pass in file order, no
    grouping). A conversation's rows are in file order here; `make` puts them in turn order."""
    v, ds = doc.validator, doc.dataset
    empty, session_of, sessions = v.empty_rows(), v.sessions.session_of, v.sessions.sessions
    entries: list[Entry] = []
    seen: set[str] = set()
    for row in ds.rows:
        rid = row.id
        if rid in empty:
            continue
        sid = session_of.get(rid) if spos is not None else None
        if sid is None:
            entries.append((ALONE if spos is not None else SINGLE, "", (rid,)))
        elif sid not in seen:
            seen.add(sid)
            entries.append((CONVERSATION, sid, tuple(sessions[sid])))
    return entries


def _entries_from_rows(ds: Dataset, pos: dict[str, int]) -> list[Entry]:
    """The cases of the rows core/export writes, grouped the way the target reads the headers."""
    rows = [(row.id, row.cells) for row in ds.rows if not row.is_empty()]
    spos = pos.get(SESSION)
    if spos is None:
        return [(SINGLE, "", (rid,)) for rid, _ in rows]
    sessions = [_at(cells, spos) for _, cells in rows]
    layout = _layout(sessions, [_at(cells, pos.get(TURN)) for _, cells in rows])
    first = {min(members): sid for sid, members in layout.items()}  # a conversation at its first row
    entries: list[Entry] = []
    for i, (rid, _) in enumerate(rows):
        if not sessions[i]:
            entries.append((ALONE, "", (rid,)))
        elif i in first:
            entries.append((CONVERSATION, first[i], tuple(rows[m][0] for m in layout[first[i]])))
    return entries


def _at(cells: list[str], p: int | None) -> str:
    return cells[p] if p is not None and p < len(cells) else ""


def table_preview(doc: Document, verdicts: bool = False) -> Preview:
    """The cases a service reading the saved table gets: the headers are read the way the target
    reads them (a `Session_ID` column groups nothing), conversations in the order of their first row,
    their turns in turn order; a row with an empty session id is a conversation of one."""
    target = get_target(doc.dataset.target.name)
    saved = as_saved(doc)
    headers = export_headers(saved)
    pos: dict[str, int] = {}
    for i, header in enumerate(headers):
        fld = target.recognise(header)
        if fld is not None and fld not in pos:
            pos[fld] = i
    spos = pos.get(SESSION)
    v = doc.validator
    if saved is doc.dataset and v.checking is None and spos == doc.dataset.field_position(SESSION):
        entries = _entries_from_index(doc, spos)
    else:
        entries = _entries_from_rows(saved, pos)
    rows = sum(len(ids) for _, _, ids in entries)
    if spos is None or all(kind != CONVERSATION for kind, _, _ in entries):
        entries = [(SINGLE, "", ids) for _, _, ids in entries]
        shape = Shape("single-turn", rows, None, None)
    else:
        shape = Shape("multi-turn", rows, len(entries), headers[spos])
    number = doc.dataset.position

    def make(i: int) -> Case:
        kind, name, ids = entries[i]
        cells = [saved.row(rid).cells for rid in ids]
        if kind == CONVERSATION:  # turn order, as the writer orders a conversation
            order = _layout([name] * len(ids), [_at(c, pos.get(TURN)) for c in cells])[name]
            ids, cells = tuple(ids[k] for k in order), [cells[k] for k in order]
        turns = tuple(Turn(rid, number(rid) + 1, _at(c, pos.get(TURN)), _at(c, pos.get(QUESTION)),
                           _at(c, pos.get(ANSWER)), _at(c, pos.get(TOOL_CALLS))) for rid, c in zip(ids, cells, strict=True))
        if not verdicts:
            return Case(kind, name, turns)
        reasons = tuple(issue for rid in ids for issue in v.row_issues(rid) if issue.severity == ERROR)
        reasons += tuple(refusals)  # a file the import refuses imports none of its cases
        return Case(kind, name, turns, REJECT if reasons else ACCEPT, _unique(reasons))

    refusals = [i for i in v.file_issues() if i.severity == ERROR] if verdicts else []
    return Preview(target.name, shape, entries, make, refusals, headers[spos] if spos is not None else None,
                   verdicts=verdicts)


def _unique(issues: tuple[Issue, ...]) -> tuple[Issue, ...]:
    """One reason per rule and message (a conversation's turn-gap is reported on each of its rows)."""
    seen, out = set(), []
    for issue in issues:
        key = (issue.rule, issue.message)
        if key not in seen:
            seen.add(key)
            out.append(issue)
    return tuple(out)


def evaluation_set_preview(doc: Document) -> Preview:
    """The cases as the evaluation-set import lists them, each accepted or rejected with the reasons:
    the target's limits (2,000 cases, 10 turns, 2,000 / 5,000 characters, turns numbered 1, 2, 3 …)
    are its rules in the catalogue, so the reasons are the validator's errors on the case's rows."""
    return table_preview(doc, verdicts=True)


# ----- SDK JSON ----------------------------------------------------------------------------------------------
def sdk_preview(doc: Document) -> Preview:
    """The EvalCases a save as SDK JSON writes, one per row; each made when shown (sdk.write.SdkCases)."""
    from evaleditor.io.sdk.write import SdkCases

    plan = SdkCases(as_saved(doc))
    ds = doc.dataset
    entries = []
    for n in range(len(plan)):
        place = plan.place.get(n)
        name = plan.ids[n] or ""
        rows = plan.row_ids(n)  # a case's own recorded conversation: its turns' rows
        entries.append((CONVERSATION if place or len(rows) > 1 else SINGLE, name, rows))
    singles = sum(1 for n in range(len(plan)) if n not in plan.place)
    if plan.layout or any(len(e[2]) > 1 for e in entries):
        header = ds.columns[ds.field_position(SESSION)].header if ds.field_position(SESSION) is not None else SESSION
        shape = Shape("multi-turn", len(plan), len(plan.layout) + singles, header)
    else:
        shape = Shape("single-turn", len(plan), None, None)

    def make(n: int) -> Case:
        case = plan.case(n)
        if len(entries[n][2]) > 1:
            return _recorded(case, entries[n], ds)
        rid = plan.row_id(n)
        place = plan.place.get(n)
        turn = Turn(rid, ds.position(rid) + 1, str(place[1] + 1) if place else "", _text(case.get("prompt")),
                    _text((case.get("reference") or {}).get("response")), _calls(case),
                    _history(case.get("agent_data")))
        return Case(entries[n][0], entries[n][1], (turn,), raw=json.dumps(case, ensure_ascii=False, indent=2),
                    session=place[0] if place else "")

    return Preview(SDK, shape, entries, make, session_header=shape.session_header, objects=True)


def _recorded(case: dict[str, Any], entry: tuple[str, str, tuple[int, ...]], ds) -> Case:
    """A conversation recorded in the case's agent_data (sdk/traces.py): a turn per row."""
    from evaleditor.core.targets import ANSWER, QUESTION, TOOL_CALLS
    from evaleditor.io.sdk.traces import turn_cells

    turns = []
    for k, (rid, turn) in enumerate(zip(entry[2], case["agent_data"]["turns"], strict=False)):
        cells = turn_cells(turn)
        turns.append(Turn(rid, ds.position(rid) + 1, str(k + 1), cells[QUESTION], cells[ANSWER], cells[TOOL_CALLS]))
    return Case(entry[0], entry[1], tuple(turns), raw=json.dumps(case, ensure_ascii=False, indent=2),
                session=entry[1])


def _text(content: Any) -> str:
    if not isinstance(content, dict):
        return ""
    return "\n".join(p["text"] for p in content.get("parts") or () if isinstance(p, dict) and isinstance(p.get("text"), str))


def _calls(case: dict[str, Any]) -> str:
    """The expected calls as written: reference_trajectory's function calls as a JSON array of
    {name, arguments}, else the text kept as typed."""
    calls = [part["function_call"] for step in case.get("reference_trajectory") or ()
             for part in step.get("parts") or () if isinstance(part, dict) and "function_call" in part]
    if calls:
        return json.dumps([{"name": c.get("name"), "arguments": c.get("args", {})} for c in calls],
                          ensure_ascii=False)
    raw = case.get("expected_tool_calls")
    return raw if isinstance(raw, str) else ""


def _history(agent_data: Any) -> tuple[tuple[str, str], ...]:
    """(author, text) of every event of the turns before the evaluated (last) one."""
    if not isinstance(agent_data, dict):
        return ()
    turns = agent_data.get("turns") or []
    return tuple((str(e.get("author", "")), _text(e.get("content"))) for t in turns[:-1]
                 for e in t.get("events") or () if isinstance(e, dict))


register(GROUND_TRUTH, table_preview)
register(EVALUATION_SET, evaluation_set_preview)
register(SDK, sdk_preview)


def _builders() -> dict[str, Builder]:
    """Every registered preview, the other platforms' (io/platforms/: the records their own writers
    make, io/platform_preview.py) added on first use: that module builds on this one, so registering
    it while this one loads was an import circle."""
    from evaleditor.io.platform_preview import platform_preview
    from evaleditor.io.platforms import PLATFORMS

    for name in PLATFORMS:
        _BUILDERS.setdefault(name, platform_preview)
    return _BUILDERS
