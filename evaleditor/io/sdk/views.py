"""What the SDK accepts but the editor flags in a case (sdk-empty-content, sdk-turn-index,
sdk-unknown-author), and which of a case's fields the table does not show (sdk-not-shown)."""

from __future__ import annotations

from typing import Any

from evaleditor.io.sdk.mapping import PART_KINDS

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
    out: list[str] = []
    if _HIDDEN.keys().isdisjoint(case):  # the common case, without a look-up per field
        return out
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


def _has_parts(content: Any) -> bool:
    """Content with parts that each set a kind: nothing to report (most contents have a text part)."""
    if type(content) is not dict:
        return False
    parts = content.get("parts")
    if not parts:
        return False
    for part in parts:
        if part.get("text") is None and not any(part.get(k) is not None for k in PART_KINDS):
            return False
    return True


def _content_problems(content: Any, path: str, event: bool = False) -> list[tuple[str, str]]:
    if _has_parts(content):
        return []
    if not isinstance(content, dict) or not content.get("parts"):
        return [(path, "an event with no content parts" if event else "no parts: the content is empty")]
    return [(f"{path}.parts.{i}", f"the part sets no kind ({', '.join(PART_KINDS[:5])} …)")
            for i, part in enumerate(content["parts"])
            if not any(part.get(k) is not None for k in PART_KINDS)]


def case_findings(case: dict[str, Any], path: str, agent_data: bool = True) -> list[tuple[str, str, str]]:
    """(rule, path, message) for the problems of a checked case that the SDK itself lets through.

    `agent_data` False: its agent_data is not looked at (the reader knows it to be what the writer
    makes, with whole-number turn indexes: nothing to find)."""
    out: list[tuple[str, str, str]] = []
    empty: list[tuple[str, str]] = []
    if "prompt" in case and not _has_parts(case["prompt"]):
        empty += _content_problems(case["prompt"], f"{path}.prompt")
    if "reference" in case and not _has_parts(case["reference"].get("response")):
        empty += _content_problems(case["reference"].get("response"), f"{path}.reference.response")
    for i, event in enumerate(case.get("intermediate_events") or []):
        if "content" in event:
            empty += _content_problems(event["content"], f"{path}.intermediate_events.{i}.content", True)
    if not agent_data:
        return [("sdk-empty-content", p, m) for p, m in empty]
    agent_data = case.get("agent_data") or {}
    agents = agent_data.get("agents") or {}
    turns = agent_data.get("turns") or []
    undeclared: dict[str, str] = {}
    for t, turn in enumerate(turns):
        for e, event in enumerate(turn.get("events") or []):
            content = event.get("content")
            author = event.get("author")
            if _has_parts(content) and (author == "user" or author in agents or author is None):
                continue  # the common event: nothing to report
            where = f"{path}.agent_data.turns.{t}.events.{e}"
            if "content" in event or not ({"state_delta", "active_tools"} & set(event)):
                empty += _content_problems(content, f"{where}.content" if "content" in event else where, True)
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
    if type(value) is int:
        return value  # the common case
    try:
        return int(str(value).strip()) if not isinstance(value, bool) else int(value)
    except ValueError:
        return None
