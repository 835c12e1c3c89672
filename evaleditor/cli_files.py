"""Where the command line's files come from and go to: glob patterns expanded by us (Windows shells
pass them as typed), and `-` for standard input or output (cli.md).

A stream has no name to take a format from: `--from` / `--to` say it (csv, json or jsonl); `convert`
writes standard output in the input's format when --to is absent. Standard input is copied to a temporary file and read
with the same readers as any file; standard output receives the file once it has been written and
read back (io/save.py), so what comes out is what a named file would hold.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

STREAM = "-"
STREAM_FORMATS = ("csv", "json", "jsonl")  # the formats standard input and output carry (text, no seeking)
_MAGIC = ("*", "?", "[")


def is_pattern(name: str) -> bool:
    """A glob pattern that names no file as it is spelt (`data/*.xlsx`, not an existing `a[1].csv`)."""
    return name != STREAM and any(c in name for c in _MAGIC) and not os.path.lexists(name)


def expand(names: list[str]) -> list[str]:
    """Each name in order, a glob pattern replaced by the files it matches (sorted, `**` recursive,
    hidden files only when the pattern says so, as a POSIX shell does). A pattern that matches
    nothing stays as given: reading it then says so."""
    import glob

    out: list[str] = []
    for name in names:
        matches = sorted(glob.glob(name, recursive=True)) if is_pattern(name) else []
        out.extend(matches or [name])
    return out


def stream_format(name: str, source_format: str | None) -> str | None:
    """The format a file's data has, if a stream can carry it: `source_format` (--from) for `-`,
    else its suffix's; None otherwise. `convert IN -` writes what this says of IN unless --to says."""
    fmt = source_format if name == STREAM else Path(name).suffix.lower().lstrip(".")
    return fmt if fmt in STREAM_FORMATS else None


@contextmanager
def stdin_copy(fmt: str) -> Iterator[Path]:
    """Standard input as a temporary `.fmt` file, removed afterwards."""
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="evaleditor-") as folder:
        path = Path(folder) / f"stdin.{fmt}"
        with open(path, "wb") as out:
            shutil.copyfileobj(sys.stdin.buffer, out)
        yield path


@contextmanager
def output_path(name: str, fmt: str) -> Iterator[Path]:
    """Where to write `name`: the file itself, or for `-` a temporary `.fmt` file whose bytes go to
    standard output when the block ends (nothing, when nothing was written)."""
    if name != STREAM:
        yield Path(name)
        return
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="evaleditor-") as folder:
        path = Path(folder) / f"stdout.{fmt}"
        yield path
        if path.exists():
            sys.stdout.flush()
            with open(path, "rb") as written:
                shutil.copyfileobj(written, sys.stdout.buffer)
            sys.stdout.buffer.flush()
