"""Crash-recovery journals: a Document with unsaved edits, written to one JSON file, and read back as
the same Document (Qt-free; the window's timer is in gui/window/recovery.py, its prompt in restoring.py).

The file is UTF-8 JSON (lone surrogates a cell may hold are kept, encoded with `surrogatepass`),
written atomically (atomic.atomic_write), so a journal is always either the previous one or the new
one, never half of each; a write that is stopped (a newer edit made it useless) leaves the previous
one. One object:

    {
      "evaleditor_recovery": 1,          format version (a newer version is refused)
      "saved_at": "2025-06-10T12:34:56+00:00",   when the journal was written (UTC)
      "path": "/abs/cases.xlsx" | null,  the file the document was opened from / will save to
      "display_name": "…" | null,        the window's name for an untitled document (the demo)
      "stamp": [mtime_ns, size] | null,  the file on disk as the document last read or saved it
      "row_count": 100000,               len(rows), so that a start-up can list journals from their heads
      "source_format": "xlsx",           "csv", "tsv", "xlsx", "xls", "json"
      "sheet": "Sheet1" | null, "sheets": [...], "encoding": "utf-8-sig" | null, "delimiter": ";" | null,
      "file_size": 12345 | null,
      "target": "ground-truth",          the target the window checks against
      "headers": ["question", …],        every column, in order, as shown
      "rows": [["cell", …], …],          every row's cells, in order (empty rows too)
      "payloads": null | [null | {"sdk": {"case": {…}, "shown": {…}, "conversation": {…} | null, "at": n | null,
                                          "kept": {"where": "eval_cases.3", "values": {…}} (when any)}}, …],
      "document": {…} | null,            SDK JSON: the root's other keys, written back unchanged
      "case_ids": {"<row>": "case-4", …} (absent when none): by 0-based row, the SDK JSON ids a save
                                         made for new cases (Dataset.case_ids), which the next save keeps
      "notes": [[rule, message, row, column], …]
    }

`payloads` keeps what an SDK JSON row carries besides its cells (io/sdk_map.SdkCase: the case as
read and the text each cell showed), so the restored document saves exactly as the lost one would
have: unchanged cells write the original parts of the case back. `notes` are the findings the reader
made that the validator cannot make again (SDK schema errors, formulas without a saved value), by
0-based row and column position, as a reader reports them (io.RawTable / core.table.LoadNote).
"""

from __future__ import annotations

import codecs
import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from evaleditor.core.alloc import bulk_allocation
from evaleditor.core.document import Document, document_from_table
from evaleditor.core.errors import ReadError
from evaleditor.core.i18n import N_
from evaleditor.core.table import LoadNote, RawTable

VERSION = 1
KEY = "evaleditor_recovery"
FORMULA_RULE = "formula-without-value"
_BLOCK = 500  # rows per encoder call: ~2 ms with orjson at 100k rows, when a stopped write checks again


@dataclass
class Recovered:
    """A journal read back: the document (its cells as they were) and what the window needs."""

    document: Document
    stamp: tuple[int, int] | None
    display_name: str | None
    saved_at: datetime | None

    @property
    def rows(self) -> int:
        return self.document.dataset.row_count()


def snapshot(doc: Document, *, stamp: tuple[int, int] | None = None, display_name: str | None = None,
             now: datetime | None = None) -> dict[str, Any]:
    """What the journal of `doc` holds, copied, so that it can be encoded on another thread while the
    dataset goes on changing. TypeError when a row carries a payload the journal cannot hold."""
    with bulk_allocation():  # a file's worth of lists: no garbage-collector walks meanwhile
        return _snapshot(doc, stamp, display_name, now)


