"""What the SDK accepts but the editor flags in a case (sdk-empty-content, sdk-turn-index,
sdk-unknown-author), and which of a case's fields the table does not show (sdk-not-shown)."""

from __future__ import annotations

from typing import Any

from evaleditor.io.sdk_map import PART_KINDS

# EvalCase fields the table never shows, with how to name them in a note
_HIDDEN = {
    "responses": "candidate response",
    "rubric_groups": "rubric group",
    "system_instruction": "the system instruction",
    "conversation_history": "conversation history message",
    "intermediate_events": "intermediate event",
    "agent_info": "the agent info",
    "user_scenario": "the user scenario",
    "interactions_data_source": "the interactions data source",
}


def hidden_fields(case: dict[str, Any]) -> list[str]:
    """The declared fields of `case` that no cell shows, described for a note."""
    out = []
    for key, name in _HIDDEN.items():
        value = case.get(key)
        if value is None:
            continue
        if isinstance(value, (list, dict)) and not name.startswith("the "):
            n = len(value)
            label = f"{n} {name}{'s' if n != 1 else ''}"
            if key == "rubric_groups" and value:
                label += f" ({', '.join(map(str, value))})"
            out.append(label)
        else:
            out.append(name)
    return out


def _content_problems(content: Any, path: str, event: bool = False) -> list[tuple[str, str]]:
    if not isinstance(content, dict) or not content.get("parts"):
        return [(path, "an event with no content parts" if event else "no parts: the content is empty")]
    return [(f"{path}.parts.{i}", f"the part sets no kind ({', '.join(PART_KINDS[:5])} …)")
            for i, part in enumerate(content["parts"])
            if not any(part.get(k) is not None for k in PART_KINDS)]


def case_findings(case: dict[str, Any], path: str) -> list[tuple[str, str, str]]:
    """(rule, path, message) for the problems of a checked case that the SDK itself lets through."""
    out: list[tuple[str, str, str]] = []
    empty: list[tuple[str, str]] = []
    if "prompt" in case:
        empty += _content_problems(case["prompt"], f"{path}.prompt")
    if "reference" in case:
        empty += _content_problems(case["reference"].get("response"), f"{path}.reference.response")
    for i, event in enumerate(case.get("intermediate_events") or []):
        if "content" in event:
            empty += _content_problems(event["content"], f"{path}.intermediate_events.{i}.content", True)
    agent_data = case.get("agent_data") or {}
    agents = agent_data.get("agents") or {}
    turns = agent_data.get("turns") or []
    undeclared: dict[str, str] = {}
    for t, turn in enumerate(turns):
        for e, event in enumerate(turn.get("events") or []):
            where = f"{path}.agent_data.turns.{t}.events.{e}"
            if "content" in event or not ({"state_delta", "active_tools"} & set(event)):
                empty += _content_problems(event.get("content"), f"{where}.content" if "content" in event
                                           else where, True)
            author = event.get("author")
            if author is not None and author != "user" and author not in agents:
                undeclared.setdefault(author, where)
    out += [("sdk-empty-content", p, m) for p, m in empty]
    indexes = [turn.get("turn_index") for turn in turns]
    if any(_as_int(v) != i for i, v in enumerate(indexes)):
        shown = ", ".join("none" if v is None else str(v) for v in indexes[:12]) + (" …" if len(indexes) > 12 else "")
        out.append(("sdk-turn-index", f"{path}.agent_data.turns",
                    f"turn_index values are {shown}; they must be 0, 1, 2 … in order"))
    for author, where in undeclared.items():
        declared = ", ".join(map(repr, agents)) or "none"
        out.append(("sdk-unknown-author", where,
                    f"author {author!r} is not declared in agent_data.agents (declared: {declared})"))
    return out


def _as_int(value: Any) -> int | None:
    try:
        return int(str(value).strip()) if not isinstance(value, bool) else int(value)
    except ValueError:
        return None
