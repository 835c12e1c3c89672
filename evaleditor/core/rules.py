"""The rule catalogue (rules.md): ids, severities per target, quick fixes, and the Issue record.

Ids are public (the CLI's JSON, the issues panel filters): never rename one.
"""

from __future__ import annotations

from typing import NamedTuple

from evaleditor.core import i18n
from evaleditor.core.i18n import N_, Plural
from evaleditor.core.targets import EVALUATION_SET, TARGET_NAMES

ERROR, WARNING, INFO = "error", "warning", "info"
SEVERITY_RANK = {ERROR: 3, WARNING: 2, INFO: 1}


class Rule(NamedTuple):  # not a frozen dataclass: every command makes the ~60 of the catalogue at its start
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
    Rule("text-named-as-workbook", WARNING, N_("Text file with a workbook's name")),
    Rule("workbook-named-as-text", WARNING, N_("Workbook with a text file's name")),
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

# when each rule fires, why it matters (what the service or SDK does with such a file) and what to do:
# the rules reference (Help, docs/rules.md) shows it under the rule's title
EXPLANATIONS: dict[str, str] = {
    "unreadable-file": N_("The editor could not open the file (the message gives the reason), so nothing in it can "
                          "be checked or uploaded. Repair or re-export the file."),
    "unsupported-file-type": N_("A .csv file (text, or a workbook under that name) is checked against "
                                "evaluation-set, which accepts only Excel workbooks and rejects the upload. Save it "
                                "as .xlsx."),
    "file-too-large": N_("The file is over 20 MB, the largest file evaluation-set accepts: the upload is rejected. "
                         "Split the cases into several files."),
    "empty-dataset": N_("The file has no data rows (entirely empty rows are not cases), so there is nothing to "
                        "evaluate. Add cases below the header row."),
    "missing-question-column": N_("No header is recognised as the question column, so the target finds no "
                                  "question to ask and rejects the file. Rename the question's header to the "
                                  "target's name for it."),
    "duplicate-column": N_("Two headers map to the same field (e.g. Question and Query): the target cannot tell "
                           "which one to read. Rename or delete one of them."),
    "misspelled-session-column": N_("A header is a near miss of the target's session header (Session_ID, "
                                    "SessionId, session id …): the target does not recognise it and treats the "
                                    "whole file as single-turn. Rename the header."),
    "misspelled-turn-column": N_("A header is a near miss of the target's turn header (Turn_ID, turn, TurnId …; "
                                 "turn_id under evaluation-set, which wants request_id): the turn order is "
                                 "ignored. Rename the header."),
    "turn-column-without-session": N_("There is a turn column but no session column: without sessions the turns "
                                      "have no effect and every row is a case of its own. Add the session column "
                                      "or remove the turn column."),
    "unknown-column": N_("The target does not use this header: the column is kept in the file but not evaluated "
                         "(a Bedrock file holds only the keys Bedrock reads, and leaves it out). Rename it if it was "
                         "meant to be one of the target's columns."),
    "encoding-guessed": N_("The bytes of this text file read correctly in more than one encoding and the editor "
                           "chose one; a wrong choice garbles every non-English character. If the text looks "
                           "wrong, reopen it with File ▸ Reopen with Encoding."),
    "missing-answer-column": N_("There is no answer (reference) column: the cases still run, but comparison "
                                "metrics such as accuracy are unavailable. Add an answer column to get them."),
    "unclosed-quote": N_("A quoted cell of this text file runs to the end of the file, spans 1,000 lines or "
                         "more, or holds lines that look like rows while its own row lost cells: a quote that is "
                         "never closed turns the rows after it into the text of one cell. Close or remove the "
                         "stray quote on the line the message names."),
    "text-named-as-workbook": N_("The file is text (CSV or tab-separated), not an Excel workbook, though its name "
                                 "ends in .xlsx or .xls: the editor reads it as text, Excel warns that its format "
                                 "and name do not match, and a target that wants a workbook rejects it. Save it as "
                                 ".xlsx, or rename it .csv."),
    "workbook-named-as-text": N_("The file is an Excel workbook, not text, though its name ends in .csv, .tsv or "
                                 ".txt: the editor reads it as a workbook, but a target that wants a workbook "
                                 "rejects a file of that name, and a save under it writes text (CSV). Rename it "
                                 ".xlsx."),
    "empty-question": N_("The row's question is empty or only spaces: the target has nothing to ask and rejects "
                         "the row. Type the question or delete the row."),
    "question-too-long": N_("The question is over 2,000 characters, the longest evaluation-set accepts: the upload "
                            "is rejected. Shorten it."),
    "answer-too-long": N_("The answer is over 5,000 characters, the longest evaluation-set accepts: the upload is "
                          "rejected. Shorten it."),
    "cell-too-long-for-excel": N_("A cell holds over 32,767 characters, the most an Excel cell can hold, and the "
                                  "target or the save format is a workbook: the text would be cut. Shorten it."),
    "control-character": N_("A cell holds a control character (U+0000–U+001F except tab, line feed and carriage "
                            "return) that a workbook cannot store, and the target or the save format is a "
                            "workbook: the save would fail. Remove them (quick fix)."),
    "formula-without-value": N_("A workbook cell is a formula with no saved value (files written by scripts): what "
                                "the service reads is unknown, and the cell shows the formula text. Open and save "
                                "the file in Excel, or type the value."),
    "literal-null-text": N_("A cell holds None, NA, N/A, null or NaN as text: the editor keeps it as typed, but "
                            "many tools read it as an empty cell. Clear the cell if it is meant to be empty."),
    "invalid-tool-calls": N_("expected_tool_calls is not a JSON array of objects, each with a string name and an "
                             "object arguments; the message says which part is wrong. The tool calls cannot be "
                             "compared: the quick fix repairs common slips."),
    "whitespace-in-session-id": N_("A session id has spaces before or after it: \"s1 \" and \"s1\" are different "
                                   "conversations to the service, so one conversation is split in two. Trim them "
                                   "(quick fix)."),
    "session-id-case-clash": N_("Two session ids differ only in letter case (S1 and s1): the service treats them "
                                "as two conversations. Use one spelling if they are one conversation."),
    "duplicate-question": N_("The same question appears in two single-turn rows: the case is evaluated twice and "
                             "weighs double in the results. Delete or change one of them."),
    "invalid-turn-id": N_("A turn value is not a whole number of 0 or more (two, 1.5, -1; 2.0 read from Excel "
                          "counts as 2): the service cannot order the turns. Type a whole number."),
    "duplicate-turn-id": N_("Two rows of one session share a turn number, so the order of the conversation is "
                            "undefined. Renumber the session (quick fix)."),
    "missing-turn-id": N_("Some rows of a session have a turn number and others do not, so their place in the "
                          "conversation is unknown. Renumber the session (quick fix)."),
    "turn-gap": N_("The turn numbers of a session skip (1, 2, 4): a turn may be missing, and evaluation-set "
                   "rejects the file. Renumber the session (quick fix) or add the missing turn."),
    "turn-not-starting-at-one": N_("A session's first turn number is not 1 (numbered from 0 it is probably "
                                   "0-based): evaluation-set rejects it. Renumber the session (quick fix)."),
    "turns-out-of-file-order": N_("A session's rows appear in the file in a different order than their turn "
                                  "numbers, a sign the sheet was sorted: check the order is right. Sort the rows "
                                  "by session and turn (quick fix)."),
    "session-rows-not-contiguous": N_("Rows of one session are interleaved with other rows: the service still "
                                      "groups them, but the file is hard to read. Sort the rows by session and "
                                      "turn (quick fix)."),
    "no-turn-column": N_("There are sessions but no turn column: the turns run in file order, so a sorted sheet "
                         "changes the conversations. Add turn numbers from the file order (quick fix)."),
    "too-many-turns": N_("A session has more than 10 turns, the most evaluation-set accepts: the upload is "
                         "rejected. Split the conversation or shorten it."),
    "single-turn-session": N_("A session id is used by exactly one row: a conversation of one turn. Check that "
                              "the other turns' session ids are spelled the same."),
    "too-many-cases": N_("The set has more than 2,000 cases, the most evaluation-set accepts: the upload is "
                         "rejected. Split the cases into several files."),
    "too-many-prompts": N_("The file has more than 1,000 prompts, the most Amazon Bedrock takes in one "
                           "evaluation job: the job is refused. Split the file."),
    "conversation-not-supported": N_("The file has conversations (rows sharing a session id) but the target "
                                     "evaluates every row on its own: each turn is sent as a single prompt, "
                                     "without the turns before it. Choose a target that takes conversations, or "
                                     "accept single prompts."),
    "sdk-schema-error": N_("The JSON does not validate as the SDK's EvaluationDataset (the message gives the path, "
                           "e.g. eval_cases.3.prompt): the SDK refuses to load it. Fix the value at that path."),
    "sdk-empty-content": N_("A prompt, reference or event has no parts, or a part sets no kind: the SDK has "
                            "nothing to send for it. Fill in the text or remove the empty part."),
    "sdk-turn-index": N_("The turn_index values of a case are not 0, 1, 2 … in order: the SDK replays the turns "
                         "in the wrong order. Renumber them."),
    "sdk-unknown-author": N_("An event author other than user is not declared in agent_data.agents: the SDK does "
                             "not know which agent spoke. Declare the agent or correct the author."),
    "sdk-not-shown": N_("Part of a case (an image part, rubrics, a multi-agent trace) cannot be shown as table "
                        "cells: it is kept and written back unchanged. Edit it in the JSON file if it must change."),
    "duplicate-json-key": N_("A key is given more than once in one object of the JSON file (the root, or anywhere "
                             "inside a case): the SDK reads only the last one, the editor does the same, and a save "
                             "does not keep the others. In a file over 16 MB only the root's keys are looked at. "
                             "Merge the values under one key if the earlier ones matter."),
}


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
    return _new(Issue, (rule, _SEVERITY[target, rule], template, row_id, column_id, field, args))


_SEVERITY = {(t, r.id): r.severity_for(t) for t in TARGET_NAMES for r in _RULES}
_new = tuple.__new__  # Issue(…) less its Python-level __new__: a big file's validation makes ~20k issues
