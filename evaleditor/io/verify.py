"""Read a saved file back before it replaces the old one, and say which cells differ.

A save writes a temporary file, then `atomic_write` calls one of the checks made here with its path:
the file is read by the same reader that opens it in the editor (`read_table`; for SDK JSON the same
JSON parser) and compared, cell by cell, with what was meant to be written. SDK JSON whose bytes are
known to parse to what was meant is compared with those bytes instead, and parsed only when it differs
(`json_check`). A difference raises VerifyError, and the old file stays as it was.

What a table "meant to be written" is the headers and rows given to the writer, seen as any file is
seen when read (`grid.build_grid`: entirely empty rows and empty edge columns are not part of a table),
so that only what the bytes on disk change is reported.
"""

from __future__ import annotations

import errno
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaleditor.core.errors import Mismatch, ReadError, VerifyError
from evaleditor.core.table import RawTable
from evaleditor.io.grid import EVERY, Progress, build_grid

Check = Callable[[Path], None]


@dataclass
class ReadBack:
    """What a save's check read of the file it wrote and found as meant (a .jsonl's records, a table),
    for a caller that reports the file as it opens without reading it again (convert)."""

    records: list[dict[str, Any]] | None = None
    table: RawTable | None = None

    def take(self) -> RawTable | None:
        """The file's table as opening it reads it (read_table's), None when nothing was read; what was
        kept goes with it."""
        records, table, self.records, self.table = self.records, self.table, None, None
        if records is not None:
            from evaleditor.io.platforms import records_read

            return records_read(records)
        return table
_SHOWN = 200  # characters of a JSON value kept in a Mismatch


def _exists(tmp: Path) -> None:
    if not tmp.exists():  # deleted under us, or its folder was: an OS fault, not a mismatch
        raise FileNotFoundError(errno.ENOENT, "the file being saved vanished", str(tmp))


_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _unreadable(path: object, tmp: Path, err: ReadError, suspects: list[Mismatch] = ()) -> VerifyError:
    """The file written cannot be read at all; `suspects`: the cells that would explain it."""
    _exists(tmp)
    reason = f"the saved file would not open again ({err.reason})"
    if suspects:
        where = "; ".join(m.place() for m in suspects[:VerifyError.SHOWN])
        more = ", …" if len(suspects) > VerifyError.SHOWN else ""
        n = len(suspects)
        reason += f"; {n:,} cell{'s' if n != 1 else ''} hold{'s' if n == 1 else ''} control characters ({where}{more})"
    mismatches = suspects or [Mismatch(None, None, "a file that opens", err.reason)]
    return VerifyError(path, mismatches, f"{reason}; the old file was kept")


def _control_cells(headers: list[str], rows: list[list[str]], row_numbers: list[int]) -> list[Mismatch]:
    """Cells holding control characters, which make a text file look binary to its reader."""
    found = [Mismatch(None, h, h, "") for h in headers if _CONTROL.search(h)]
    for i, row in enumerate(rows):
        if _CONTROL.search("".join(row)):
            found.extend(Mismatch(row_numbers[i] if i < len(row_numbers) else i + 1, headers[j] if j < len(headers)
                                  else str(j + 1), c, "") for j, c in enumerate(row) if _CONTROL.search(c))
    return found


def table_check(path: object, fmt: str, headers: list[str], rows: list[list[str]], row_numbers: list[int],
                progress: Progress | None = None, read_back: ReadBack | None = None) -> Check:
    """The check of a .csv/.xlsx save: `rows[i]` is shown in the editor as row `row_numbers[i]`; the
    table read is kept in `read_back`."""

    def check(tmp: Path) -> None:
        from evaleditor import io

        _exists(tmp)
        try:
            found = io.read_table(tmp, progress=progress, suffix=f".{fmt}", written=True)
        except ReadError as err:
            if build_grid([list(headers), *rows]) is None and "empty" in err.reason:
                return  # nothing to show was written, and the reader says so
            suspects = _control_cells(headers, rows, row_numbers) if fmt == "csv" else []
            raise _unreadable(path, tmp, err, suspects) from None
        diffs = table_mismatches(headers, rows, row_numbers, found)
        if diffs:
            raise VerifyError(path, diffs)
        if read_back is not None:
            read_back.table = found
        else:
            _free(found.rows)

    return check