def _snapshot(doc, stamp, display_name, now) -> dict[str, Any]:
    ds = doc.dataset
    payloads = [_payload(r.payload) for r in ds.rows]
    record = {
        KEY: VERSION,
        "saved_at": (now or datetime.now(UTC)).isoformat(timespec="seconds"),
        "path": str(doc.path) if doc.path else None,
        "display_name": display_name,
        "stamp": list(stamp) if stamp else None,
        "row_count": ds.row_count(),
        "source_format": doc.source_format,
        "sheet": doc.sheet,
        "sheets": list(doc.sheets),
        "encoding": doc.encoding,
        "delimiter": doc.delimiter,
        "file_size": doc.validator.file_size if doc.validator is not None else None,
        "target": ds.target.name,
        "headers": ds.headers(),
        "rows": [list(r.cells) for r in ds.rows],
        "payloads": payloads if any(p is not None for p in payloads) else None,
        "document": ds.document,  # never changed by an edit
        "notes": _notes(doc),
    }
    if ds.case_ids:
        record["case_ids"] = {str(n): ds.case_ids[r.id] for n, r in enumerate(ds.rows) if r.id in ds.case_ids}
    return record


def encode(record: dict[str, Any]) -> bytes:
    """A snapshot as journal bytes."""
    return b"".join(encoded_blocks(record))


def encoded_blocks(record: dict[str, Any]) -> Iterator[bytes]:
    """A snapshot as journal bytes, _BLOCK rows at a time, so that a worker thread encoding a big dataset
    leaves the UI thread its turns (an encoder call holds the interpreter lock) and can stop between
    blocks. orjson encodes the rows (5-10x faster than json at 100k rows); a block it refuses (a cell
    with a lone surrogate, which orjson cannot encode) is encoded by json with `surrogatepass`."""
    import orjson

    rows = record["rows"]
    head = json.dumps({k: v for k, v in record.items() if k != "rows"}, ensure_ascii=False, separators=(",", ":"))
    yield (head[:-1] + ',"rows":[').encode("utf-8", "surrogatepass")
    for i in range(0, len(rows), _BLOCK):
        block = rows[i:i + _BLOCK]
        try:
            data = orjson.dumps(block)[1:-1]
        except orjson.JSONEncodeError:
            data = json.dumps(block, ensure_ascii=False, separators=(",", ":"))[1:-1].encode("utf-8", "surrogatepass")
        yield b"," + data if i else data
    yield b"]}"


def dump_document(doc: Document, **meta: Any) -> bytes:
    """The journal of `doc` as bytes (see the module docstring); `meta`: stamp, display_name, now."""
    return encode(snapshot(doc, **meta))


class _Stopped(Exception):
    pass


def write_journal(path: str | os.PathLike[str], doc_or_snapshot: Document | dict[str, Any], *,
                  stop: Callable[[], bool] | None = None, **meta: Any) -> bool:
    """Write the journal of a Document (or of a snapshot) to `path` atomically (WriteError on an OS
    failure). `stop` is asked before each block: when it says True, the temporary file goes, the
    journal at `path` stays as it was, and False is returned. (Once every block is written, the file
    replaces the old journal even if `stop` says True meanwhile: it is newer than the old one.)"""
    from evaleditor.io.atomic import atomic_write

    record = doc_or_snapshot if isinstance(doc_or_snapshot, dict) else snapshot(doc_or_snapshot, **meta)
    try:
        with atomic_write(path, "wb") as handle:
            for block in encoded_blocks(record):
                if stop is not None and stop():
                    raise _Stopped
                handle.write(block)
    except _Stopped:
        return False
    return True


@dataclass
class Summary:
    """What the restore prompt shows of a journal, read from its first bytes (journals of big files are
    100 MB: reading them whole, and validating them, took seconds each before the window could show)."""

    path: str | None
    display_name: str | None
    saved_at: datetime | None
    rows: int


_HEAD = 64 * 1024
_SPACE = re.compile(r"[ \t\n\r]*")
_SUMMARY_KEYS = ("saved_at", "path", "display_name", "row_count")


