"""The rules reference: each rule of the catalogue with its group, its severity per target, its
explanation and its quick fix. docs/rules.md (scripts/rules_doc.py) and the window's Help (F1) are both
made from it."""

from __future__ import annotations

from dataclasses import dataclass

from evaleditor.core.fixes import fix_label
from evaleditor.core.i18n import N_
from evaleditor.core.rules import EXPLANATIONS, RULES
from evaleditor.core.targets import EVALUATION_SET

# fixes the window offers from the banner, not from the cell
WINDOW_FIXES = {"save-as-xlsx": N_("Save as .xlsx… (the banner)"), "rename-column": N_("Rename a column (the banner)")}
# each group's title and its first rule, in catalogue order
GROUPS = [(N_("File and headers"), "unreadable-file"), (N_("Rows"), "empty-question"),
          (N_("Conversations"), "invalid-turn-id"), (N_("SDK JSON"), "sdk-schema-error")]


@dataclass(frozen=True)
class RuleEntry:
    id: str
    group: str  # the group's title (English msgid)
    severity: str | None  # under ground-truth and sdk; None for a rule of evaluation-set only
    es_severity: str  # under evaluation-set
    es_only: bool
    title: str  # English msgid
    fix: str | None  # the quick fix's label (English msgid), None when there is none
    only: str | None = None  # the one target it applies under (another platform's limit)
    explanation: str = ""  # when it fires, why it matters, what to do (English msgid)


def reference() -> list[RuleEntry]:
    starts = {first: title for title, first in GROUPS}
    group = GROUPS[0][0]
    out = []
    for rule in RULES.values():
        group = starts.get(rule.id, group)
        fix = fix_label(rule.id) or WINDOW_FIXES.get(rule.fix or "")
        out.append(RuleEntry(rule.id, group, None if rule.es_only else rule.severity,
                             rule.severity_for(EVALUATION_SET), rule.es_only, rule.title, fix, rule.only,
                             EXPLANATIONS[rule.id]))
    return out
