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



def release_freed_memory() -> None:
    """Hand back to the system the memory a native library has freed (glibc's malloc_trim).

    python-calamine builds a sheet in Rust memory and frees it once the cells are Python text, but
    glibc keeps the freed pages, while Python takes its own objects' memory from new mappings: the
    process stayed ~100 MiB larger than it needed to for the rest of its life (a 100k-row workbook).
    Linux with glibc only; nothing elsewhere (musl has no malloc_trim)."""
    import sys

    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)
