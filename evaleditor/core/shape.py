"""The shape line: how the service will read the file (rules.md, "Shape line")."""

from __future__ import annotations

from typing import NamedTuple

from evaleditor.core.targets import SESSION


class Shape(NamedTuple):  # not a frozen dataclass, which costs every command 0.8 ms to make at import
    mode: str  # "single-turn" | "multi-turn"
    rows: int
    conversations: int | None
    session_header: str | None

    @property
    def line(self) -> str:
        # thousands grouped as every message groups them (20,000 rows; rules.md shows only small numbers)
        rows = f"{self.rows:,} row{'' if self.rows == 1 else 's'}"
        if self.mode == "single-turn":
            return f"SINGLE-TURN \u2014 {rows}"
        n = self.conversations
        return (f"MULTI-TURN \u2014 {rows}, {n:,} conversation{'' if n == 1 else 's'} "
                f"(grouped by {self.session_header})")

    def as_json(self) -> dict:
        return {"mode": self.mode, "rows": self.rows, "conversations": self.conversations, "line": self.line}


def shape_of(validator) -> Shape:
    """The shape of the validated dataset (only data rows count)."""
    ds = validator.ds
    rows = validator.data_row_count()
    pos = ds.field_position(SESSION)
    sessions = validator.sessions.sessions
    if pos is None or not sessions:
        return Shape("single-turn", rows, None, None)
    conversations = len(sessions) + validator.single_row_count()
    return Shape("multi-turn", rows, conversations, ds.columns[pos].header)