def read_summary(path: str | os.PathLike[str]) -> Summary:
    """The journal's summary; ReadError as `read_journal` gives it. A journal without "row_count" in
    its head (an older one) is read whole."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(_HEAD)
    except OSError as err:
        raise ReadError(path, f"cannot read the recovery file: {err.strerror or err}") from None
    found = _head_keys(codecs.getincrementaldecoder("utf-8")("surrogatepass").decode(head))  # cut: no error
    if found is None or not all(k in found for k in _SUMMARY_KEYS) or not isinstance(found[KEY], int):
        found = _record(path)  # from before "row_count": parsed whole (not made a document)
        found["row_count"] = len(found.get("rows") or ())
    if found[KEY] > VERSION:
        raise ReadError(path, N_("the recovery file was written by a newer version of the editor"))
    try:
        return Summary(found["path"], found["display_name"], _when(found["saved_at"]), int(found["row_count"]))
    except (TypeError, ValueError) as err:
        raise ReadError(path, f"the recovery file is damaged ({type(err).__name__}: {err})") from None


def _head_keys(text: str) -> dict[str, Any] | None:
    """The top-level keys of a JSON object, from its start up to the first value cut off by the end of
    `text` (None when it does not start as a journal)."""
    decode = json.JSONDecoder().raw_decode
    i = _SPACE.match(text).end()
    if not text.startswith("{", i):
        return None
    found: dict[str, Any] = {}
    i += 1
    try:
        while not all(k in found for k in (KEY, *_SUMMARY_KEYS)):
            key, i = decode(text, _SPACE.match(text, i).end())
            i = _SPACE.match(text, i).end()
            if not text.startswith(":", i):
                break
            value, i = decode(text, _SPACE.match(text, i + 1).end())
            found[key] = value
            i = _SPACE.match(text, i).end()
            if not text.startswith(",", i):
                break
            i += 1
    except ValueError:  # a value cut off by the end of the head
        pass
    return found if KEY in found else None


def _when(text: object) -> datetime | None:
    return datetime.fromisoformat(text) if isinstance(text, str) and text else None


def _record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The journal's JSON object; ReadError when it is not one. Its floats are marked as the SDK reader
    marks a file's (sdk/json_text.ReprFloat), since they may go back into an SDK JSON save."""
    from evaleditor.io.sdk.json_text import read_constant, read_float

    try:
        with open(path, "rb") as handle:
            record = json.loads(handle.read().decode("utf-8", "surrogatepass"), parse_float=read_float,
                                parse_constant=read_constant)
    except OSError as err:
        raise ReadError(path, f"cannot read the recovery file: {err.strerror or err}") from None
    except (UnicodeDecodeError, ValueError) as err:
        raise ReadError(path, f"not a recovery file: {err}") from None
    if not isinstance(record, dict) or not isinstance(record.get(KEY), int):
        raise ReadError(path, N_("not a recovery file"))
    return record


def read_journal(path: str | os.PathLike[str]) -> Recovered:
    """The document a journal holds; ReadError when the file is not a journal this version can read."""
    record = _record(path)
    if record[KEY] > VERSION:
        raise ReadError(path, N_("the recovery file was written by a newer version of the editor"))
    try:
        return _recovered(record)
    except (KeyError, TypeError, ValueError, IndexError) as err:
        raise ReadError(path, f"the recovery file is damaged ({type(err).__name__}: {err})") from None


def _recovered(record: dict[str, Any]) -> Recovered:
    headers = [str(h) for h in record["headers"]]
    rows = [[str(c) for c in row] for row in record["rows"]]
    if any(len(row) != len(headers) for row in rows):
        raise ValueError("a row does not have one cell per column")
    payloads = record.get("payloads")
    if payloads is not None:
        if len(payloads) != len(rows):
            raise ValueError("payloads do not match the rows")
        payloads = [_load_payload(p) for p in payloads]
    notes = [LoadNote(str(rule), str(message), row, column) for rule, message, row, column in record.get("notes") or []]
    for note in notes:
        if note.row is not None and not 0 <= note.row < len(rows) or \
                note.column is not None and not 0 <= note.column < len(headers):
            raise ValueError("a note points outside the table")
    raw = RawTable(headers, rows, record["source_format"] or "csv", record.get("sheet"),
                   list(record.get("sheets") or []), notes, payloads, record.get("document"), record.get("encoding"),
                   record.get("delimiter"))
    path = record.get("path")
    doc = document_from_table(raw, Path(path) if path else None, record["target"], record.get("file_size"))
    doc.source_format = record["source_format"]
    rows_now = doc.dataset.rows
    doc.dataset.case_ids = {rows_now[int(n)].id: str(case_id) for n, case_id in (record.get("case_ids") or {}).items()}
    stamp = record.get("stamp")
    saved_at = record.get("saved_at")
    return Recovered(doc, (int(stamp[0]), int(stamp[1])) if stamp else None, record.get("display_name"),
                     datetime.fromisoformat(saved_at) if saved_at else None)


