"""A recorded conversation that lives only in a case's agent_data (formats.md, "Mapping …", Reading):
no prompt, no source_case_id, its turns in `agent_data.turns`. Each turn shows as a row: the question
is the text of the turn's user events, the answer the text of its last agent event that has text, the
expected tool calls the function calls its agents made; the session is the case's id and the turn its
place (1-based). The SDK evaluates such a case as one multi-turn trace (its agent_data), so the rows
are written back as that one case, at the place of its first row.

Writing (`write_trace`), a turn whose cells are unchanged is the turn as read; an edited question
replaces the text of the turn's first user event, an edited answer the text of its last agent event
with text (a new event by the turn's agent when it had none), edited tool calls the function calls
(in place when there are as many, else one event with the new calls before the answer). A row added to
the conversation (its session id the case's) becomes a new turn; a removed row removes its turn. What
else the case holds (its reference, context, extras such as `turn_references`, agents, tool responses)
is kept as it was, and a case extra shown in a column takes the edited text of any of its rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from evaleditor.core import toolcalls
from evaleditor.core.sessions import turn_key
from evaleditor.core.targets import ANSWER, QUESTION, SESSION, TOOL_CALLS, TURN
from evaleditor.io.sdk.mapping import (
    AGENT_ID,
    SOURCE_CASE_KEY,
    Kept,
    content_text,
    model_content,
    parse_calls,
    typed_extra,
    with_text,
)

AGENT_DATA = "agent_data"


@dataclass(frozen=True, eq=False, slots=True)
class SdkTrace:
    """What a row of a trace carries: the case as read (shared by its rows, never mutated), `key` (the
    case's place in the file: the rows of one case share it), the turn it shows (`turn`, its index in
    agent_data.turns), the text each cell showed (`shown`, by field or mapping.extra_key) and what the
    case held that the SDK rejects (`kept`: mapping.Kept, None when nothing)."""

    case: dict[str, Any]
    key: int
    turn: int
    shown: dict[str, str] = field(default_factory=dict)
    kept: Kept | None = None


def is_trace(case: dict[str, Any]) -> bool:
    """A case whose conversation is only in agent_data (see the module's docstring)."""
    if "prompt" in case or SOURCE_CASE_KEY in case:
        return False
    data = case.get(AGENT_DATA)
    turns = data.get("turns") if isinstance(data, dict) else None
    return isinstance(turns, list) and bool(turns) and all(
        isinstance(t, dict) and isinstance(t.get("events"), list) for t in turns)


def _users(turn: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in turn["events"] if isinstance(e, dict) and e.get("author") == "user"]


def _agents(turn: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in turn["events"] if isinstance(e, dict) and e.get("author") not in (None, "user")]


def _calls(turn: dict[str, Any]) -> list[dict[str, Any]]:
    """The function_call objects of the turn's agent events, in order."""
    out = []
    for event in _agents(turn):
        for part in (event.get("content") or {}).get("parts") or []:
            call = part.get("function_call") if isinstance(part, dict) else None
            if isinstance(call, dict):
                out.append(call)
    return out


def _answer_event(turn: dict[str, Any]) -> dict[str, Any] | None:
    return next((e for e in reversed(_agents(turn)) if content_text(e.get("content"))), None)


def turn_cells(turn: dict[str, Any]) -> dict[str, str]:
    """What a turn's row shows: question, answer, expected tool calls."""
    question = "\n".join(t for t in (content_text(e.get("content")) for e in _users(turn)) if t)
    answer_event = _answer_event(turn)
    calls = [{"name": c.get("name") if isinstance(c.get("name"), str) else "",
              "arguments": c.get("args") if isinstance(c.get("args"), dict) else {}} for c in _calls(turn)]
    return {QUESTION: question, ANSWER: content_text(answer_event.get("content")) if answer_event else "",
            TOOL_CALLS: toolcalls.dumps(calls) if calls else ""}


def trace_rows(case: dict[str, Any], session: str) -> list[dict[str, str]]:
    """The cells of each turn's row; a trace of one turn is a row in no conversation."""
    rows = []
    turns = case[AGENT_DATA]["turns"]
    for k, turn in enumerate(turns):
        cells = turn_cells(turn)
        if len(turns) > 1:
            cells[SESSION] = session
            cells[TURN] = str(k + 1)
        rows.append(cells)
    return rows


# ----- writing ------------------------------------------------------------------------------------------
@dataclass
class TraceRow:
    """A row written into a trace: its cells by field, its extra columns, its payload (None: a new row)."""

    fields: dict[str, str]
    extras: dict[str, str]
    payload: SdkTrace | None


def write_trace(case: dict[str, Any], rows: list[TraceRow], extra_key) -> dict[str, Any]:
    """The case for the rows of its trace (see the module's docstring)."""
    data = case[AGENT_DATA]
    old_turns = data["turns"]
    agent = _agent_of(data)
    turns = []
    for position, row in enumerate(trace_order(rows)):
        p = row.payload
        turn = old_turns[p.turn] if p is not None and p.turn < len(old_turns) else {"events": []}
        shown = p.shown if p is not None else {}
        turn = _edited(turn, row.fields, shown, agent)
        if p is None:
            turn = {"turn_index": position, **turn}
        elif p.turn != position and "turn_index" in turn:  # an earlier turn removed, or the turns reordered
            turn = {**turn, "turn_index": position}
        turns.append(turn)
    out = dict(case)
    if len(turns) != len(old_turns) or any(a is not b for a, b in zip(turns, old_turns, strict=False)):
        new_data = {**data, "turns": turns}
        if any(r.payload is None for r in rows) and agent not in (data.get("agents") or {}):
            new_data["agents"] = {**(data.get("agents") or {}), agent: {"agent_id": agent}}
        out[AGENT_DATA] = new_data
    for row in rows:
        if row.payload is None:
            continue
        for name, text in row.extras.items():
            if row.payload.shown.get(extra_key(name), "") != text and (text or name in case):
                out[name] = typed_extra(text, case.get(name))
    return out


def trace_order(rows: list) -> list:
    """The rows of a trace in the order of their turns: numbered turns first, then file order."""
    return sorted(rows, key=lambda row: turn_key(row.fields.get(TURN, "")))  # stable: file order among equals


def _agent_of(data: dict[str, Any]) -> str:
    """The author of the agent's events: the first agent that speaks, else the first declared, else AGENT_ID."""
    for turn in data["turns"]:
        for event in _agents(turn):
            return event["author"]
    return next(iter(data.get("agents") or {}), AGENT_ID)


def _edited(turn: dict[str, Any], fields: dict[str, str], shown: dict[str, str], agent: str) -> dict[str, Any]:
    """`turn` with the cells that differ from what they showed written into it (the same object when none)."""
    events = list(turn["events"])
    changed = False
    question = fields.get(QUESTION, "")
    if question != shown.get(QUESTION, ""):
        changed = True
        users = [i for i, e in enumerate(events) if isinstance(e, dict) and e.get("author") == "user"]
        if users:
            event = events[users[0]]
            events[users[0]] = {**event, "content": with_text(event.get("content"), question, "user")
                                or {"role": "user", "parts": [{"text": ""}]}}
        else:
            events.insert(0, {"author": "user", "content": {"role": "user", "parts": [{"text": question}]}})
    text = fields.get(TOOL_CALLS, "")
    if text != shown.get(TOOL_CALLS, ""):
        calls = parse_calls(text)
        if calls is not None:
            changed = True
            events = _with_calls(events, calls, agent)
    answer = fields.get(ANSWER, "")
    if answer != shown.get(ANSWER, ""):
        changed = True
        at = next((i for i in range(len(events) - 1, -1, -1) if isinstance(events[i], dict)
                   and events[i].get("author") not in (None, "user") and content_text(events[i].get("content"))), None)
        if at is not None:
            event = events[at]
            content = with_text(event.get("content"), answer, "model")
            if content is None:
                del events[at]
            else:
                events[at] = {**event, "content": content}
        elif answer:
            events.append({"author": agent, "content": model_content(answer)})
    return {**turn, "events": events} if changed else turn


def _with_calls(events: list[Any], calls: list[dict[str, Any]], agent: str) -> list[Any]:
    """The events with their function calls replaced by `calls`: in place when there are as many."""
    places = [(i, j) for i, e in enumerate(events) if isinstance(e, dict) and e.get("author") not in (None, "user")
              for j, part in enumerate((e.get("content") or {}).get("parts") or [])
              if isinstance(part, dict) and isinstance(part.get("function_call"), dict)]
    events = list(events)
    if len(places) == len(calls):
        for (i, j), call in zip(places, calls, strict=True):
            content = dict(events[i]["content"])
            parts = list(content["parts"])
            parts[j] = {**parts[j], "function_call": {**parts[j]["function_call"], "name": call["name"],
                                                      "args": call["arguments"]}}
            content["parts"] = parts
            events[i] = {**events[i], "content": content}
        return events
    for i in sorted({i for i, _ in places}, reverse=True):
        content = events[i]["content"]
        parts = [p for p in content["parts"] if not (isinstance(p, dict) and "function_call" in p)]
        if parts:
            events[i] = {**events[i], "content": {**content, "parts": parts}}
        else:
            del events[i]
    if calls:
        answer = next((i for i in range(len(events) - 1, -1, -1) if isinstance(events[i], dict)
                       and events[i].get("author") not in (None, "user")), len(events))
        new = {"author": agent, "content": {"role": "model", "parts": [
            {"function_call": {"name": c["name"], "args": c["arguments"]}} for c in calls]}}
        events.insert(answer, new)
    return events
