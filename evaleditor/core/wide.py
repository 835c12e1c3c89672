"""The indexes behind the dataset-wide rules, kept up to date one row at a time.

- `Questions`: single-turn rows by their trimmed question (rule duplicate-question).
- `CaseGroups`: session ids by their lower-case form (rule session-id-case-clash).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator
from operator import itemgetter


class Questions:
    """A question of one row maps to that row's id, not a container (most questions are unique:
    72k of them at 100k rows); a duplicated one to the list of its rows."""

    def __init__(self) -> None:
        self.groups: dict[str, int | list[int]] = {}
        self.key_of: dict[int, str] = {}

    def build(self, row_ids: Iterable[int], questions: Iterable[str]) -> None:
        """Index each row's trimmed question, but not an empty one."""
        # built filtered, never pruned: a dict does not shrink as keys are deleted
        self.key_of = key_of = dict(filter(itemgetter(1), zip(row_ids, map(str.strip, questions), strict=True)))
        self.groups = dict(zip(key_of.values(), key_of.keys(), strict=True))  # at C speed
        if len(self.groups) == len(key_of):
            return  # no question twice: the common case
        repeated = {key for key, n in Counter(key_of.values()).items() if n > 1}
        for key in repeated:
            self.groups[key] = []
        for rid, key in key_of.items():
            if key in repeated:
                self.groups[key].append(rid)  # type: ignore[union-attr]

    def move(self, rid: int, key: str | None) -> set[int]:
        """Index `rid` under `key` (None or "": not indexed); return rows whose duplicate status may flip."""
        affected: set[int] = set()
        old = self.key_of.pop(rid, None)
        if old is not None:
            group = self.groups[old]
            if isinstance(group, int):
                del self.groups[old]
            else:
                group.remove(rid)
                affected.update(group)
                if len(group) == 1:
                    self.groups[old] = group[0]
        if key:
            group = self.groups.get(key)
            if group is None:
                self.groups[key] = rid
            elif isinstance(group, int):
                self.groups[key] = [group, rid]
                affected.update((group, rid))
            else:
                group.append(rid)
                affected.update(group)
            self.key_of[rid] = key
        return affected

    def others(self, rid: int) -> int:
        """How many other indexed rows have the same question."""
        key = self.key_of.get(rid)
        group = None if key is None else self.groups[key]
        return len(group) - 1 if isinstance(group, list) else 0

    def duplicated(self) -> Iterator[int]:
        for group in self.groups.values():
            if isinstance(group, list):
                yield from group


class CaseGroups:
    """Session ids by folded case. A group of one is the id itself, not a container: 27k of them at
    100k rows. Whether an id still has rows is the session index's to say (`present`)."""

    def __init__(self) -> None:
        self.groups: dict[str, str | set[str]] = {}

    def build(self, sids: Iterable[str]) -> None:
        """`sids`: distinct ids (a dict's keys)."""
        sids = list(sids)
        self.groups = dict(zip(map(_folded, sids), sids, strict=True))
        if len(self.groups) != len(sids):  # some ids differ only in letter case
            self.groups = {}
            for sid in sids:
                self._add(sid)

    def move(self, old_sid: str, new_sid: str, present: Callable[[str], bool]) -> None:
        """One row left session `old_sid` and joined `new_sid` ("" for none); `present(sid)`: whether a
        session id still has rows, after the move."""
        if old_sid and not present(old_sid):
            key = _folded(old_sid)
            group = self.groups.get(key)
            if isinstance(group, set):
                group.discard(old_sid)
                if len(group) == 1:
                    self.groups[key] = next(iter(group))
            elif group == old_sid:
                del self.groups[key]
        if new_sid:
            self._add(new_sid)

    def of(self, sid: str) -> Collection[str]:
        """The session ids that fold to the same case as `sid` (itself included)."""
        group = self.groups.get(_folded(sid))
        return () if group is None else (group,) if isinstance(group, str) else group

    def clashing(self) -> Iterator[str]:
        for group in self.groups.values():
            if isinstance(group, set):
                yield from group

    def _add(self, sid: str) -> None:
        key = _folded(sid)
        group = self.groups.get(key)
        if group is None:
            self.groups[key] = sid
        elif isinstance(group, set):
            group.add(sid)
        elif group != sid:
            self.groups[key] = {group, sid}


def _folded(sid: str) -> str:
    """`sid.lower()`, or `sid` itself when that is the same text: most ids are lower case already, and
    a copy of each would be 27k strings kept at 100k rows."""
    low = sid.lower()
    return sid if low == sid else low
