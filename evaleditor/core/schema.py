"""The public report objects: what `validate`, `shape` and `convert` print with `--format json`, and
what the Python API (evaleditor/api.py) returns. These models are that JSON's schema (cli.md): field
names and their order are a contract, so add fields only at the end and never rename one.
`docs/schema/*.json` is generated from them (scripts/schema_doc.py; a test keeps it current).

The command line builds the same objects as plain dicts (core/report.py) so that it does not pay
pydantic's import time; the API validates those dicts into these models, and the tests check every
report the command line prints against them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from evaleditor.core.targets import TARGET_NAMES

TargetName = Literal[TARGET_NAMES]  # type: ignore[valid-type]
Severity = Literal["error", "warning", "info"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Shape(_Record):
    """How the evaluation service will read the file (the shape line, rules.md)."""

    mode: Literal["single-turn", "multi-turn"]
    rows: int = Field(ge=0, description="data rows (cases); rows that are entirely empty do not count")
    conversations: int | None = Field(description="conversations of a multi-turn file (a session with one "
                                                   "row counts as one); null for single-turn")
    line: str = Field(description="the shape line, e.g. "
                                  "'MULTI-TURN \u2014 9 rows, 2 conversations (grouped by session_id)'")


class Column(_Record):
    """One column of the file, in file order."""

    header: str = Field(description="the header as the file spells it")
    field: str | None = Field(description="the field the target reads it as (question, answer, session_id …); "
                                          "null for a column the target does not use")


class Issue(_Record):
    """One finding of one rule (docs/rules.md lists every rule id)."""

    rule: str = Field(description="the rule's public id, e.g. 'turn-gap'")
    severity: Severity
    row: int | None = Field(ge=1, description="1-based number of the data row as the editor shows it; "
                                              "null for a file-level issue")
    column: str | None = Field(description="the header as it appears in the file, or the canonical field "
                                           "when the file has no such column; null when no column")
    message: str = Field(description="what is wrong, in English")


class Counts(_Record):
    """How many issues of each severity."""

    error: int = Field(ge=0)
    warning: int = Field(ge=0)
    info: int = Field(ge=0)


class ShapeReport(_Record):
    """`evaleditor shape --format json`: which file, how it was read, and its shape."""

    file: str = Field(description="the file as named on the command line ('-' for standard input)")
    target: TargetName | None = Field(description="the target checked against (named or inferred); "
                                                  "null when an unreadable file named none")
    sheet: str | None = Field(description="the workbook sheet read; null for CSV and JSON")
    shape: Shape | None = Field(description="null when the file could not be read")


class Report(ShapeReport):
    """`evaleditor validate --format json`: one report per file."""

    columns: list[Column]
    issues: list[Issue]
    counts: Counts


class LeftOut(_Record):
    """What a file written from a document does not hold of it (the save plan, core/saving.py): the
    window asks about it before saving, `convert` warns of it. Empty lists and 0: nothing is left out."""

    other_sheets: list[str] = Field(description="the other sheets of the workbook the output replaces (the "
                                                "output holds only the sheet read)")
    hidden_cases: int = Field(ge=0, description="cases read from SDK JSON holding what a table cannot show (agent "
                                                "traces, rubrics, images …), which a .csv or .xlsx output leaves out")
    replaced_traces: list[int] = Field(description="1-based rows whose own agent trace an SDK JSON output holds only "
                                                   "in part: each is now a later turn of a conversation, whose "
                                                   "history replaces the trace's earlier turns")
    format_limits: list[str] = Field(description="what another platform's file cannot hold of the document, one "
                                                 "line each: an Azure conversation line's one value of a column "
                                                 "whose turns differ, the columns a Bedrock prompt dataset does "
                                                 "not hold, a second column of one name")


class ConvertReport(Report):
    """`evaleditor convert --format json`: the report of the output, as written (`file` is the output)."""

    input: str = Field(description="the input file as named on the command line")
    input_shape: Shape | None = Field(description="how the input reads, under the target it was checked against "
                                                  "(null when it could not be read): a mode other than the "
                                                  "output's `shape` means the conversion changed how the file "
                                                  "reads (convert warns)")
    written: bool = Field(description="whether the output was written (false: refused, or the input could "
                                      "not be read, or the output not written)")
    left_out: LeftOut = Field(description="what the output does not hold of the input (rows numbered as in "
                                          "the output)")


REPORTS = {"validate": Report, "shape": ShapeReport, "convert": ConvertReport}
