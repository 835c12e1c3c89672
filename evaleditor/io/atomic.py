"""Atomic saves: write a temporary file beside the target, fsync it, then rename it over the target.

A failed save (an exception inside the `with` block, a full disk, a folder that vanished) removes the
temporary file and leaves the old file exactly as it was.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from evaleditor.core.errors import WriteError

_REASONS = {
    errno.EACCES: "permission denied (is the file open in another program, or the folder read-only?)",
    errno.EPERM: "permission denied",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.ENOENT: "the folder does not exist",
    errno.ENOTDIR: "the folder does not exist",
    errno.EROFS: "the disk is read-only",
    errno.EISDIR: "a folder has that name",
    errno.ENAMETOOLONG: "the file name is too long",
    errno.EIO: "the disk reported an input/output error",
}


def os_error_reason(err: OSError) -> str:
    """A one-line, human reason for an OSError."""
    reason = _REASONS.get(err.errno or -1)
    if reason is None:
        reason = (err.strerror or str(err) or type(err).__name__).lower()
    return " ".join(reason.split())


def _umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    old = os.umask(0o022)
    os.umask(old)
    return old


def _target(path: Path) -> Path:
    # Saving over a symlink replaces the file it points to, not the link itself.
    return Path(os.path.realpath(path)) if path.is_symlink() else path


@contextmanager
def atomic_write(
    path: str | os.PathLike[str],
    mode: str = "wb",
    *,
    encoding: str | None = None,
    newline: str | None = None,
) -> Iterator[IO[Any]]:
    """Yield a file object for a temporary file; on success it replaces `path` atomically.

    `mode` is "wb" or "w" (text; then `encoding` and `newline` apply). OSError becomes WriteError with a
    one-line reason; any exception removes the temporary file and leaves `path` untouched.
    """
    if mode not in ("wb", "w"):
        raise ValueError(f"atomic_write mode must be 'wb' or 'w', not {mode!r}")
    target = _target(Path(path))
    folder = target.parent
    if target.is_dir():
        raise WriteError(path, "a folder has that name")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise WriteError(path, os_error_reason(err)) from None
    tmp = Path(tmp_name)
    try:
        try:
            perms = target.stat().st_mode & 0o7777
        except OSError:
            perms = 0o666 & ~_umask()
        kwargs = {"encoding": encoding, "newline": newline} if mode == "w" else {}
        with os.fdopen(fd, mode, **kwargs) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, perms)
        os.replace(tmp, target)
    except BaseException as err:
        try:
            tmp.unlink()
        except OSError:
            pass
        if isinstance(err, OSError):
            raise WriteError(path, os_error_reason(err)) from err
        raise
    _fsync_folder(folder)


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); best effort."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
