"""The indexes behind the dataset-wide rules, kept up to date one row at a time.

- `Questions`: single-turn rows by their trimmed question (rule duplicate-question).
- `CaseGroups`: session ids by their lower-case form (rule session-id-case-clash).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator


class Questions:
    def __init__(self) -> None:
        # lists, not sets: most questions are unique, and a set of one costs 216 bytes against 64
        self.groups: dict[str, list[int]] = {}
        self.key_of: dict[int, str] = {}

    def build(self, pairs: Iterable[tuple[int, str]]) -> None:
        """From (row id, trimmed question) of the indexed rows: no empty question, each row once."""
        self.key_of = dict(pairs)
        groups = self.groups = {}
        for rid, key in self.key_of.items():
            group = groups.get(key)
            if group is None:
                groups[key] = [rid]
            else:
                group.append(rid)

    def move(self, rid: int, key: str | None) -> set[int]:
        """Index `rid` under `key` (None or "": not indexed); return rows whose duplicate status may flip."""
        affected: set[int] = set()
        old = self.key_of.pop(rid, None)
        if old is not None:
            group = self.groups[old]
            group.remove(rid)
            affected.update(group)
            if not group:
                del self.groups[old]
        if key:
            group = self.groups.setdefault(key, [])
            group.append(rid)
            self.key_of[rid] = key
            affected.update(group)
        return affected

    def others(self, rid: int) -> int:
        """How many other indexed rows have the same question."""
        key = self.key_of.get(rid)
        return 0 if key is None else len(self.groups[key]) - 1

    def duplicated(self) -> Iterator[int]:
        for group in self.groups.values():
            if len(group) > 1:
                yield from group


class CaseGroups:
    def __init__(self) -> None:
        self.groups: dict[str, dict[str, int]] = {}  # folded id -> {session id: its rows}

    def build(self, sizes: Iterable[tuple[str, int]]) -> None:
        self.groups = {}
        for sid, n in sizes:
            self.groups.setdefault(sid.lower(), {})[sid] = n

    def move(self, old_sid: str, new_sid: str) -> None:
        """One row left session `old_sid` and joined `new_sid` ("" for none)."""
        if old_sid:
            group = self.groups[old_sid.lower()]
            group[old_sid] -= 1
            if group[old_sid] <= 0:
                del group[old_sid]
            if not group:
                del self.groups[old_sid.lower()]
        if new_sid:
            group = self.groups.setdefault(new_sid.lower(), {})
            group[new_sid] = group.get(new_sid, 0) + 1

    def of(self, sid: str) -> dict[str, int]:
        """The session ids that fold to the same case as `sid` (itself included), with their rows."""
        return self.groups.get(sid.lower(), {})

    def clashing(self) -> Iterator[str]:
        for group in self.groups.values():
            if len(group) > 1:
                yield from group
