"""Write docs/rules.md from the rule catalogue (evaleditor/core/rules.py), so that a clone of the
repository holds the rule ids a report can name: `python3 scripts/rules_doc.py`. A test keeps the file
equal to what this writes."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaleditor.core.fixes import fix_label  # noqa: E402
from evaleditor.core.rules import RULES  # noqa: E402
from evaleditor.core.targets import EVALUATION_SET  # noqa: E402

DOC = ROOT / "docs" / "rules.md"
WINDOW_FIXES = {"save-as-xlsx": "Save as .xlsx… (the banner)", "rename-column": "Rename a column (the banner)"}
GROUPS = [("File and headers", "unreadable-file"), ("Rows", "empty-question"),
          ("Conversations", "invalid-turn-id"), ("SDK JSON", "sdk-schema-error")]


def text() -> str:
    lines = ["# Rules", "",
             "Every issue the editor, its Issues panel and `evaleditor validate` report names one of these rules.",
             "The ids are public (`validate --format json`, scripts): they never change. Generated from",
             "`evaleditor/core/rules.py` by `python3 scripts/rules_doc.py`; the shape line and the exit statuses",
             "are in the README."]
    starts = {first: title for title, first in GROUPS}
    for rule in RULES.values():
        if rule.id in starts:
            lines += ["", f"## {starts[rule.id]}", "", "| rule | severity | under evaluation-set | what | quick fix |",
                      "|---|---|---|---|---|"]
        es = rule.severity_for(EVALUATION_SET)
        severity = "—" if rule.es_only else rule.severity
        under_es = f"{es} (only there)" if rule.es_only else ("same" if es == rule.severity else es)
        fix = fix_label(rule.id) or WINDOW_FIXES.get(rule.fix or "", "")
        lines.append(f"| `{rule.id}` | {severity} | {under_es} | {rule.title} | {fix} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    DOC.write_text(text(), encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
