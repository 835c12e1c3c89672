"""What the table's headers say: each column's source text and what it was recognised as, each
row's number with its session and turn. Pure functions of the core's state (and the language); the
model caches them."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from evaleditor.core.rules import SEVERITY_RANK
from evaleditor.core.targets import TURN
from evaleditor.core.validation import Validator
from evaleditor.gui.issues_model import describe

GUTTER_SESSION_CHARS = 10
translate = QCoreApplication.translate


@dataclass(frozen=True)
class ColumnLabel:
    text: str  # two lines: the header as in the file, then what it means to the target
    severity: str | None  # the worst file-level issue about this column
    tooltip: str
    recognised: bool


def column_labels(v: Validator) -> list[ColumnLabel]:
    ds = v.ds
    target = ds.target
    by_column: dict[int, list] = {}
    for issue in v.file_issues():
        if issue.column_id is not None:
            by_column.setdefault(issue.column_id, []).append(issue)
    labels = []
    seen: set[str] = set()
    for col, fld in zip(ds.columns, ds.fields(), strict=True):
        issues = by_column.get(col.id, [])
        header = col.header if col.header.strip() else translate("ColumnHeaders", "(no header)")
        if fld is None:
            miss = target.near_miss(col.header)
            if miss is not None:
                meaning = "\u26a0 " + translate("ColumnHeaders", "NOT read as {want}").format(want=target.header_for(miss))
            else:
                meaning = translate("ColumnHeaders", "unknown \u00b7 kept")
        elif fld in seen:
            meaning = "\u2192 " + translate("ColumnHeaders", "{field} (duplicate)").format(field=fld)
        else:
            meaning = f"\u2192 {fld}"
            seen.add(fld)
        worst = max(issues, key=lambda i: SEVERITY_RANK[i.severity]).severity if issues else None
        read = (translate("ColumnHeaders", "read as {field}").format(field=fld) if fld and not issues
                else meaning.strip("\u26a0 "))
        tip_lines = [translate("ColumnHeaders", "Header {header!r}: {meaning}").format(header=col.header, meaning=read)]
        tip_lines += [describe(i) for i in issues]
        labels.append(ColumnLabel(f"{header}\n{meaning}", worst, "\n".join(tip_lines), fld is not None))
    return labels


def gutter_text(v: Validator, row_id: int, position: int) -> str:
    """`12  s1·2`: the 1-based data row number, then the session and turn when the row has a session."""
    sid = v.sessions.session_of.get(row_id)
    if sid is None:
        return str(position + 1)
    # ids often share a prefix ("conversation-0001"): keep the end, which tells them apart
    short = sid if len(sid) <= GUTTER_SESSION_CHARS else "\u2026" + sid[-(GUTTER_SESSION_CHARS - 1):]
    ds = v.ds
    tpos = ds.field_position(TURN)
    turn = ds.row(row_id).cells[tpos].strip() if tpos is not None else ""
    if len(turn) > 4:
        turn = turn[:3] + "\u2026"
    return f"{position + 1}  {short}\u00b7{turn}" if turn else f"{position + 1}  {short}"
