"""One case as sdk/write.py writes it: a new row's case made straight from its cells (`new_case`), or
a case read from a file with the cells edited since written into it (`edited_case`)."""

from __future__ import annotations

from typing import Any

from evaleditor.core.targets import ANSWER, CONTEXT, QUESTION, TOOL_CALLS, TURN
from evaleditor.io.sdk.conversations import conversation_keys
from evaleditor.io.sdk.extras import written_extras
from evaleditor.io.sdk.mapping import (
    CONTEXT_KEY,
    CONVERSATION_KEYS,
    LOOSE_TURN_KEY,
    RAW_TOOL_CALLS_KEY,
    TRAJECTORY_KEY,
    SdkCase,
    calls_to_trajectory,
    model_content,
    parse_calls,
    with_text,
)


def new_case(case_id: str | None, question: str, answer: str, context: str, tool_calls: str, turn: str,
             conv: dict[str, Any] | None, extras: list[tuple[str, str]], turn_at: int | None = None
             ) -> dict[str, Any]:
    """The case of a row not read from SDK JSON, its keys in a fixed order: id, prompt, reference,
    context, tool calls, conversation (agent_data, source_*), the extras (strings; an empty cell as "",
    so that the column stays, in its place), and among them, before the `turn_at`-th (None: after
    them), a loose turn number (`turn_id`: a turn typed on a row in no conversation has no place among
    the SDK's fields; shown in the turn column again when read, where the extras around it say)."""
    case: dict[str, Any] = {}
    if case_id is not None:
        case["eval_case_id"] = case_id
    if question:
        case["prompt"] = {"role": "user", "parts": [{"text": question}]}
    if answer:
        case["reference"] = {"response": {"role": "model", "parts": [{"text": answer}]}}
    if context:
        case[CONTEXT_KEY] = context
    if tool_calls:
        calls = parse_calls(tool_calls)
        if calls is None:  # not a valid array: kept as typed
            case[RAW_TOOL_CALLS_KEY] = tool_calls
        elif tool_calls.strip():
            case[TRAJECTORY_KEY] = calls_to_trajectory(calls)
    if conv is not None:
        for key in CONVERSATION_KEYS:  # agent_data, source_case_id, source_turn_index
            if conv.get(key) is not None:
                case[key] = conv[key]
    if turn and conv is None and turn_at is not None and turn_at < len(extras):
        extras = [*extras[:turn_at], (LOOSE_TURN_KEY, turn), *extras[turn_at:]]
    case.update(extras)
    if conv is None:
        if turn:
            case[LOOSE_TURN_KEY] = turn
        else:
            case.pop(LOOSE_TURN_KEY, None)
    else:
        case.pop(LOOSE_TURN_KEY, None)  # an extra column of that name: the turn is the case's place
    return case


def edited_case(fields: dict[str, str], extras: dict[str, str], p: SdkCase, conv: dict[str, Any] | None,
                case_id: str | None, renamed: dict[str, str], present: set[str]) -> dict[str, Any]:
    """The case `p` was read as, with the cells that differ from what they showed written into it:
    an unchanged cell keeps the part of the case it came from exactly as read."""
    case: dict[str, Any] = dict(p.case)
    shown = p.shown

    def changed(fld: str) -> bool:
        return fields.get(fld, "") != shown.get(fld, "")

    if case_id is not None:
        case["eval_case_id"] = case_id
    if changed(QUESTION):
        _put(case, "prompt", with_text(case.get("prompt"), fields.get(QUESTION, ""), "user"))
    if changed(ANSWER):
        _put(case, "reference", _reference(case.get("reference"), fields.get(ANSWER, "")))
    if changed(CONTEXT):
        _put(case, CONTEXT_KEY, fields.get(CONTEXT, "") or None)
    if changed(TOOL_CALLS):
        text = fields.get(TOOL_CALLS, "")
        calls = parse_calls(text)
        _put(case, TRAJECTORY_KEY, calls_to_trajectory(calls) if calls is not None and text.strip() else None)
        _put(case, RAW_TOOL_CALLS_KEY, text if calls is None else None)
    case = written_extras(case, extras, p, renamed, present)
    moved = conv != p.conversation  # compared once: the history of a late turn is most of a file's text
    if moved:
        keys, _ = conversation_keys(conv, p)
        for key in CONVERSATION_KEYS:
            _put(case, key, keys.get(key))
    # a turn number on a row in no conversation (its session column unread, or its session id empty)
    # has no place among the SDK's fields: kept as the string extra `turn_id`, shown in the turn column
    # again when read; in a conversation it is the case's place (source_turn_index)
    if changed(TURN) or moved:
        if conv is None:
            _put(case, LOOSE_TURN_KEY, fields.get(TURN) or None)
        elif isinstance(case.get(LOOSE_TURN_KEY), str):
            del case[LOOSE_TURN_KEY]
    return case


def _reference(reference: dict | None, text: str) -> dict | None:
    if reference is None:
        return {"response": model_content(text)} if text else None
    response = with_text(reference.get("response"), text, "model")
    rest = {k: v for k, v in reference.items() if k != "response"}
    if response is None:
        return rest or None
    return {**rest, "response": response}


def _put(case: dict[str, Any], key: str, value: Any) -> None:
    if value is None:
        case.pop(key, None)
    else:
        case[key] = value
