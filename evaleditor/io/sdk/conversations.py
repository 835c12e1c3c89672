"""Conversations in SDK JSON: the agent_data and source_* keys the writer makes for the rows of a
conversation (formats.md, "Mapping between the table and SDK JSON"), and how a case's own trace is
kept when its row joins or leaves one."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from evaleditor.core.sessions import turn_key
from evaleditor.core.targets import ANSWER, QUESTION, SESSION, TURN
from evaleditor.io.sdk.mapping import (
    AGENT_DATA_KEY,
    AGENT_ID,
    SOURCE_CASE_KEY,
    SOURCE_TURN_KEY,
    SdkCase,
    content_text,
    model_content,
    user_content,
)


def conversation_layout(sessions: Sequence[str], turns: Sequence[str]) -> dict[str, list[int]]:
    """Session id -> indexes of its rows in turn order (core/sessions.turn_key)."""
    groups: dict[str, list[int]] = {}
    for i, sid in enumerate(sessions):
        if sid:
            members = groups.get(sid)
            if members is None:
                groups[sid] = [i]
            else:
                members.append(i)
    if any(len(members) > 1 for members in groups.values()):
        known = {text: turn_key(text) for text in {*turns, ""}}  # a file has few distinct turn cells
        keys = [known[text] for text in turns] + [known[""]] * (len(sessions) - len(turns))
        for sid, members in groups.items():
            if len(members) > 1:
                groups[sid] = sorted(members, key=keys.__getitem__)
    return groups


def conversation_data(sid: str, history: Sequence[tuple[str, str]], question: str, k: int) -> dict[str, Any]:
    """agent_data and source_* extras for turn `k` (0-based) of conversation `sid`.

    `history` holds (question, expected answer) of turns 0..k-1: each becomes a turn with the user's
    question and the agent's answer (no agent event when the answer is empty). Turn k holds only the
    user's question, so the SDK runs the agent on it.
    """
    turns = [_history_turn(i, _user_event(q), a) for i, (q, a) in enumerate(history)]
    return _conversation(sid, turns, _user_event(question), k, {AGENT_ID: {"agent_id": AGENT_ID}})


def _user_event(question: str) -> dict[str, Any]:
    return {"author": "user", "content": user_content(question)}


def _history_turn(i: int, asked: dict[str, Any], answer: str) -> dict[str, Any]:
    events = [asked, {"author": AGENT_ID, "content": model_content(answer)}] if answer else [asked]
    return {"turn_index": i, "events": events}


def _conversation(sid: str, history: list[dict[str, Any]], asked: dict[str, Any], k: int,
                  agents: dict[str, Any]) -> dict[str, Any]:
    return {
        "agent_data": {"agents": agents, "turns": [*history, {"turn_index": k, "events": [asked]}]},
        SOURCE_CASE_KEY: sid,
        SOURCE_TURN_KEY: k,
    }


def conversations(fields: Sequence[dict[str, str]]) -> list[tuple[str, int, dict[str, Any]] | None]:
    """For each row (its cells by field): (session id, 0-based turn, conversation data), or None."""
    out: list[tuple[str, int, dict[str, Any]] | None] = [None] * len(fields)
    for i, conv in iter_conversations(fields):
        out[i] = conv
    return out


def iter_conversations(fields: Sequence[dict[str, str]]) -> Iterator[tuple[int, tuple[str, int, dict[str, Any]]]]:
    """(row, (session id, 0-based turn, conversation data)) for the rows in a conversation, a conversation
    after the other. What repeats is built once and shared (never mutated): the turns of the history by
    the conversation's later rows (else a long conversation is quadratic), the user's event of a turn by
    the turn's row and the later ones, the agents by all."""
    layout = conversation_layout([f.get(SESSION, "") for f in fields], [f.get(TURN, "") for f in fields])
    yield from layout_conversations(layout, [f.get(QUESTION, "") for f in fields], [f.get(ANSWER, "") for f in fields])


def layout_conversations(layout: dict[str, list[int]], questions: Sequence[str], answers: Sequence[str]
                         ) -> Iterator[tuple[int, tuple[str, int, dict[str, Any]]]]:
    """`iter_conversations` for rows already laid out (`conversation_layout`), given their questions and
    answers as columns."""
    agents = {AGENT_ID: {"agent_id": AGENT_ID}}
    for sid, members in layout.items():
        history: list[dict[str, Any]] = []
        for k, i in enumerate(members):
            asked = _user_event(questions[i])
            yield i, (sid, k, _conversation(sid, history, asked, k, agents))
            history.append(_history_turn(k, asked, answers[i]))


def own_trace(case: SdkCase) -> dict[str, Any] | None:
    """The agent_data of a row's case when the writer did not make it from the rows as read (a trace
    of its own, or conversation data written by another tool); None when there is none."""
    own = case.case.get(AGENT_DATA_KEY)
    if own is None:
        return None
    made = case.conversation.get(AGENT_DATA_KEY) if case.conversation else None
    return None if own is made or own == made else own


def conversation_keys(data: dict[str, Any] | None, case: SdkCase | None) -> tuple[dict[str, Any], bool]:
    """The conversation keys (agent_data, source_*) to write for a row whose conversation changed,
    and whether turns of its own agent_data (`own_trace`) are replaced.

    `data`: the row's conversation data (`conversations`), None when it is in none; `case`: its
    payload. Its own agent_data is kept whole out of a conversation and as the first turn of one (no
    other row's turn belongs in it). As turn k ≥ 1 the history turns 0 … k-1 are the conversation's,
    made from its rows, so that the SDK runs the agent on the conversation the table shows: the agents
    it declares are kept (with the writer's own), and its evaluated turn when it asks the row's
    question; its other turns give way, and are said to be replaced unless they were the history the
    writer makes from the rows as read (`replaced_traces` in sdk/write.py names the rows).
    """
    own = own_trace(case) if case is not None else None
    if own is None:
        return data or {}, False
    if data is None:
        return {AGENT_DATA_KEY: own}, False
    if data[SOURCE_TURN_KEY] == 0:
        return {**data, AGENT_DATA_KEY: own}, False
    made = data[AGENT_DATA_KEY]
    agents = dict(own.get("agents") or {})
    for name, config in made["agents"].items():
        agents.setdefault(name, config)
    history, asked = made["turns"][:-1], made["turns"][-1]
    own_turns = own.get("turns") or []
    if own_turns and _asks_the_same(own_turns[-1], asked):  # its own evaluated turn, with its turn_id …
        asked = {**own_turns[-1], "turn_index": asked["turn_index"]}
        own_turns = own_turns[:-1]
    before = case.conversation[AGENT_DATA_KEY]["turns"] if case.conversation else []
    replaced = any(not _same_turn(turn, history, i) and not _same_turn(turn, before, i)
                   for i, turn in enumerate(own_turns))
    return {**data, AGENT_DATA_KEY: {**own, "agents": agents, "turns": [*history, asked]}}, replaced


def _same_turn(turn: object, turns: list[Any], i: int) -> bool:
    return i < len(turns) and turns[i] == turn


def _asks_the_same(turn: object, asked: dict[str, Any]) -> bool:
    """The user in `turn` asks what the turn the writer makes (`asked`) asks: its last user event, which
    a completed turn follows with the agents' calls and reply (kept with it)."""
    events = turn.get("events") if isinstance(turn, dict) else None
    users = [e for e in events or () if isinstance(e, dict) and e.get("author") == "user"]
    return bool(users) and content_text(users[-1].get("content")) == content_text(asked["events"][-1]["content"])
