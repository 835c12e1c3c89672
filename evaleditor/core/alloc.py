"""Pausing the cyclic garbage collector while a file's worth of objects is built.

Building 100k rows makes millions of containers; each allocation burst triggers a collection that
walks everything built so far. None of it is garbage, so the walks are pure cost (about a quarter of
opening a 100k-row file, measured in bench/bench_core.py). Reference counting still frees memory.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def bulk_allocation() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
