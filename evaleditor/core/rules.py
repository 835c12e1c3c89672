"""The rule catalogue (rules.md): ids, severities per target, quick fixes, and the Issue record.

Ids are public (the CLI's JSON, the issues panel filters): never rename one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from evaleditor.core.targets import EVALUATION_SET, TARGET_NAMES

ERROR, WARNING, INFO = "error", "warning", "info"
SEVERITY_RANK = {ERROR: 3, WARNING: 2, INFO: 1}


@dataclass(frozen=True)
class Rule:
    id: str
    severity: str
    title: str
    fix: str | None = None  # quick-fix id (see core/fixes.py)
    es_severity: str | None = None  # severity under evaluation-set when it differs
    es_only: bool = False

    def severity_for(self, target: str) -> str:
        if target == EVALUATION_SET and self.es_severity:
            return self.es_severity
        return self.severity


_RULES = [
    # file and headers
    Rule("unreadable-file", ERROR, "The file cannot be read"),
    Rule("unsupported-file-type", ERROR, "CSV is not accepted by this target", fix="save-as-xlsx", es_only=True),
    Rule("file-too-large", ERROR, "File over 20 MB", es_only=True),
    Rule("empty-dataset", ERROR, "No data rows"),
    Rule("missing-question-column", ERROR, "No question column", fix="rename-column"),
    Rule("duplicate-column", ERROR, "Two columns map to the same field"),
    Rule("misspelled-session-column", WARNING, "Session column not recognised", fix="rename-header"),
    Rule("misspelled-turn-column", WARNING, "Turn column not recognised", fix="rename-header"),
    Rule("turn-column-without-session", WARNING, "Turn column without a session column"),
    Rule("unknown-column", INFO, "Column not used by the target"),
    Rule("missing-answer-column", INFO, "No answer column"),
    # rows
    Rule("empty-question", ERROR, "Empty question"),
    Rule("question-too-long", ERROR, "Question too long", es_only=True),
    Rule("answer-too-long", ERROR, "Answer too long", es_only=True),
    Rule("cell-too-long-for-excel", ERROR, "Cell too long for Excel"),
    Rule("control-character", ERROR, "Control character", fix="remove-control-characters"),
    Rule("formula-without-value", ERROR, "Formula with no saved value"),
    Rule("literal-null-text", INFO, "Text that many tools read as empty"),
    Rule("invalid-tool-calls", ERROR, "Invalid expected tool calls", fix="repair-tool-calls"),
    Rule("whitespace-in-session-id", WARNING, "Spaces around a session id", fix="trim-session-id"),
    Rule("session-id-case-clash", WARNING, "Session ids differ only in case"),
    Rule("duplicate-question", WARNING, "Duplicate question"),
    # conversations
    Rule("invalid-turn-id", ERROR, "Invalid turn number"),
    Rule("duplicate-turn-id", ERROR, "Duplicate turn number", fix="renumber-session"),
    Rule("missing-turn-id", ERROR, "Missing turn number", fix="renumber-session"),
    Rule("turn-gap", WARNING, "Gap in turn numbers", fix="renumber-session", es_severity=ERROR),
    Rule("turn-not-starting-at-one", WARNING, "Turns do not start at 1", fix="renumber-session", es_severity=ERROR),
    Rule("turns-out-of-file-order", WARNING, "Turns out of file order", fix="sort-sessions"),
    Rule("session-rows-not-contiguous", INFO, "Conversation rows interleaved", fix="sort-sessions"),
    Rule("no-turn-column", WARNING, "No turn column", fix="add-turn-numbers"),
    Rule("too-many-turns", ERROR, "Too many turns", es_only=True),
    Rule("single-turn-session", INFO, "Session with one row"),
    Rule("too-many-cases", ERROR, "Too many cases", es_only=True),
    # SDK JSON
    Rule("sdk-schema-error", ERROR, "Not a valid SDK EvaluationDataset"),
    Rule("sdk-empty-content", ERROR, "Empty SDK content"),
    Rule("sdk-turn-index", ERROR, "SDK turn_index out of order"),
    Rule("sdk-unknown-author", WARNING, "Undeclared SDK author"),
    Rule("sdk-not-shown", INFO, "Kept but not shown"),
]

RULES: dict[str, Rule] = {r.id: r for r in _RULES}


class Issue(NamedTuple):
    """One finding. `row_id` is the stable row id (None: file-level); `column_id` the stable column
    id (None: no particular column; `field` names the canonical field when the file lacks it).
    A NamedTuple: a file with 100k findings builds them ten times faster than frozen dataclasses."""

    rule: str
    severity: str
    message: str
    row_id: int | None = None
    column_id: int | None = None
    field: str | None = None

    @property
    def rank(self) -> int:
        return SEVERITY_RANK[self.severity]


def make_issue(rule: str, target: str, message: str, row_id: int | None = None,
               column_id: int | None = None, field: str | None = None) -> Issue:
    return Issue(rule, _SEVERITY[target, rule], message, row_id, column_id, field)


_SEVERITY = {(t, r.id): r.severity_for(t) for t in TARGET_NAMES for r in _RULES}
