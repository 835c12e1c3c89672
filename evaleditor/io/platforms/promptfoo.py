"""promptfoo (target `promptfoo`): a test-case CSV (`tests: file://tests.csv`) where every column is a
prompt variable (`{{question}}`, `{{context}}` …) and `__expected` holds the assertion the output is
checked with: `equals:…`, `contains:…`, `python:…`, `llm-rubric:…` …, a cell with no known type being
its equals check (promptfoo 0.121.20, assertionFromString; the cell is trimmed first).

The answer column is `__expected`. A reference answer from another table is written as
`equals:<answer>`, always: an answer that happens to start with `python:` or `contains:` is the text
to match, not another check. The cells of a column already spelt `__expected` (a promptfoo file's
own) are what promptfoo reads: they are written as they are, so that a promptfoo file saved again
keeps every cell. Written for another target (`for_target`), such a cell becomes the reference answer
it checks for (`equals:4` and a bare `4` are the answer `4`); a check that is no reference answer
(`contains:`, `python:` …) keeps its text, and the save's plan says so. promptfoo runs every row on
its own (rule conversation-not-supported).
"""

from __future__ import annotations

import re

from evaleditor.core.commands import Command, RenameColumn, SetCells
from evaleditor.core.dataset import Dataset
from evaleditor.core.export import export_headers
from evaleditor.core.i18n import N_, Msg
from evaleditor.core.report import some_of
from evaleditor.core.targets import ANSWER, PROMPTFOO
from evaleditor.io.platforms import Platform, cases, flat_record, table_of

SOURCE = "https://www.promptfoo.dev/docs/configuration/test-cases (Loading tests from CSV)"
EXPECTED = "__expected"
# what promptfoo 0.121.20 reads as another check than equals (assertionFromString): its older prefixes,
# and its assertion types (BaseAssertionTypesSchema) with `not-`, a `(threshold)` and `:value` optional
_LEGACY = ("javascript:", "fn:", "eval:", "grade:", "llm-rubric:", "python:", "file://")
_TYPES = ("agent-rubric|answer-relevance|bleu|classifier|contains|contains-all|contains-any|contains-html|"
          "contains-json|contains-sql|contains-xml|context-faithfulness|context-recall|context-relevance|"
          "conversation-relevance|cost|equals|factuality|finish-reason|g-eval|gleu|guardrails|icontains|"
          "icontains-all|icontains-any|is-html|is-json|is-refusal|is-sql|is-valid-function-call|"
          "is-valid-openai-function-call|is-valid-openai-tools-call|is-xml|javascript|latency|levenshtein|"
          "llm-rubric|pi|meteor|model-graded-closedqa|model-graded-factuality|moderation|perplexity|"
          "perplexity-score|python|regex|rouge-n|ruby|similar|similar:cosine|similar:dot|similar:euclidean|"
          "starts-with|tool-call-f1|skill-used|trajectory:goal-success|trajectory:tool-args-match|"
          "trajectory:step-count|trajectory:tool-sequence|trajectory:tool-used|trace-error-spans|"
          "trace-span-count|trace-span-duration|search-rubric|webhook|word-count")
_ASSERTION = re.compile(rf"^(not-)?({_TYPES})(?:\(\d+(?:\.\d+)?\))?(?::(.*))?$", re.DOTALL)


def assertion(answer: str) -> str:
    """The `__expected` cell for a reference answer from another table: an exact match of its text."""
    return f"equals:{answer}"


def reference(cell: str) -> str | None:
    """The reference answer a promptfoo `__expected` cell checks for (`equals:4`, a bare `4`: `4`), or
    None when it is another check (`contains:hi`, `python: …`, `not-equals:4` …)."""
    text = cell.strip()
    if text.startswith(_LEGACY):
        return None
    match = _ASSERTION.match(text)
    if match is None:
        return text
    negated, kind, value = match.groups()
    return value.strip() if kind == "equals" and not negated and value is not None else None


def for_target(ds: Dataset, target: str) -> tuple[list[Command], list[Msg]]:
    """What makes `ds` hold what a `target` file holds, and what that file cannot mean as `ds` did (a
    line): for promptfoo, an answer column not yet spelt `__expected` holds reference answers, then
    `__expected` with each as `equals:<answer>`; for another target, a promptfoo `__expected` column
    holds checks, each then the reference answer it checks for, a check that is none keeping its text
    (its rows listed)."""
    if target == PROMPTFOO:
        at = next((i for i, fld in enumerate(ds.fields()) if fld == ANSWER), None)
        if at is None or ds.columns[at].header == EXPECTED:
            return [], []
        column = ds.columns[at].id
        exact = [(row.id, column, assertion(row.cells[at])) for row in ds.rows if row.cells[at]]
        return [SetCells(exact, N_("Answers as promptfoo checks")), RenameColumn(column, EXPECTED)], []
    at = next((i for i, c in enumerate(ds.columns) if c.header == EXPECTED), None)
    if at is None:
        return [], []
    changes, checks = [], []
    for number, row in enumerate(ds.rows, 1):  # as the editor numbers them
        cell = row.cells[at]
        answer = reference(cell)
        if answer is None:
            checks.append(str(number))
        elif answer != cell:
            changes.append((row.id, ds.columns[at].id, answer))
    shown = some_of(checks)
    commands: list[Command] = [SetCells(changes, N_("Reference answers"))] if changes else []
    return commands, [Msg(N_("the meaning of promptfoo checks that are no reference answer (rows {rows}: their "
                            "text is kept as the answer)"), (("rows", shown),))] if checks else []


def table(ds: Dataset) -> tuple[list[str], list[list[str]]]:
    fields = ds.fields()
    answers = [c.header for c, fld in zip(ds.columns, fields, strict=True) if fld == ANSWER][:1]
    as_written = answers == [EXPECTED]  # already promptfoo's assertions (see the module's docstring)
    if as_written and export_headers(ds, PROMPTFOO) == ds.headers():
        return _as_read(ds)
    rows = []
    for case in cases(ds):
        record = flat_record(case, PROMPTFOO, skip=(ANSWER,))
        if case.fields.get(ANSWER):
            answer = case.fields[ANSWER]
            record[EXPECTED] = answer if as_written else assertion(answer)
        rows.append(record)
    return table_of(rows, ("question", "context", EXPECTED))


def _as_read(ds: Dataset) -> tuple[list[str], list[list[str]]]:
    """A promptfoo file's own table: its columns in their order (an empty one too), its cells as they
    are, but the second column of a name (promptfoo reads a row as one object: io/platforms left_out)."""
    first: dict[str, int] = {}
    for i, header in enumerate(ds.headers()):
        first.setdefault(header, i)
    at = list(first.values())
    return list(first), [[row.cells[i] for i in at] for row in ds.rows if not row.is_empty()]


PLATFORM = Platform(PROMPTFOO, SOURCE, None, table, for_target=for_target)
