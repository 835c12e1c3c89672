"""Atomic saves: write a temporary file beside the target, fsync it, then rename it over the target.

A failed save (an exception inside the `with` block, a full disk, a folder that vanished, a file that
does not read back as written) removes the temporary file and leaves the old file exactly as it was.

The temporary file is named `.<name>.evaleditor-<pid>-<random>.tmp`, so that a save killed half-way
(power cut, SIGKILL) leaves something recognisable, which the next save of the same file removes.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from evaleditor.core.errors import ReadOnlyTarget, WriteError
from evaleditor.core.i18n import N_

_REASONS = {
    errno.EACCES: N_("permission denied (is the file open in another program, or the folder read-only?)"),
    errno.EPERM: N_("permission denied"),
    errno.ENOSPC: N_("the disk is full"),
    errno.EDQUOT: N_("the disk quota is exceeded"),
    errno.ENOENT: N_("the folder does not exist"),
    errno.ENOTDIR: N_("the folder does not exist"),
    errno.EROFS: N_("the disk is read-only"),
    errno.EISDIR: N_("a folder has that name"),
    errno.ENAMETOOLONG: N_("the file name is too long"),
    errno.EIO: N_("the disk reported an input/output error"),
}


def os_error_reason(err: OSError) -> str:
    """A one-line, human reason for an OSError."""
    reason = _REASONS.get(err.errno or -1)
    if err.errno == errno.ENOENT and err.filename and Path(os.fsdecode(err.filename)).parent.is_dir():
        reason = N_("the file does not exist or cannot be created there")  # the folder is there (/proc, a FUSE mount)
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


TEMP_MARK = ".evaleditor-"
_ACTIVE: set[str] = set()  # temporary files this process is writing now


def temp_prefix(target: Path) -> str:
    """How the temporary files of `target` start: the name is cut to 200 bytes, so that the whole
    (with the pid and a random part) stays within the 255 bytes a file name may have."""
    name = target.name
    while len(os.fsencode(name)) > 200:
        name = name[:-1]
    return f".{name}{TEMP_MARK}"


def _owner_alive(name: str, prefix: str) -> bool:
    """Whether the process that named temporary file `name` may still be writing it."""
    pid_text = name[len(prefix):].split("-", 1)[0]
    if not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False  # ours, and not in _ACTIVE: a save of ours that could not clean up
    if os.name != "posix":
        return False  # Windows: a file another process still has open cannot be deleted anyway
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def remove_stale_temps(target: str | os.PathLike[str]) -> list[str]:
    """Remove the temporary files a killed save of `target` left behind; return their names."""
    target = Path(target)
    prefix = temp_prefix(target)
    removed = []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        if not (name.startswith(prefix) and name.endswith(".tmp")) or os.path.abspath(entry.path) in _ACTIVE:
            continue
        if _owner_alive(name, prefix):
            continue
        try:
            os.unlink(entry.path)
            removed.append(name)
        except OSError:
            pass
    return removed


def _target(path: Path) -> Path:
    # Saving over a symlink replaces the file it points to, not the link itself.
    return Path(os.path.realpath(path)) if path.is_symlink() else path


_NOT_FILES = ((stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISFIFO, "a pipe (FIFO)"),
              (stat.S_ISSOCK, "a socket"))
NOT_A_FILE = "this is {kind}, not a file: a save would put a file in its place; choose a file name"
READ_ONLY = N_("the file is read-only; replace it anyway with --force, or save under another name")


def check_target(path: str | os.PathLike[str], *, replace_read_only: bool = False) -> None:
    """WriteError when `path` names something a save must not replace with a file: a device, a FIFO, a
    socket; ReadOnlyTarget when it is a read-only file (mode 444, or not writable by this user), unless
    `replace_read_only` (the user said so: `--force`, or yes to the window's question)."""
    target = _target(Path(path))
    try:
        st = os.stat(target)
    except OSError:
        return  # a new name, or a reason the write itself gives
    for test, kind in _NOT_FILES:
        if test(st.st_mode):
            raise WriteError(path, NOT_A_FILE.format(kind=kind))
    if not replace_read_only and stat.S_ISREG(st.st_mode) and is_read_only(target, st.st_mode):
        raise ReadOnlyTarget(path, READ_ONLY)


def is_read_only(path: str | os.PathLike[str], mode: int | None = None) -> bool:
    """No write permission for anyone (as `chmod 444` leaves it), or none for this user."""
    mode = os.stat(path).st_mode if mode is None else mode
    return not mode & 0o222 or not os.access(path, os.W_OK)


@contextmanager
def atomic_write(
    path: str | os.PathLike[str],
    mode: str = "wb",
    *,
    encoding: str | None = None,
    newline: str | None = None,
    verify: Callable[[Path], None] | None = None,
) -> Iterator[IO[Any]]:
    """Yield a file object for a temporary file; on success it replaces `path` atomically.

    `mode` is "wb" or "w" (text; then `encoding` and `newline` apply). `verify`, when given, is called
    with the temporary file's path once it is complete and on disk, before the rename; an exception
    from it (VerifyError) cancels the save. OSError becomes WriteError with a one-line reason; any
    exception removes the temporary file and leaves `path` untouched.
    """
    if mode not in ("wb", "w"):
        raise ValueError(f"atomic_write mode must be 'wb' or 'w', not {mode!r}")
    target = _target(Path(path))
    folder = target.parent
    if target.is_dir():
        raise WriteError(path, N_("a folder has that name"))
    check_target(path, replace_read_only=True)
    remove_stale_temps(target)
    import tempfile  # here: reading a file (safety.py imports this module) needs none of its imports

    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f"{temp_prefix(target)}{os.getpid()}-", suffix=".tmp", dir=folder)
    except OSError as err:
        raise WriteError(path, os_error_reason(err)) from None
    tmp = Path(tmp_name)
    _ACTIVE.add(os.path.abspath(tmp_name))
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
        if verify is not None:
            verify(tmp)
        os.chmod(tmp, perms)
        os.replace(tmp, target)
    except BaseException as err:
        try:
            tmp.unlink()
        except OSError:
            pass
        if isinstance(err, OSError):
            raise WriteError(path, _write_reason(err, folder)) from err
        raise
    finally:
        _ACTIVE.discard(os.path.abspath(tmp_name))
    _fsync_folder(folder)


def _write_reason(err: OSError, folder: Path) -> str:
    if err.errno in (errno.ENOENT, errno.ENOTDIR) and not folder.is_dir():
        return N_("the folder no longer exists (was it moved, deleted or unmounted?)")
    return os_error_reason(err)


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
