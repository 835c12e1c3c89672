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
SDK_HISTORY = "conversation_history"  # the sdk-flat form's earlier turns of a conversation (io/platforms/sdk_flat.py)

FIELDS = (QUESTION, ANSWER, CONTEXT, TOOL_CALLS, SESSION, TURN)

GROUND_TRUTH = "ground-truth"
EVALUATION_SET = "evaluation-set"
SDK = "sdk"
SDK_FLAT = "sdk-flat"
AZURE = "azure-foundry"
BEDROCK = "bedrock"
LANGSMITH = "langsmith"
PROMPTFOO = "promptfoo"
TARGET_NAMES = (GROUND_TRUTH, EVALUATION_SET, SDK, SDK_FLAT, AZURE, BEDROCK, LANGSMITH, PROMPTFOO)

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
    cases_rule: str = "too-many-cases"  # the rule that says max_cases is exceeded
    conversations: bool = True  # False: the service evaluates every row on its own (conversation-not-supported)
    # its file holds only its fields and these keys (bedrock: AWS documents no other); None: every column
    only_keys: tuple[str, ...] | None = None
    title: str = ""  # what the service is called, for messages

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
        """How this target spells `fld` in a file with `headers`, in the file's header language
        (header_language): 会话id is to become 会话ID, not session_id; turn_id beside a 备注 column request_id."""
        return self.header_for(fld, self.header_language(headers))

    def header_language(self, headers: list[str]) -> str:
        """"zh" when this target has Chinese headers and the file's headers read as a field are Chinese;
        with none read, those near one (会话id), else any header; else "en". A near miss does not outvote
        the headers read: `会话id` beside `query` and `answer` (a Chinese file written with English
        headers) is to become `session_id`. The one decision every message, fix and rename suggesting a
        header takes."""
        if not self.headers_zh:
            return "en"
        meant = ([h for h in headers if self.recognise(h) is not None]
                 or [h for h in headers if self.near_miss(h) is not None] or headers)
        return "zh" if any(map(_has_cjk, meant)) else "en"

    def knows(self, fld: str) -> bool:
        """Whether this target has the field `fld` (evaluation-set has no expected tool calls)."""
        return fld in self.exact.values() or fld in self.folded.values()

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
        max_chars={QUESTION: 2000, ANSWER: 5000},
    ),
    SDK: Target(  # prompt and reference: the SDK's records form ({"eval_dataset_df": [...]})
        name=SDK, exact={**_GT_EXACT, CASE_ID: CASE_ID, "prompt": QUESTION, "reference": ANSWER}, folded=_GT_FOLDED,
        headers_en={CASE_ID: CASE_ID, **_CANONICAL_ORDER}, formats=("json",),
    ),
}


def _platform(name: str, title: str, formats: tuple[str, ...], spelling: dict[str, str], **limits) -> Target:
    """A target of another evaluation platform (evaleditor/io/platforms/): its own spellings, exact, then
    the ground-truth ones folded (a table made for ground-truth is still understood), session_id and
    turn_id (kept as columns; a platform without conversations is warned about them)."""
    exact = {header: fld for fld, header in spelling.items()}
    exact.update({"session_id": SESSION, "turn_id": TURN, "expected_tool_calls": TOOL_CALLS})
    return Target(name=name, exact=exact, folded=_GT_FOLDED, title=title, formats=formats,
                  headers_en={SESSION: "session_id", TURN: "turn_id", **spelling,
                              **({} if TOOL_CALLS in spelling else {TOOL_CALLS: "expected_tool_calls"})},
                  **limits)


# the other platforms' targets: sources and writers in evaleditor/io/platforms/ (docs/formats.md)
TARGETS.update({
    SDK_FLAT: _platform(SDK_FLAT, "the Agent Platform Evaluation SDK (flat table)", ("jsonl", "csv"),
                        {QUESTION: "prompt", ANSWER: "reference", CONTEXT: "context"}),
    AZURE: _platform(AZURE, "Azure AI Foundry evaluation", ("jsonl", "csv"),
                     {QUESTION: "query", ANSWER: "ground_truth", CONTEXT: "context"}),
    BEDROCK: _platform(BEDROCK, "Amazon Bedrock model evaluation", ("jsonl",),
                       {QUESTION: "prompt", ANSWER: "referenceResponse"}, max_cases=1000,
                       cases_rule="too-many-prompts", conversations=False,
                       only_keys=("category", "modelResponses")),
    LANGSMITH: _platform(LANGSMITH, "LangSmith datasets", ("jsonl", "csv"),
                         {QUESTION: "question", ANSWER: "answer", CONTEXT: "context"}, conversations=False),
    PROMPTFOO: _platform(PROMPTFOO, "promptfoo", ("csv",),
                         {QUESTION: "question", ANSWER: "__expected", CONTEXT: "context"}, conversations=False),
})


def get_target(name: str) -> Target:
    try:
        return TARGETS[name]
    except KeyError:
        raise ValueError(f"unknown target {name!r} (choose {', '.join(TARGET_NAMES)})") from None


def _has_cjk(text: str) -> bool:
    """Whether a header holds a CJK ideograph (U+4E00-U+9FFF): a few headers, so no pattern (compiling
    that range costs 2 ms of every process that reads a file)."""
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def infer_target(headers: list[str], suffix: str) -> str:
    """cli.md: .json is sdk; Chinese headers, `query` or `request_id` mean evaluation-set.

    "Chinese headers" are the evaluation set's (会话ID, 问题 …), or Chinese ones in a file without
    a question column ground-truth knows: an extra column such as 评分 beside `Question` and
    `Expected_Answer` keeps a file ground-truth."""
    suffix = suffix.lower()
    if suffix == ".json":
        return SDK
    platform = _platform_of(set(h.strip() for h in headers), suffix)
    if platform is not None:
        return platform
    names = [h.strip() for h in headers]
    if any(s == "query" or s.lower() == "request_id" for s in names):
        return EVALUATION_SET
    chinese = [s for s in names if _has_cjk(s)]
    if chinese and (any(TARGETS[EVALUATION_SET].recognise(s) for s in chinese)
                    or not any(TARGETS[GROUND_TRUTH].recognise(s) == QUESTION for s in names)):
        return EVALUATION_SET
    return GROUND_TRUTH


def _platform_of(names: set[str], suffix: str) -> str | None:
    """Another platform's file, by its own headers: Bedrock's `referenceResponse`, Azure's
    `ground_truth`, promptfoo's `__expected`, LangSmith's `inputs`/`outputs`, the SDK's flat `prompt`
    with `reference`, `response` or `conversation_history`. Any other .jsonl is the SDK's flat form."""
    if "referenceResponse" in names:
        return BEDROCK
    if "ground_truth" in names or suffix in (".jsonl", ".ndjson") and {"query", "conversation"} & names:
        return AZURE
    if any(n.startswith("__expected") for n in names):
        return PROMPTFOO
    if {"inputs", "outputs"} & names:
        return LANGSMITH
    if "prompt" in names and {"reference", "response", "conversation_history"} & names:
        return SDK_FLAT
    return SDK_FLAT if suffix in (".jsonl", ".ndjson") else None