def table_mismatches(headers: list[str], rows: list[list[str]], row_numbers: list[int],
                     found: RawTable) -> list[Mismatch]:
    grid = build_grid([list(headers), *rows])
    if grid is None:
        return [Mismatch(None, None, "", "\t".join(found.headers))] if found.headers else []
    if grid.headers == found.headers and _same(grid.rows, found.rows):
        return []  # the common case
    lead = grid.first_column

    def label(j: int) -> str:
        h = headers[j + lead] if j + lead < len(headers) else ""
        return h or str(j + 1)

    def number(i: int) -> int:
        source = grid.kept[i] - 1  # grid.kept counts the header row as 0
        return row_numbers[source] if 0 <= source < len(row_numbers) else source + 1

    out = list(_row_diffs(None, grid.headers, found.headers, label))
    for i in range(max(len(grid.rows), len(found.rows))):
        if i >= len(found.rows):
            out.append(Mismatch(number(i), None, "\t".join(grid.rows[i]), ""))
        elif i >= len(grid.rows):  # a row the editor does not have: numbered after its last one
            last = row_numbers[-1] if row_numbers else 0
            out.append(Mismatch(last + i - len(grid.rows) + 1, None, "", "\t".join(found.rows[i])))
        elif grid.rows[i] != found.rows[i]:
            out.extend(_row_diffs(number(i), grid.rows[i], found.rows[i], label))
    return out


# A save's read-back runs beside the window: the GIL passes to its thread between two slices of rows,
# where one C call comparing or freeing 100k rows held it for 0.09 s each.
def _same(want: list[list[str]], got: list[list[str]]) -> bool:
    """want == got, EVERY rows at a time (each slice compared in C)."""
    return len(want) == len(got) and all(want[i:i + EVERY] == got[i:i + EVERY] for i in range(0, len(want), EVERY))


def _free(rows: list) -> None:
    """Free the rows read back, EVERY at a time."""
    while rows:
        del rows[-EVERY:]


def _row_diffs(row: int | None, want: list[str], got: list[str], label) -> Iterator[Mismatch]:
    for j in range(max(len(want), len(got))):
        a = want[j] if j < len(want) else ""
        b = got[j] if j < len(got) else ""
        if a != b or (j >= len(got)) != (j >= len(want)):
            yield Mismatch(row, label(j), a, b)


@dataclass
class PartsReadBack:
    """What a writer that reads each part of a file back right after writing it found (sdk/stream.py):
    the file's size as written, and the first byte that read back otherwise (None: none did)."""

    size: int = 0
    difference: int | None = None


def json_check(path: object, expected: dict[str, Any] | Callable[[], dict[str, Any]], row_numbers: list[int],
               progress: Progress | None = None, written: bytes | PartsReadBack | None = None) -> Check:
    """The check of an SDK JSON save: the file parsed as the editor parses it equals `expected` (the
    object, or a function making it again: only a file that differs needs it).

    `written`: the bytes written, when they are known to parse to `expected` (sdk/json_text.dumps_marked:
    orjson wrote them, every float orjson would spell otherwise having gone to the json module's rules);
    or, for a file written a chunk at a time, the writer's PartsReadBack of those bytes. Then the file
    is compared with them byte for byte (0.15 s for 760 MB, where parsing took 3 s and comparing the
    objects 1.5 s): the same bytes parse to the same object, so the file holds what was meant. Only a
    file that differs is parsed, to name the cells. `progress` hears (0, n) before the read and
    (n - 1, n) after it (n: the rows), so that a save can still be cancelled then."""

    def check(tmp: Path) -> None:
        from evaleditor.io.sdk.read import _load as parse

        n = len(row_numbers) + 1
        if progress is not None:
            progress(0, n)
        _exists(tmp)
        at = _first_difference(tmp, written) if written is not None else None
        if written is not None and at is None:
            if progress is not None:
                progress(n - 1, n)
            return
        data = tmp.read_bytes()
        try:
            found = parse(tmp, data)
        except ReadError as err:
            raise _unreadable(path, tmp, err) from None
        if progress is not None:
            progress(n - 1, n)
        meant = expected() if callable(expected) else expected
        diffs = [] if found == meant else json_mismatches(meant, found, row_numbers)
        if not diffs and at is not None:  # other bytes holding the same values: still not what was written
            size = written.size if isinstance(written, PartsReadBack) else len(written)
            diffs = [Mismatch(None, None, f"the {size:,} bytes written",
                              f"{len(data):,} bytes, different from byte {at:,}")]
        if diffs:
            raise VerifyError(path, diffs)

    return check