def _payload(payload: Any) -> dict[str, Any] | None:
    if payload is None:
        return None
    from evaleditor.io.platforms.azure_foundry import Turn
    from evaleditor.io.records import Record
    from evaleditor.io.sdk.mapping import SdkCase
    from evaleditor.io.sdk.traces import SdkTrace

    if isinstance(payload, Turn):
        return {"turn": {"line": payload.line, "index": payload.index, "shown": payload.shown,
                         "session_key": payload.session_key}}
    if isinstance(payload, SdkCase):
        return {"sdk": {"case": payload.case, "shown": payload.shown, "conversation": payload.conversation,
                        "at": payload.at, **_kept(payload.kept)}}
    if isinstance(payload, SdkTrace):
        return {"trace": {"case": payload.case, "key": payload.key, "turn": payload.turn, "shown": payload.shown,
                          **_kept(payload.kept)}}
    if isinstance(payload, Record):
        return {"record": {"record": payload.record, "shown": payload.shown}}
    raise TypeError(f"a row carries data the journal cannot hold ({type(payload).__name__})")


def _kept(kept: Any) -> dict[str, Any]:
    """An SDK payload's mapping.Kept, as the journal holds it (nothing when there is none)."""
    return {} if kept is None else {"kept": {"where": kept.where, "values": kept.values}}


def _load_kept(value: dict[str, Any]) -> Any:
    from evaleditor.io.sdk.mapping import Kept

    kept = value.get("kept")
    return None if kept is None else Kept(str(kept["where"]), dict(kept["values"]))


def _load_payload(value: Any) -> Any:
    if value is None:
        return None
    from evaleditor.io.platforms.azure_foundry import Turn
    from evaleditor.io.records import Record
    from evaleditor.io.sdk.mapping import SdkCase
    from evaleditor.io.sdk.traces import SdkTrace

    if "turn" in value:
        t = value["turn"]
        return Turn(dict(t["line"]), int(t["index"]), dict(t["shown"]), t.get("session_key"))
    if "trace" in value:
        t = value["trace"]
        return SdkTrace(dict(t["case"]), int(t["key"]), int(t["turn"]), dict(t["shown"]), _load_kept(t))
    if "record" in value:
        return Record(dict(value["record"]["record"]), dict(value["record"]["shown"]))
    sdk = value["sdk"]
    return SdkCase(dict(sdk["case"]), dict(sdk["shown"]), sdk.get("conversation"), sdk.get("at"), _load_kept(sdk))


def _notes(doc: Document) -> list[list[Any]]:
    """Reader findings still attached to rows and columns that exist, and formulas without a value."""
    ds, validator = doc.dataset, doc.validator
    notes: list[list[Any]] = []
    if validator is None:
        return notes
    positions = {r.id: i for i, r in enumerate(ds.rows)} if validator.static_rows else {}
    columns = {c.id: j for j, c in enumerate(ds.columns)}
    for rule, message, row_id, col_id in validator.static_findings():
        if row_id is None:
            notes.append([rule, message, None, columns.get(col_id)])
        elif row_id in positions and (col_id is None or col_id in columns):
            notes.append([rule, message, positions[row_id], columns.get(col_id)])
    for i, row in enumerate(ds.rows):
        if row.formulas:
            notes.extend([FORMULA_RULE, "", i, columns[c]] for c in sorted(row.formulas) if c in columns)
    return notes
