"""The extra columns of SDK JSON (a case's keys the table shows as columns of their own): what the
writer writes for them — each value as read while its cell is unchanged, an edited one with its JSON
type kept where the text allows (sdk_map.typed_extra), a renamed column's values moved to the new name,
a removed column's values gone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from evaleditor.io.sdk.mapping import SdkCase, extra_key, scalar_text, typed_extra


class RowExtras(Protocol):
    """A row as the writer sees it: its payload (None for a row not read from SDK JSON) and the text
    of its extra columns by header."""

    payload: SdkCase | None
    extras: dict[str, str]


def written_extras(case: dict[str, Any], extras: dict[str, str], p: SdkCase, renamed: dict[str, str],
            present: set[str]) -> dict[str, Any]:
    """`case` (a copy of the case as read) with its extra columns written: an unchanged cell keeps the
    value as read, an edited one is written as `typed_extra`; a renamed column moves its values to the
    new name in their place; a removed column removes the values it showed."""
    shown = p.shown
    moved = set()
    for name, text in extras.items():
        was = shown.get(extra_key(name))
        if was is not None:  # the column as read
            if text != was:
                case[name] = typed_extra(text, p.case.get(name))  # an empty cell is written as ""
            continue
        source = renamed.get(name)
        if source is not None and _showed(p, source):
            before = p.case[source]
            value = before if text == shown[extra_key(source)] else typed_extra(text, before)
            case = {(name if k == source else k): (value if k == source else v) for k, v in case.items()
                    if k != name}
            moved.add(source)
        elif text:
            case[name] = text
    for key, was in shown.items():
        if key.startswith("extra:"):
            name = key[len("extra:"):]
            if name not in extras and name not in moved and (was or name not in present and _showed(p, name)):
                case.pop(name, None)  # the column was removed (or emptied in every row)
    return case


def _showed(p: SdkCase, name: str) -> bool:
    """The case's value for extra `name` was the text of its cell (a string, number or boolean)."""
    return name in p.case and scalar_text(p.case[name]) == p.shown.get(extra_key(name))


def renamed_columns(rows: Sequence[RowExtras], names: list[str], present: set[str],
                    prefix: str = "extra:") -> dict[str, str]:
    """Extra columns renamed since the file was read: new name -> name as read.

    A column that no row read from a file showed is taken for the rename of a column as read that is
    no longer in the table when it holds that column's text in at least half of the rows where that
    showed any (the first such column as read, the one it matches most). `prefix`: what the payload's
    `shown` puts before a column's name (SdkCase's `extra:`; a records file's Record, none)."""
    payloads = [r for r in rows if r.payload is not None]
    new = [name for name in names if not any(prefix + name in r.payload.shown for r in payloads)]
    if not new:
        return {}
    gone: dict[str, None] = {}
    for r in payloads:
        for key in r.payload.shown:
            if key.startswith(prefix) and key[len(prefix):] not in present:
                gone[key[len(prefix):]] = None
    out: dict[str, str] = {}
    for name in new:
        best, most = None, 0
        for old in gone:
            if old in out.values():
                continue
            key = prefix + old
            showing = [r for r in payloads if r.payload.shown.get(key)]
            same = sum(1 for r in showing if r.extras.get(name) == r.payload.shown[key])
            if same > most and 2 * same >= len(showing):
                best, most = old, same
        if best is not None:
            out[name] = best
    return out
