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

