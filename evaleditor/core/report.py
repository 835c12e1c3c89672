"""Render a validated document as cli.md's report (JSON object or text). One catalogue, one wording."""

from __future__ import annotations

import unicodedata
from collections import Counter
from operator import attrgetter
from typing import TYPE_CHECKING

from evaleditor.core.dataset import Dataset
from evaleditor.core.document import Document
from evaleditor.core.errors import one_line as escape_for_terminal
from evaleditor.core.i18n import N_, _, localized_message, ngettext, text
from evaleditor.core.rules import ERROR, INFO, WARNING, Issue

if TYPE_CHECKING:
    from evaleditor.core.saving import SavePlan  # validate saves nothing: core/saving is not imported

_RULE, _SEVERITY = attrgetter("rule"), attrgetter("severity")


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
    found = Counter(map(_SEVERITY, issues))
    return {ERROR: found[ERROR], WARNING: found[WARNING], INFO: found[INFO]}


def shape_report_json(doc: Document, file_label: str) -> dict:
    """`shape --format json` (core/schema.ShapeReport): the first fields of the full report."""
    return {"file": file_label, "target": doc.dataset.target.name, "sheet": doc.sheet,
            "shape": doc.shape.as_json()}


def report_json(doc: Document, file_label: str) -> dict:
    """`validate --format json` (core/schema.Report)."""
    issues = doc.validator.all_issues()
    ds = doc.dataset
    return {
        **shape_report_json(doc, file_label),
        "columns": [{"header": c.header, "field": f} for c, f in zip(ds.columns, ds.fields(), strict=True)],
        "issues": [issue_json(doc, i) for i in issues],
        "counts": counts(issues),
    }


def some_of(items, shown: int = 10) -> str:
    """The first `shown` of `items` (row numbers in the output's order, names) for a message: comma
    separated, with `…` when there are more. Every message naming rows or conversations uses it."""
    items = list(items)
    return ", ".join(map(str, items[:shown])) + (" \u2026" if len(items) > shown else "")


def replaced_rows(plan: SavePlan, written: Dataset) -> list[int]:
    """The rows (1-based, in order) of the file a save by `plan` writes whose own agent trace it holds
    only in part; `written`: the dataset as written (the plan's command applied: as_planned)."""
    return sorted(written.position(rid) + 1 for rid in plan.replaced_traces)


def left_out_json(plan: SavePlan | None, ds: Dataset | None = None) -> dict:
    """What a save by `plan` leaves out (core/schema.LeftOut), its rows numbered as in `ds`: the dataset as
    written (io/convert.planned_rows: the plan applied, no empty rows), so that the API and `convert` name
    the rows of the file (None: no plan, nothing written from a document)."""
    if plan is None or ds is None:
        return {"other_sheets": [], "hidden_cases": 0, "replaced_traces": [], "format_limits": []}
    return {"other_sheets": list(plan.other_sheets), "hidden_cases": plan.hidden_cases,
            "replaced_traces": replaced_rows(plan, ds),
            "format_limits": [str(m) for m in plan.format_limits]}  # English, as the report's messages


def unreadable_shape_json(file_label: str, target: str | None) -> dict:
    """`shape --format json` of a file that could not be read: no sheet, no shape."""
    return {"file": file_label, "target": target, "sheet": None, "shape": None}


def unreadable_json(file_label: str, target: str | None, reason: str) -> dict:
    """The report of a file that could not be read: one `unreadable-file` issue, no shape."""
    return {
        **unreadable_shape_json(file_label, target), "columns": [],
        "issues": [{"rule": "unreadable-file", "severity": ERROR, "row": None, "column": None, "message": reason}],
        "counts": {ERROR: 1, WARNING: 0, INFO: 0},
    }


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


SEVERITY_WORDS = {ERROR: N_("error"), WARNING: N_("warning"), INFO: N_("info")}


def count_line(c: dict[str, int]) -> str:
    """"2 errors, 1 warning, 0 info" in the current language."""
    return _("{errors}, {warnings}, {infos}").format(
        errors=ngettext("{n} error", "{n} errors", c[ERROR]).format(n=c[ERROR]),
        warnings=ngettext("{n} warning", "{n} warnings", c[WARNING]).format(n=c[WARNING]),
        infos=_("{n} info").format(n=c[INFO]))


def place_text(row: int | None, column: str | None) -> str:
    """"row 3, column question" (either part may be missing) in the current language."""
    parts = ([_("row {row}").format(row=row)] if row else []) + ([_("column {column}").format(column=column)]
                                                                   if column else [])
    return _(", ").join(parts)


def pad(text: str, width: int) -> str:
    """`text` left-aligned in `width` terminal columns (a Chinese character takes two)."""
    columns = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(0, width - columns)


LINES_PER_RULE = 20  # the text report shows this many issues of one rule, then a count of the rest


def report_text(doc: Document, file_label: str, per_rule: int = LINES_PER_RULE) -> str:
    """The text report in the current language (core/i18n.py); rule ids and the shape line stay as they are.

    At most `per_rule` issues of one rule are listed (a rule that fires on a million rows must not print a
    million lines), then one line per rule counts the rest; `--format json` lists every issue. Every line
    is escaped for the terminal: a file's names and keys cannot move the cursor or split a line."""
    ds = doc.dataset
    issues = doc.validator.all_issues()
    if doc.sheet:
        title = _("{file} (target {target}, sheet {sheet})").format(file=file_label, target=ds.target.name,
                                                                  sheet=doc.sheet)
    else:
        title = _("{file} (target {target})").format(file=file_label, target=ds.target.name)
    shown = Counter(map(_RULE, issues))  # each rule's issues, the rules in the order they first appear
    lines = [escape_for_terminal(title), escape_for_terminal(doc.shape.line)]
    listed = {rule: min(n, per_rule) for rule, n in shown.items()}  # the first of each rule's are listed
    left = sum(listed.values())
    for issue in issues:
        if not left:  # every rule's listed: not a walk through the tens of thousands of the rest
            break
        if listed[issue.rule]:
            listed[issue.rule] -= 1
            left -= 1
            lines.append(issue_line(doc, issue, 7))
    for rule, n in shown.items():
        if n > per_rule:
            lines.append(_("… {n} more {rule} not shown (--format json lists them all)").format(
                n=f"{n - per_rule:,}", rule=rule))
    lines.append(count_line(counts(issues)))
    return "\n".join(lines)


def issue_line(doc: Document, issue: Issue, width: int = 0) -> str:
    """"error   turn-gap [row 5, column turn_id]: …" (the severity padded to `width` columns)."""
    place = place_text(issue_row(doc, issue), issue_column(doc, issue))
    where = f" [{place}]" if place else ""
    return escape_for_terminal(
        f"{pad(text(SEVERITY_WORDS[issue.severity]), width)} {issue.rule}{where}: {localized_message(issue)}")
