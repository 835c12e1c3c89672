"""The order a save as SDK JSON writes the cases in: the file's own, as far as the table's order allows.

The reader shows a file's cases in the order of their first appearance, each conversation gathered at
its first case in turn order (sdk/read.py), so a file need not hold its cases in the table's order to
read back in it: another tool's file may hold all first turns, then all second turns. Writing the
table's order would rewrite such a file that was only opened and saved. So the cases read from a file
keep their places, and the table's order decides only where it must:

- when the user moved cases (a sort, a move, a paste of rows) so that the cases and conversations are
  no longer in the order of their first case in the file, the file holds the table's order;
- otherwise each case read keeps its place; a new case in a conversation goes after the case of the
  conversation above it, a new case or conversation of its own before the next one read.

Either way the file reads back in the table's order (its conversations gathered: the save's step,
core/editing.sdk_turn_order, gathered them), and a file opened and saved with no edit is the same bytes.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Sequence

_END = float("inf")


def file_order(places: Sequence[int | None], group_of: Callable[[int], Hashable]) -> list[int] | None:
    """The cases' indexes (in table order) in the order to write them, None when it is the table's.

    `places[n]`: case n's place in the file read (None: a new case); `group_of(n)`: what reads case n
    back with others (its conversation's session id), unique otherwise."""
    if None not in places and all(map(operator.lt, places, places[1:])):
        return None  # most saves of a file read: its cases in the table's order
    if all(p is None for p in places):
        return None  # a table that was not read from SDK JSON (or has no case left of it)
    groups = [group_of(n) for n in range(len(places))]
    first: dict[Hashable, int] = {}  # group -> its first case in table order (dict order: the groups' order)
    lead: dict[Hashable, int] = {}  # group -> its first place in the file
    for n, (p, g) in enumerate(zip(places, groups, strict=True)):
        first.setdefault(g, n)
        if p is not None and (g not in lead or p < lead[g]):
            lead[g] = p
    leads = [lead[g] for g in first if g in lead]
    if any(b <= a for a, b in zip(leads, leads[1:], strict=False)):
        return None  # the user reordered what the file held: the table's order
    before: dict[Hashable, float] = {}  # a group with no case read: the place of the next group read
    upcoming: float = _END
    for g in reversed(first):
        if g in lead:
            upcoming = lead[g]
        else:
            before[g] = upcoming
    above: dict[Hashable, int] = {}  # group -> the place of its case read last seen, in table order
    keys: list[tuple[float, int, int]] = []
    for n, (p, g) in enumerate(zip(places, groups, strict=True)):
        if p is not None:
            above[g] = p
            keys.append((p, 1, n))
        elif g in lead:
            keys.append((above.get(g, lead[g]), 2, n))
        else:
            keys.append((before[g], 0, n))
    order = sorted(range(len(keys)), key=keys.__getitem__)
    return None if all(i == n for i, n in enumerate(order)) else order