_BLOCK = 1 << 24


def _first_difference(tmp: Path, written: bytes | PartsReadBack) -> int | None:
    """Where the file at `tmp` first differs from `written` (a byte offset), None when it holds exactly
    `written`. Read in blocks of 16 MiB, each compared in C; the file is never held whole. For a
    PartsReadBack: where its writer found the first difference, else the end of the shorter when the
    size differs."""
    if isinstance(written, PartsReadBack):
        size = tmp.stat().st_size
        return written.difference if written.difference is not None or size == written.size else \
            min(size, written.size)
    at = 0
    with open(tmp, "rb", buffering=0) as handle:
        while block := handle.read(_BLOCK):
            want = written[at:at + len(block)]
            if block != want:
                return at + first_unequal(block, want)
            at += len(block)
    return None if at == len(written) else at


def first_unequal(found: bytes, part: bytes | memoryview, start: int = 0) -> int:
    """The first index of `part` whose byte is not found[start + index] (the shorter's end when they
    agree that far)."""
    view = memoryview(part)
    common = min(len(view), len(found) - start)
    return next((i for i in range(common) if found[start + i] != view[i]), common)


def jsonl_check(path: object, expected: list[dict[str, Any]], row_numbers: list[int],
                read_back: ReadBack | None = None) -> Check:
    """The check of a .jsonl save: the file read as the editor reads it holds the records meant; they
    are kept in `read_back`."""

    def check(tmp: Path) -> None:
        from evaleditor.io.records import read_jsonl

        _exists(tmp)
        try:
            found = read_jsonl(tmp)
        except ReadError as err:
            raise _unreadable(path, tmp, err) from None
        if found != expected:
            raise VerifyError(path, json_mismatches({"eval_cases": expected}, {"eval_cases": found}, row_numbers))
        if read_back is not None:
            read_back.records = found

    return check


def json_mismatches(expected: Any, found: Any, row_numbers: list[int]) -> list[Mismatch]:
    """Differences between two JSON values; those inside `eval_cases[i]` name the editor's row."""
    out: list[Mismatch] = []
    cases_e = expected.get("eval_cases") if isinstance(expected, dict) else None
    cases_f = found.get("eval_cases") if isinstance(found, dict) else None
    if isinstance(cases_e, list) and isinstance(cases_f, list):
        for i in range(max(len(cases_e), len(cases_f))):
            row = row_numbers[i] if i < len(row_numbers) else None
            a = cases_e[i] if i < len(cases_e) else _MISSING
            b = cases_f[i] if i < len(cases_f) else _MISSING
            for where, x, y in _walk(a, b, ""):
                out.append(Mismatch(row, f"eval_cases[{i}]{where}", _show(x), _show(y)))
        expected = {k: v for k, v in expected.items() if k != "eval_cases"}
        found = {k: v for k, v in found.items() if k != "eval_cases"}
    out.extend(Mismatch(None, where or "(root)", _show(x), _show(y)) for where, x, y in _walk(expected, found, ""))
    return out


_MISSING = object()


def _walk(a: Any, b: Any, where: str) -> Iterator[tuple[str, Any, Any]]:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            yield from _walk(a.get(key, _MISSING), b.get(key, _MISSING), f"{where}.{key}")
    elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        for i in range(max(len(a), len(b))):
            yield from _walk(a[i] if i < len(a) else _MISSING, b[i] if i < len(b) else _MISSING, f"{where}[{i}]")
    elif type(a) is not type(b) and not (_number(a) and _number(b)) or a != b:
        yield where, a, b


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _show(value: Any) -> str:
    if value is _MISSING:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= _SHOWN else text[:_SHOWN - 1] + "…"
