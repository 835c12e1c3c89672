"""Keeping the cyclic garbage collector out of the way of a file's worth of objects.

Building 100k rows makes millions of containers; each allocation burst triggers a collection that
walks everything built so far. None of it is garbage, so the walks are pure cost (about a quarter of
opening a 100k-row file, measured in bench/bench_core.py). Reference counting still frees memory.

Pausing is not enough for a big document: the first collections after it re-walk every object it
holds (0.1-0.25 s pauses, while the user types). `keep_built` freezes what is alive out of the
collector's walks for good (gc.freeze). Frozen objects are still freed by reference counting, so a
document must not be a reference cycle (the dataset holds its listeners weakly, for that; a test
checks that the window frees a document it replaces). Cyclic garbage that happens to be alive at
that instant stays: a few kilobytes per big file opened.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

KEEP_ROWS = 20_000  # smaller documents are walked in a few milliseconds: not worth freezing


@contextmanager
def bulk_allocation() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def keep_built(rows: int) -> None:
    """Within `bulk_allocation`: a document of `rows` rows has been built and will live on."""
    if rows >= KEEP_ROWS:
        gc.freeze()



_process_ends = False  # within process_ends_after
_left: list[object] = []  # what leave_to_the_system keeps alive until the process ends


@contextmanager
def process_ends_after() -> Iterator[None]:
    """Within: the process ends once the block is done (cli: validate and shape end with os._exit), so
    memory need not be freed or handed back on the way: leave_to_the_system keeps what it is given and
    release_freed_memory does nothing. At 100k rows that saves ~0.1 s of CPU: 0.07 s freeing calamine's
    workbook, the rest handing its pages back and taking them again as the validation fills them; the
    peak grows from 583 to 622 MiB (the bare read's is 577), the validation's memory then being new."""
    global _process_ends
    was, _process_ends = _process_ends, True
    try:
        yield
    finally:
        _process_ends = was


def leave_to_the_system(*objects: object) -> None:
    """Within process_ends_after: keep `objects` alive until the process ends instead of freeing them
    now; what was kept before is freed (a command reading many files holds the last file's only)."""
    if _process_ends:
        _left[:] = objects


def release_freed_memory() -> None:
    """Hand back to the system the memory a native library has freed (glibc's malloc_trim).

    python-calamine builds a sheet in Rust memory and frees it once the cells are Python text, but
    glibc keeps the freed pages, while Python takes its own objects' memory from new mappings: the
    process stayed ~100 MiB larger than it needed to for the rest of its life (a 100k-row workbook).
    Linux with glibc only; nothing elsewhere (musl has no malloc_trim). On a thread of its own: it lets
    go of the interpreter, and the reader goes on building the document meanwhile (0.1 s of CPU at
    100k rows, which a window opening the file spent before painting)."""
    import sys

    if _process_ends or not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    import threading

    threading.Thread(target=trim, args=(0,), name="evaleditor-trim", daemon=True).start()
