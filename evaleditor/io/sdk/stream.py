"""Saving SDK JSON as its cases are made: a few cases at a time, each part written, then read back
from the file and compared with what was meant while it is still in the processor's cache, so that
neither the object nor the text of the whole file is ever held.

A conversation's case k carries turns 0..k-1 again (formats.md), so the text grows fast: 100k rows of
bench_core's conversations are 763 MB. Made whole, the object took 0.7 s, orjson 0.7 s, writing it
0.5 s, the read-back 0.15-0.4 s and freeing the object 0.3 s (CPU, a busy 2-core machine); written 32
cases at a time (~250 kB of text) the whole verified save takes 1.4-1.6 s of CPU where it took
3.6-4.3 s (runs alternated), and its peak memory is the open document's and a chunk's (630 MiB where
it was 1,560 MiB). Chunks of 1,000 cases (7.6 MB) took 2.7 s: text that leaves the cache before it is
written and read back is fetched again each time. A thread writing while the next chunk is made cost
more than it saved (2.0 s at 50 cases): it and the thread making the text take turns with the
interpreter lock. Writing each history turn's text once and splicing it in (it is the same at the
same depth in every later case: 466 of the 763 MB are distinct) cost more than it saved too: orjson
took 0.47 s for the rest and 0.35 s for the 72k distinct turns, where it took 0.7 s for everything.

The bytes are orjson.dumps(dataset_to_sdk(ds), OPT_INDENT_2) and a newline, the text json_text.dumps
gives, put together from parts orjson writes: orjson's text of a value depends only on the value and
its depth, and each chunk is written as `[[case, …]]`, whose cases sit at the depth of the file's
eval_cases, so that what the wrapper's brackets enclose is the file's own text of those cases; the
rest of the document is orjson's text of it with a NUL in place of the eval_cases list (orjson escapes
control characters in strings: the one raw NUL is that place). tests/io/test_sdk_stream.py compares
the bytes with json_text.dumps's; bench/bench_peers.py with orjson's at 100k rows.

The read-back reads every byte of the file through the operating system right after its write (a
read after the final fsync would come from the same page cache; the fsync's own error still fails
the save): the same bytes parse to the same object, so the file holds what was meant (io/verify.py).

A chunk orjson does not write as json.dumps does (json_text.dumps_marked: a ReprFloat, an integer
beyond 64 bits, a lone surrogate, which makes the json module escape the whole file) raises
NotStreamed: the caller writes the document whole instead, as json_text.dumps writes it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import IO, Any

from evaleditor.core.dataset import Dataset
from evaleditor.core.errors import WriteError
from evaleditor.io.sdk.cases import Progress, SdkCases, SdkColumnError
from evaleditor.io.sdk.write import sdk_root
from evaleditor.io.verify import PartsReadBack, first_unequal

CHUNK = 32  # cases a chunk: ~250 kB of text at 100k conversation cases, written while still in cache
_WRAPPED = (b"[\n  [\n", b"\n  ]\n]")  # orjson's text of [[case, …]] around its cases


class NotStreamed(Exception):
    """The document holds a value orjson does not write as json.dumps does: write it whole."""


def save_sdk_json(path: str | os.PathLike[str], ds: Dataset, progress: Progress | None = None,
                  verify_rows: list[int] | None = None, reading: Progress | None = None) -> None:
    """Write `ds` to `path` as SDK JSON, atomically; WriteError with a one-line reason otherwise.
    `verify_rows` (the editor's row number of each row written): the file is checked before it replaces
    the old one (io/verify.json_check; `reading` hears that check's progress). Once the file is in place,
    the ids made for new cases are the dataset's (Dataset.case_ids): the next save gives them again."""
    from evaleditor.io import verify as checks
    from evaleditor.io.atomic import atomic_write
    from evaleditor.io.sdk.write import dataset_to_sdk, encode_sdk_json, records_form

    if not records_form(ds):
        try:
            plan = SdkCases(ds)
        except SdkColumnError as err:
            raise WriteError(path, str(err)) from None
        if verify_rows is not None:  # each case's row, in the order the file holds the cases
            verify_rows = plan.case_rows(verify_rows)
        read_back = PartsReadBack()
        check = None if verify_rows is None else \
            checks.json_check(path, lambda: dataset_to_sdk(ds), verify_rows, reading, read_back)
        try:
            with atomic_write(path, "wb", verify=check) as handle:
                stream_sdk_json(handle, plan, progress, read_back)
            ds.case_ids.update(plan.generated)  # the file holds them: the next save gives the same
            return
        except NotStreamed:  # the temporary file is gone: written whole instead
            pass
    obj, data, exact = encode_sdk_json(path, ds, progress)
    check = None if verify_rows is None else \
        checks.json_check(path, obj, verify_rows, reading, data if exact else None)
    with atomic_write(path, "wb", verify=check) as handle:
        handle.write(data)
    if not records_form(ds):
        ds.case_ids.update(plan.generated)


def stream_sdk_json(handle: IO[bytes], plan: SdkCases, progress: Progress | None = None,
                    read_back: PartsReadBack | None = None) -> PartsReadBack:
    """Write the SDK JSON of `plan` to the binary file `handle` (new, empty), a chunk of cases at a
    time, each read back from the file right after it is written; what that found (in `read_back`
    when given). NotStreamed when a value needs the json module's rules (the file then holds a part)."""
    try:
        import orjson
    except ImportError:  # no wheel for this platform
        raise NotStreamed() from None
    option = orjson.OPT_INDENT_2

    def text(value: Any) -> bytes:
        try:
            return orjson.dumps(value, option=option)
        except (TypeError, orjson.JSONEncodeError):  # ReprFloat, big int, lone surrogate, non-str key
            raise NotStreamed() from None

    head, nul, tail = text(sdk_root(plan, orjson.Fragment(b"\0"))).partition(b"\0")
    if not nul:
        raise NotStreamed()  # a root orjson could not place the cases in (not seen: sdk_root makes a dict)
    out = _Written(handle, read_back or PartsReadBack())
    out.write(head, b"[")
    first = True
    for chunk in _chunks(plan.each(progress), CHUNK):
        wrapped = text([chunk])
        del chunk  # its cases are freed as the next chunk is made
        if not (wrapped.startswith(_WRAPPED[0]) and wrapped.endswith(_WRAPPED[1])):
            raise NotStreamed()  # not orjson's usual text: never seen
        out.write(b"\n" if first else b",\n", memoryview(wrapped)[len(_WRAPPED[0]):-len(_WRAPPED[1])])
        first = False
    out.write(b"]" if first else b"\n  ]", tail, b"\n")
    return out.read_back


def _chunks(cases: Iterable[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    it = iter(cases)
    while chunk := list(islice(it, size)):
        yield chunk


class _Written:
    """Parts written to a file one after the other, each read back from the file at once."""

    def __init__(self, handle: IO[bytes], read_back: PartsReadBack):
        self.handle = handle
        self.read_back = read_back  # its size: the bytes written so far, from the file's start

    def write(self, *parts: bytes | memoryview) -> None:
        at = self.read_back.size
        for part in parts:  # a big part goes to the file as it is, not through the buffer
            self.handle.write(part)
        self.handle.flush()
        size = sum(map(len, parts))
        found = _read_at(self.handle.fileno(), size, at)
        self.read_back.size = at + size
        if self.read_back.difference is None:
            start = 0
            for part in parts:
                if not found.startswith(part, start):  # in C, a memoryview as it is
                    self.read_back.difference = at + start + first_unequal(found, part, start)
                    break
                start += len(part)


def _read_at(fd: int, size: int, at: int) -> bytes:
    """`size` bytes of the file from offset `at` (fewer at its end); the file's position is kept."""
    if hasattr(os, "pread"):
        out = [os.pread(fd, size, at)]
        while len(out[-1]) and (got := sum(map(len, out))) < size:
            out.append(os.pread(fd, size - got, at + got))
        return out[0] if len(out) == 1 else b"".join(out)
    here = os.lseek(fd, 0, os.SEEK_CUR)  # Windows
    os.lseek(fd, at, os.SEEK_SET)
    chunks = []
    while size and (chunk := os.read(fd, size)):
        chunks.append(chunk)
        size -= len(chunk)
    os.lseek(fd, here, os.SEEK_SET)
    return b"".join(chunks)
