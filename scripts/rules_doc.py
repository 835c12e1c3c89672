"""Write docs/rules.md from the rule catalogue (evaleditor/core/rules.py), so that a clone of the
repository holds the rule ids a report can name: `python3 scripts/rules_doc.py`. A test keeps the file
equal to what this writes."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaleditor.core.rules_reference import reference  # noqa: E402

DOC = ROOT / "docs" / "rules.md"


def text() -> str:
    lines = ["# Rules", "",
             "Every issue the editor, its Issues panel and `evaleditor validate` report names one of these rules.",
             "The ids are public (`validate --format json`, scripts): they never change. Generated from",
             "`evaleditor/core/rules.py` by `python3 scripts/rules_doc.py`; the shape line and the exit statuses",
             "are in the README. The window shows the same reference in Help (F1)."]
    group = None
    for entry in reference():
        if entry.group != group:
            group = entry.group
            lines += ["", f"## {group}", "", "| rule | severity | under evaluation-set | what | quick fix |",
                      "|---|---|---|---|---|"]
        severity = (entry.severity or "\u2014") + (f" (only under {entry.only})" if entry.only else "")
        under_es = f"{entry.es_severity} (only there)" if entry.es_only else "\u2014" if entry.only else (
            "same" if entry.es_severity == entry.severity else entry.es_severity)
        lines.append(f"| `{entry.id}` | {severity} | {under_es} | **{entry.title}.** {entry.explanation} | {entry.fix or ''} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    DOC.write_text(text(), encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
