"""Records: a list of JSON objects, one per row (JSON Lines files, the SDK's records form).

Reading, each key becomes a column (in order of first appearance, `merged_keys`) and each value the text a user
sees: a string as it is, a number or boolean in JSON spelling (`3`, `true`), null as an empty cell,
an object or array as its JSON text. The record as read stays with its row (`Record`), so that a save
with no edit writes the same object back, and an edited cell replaces only that key: with a number
or boolean again when the key held one and the text still reads as one, with the parsed JSON when it
held an object or array and the text is valid JSON, else with the text typed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from evaleditor.core.dataset import Dataset
from evaleditor.core.errors import ReadError
from evaleditor.core.table import RawTable
from evaleditor.io.sdk.mapping import scalar_text, typed_extra

JSONL_SUFFIXES = (".jsonl", ".ndjson")


@dataclass(frozen=True, eq=False, slots=True)
class Record:
    """What a row read from records carries: the object as read and the text each key showed."""

    record: dict[str, Any]
    shown: dict[str, str] = field(default_factory=dict)


def value_text(value: Any) -> str:
    """The text a cell shows for a JSON value."""
    if value is None:
        return ""
    text = scalar_text(value)
    if text is not None:
        return text
    return json.dumps(value, ensure_ascii=False)


def typed_value(text: str, original: Any, json_keys: bool = False) -> Any:
    """The value to write for an edited cell whose record held `original` (see the module's docstring).
    `json_keys`: the column holds JSON by its meaning (conversation_history …): valid JSON text is
    written parsed even in a new row."""
    if isinstance(original, (dict, list)) or (json_keys and original is None and text.strip()[:1] in "[{"):
        try:
            return json.loads(text)
        except ValueError:
            return text
    if original is None:
        return text
    return typed_extra(text, original)


def read_jsonl(path: str | os.PathLike[str], data: bytes | None = None) -> list[dict[str, Any]]:
    """The objects of a JSON Lines file; ReadError naming the first line that is not one. An empty
    file is no objects: an empty dataset (what `template` writes as .jsonl), not an unreadable file."""
    from evaleditor.io import safety
    from evaleditor.io.sdk.parse import decode_text

    if data is None:
        safety.check_file(path, empty_ok=True)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as err:
            raise ReadError(path, safety.os_error_reason(err)) from None
    from evaleditor.io.budget import check_cases, check_json_size

    check_json_size(path, len(data))
    text = decode_text(path, data)
    if text.startswith("\ufeff"):
        text = text[1:]
    decoder = json.JSONDecoder()
    out: list[dict[str, Any]] = []
    for n, line in enumerate(text.split("\n"), 1):  # JSON Lines ends lines with \n (\r\n): a string may hold U+2028
        if not line.strip():
            continue
        try:
            value = decoder.decode(line)
        except json.JSONDecodeError as err:
            raise ReadError(path, f"line {n} is not valid JSON: {err.msg} at column {err.colno}") from None
        except RecursionError:
            raise ReadError(path, f"line {n} is nested too deeply") from None
        if not isinstance(value, dict):
            raise ReadError(path, f"line {n} is not a JSON object (each line of a .jsonl file is one case)")
        out.append(value)
    check_cases(path, len(out))
    return out


def merged_keys(records: Iterable[dict[str, Any]], first: Iterable[str] = ()) -> list[str]:
    """The keys of `records` in order of first appearance (`first` leading), except that a key new in a
    record goes right after the key before it in that record: a column left out of the first records
    (writers leave out empty values) keeps its place beside its neighbours instead of moving to the end."""
    names = list(dict.fromkeys(first))
    known = set(names)
    for r in records:
        if known.issuperset(r):
            continue
        before = None
        for k in r:
            if k not in known:
                known.add(k)
                names.insert(names.index(before) + 1 if before is not None else len(names), k)
            before = k
    return names


def records_table(records: Sequence[dict[str, Any]], fmt: str, flatten: Callable[[dict], dict] | None = None
                  ) -> RawTable:
    """A table of `records`; `flatten` turns a record into the keys its row shows (default: itself)."""
    shown_records = [flatten(r) if flatten else r for r in records]
    names = merged_keys(shown_records)
    rows, payloads = [], []
    for original, r in zip(records, shown_records, strict=True):
        shown = {k: value_text(v) for k, v in r.items()}
        rows.append([shown.get(k, "") for k in names])
        payloads.append(Record(original, shown))
    return RawTable(names, rows, fmt, payloads=payloads)


def row_record(headers: Sequence[str], cells: Sequence[str], payload: object,
               json_keys: Iterable[str] = (), renamed: dict[str, str] | None = None) -> dict[str, Any]:
    """The record for a row of a records table: as read where unchanged (see the module's docstring).
    A new row writes every non-empty cell as text (JSON columns parsed); a key whose column was removed
    is dropped; a renamed column's value (`renamed`: new name -> key as read, renamed_keys) moves to the
    new key in its place, with its JSON type."""
    json_keys = frozenset(json_keys)
    if isinstance(payload, Record):
        shown = payload.shown
        sources = {h: s for h, s in renamed.items() if h not in shown and s in payload.record} if renamed else {}
        out = dict(payload.record)
        if sources:
            moved = {s: h for h, s in sources.items()}
            out = {moved.get(k, k): v for k, v in out.items()}
        for key in set(shown) - set(headers) - set(sources.values()):
            out.pop(key, None)
        for key, text in zip(headers, cells, strict=False):
            source = sources.get(key, key)
            if shown.get(source) == text and (source in payload.record or not text):
                continue
            original = payload.record.get(source)
            if text == "" and not isinstance(original, str):
                out.pop(key, None)
            else:
                out[key] = typed_value(text, original, key in json_keys)
        return out
    return {k: typed_value(text, None, k in json_keys) for k, text in zip(headers, cells, strict=False) if text}


@dataclass(frozen=True, slots=True)
class _ReadRow:
    """A row as renamed_columns sees it: its Record and its cells, by header (`extras.get`)."""

    payload: Record
    position: dict[str, int]
    cells: Sequence[str]

    @property
    def extras(self) -> _ReadRow:
        return self

    def get(self, header: str) -> str | None:
        at = self.position.get(header)
        return self.cells[at] if at is not None and at < len(self.cells) else None


def renamed_keys(ds: Dataset, read_as: tuple[type, ...] = (Record,)) -> dict[str, str]:
    """The columns renamed since the records were read: new header -> key as read (the SDK JSON
    writer's inference, sdk/extras.renamed_columns, over the rows whose payload is a `read_as`, each
    with the text each key showed, `shown`: a Record, an Azure conversation's Turn)."""
    from evaleditor.io.sdk.extras import renamed_columns

    headers = ds.headers()
    read = [r for r in ds.rows if isinstance(r.payload, read_as)]
    if all(any(h in r.payload.shown for r in read) for h in headers):
        return {}  # every column was read (the usual save): no rows to look through
    position = {h: i for i, h in reversed(list(enumerate(headers)))}  # the first column of a name
    return renamed_columns([_ReadRow(r.payload, position, r.cells) for r in read], headers, set(headers), prefix="")


def read_value(record: dict[str, Any], key: str) -> Any:
    """The value a record's `key` column showed: its key, else the key of one of its objects (a record
    read one level deep, as LangSmith's); None when it has none."""
    if key in record:
        return record[key]
    return next((v[key] for v in record.values() if isinstance(v, dict) and key in v), None)


def dataset_records(ds: Dataset, json_keys: Iterable[str] = ()) -> list[dict[str, Any]]:
    """Every non-empty row of `ds` as a record (row_record)."""
    headers = ds.headers()
    renamed = renamed_keys(ds)
    return [row_record(headers, row.cells, row.payload, json_keys, renamed) for row in ds.rows if not row.is_empty()]


_LINE_BREAKS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"})


def jsonl_bytes(records: Iterable[dict[str, Any]]) -> bytes:
    """JSON Lines: one compact object a line, UTF-8, non-ASCII kept, a newline after the last. The
    characters other readers take for line breaks (U+2028, U+2029, NEL: Python's str.splitlines,
    JavaScript before ES2019) are written escaped, which JSON reads as the same string."""
    return "".join(json.dumps(r, ensure_ascii=False).translate(_LINE_BREAKS) + "\n" for r in records).encode("utf-8")
