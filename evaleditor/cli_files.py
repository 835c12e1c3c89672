"""Where the command line's files come from and go to: glob patterns expanded by us (Windows shells
pass them as typed), and `-` for standard input or output (cli.md).

A stream has no name to take a format from: `--from` says what standard input holds (csv, json or
jsonl), else its first bytes do (`_format_of`: a workbook's signature, JSON, JSON Lines, else CSV);
`--to` says what to write to standard output, else `convert` writes the input's format when --from or
its name says one a stream carries. Standard input is copied to a temporary file and read
with the same readers as any file; standard output receives the file once it has been written and
read back (io/save.py), so what comes out is what a named file would hold. A pipe or a device named as a
file (`<(cmd)`, a FIFO, /dev/stdin) is read as standard input is, its format taken from --from, its name's
suffix, or its first bytes; a copy stops at `stream_limit()` bytes, so that /dev/zero cannot fill the disk.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

STREAM = "-"
STREAM_FORMATS = ("csv", "json", "jsonl")  # the formats standard input and output carry (text, no seeking)
_MAGIC = ("*", "?", "[")
CHUNK = 1 << 20


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


def is_pipe(name: str) -> bool:
    """A FIFO (`<(cmd)`, mkfifo) or a character device (/dev/stdin on a terminal, /dev/zero): no file to
    take a size from, read as standard input is."""
    try:
        mode = os.stat(name).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def stream_limit() -> int:
    """The most bytes a stream is copied up to: the share of memory a file may take (io/safety.py)."""
    from evaleditor.io.safety import MEMORY_SHARE, available_memory

    avail = available_memory()
    return int(avail * MEMORY_SHARE) if avail else 4 << 30


_SDK_ROOT_KEYS = {"eval_cases", "evalCases", "eval_dataset_df", "evalDatasetDf"}


_ZIP, _OLE2 = b"PK\x03\x04", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ODS_MIMETYPE = b"mimetypeapplication/vnd.oasis.opendocument.spreadsheet"  # stored first, uncompressed, at 30


def _format_of(name: str, fmt: str | None, head: bytes) -> str:
    """--from's format, else the name's suffix, else what the first bytes (`head`, the first chunk read)
    look like: a workbook by its container's signature (a zip: .xlsx, or .ods when its first member
    says so; an OLE2 file: .xls, whose reader also knows an encrypted workbook); JSON Lines when the
    first line is a whole JSON object that is not an SDK file's root (a file of one record is JSON Lines
    too), SDK JSON when they start as JSON otherwise, CSV when they do not."""
    if fmt:
        return fmt
    if name != STREAM and (suffix := Path(name).suffix.lower().lstrip(".")):
        return suffix
    if head.startswith(_ZIP):
        return "ods" if head[30:30 + len(_ODS_MIMETYPE)] == _ODS_MIMETYPE else "xlsx"
    if head.startswith(_OLE2):
        return "xls"
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"{"):
        import json

        try:
            first = json.loads(text.split(b"\n", 1)[0])
        except ValueError:
            return "json"
        return "json" if _SDK_ROOT_KEYS & set(first) else "jsonl"
    return "json" if text.startswith(b"[") else "csv"


@contextmanager
def stream_copy(name: str, fmt: str | None) -> Iterator[Path]:
    """Standard input (`-`), or the pipe or device `name`, as a temporary file, removed afterwards. At most
    stream_limit() bytes are read; a first megabyte of zero bytes alone (/dev/zero) is refused at once."""
    import tempfile
    from contextlib import nullcontext

    from evaleditor.core.errors import ReadError
    from evaleditor.io.safety import human_size

    limit = stream_limit()
    with tempfile.TemporaryDirectory(prefix="evaleditor-") as folder:
        try:
            with nullcontext(sys.stdin.buffer) if name == STREAM else open(name, "rb") as source:
                head = source.read(CHUNK)
                if len(head) >= 4096 and not head.strip(b"\x00"):
                    raise ReadError(name, "not a text file or workbook: it holds only zero bytes")
                path = Path(folder) / f"stream.{_format_of(name, fmt, head)}"
                with open(path, "wb") as out:
                    copied = 0
                    while head:
                        copied += len(head)
                        if copied > limit:
                            raise ReadError(name, f"the stream is too large to open (over {human_size(limit)}, the "
                                                  "share of memory one file may take)")
                        out.write(head)
                        head = source.read(CHUNK)
        except OSError as err:
            from evaleditor.io.atomic import os_error_reason

            raise ReadError(name, os_error_reason(err)) from None
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
