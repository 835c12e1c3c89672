"""The rule catalogue (rules.md): ids, severities per target, quick fixes, and the Issue record.

Ids are public (the CLI's JSON, the issues panel filters): never rename one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from evaleditor.core import i18n
from evaleditor.core.i18n import N_, Plural
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
    only: str | None = None  # fires under this one target only (another platform's limit)

    def severity_for(self, target: str) -> str:
        if target == EVALUATION_SET and self.es_severity:
            return self.es_severity
        return self.severity


_RULES = [
    # file and headers
    Rule("unreadable-file", ERROR, N_("The file cannot be read")),
    Rule("unsupported-file-type", ERROR, N_("CSV is not accepted by this target"), fix="save-as-xlsx", es_only=True),
    Rule("file-too-large", ERROR, N_("File over 20 MB"), es_only=True),
    Rule("empty-dataset", ERROR, N_("No data rows")),
    Rule("missing-question-column", ERROR, N_("No question column"), fix="rename-column"),
    Rule("duplicate-column", ERROR, N_("Two columns map to the same field")),
    Rule("misspelled-session-column", WARNING, N_("Session column not recognised"), fix="rename-header"),
    Rule("misspelled-turn-column", WARNING, N_("Turn column not recognised"), fix="rename-header"),
    Rule("turn-column-without-session", WARNING, N_("Turn column without a session column")),
    Rule("unknown-column", INFO, N_("Column not used by the target")),
    Rule("encoding-guessed", INFO, N_("Text encoding chosen among several")),
    Rule("missing-answer-column", INFO, N_("No answer column")),
    Rule("unclosed-quote", WARNING, N_("A quote that is never closed")),
    # rows
    Rule("empty-question", ERROR, N_("Empty question")),
    Rule("question-too-long", ERROR, N_("Question too long"), es_only=True),
    Rule("answer-too-long", ERROR, N_("Answer too long"), es_only=True),
    Rule("cell-too-long-for-excel", ERROR, N_("Cell too long for Excel")),
    Rule("control-character", ERROR, N_("Control character"), fix="remove-control-characters"),
    Rule("formula-without-value", ERROR, N_("Formula with no saved value")),
    Rule("literal-null-text", INFO, N_("Text that many tools read as empty")),
    Rule("invalid-tool-calls", ERROR, N_("Invalid expected tool calls"), fix="repair-tool-calls"),
    Rule("whitespace-in-session-id", WARNING, N_("Spaces around a session id"), fix="trim-session-id"),
    Rule("session-id-case-clash", WARNING, N_("Session ids differ only in case")),
    Rule("duplicate-question", WARNING, N_("Duplicate question")),
    # conversations
    Rule("invalid-turn-id", ERROR, N_("Invalid turn number")),
    Rule("duplicate-turn-id", ERROR, N_("Duplicate turn number"), fix="renumber-session"),
    Rule("missing-turn-id", ERROR, N_("Missing turn number"), fix="renumber-session"),
    Rule("turn-gap", WARNING, N_("Gap in turn numbers"), fix="renumber-session", es_severity=ERROR),
    Rule("turn-not-starting-at-one", WARNING, N_("Turns do not start at 1"), fix="renumber-session", es_severity=ERROR),
    Rule("turns-out-of-file-order", WARNING, N_("Turns out of file order"), fix="sort-sessions"),
    Rule("session-rows-not-contiguous", INFO, N_("Conversation rows interleaved"), fix="sort-sessions"),
    Rule("no-turn-column", WARNING, N_("No turn column"), fix="add-turn-numbers"),
    Rule("too-many-turns", ERROR, N_("Too many turns"), es_only=True),
    Rule("single-turn-session", INFO, N_("Session with one row")),
    Rule("too-many-cases", ERROR, N_("Too many cases"), es_only=True),
    Rule("too-many-prompts", ERROR, N_("Too many prompts for one evaluation job"), only="bedrock"),
    Rule("conversation-not-supported", WARNING, N_("Conversations sent as single prompts")),
    # SDK JSON
    Rule("sdk-schema-error", ERROR, N_("Not a valid SDK EvaluationDataset")),
    Rule("sdk-empty-content", ERROR, N_("Empty SDK content")),
    Rule("sdk-turn-index", ERROR, N_("SDK turn_index out of order")),
    Rule("sdk-unknown-author", WARNING, N_("Undeclared SDK author")),
    Rule("sdk-not-shown", INFO, N_("Kept but not shown")),
    Rule("duplicate-json-key", WARNING, N_("A key given twice")),
]

RULES: dict[str, Rule] = {r.id: r for r in _RULES}


class Issue(NamedTuple):
    """One finding. `row_id` is the stable row id (None: file-level); `column_id` the stable column
    id (None: no particular column; `field` names the canonical field when the file lacks it).
    A NamedTuple: a file with 100k findings builds them ten times faster than frozen dataclasses.

    `template` is the message's msgid and `args` its (name, value) pairs (core/i18n.py): nothing is
    formatted or translated when an issue is made. `message` is the English text (the JSON report,
    tests, scripts); `i18n.localized_message(issue)` is the text in the current language."""

    rule: str
    severity: str
    template: str | Plural
    row_id: int | None = None
    column_id: int | None = None
    field: str | None = None
    args: tuple = ()

    @property
    def message(self) -> str:
        return i18n.render(self.template, self.args, translate=False)

    @property
    def rank(self) -> int:
        return SEVERITY_RANK[self.severity]


def make_issue(rule: str, target: str, template: str | Plural, row_id: int | None = None,
               column_id: int | None = None, field: str | None = None, args: tuple = ()) -> Issue:
    return Issue(rule, _SEVERITY[target, rule], template, row_id, column_id, field, args)


_SEVERITY = {(t, r.id): r.severity_for(t) for t in TARGET_NAMES for r in _RULES}
