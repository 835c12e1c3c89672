"""promptfoo (target `promptfoo`): a test-case CSV (`tests: file://tests.csv`) where every column is a
prompt variable (`{{question}}`, `{{context}}` …) and `__expected` holds the assertion the output is
checked with: `equals:…`, `contains:…`, `icontains:…`, `regex:…`, `javascript:…`, `llm-rubric:…` …

The answer column is `__expected`: an answer already written as an assertion (a known type and a
colon) is written as it is; any other answer as `equals:<answer>`, so that an answer which happens to
start with `contains:` is not read as another check. The cells of a column already spelt `__expected`
(a promptfoo file's own) are what promptfoo reads, a bare `4` being its equals check: they are written
as they are, so that a promptfoo file saved again keeps every cell. promptfoo runs every row on its own (rule
conversation-not-supported).
"""

from __future__ import annotations

import re

from evaleditor.core.dataset import Dataset
from evaleditor.core.targets import ANSWER, PROMPTFOO
from evaleditor.io.platforms import Platform, cases, flat_record, table_of

SOURCE = "https://www.promptfoo.dev/docs/configuration/test-cases (Loading tests from CSV)"
EXPECTED = "__expected"
# the assertion types promptfoo reads from a CSV `__expected` cell (its assertionFromString)
_ASSERTION = re.compile(r"^(?:not-)?(?:equals|contains|icontains|contains-all|contains-any|icontains-all|"
                        r"icontains-any|starts-with|regex|is-json|contains-json|javascript|python|"
                        r"llm-rubric|model-graded-closedqa|factuality|similar(?::[0-9.]+)?|levenshtein|"
                        r"rouge-n|bleu|meteor|latency|cost|perplexity|classifier|grader|webhook|"
                        r"is-valid-openai-tools-call|is-valid-openai-function-call)(?::|$)")


def assertion(answer: str) -> str:
    """The `__expected` cell for an answer (see the module's docstring)."""
    return answer if _ASSERTION.match(answer) else f"equals:{answer}"


def table(ds: Dataset) -> tuple[list[str], list[list[str]]]:
    fields = ds.fields()
    answers = [c.header for c, fld in zip(ds.columns, fields, strict=True) if fld == ANSWER][:1]
    as_written = answers == [EXPECTED]  # already promptfoo's assertions (see the module's docstring)
    rows = []
    for case in cases(ds):
        record = flat_record(case, PROMPTFOO, skip=(ANSWER,))
        if case.fields.get(ANSWER):
            answer = case.fields[ANSWER]
            record[EXPECTED] = answer if as_written else assertion(answer)
        rows.append(record)
    return table_of(rows, ("question", "context", EXPECTED))


PLATFORM = Platform(PROMPTFOO, SOURCE, None, table)
