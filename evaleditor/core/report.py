"""Render a validated document as cli.md's report (JSON object or text). One catalogue, one wording."""

from __future__ import annotations

from evaleditor.core.document import Document
from evaleditor.core.rules import ERROR, INFO, WARNING, Issue


def issue_row(doc: Document, issue: Issue) -> int | None:
    """1-based data row number as the editor shows it, None for a file-level issue."""
    return None if issue.row_id is None else doc.dataset.position(issue.row_id) + 1


def issue_column(doc: Document, issue: Issue) -> str | None:
    if issue.column_id is not None:
        ds = doc.dataset
        return ds.columns[ds.column_position(issue.column_id)].header
    return issue.field


def issue_json(doc: Document, issue: Issue) -> dict:
    return {"rule": issue.rule, "severity": issue.severity, "row": issue_row(doc, issue),
            "column": issue_column(doc, issue), "message": issue.message}


def counts(issues: list[Issue]) -> dict[str, int]:
    out = {ERROR: 0, WARNING: 0, INFO: 0}
    for i in issues:
        out[i.severity] += 1
    return out


def report_json(doc: Document, file_label: str) -> dict:
    issues = doc.validator.all_issues()
    ds = doc.dataset
    return {
        "file": file_label,
        "target": ds.target.name,
        "sheet": doc.sheet,
        "shape": doc.shape.as_json(),
        "columns": [{"header": c.header, "field": f} for c, f in zip(ds.columns, ds.fields(), strict=True)],
        "issues": [issue_json(doc, i) for i in issues],
        "counts": counts(issues),
    }


def unreadable_json(file_label: str, target: str | None, reason: str) -> dict:
    return {
        "file": file_label, "target": target, "sheet": None, "shape": None, "columns": [],
        "issues": [{"rule": "unreadable-file", "severity": ERROR, "row": None, "column": None, "message": reason}],
        "counts": {ERROR: 1, WARNING: 0, INFO: 0},
    }


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def report_text(doc: Document, file_label: str) -> str:
    ds = doc.dataset
    issues = doc.validator.all_issues()
    where = f", sheet {doc.sheet}" if doc.sheet else ""
    lines = [f"{file_label} (target {ds.target.name}{where})", doc.shape.line]
    for i in issues:
        row = issue_row(doc, i)
        col = issue_column(doc, i)
        place = ", ".join(p for p in (f"row {row}" if row else "", f"column {col}" if col else "") if p)
        lines.append(f"{i.severity:<7} {i.rule}{f' [{place}]' if place else ''}: {i.message}")
    c = counts(issues)
    lines.append(f"{plural(c[ERROR], 'error')}, {plural(c[WARNING], 'warning')}, {c[INFO]} info")
    return "\n".join(lines)
