"""A conversation as the service replays it: the rows of one session in turn order."""

from __future__ import annotations

import json
from dataclasses import dataclass

from evaleditor.core import toolcalls
from evaleditor.core.targets import ANSWER, QUESTION, TOOL_CALLS, TURN
from evaleditor.core.validation import Validator


@dataclass(frozen=True)
class Turn:
    row_id: int
    number: int  # 1-based position in the replay
    turn_text: str  # the turn cell as typed ("" without a turn column)
    question: str
    answer: str
    tool_calls: str  # pretty-printed when valid, else as typed


def replay_order(v: Validator, row_id: int) -> tuple[str | None, list[int]]:
    """(session id, row ids in replay order) for the conversation holding `row_id`.

    Turn order where numbered (unreadable or missing numbers after, in file order); file order
    without a turn column. A row with no session is a conversation of one."""
    sid = v.sessions.session_of.get(row_id)
    if sid is None:
        return None, [row_id]
    return sid, v.sessions.in_turn_order(sid)


def transcript(v: Validator, row_id: int) -> tuple[str | None, list[Turn]]:
    ds = v.ds
    sid, order = replay_order(v, row_id)
    tpos = ds.field_position(TURN)
    turns = []
    for n, rid in enumerate(order, 1):
        row = ds.row(rid)
        calls = ds.value(row, TOOL_CALLS)
        parsed = toolcalls.parse(calls) if calls.strip() else None
        if parsed:
            calls = json.dumps(parsed, ensure_ascii=False, indent=2)
        turns.append(Turn(rid, n, row.cells[tpos] if tpos is not None else "", ds.value(row, QUESTION),
                          ds.value(row, ANSWER), calls))
    return sid, turns
