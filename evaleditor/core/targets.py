"""The three upload targets: which headers each recognises, their limits, and which rules apply.

A header is recognised per target (formats.md). `near_miss` spots headers that a person meant as the
session or turn column but that the target will not read as such (`Session_ID`, `turn` ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

QUESTION = "question"
ANSWER = "answer"
CONTEXT = "context"
TOOL_CALLS = "expected_tool_calls"
SESSION = "session_id"
TURN = "turn_id"
CASE_ID = "eval_case_id"

FIELDS = (QUESTION, ANSWER, CONTEXT, TOOL_CALLS, SESSION, TURN)

GROUND_TRUTH = "ground-truth"
EVALUATION_SET = "evaluation-set"
SDK = "sdk"
TARGET_NAMES = (GROUND_TRUTH, EVALUATION_SET, SDK)

_NORMALISE = re.compile(r"[\s_\-.]+")
_SESSION_CONCEPT = {"sessionid", "session", "sessionnumber", "conversationid", "conversation", "会话id", "会话"}
_TURN_CONCEPT = {"turnid", "turn", "turnnumber", "turnindex", "requestid", "请求顺序", "turnorder"}


def _normalise(header: str) -> str:
    return _NORMALISE.sub("", header.strip().lower())


@dataclass(frozen=True)
class Target:
    name: str
    # exact spellings -> field; `folded` ones are matched case-insensitively
    exact: dict[str, str]
    folded: dict[str, str]
    headers_en: dict[str, str]
    headers_zh: dict[str, str] = field(default_factory=dict)
    formats: tuple[str, ...] = ("xlsx", "csv")  # the file formats the service accepts for this target
    max_file_bytes: int | None = None
    max_cases: int | None = None
    max_turns: int | None = None
    max_chars: dict[str, int] = field(default_factory=dict)
    strict_turns: bool = False  # turn-gap / turn-not-starting-at-one are errors

    @property
    def workbook_only(self) -> bool:
        return self.formats == ("xlsx",)

    def recognise(self, header: str) -> str | None:
        """The canonical field `header` stands for under this target, or None."""
        h = header.strip()
        found = self.exact.get(h)
        if found is None:
            found = self.folded.get(h.lower())
        return found

    def near_miss(self, header: str) -> str | None:
        """SESSION or TURN when `header` looks meant as that column but is not recognised as it."""
        if self.recognise(header) is not None:
            return None
        norm = _normalise(header)
        if norm in _SESSION_CONCEPT:
            return SESSION
        if norm in _TURN_CONCEPT:
            return TURN
        return None

    def header_for(self, fld: str, lang: str = "en") -> str:
        """How this target spells `fld` when writing (falls back to the canonical name)."""
        table = self.headers_zh if lang == "zh" and self.headers_zh else self.headers_en
        return table.get(fld, fld)

    def header_in(self, fld: str, headers: list[str]) -> str:
        """How this target spells `fld` in a file with `headers`: in Chinese when it has Chinese headers
        and the file's are (会话id is to become 会话ID, not session_id)."""
        return self.header_for(fld, "zh" if self.headers_zh and any(map(_CJK.search, headers)) else "en")

    def template_fields(self) -> tuple[str, ...]:
        return tuple(self.headers_en)


_GT_FOLDED = {
    "question": QUESTION, "query": QUESTION, "input": QUESTION,
    "answer": ANSWER, "expected_answer": ANSWER, "expected_output": ANSWER, "expected": ANSWER,
}
_GT_EXACT = {
    "context": CONTEXT, "expected_tool_calls": TOOL_CALLS, "tools": TOOL_CALLS,
    "session_id": SESSION, "turn_id": TURN,
}
_CANONICAL_ORDER = {SESSION: SESSION, TURN: TURN, QUESTION: QUESTION, ANSWER: ANSWER,
                    CONTEXT: CONTEXT, TOOL_CALLS: TOOL_CALLS}

TARGETS: dict[str, Target] = {
    GROUND_TRUTH: Target(
        name=GROUND_TRUTH, exact=_GT_EXACT, folded=_GT_FOLDED, headers_en=dict(_CANONICAL_ORDER),
    ),
    EVALUATION_SET: Target(
        name=EVALUATION_SET,
        exact={"会话ID": SESSION, "请求顺序": TURN, "问题": QUESTION, "答案": ANSWER},
        folded={"session_id": SESSION, "request_id": TURN, "query": QUESTION, "answer": ANSWER,
                "reference_output": ANSWER, "expected_output": ANSWER},
        headers_en={SESSION: "session_id", TURN: "request_id", QUESTION: "query", ANSWER: "answer"},
        headers_zh={SESSION: "会话ID", TURN: "请求顺序", QUESTION: "问题", ANSWER: "答案"},
        formats=("xlsx",), max_file_bytes=20 * 1024 * 1024, max_cases=2000, max_turns=10,
        max_chars={QUESTION: 2000, ANSWER: 5000}, strict_turns=True,
    ),
    SDK: Target(
        name=SDK, exact={**_GT_EXACT, CASE_ID: CASE_ID}, folded=_GT_FOLDED,
        headers_en={CASE_ID: CASE_ID, **_CANONICAL_ORDER}, formats=("json",),
    ),
}


def get_target(name: str) -> Target:
    try:
        return TARGETS[name]
    except KeyError:
        raise ValueError(f"unknown target {name!r} (choose {', '.join(TARGET_NAMES)})") from None


_CJK = re.compile(r"[\u4e00-\u9fff]")


def infer_target(headers: list[str], suffix: str) -> str:
    """cli.md: .json is sdk; Chinese headers, `query` or `request_id` mean evaluation-set.

    "Chinese headers" are the evaluation set's (会话ID, 问题 …), or Chinese ones in a file without
    a question column ground-truth knows: an extra column such as 评分 beside `Question` and
    `Expected_Answer` keeps a file ground-truth."""
    if suffix.lower() == ".json":
        return SDK
    names = [h.strip() for h in headers]
    if any(s == "query" or s.lower() == "request_id" for s in names):
        return EVALUATION_SET
    chinese = [s for s in names if _CJK.search(s)]
    if chinese and (any(TARGETS[EVALUATION_SET].recognise(s) for s in chinese)
                    or not any(TARGETS[GROUND_TRUTH].recognise(s) == QUESTION for s in names)):
        return EVALUATION_SET
    return GROUND_TRUTH
