"""Checks made before a parser sees a file, so that bad input gives a one-line reason, fast.

Everything here runs in time bounded by the file's directory structures (zip central directory, the
first bytes of each XML part), never by what a malicious file would inflate to.
"""

from __future__ import annotations

import mmap
import os
import stat
import zipfile
import zlib
from pathlib import Path

from evaleditor.core.errors import ReadError
from evaleditor.core.i18n import N_
from evaleditor.io.atomic import os_error_reason

ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTED_STREAM = "EncryptedPackage".encode("utf-16-le")
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")

MEMORY_SHARE = 0.4  # refuse a file larger than this share of the memory available
MAX_MEMBER_BYTES = 1 << 30  # a workbook part that inflates beyond 1 GiB is refused
MAX_RATIO = 200  # ... as is a part over 1 MiB that inflates more than 200x
RATIO_FLOOR = 1 << 20
PROLOG_LIMIT = 64 * 1024  # an XML part's prolog (before its root element) must end within this

DAMAGED_XLSX = N_("not a valid .xlsx workbook (the file is damaged or truncated)")
PASSWORD = N_("the workbook is password-protected; remove the password in Excel and save again")
HTML_XLS = N_("this .xls file is a web page (HTML), not an Excel workbook: open it in Excel and save as .xlsx")
XML_XLS = ("this .xls file is an XML spreadsheet, not an Excel workbook: "
           "open it in Excel and save as .xlsx")
BOMB = "the workbook looks like a zip bomb (a part would inflate to {size}); refusing to open it"
ENTITIES = ("the workbook declares XML entities (a possible XML bomb, part {part}); "
            "refusing to open it: open it in Excel and save again")


def short_reason(err: BaseException) -> str:
    """The first line of a library's message, bounded: never a traceback."""
    text = str(err).strip().splitlines()
    line = text[0] if text else type(err).__name__
    return line if len(line) <= 200 else line[:197] + "..."


def available_memory() -> int | None:
    """Bytes of memory available now (MemAvailable on Linux; less inside a container with a memory
    limit: budget.py), or None when unknown."""
    from evaleditor.io.budget import available_memory as available

    return available()


def human_size(n: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GB"  # pragma: no cover


def check_memory(path: object, size: int, what: str = "the file") -> None:
    avail = available_memory()
    if avail is not None and size > avail * MEMORY_SHARE:
        raise ReadError(path, f"{what} is too large to open ({human_size(size)}; "
                              f"{human_size(avail)} of memory is available)")


def check_file(path: str | os.PathLike[str], empty_ok: bool = False) -> int:
    """Refuse a missing, unreadable, empty (unless `empty_ok`) or too large file; return its size in bytes."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError as err:
        raise ReadError(path, N_("the file does not exist") if isinstance(err, FileNotFoundError)
                        else os_error_reason(err)) from None
    if p.is_dir():
        raise ReadError(path, N_("this is a folder, not a file"))
    if not stat.S_ISREG(st.st_mode):  # a FIFO or a device has no size to read to (the CLI copies it first)
        raise ReadError(path, N_("this is a pipe or a device, not a file: save what it holds as a file and open that"))
    if st.st_size == 0 and not empty_ok:
        raise ReadError(path, N_("the file is empty"))
    check_memory(path, st.st_size)
    if st.st_size <= 4096 and not empty_ok:
        head = read_head(path, 4096)
        for bom in _BOMS:
            if head.startswith(bom):
                head = head[len(bom):]
                break
        if not head.replace(b"\x00", b"").strip():
            raise ReadError(path, N_("the file is empty"))
    return st.st_size


def read_head(path: str | os.PathLike[str], n: int = 1024) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(n)
    except OSError as err:
        raise ReadError(path, os_error_reason(err)) from None


def sniff(path: str | os.PathLike[str]) -> str:
    """What the bytes are, whatever the suffix: "zip", "ole", "html", "xml" or "other"."""
    head = read_head(path, 1024)
    if head.startswith(ZIP_MAGIC):
        return "zip"
    if head.startswith(OLE_MAGIC):
        return "ole"
    text = head
    for bom in _BOMS:
        if text.startswith(bom):
            text = text[len(bom):]
            break
    text = text.replace(b"\x00", b"").lstrip().lower()
    if b"urn:schemas-microsoft-com:office:spreadsheet" in text and b"<html" not in text:
        return "xml"
    if text.startswith(b"<") or b"<html" in text or b"<table" in text:
        return "html"
    return "other"


def ole_is_encrypted(path: str | os.PathLike[str]) -> bool:
    """An OLE2 compound file holding an `EncryptedPackage` stream (a password-protected .xlsx)."""
    try:
        with open(path, "rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            return mm.find(_ENCRYPTED_STREAM) >= 0
    except (OSError, ValueError):
        return False


def _decode_prolog(raw: bytes) -> str:
    if raw.startswith((b"\xff\xfe", b"<\x00")):
        return raw.decode("utf-16-le", "replace")
    if raw.startswith((b"\xfe\xff", b"\x00<")):
        return raw.decode("utf-16-be", "replace")
    return raw.decode("utf-8", "replace")


def prolog_verdict(text: str) -> bool | None:
    """True: the XML prolog is clean; False: it declares a DTD/entity; None: need more bytes."""
    p = 0
    n = len(text)
    while True:
        while p < n and (text[p].isspace() or text[p] == "\ufeff"):
            p += 1
        if p >= n:
            return None
        if text[p] != "<":
            return True  # not XML at all: the parser will say so
        if text.startswith("<?", p):
            end = text.find("?>", p + 2)
            if end < 0:
                return None
            p = end + 2
        elif text.startswith("<!--", p):
            end = text.find("-->", p + 4)
            if end < 0:
                return None
            p = end + 3
        elif text.startswith("<!", p) or n - p < 2:
            return False if text.startswith("<!", p) else None
        else:
            return True

def check_zip_workbook(path: str | os.PathLike[str]) -> None:
    """Refuse a damaged zip, a zip bomb, or XML parts that declare a DTD/entities."""
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            total = 0
            for info in infos:
                size = info.file_size
                total += size
                if size > MAX_MEMBER_BYTES or (
                    size > RATIO_FLOOR and size > MAX_RATIO * max(info.compress_size, 1)
                ):
                    raise ReadError(path, BOMB.format(size=human_size(size)))
            check_memory(path, total, "the unpacked workbook")
            for info in infos:
                name = info.filename.lower()
                if name.endswith((".xml", ".rels", ".vml")) and info.file_size:
                    _check_prolog(path, zf, info)
    except ReadError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, NotImplementedError,
            RuntimeError, OSError, KeyError, zlib.error):
        # NotImplementedError: unknown compression method; RuntimeError: encrypted zip member.
        raise ReadError(path, DAMAGED_XLSX) from None


def _check_prolog(path: object, zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
    with zf.open(info) as member:
        buf = b""
        while True:
            chunk = member.read(4096)
            buf += chunk
            verdict = prolog_verdict(_decode_prolog(buf))
            if verdict is None and chunk and len(buf) < PROLOG_LIMIT:
                continue
            if verdict is False or (verdict is None and chunk):
                raise ReadError(path, ENTITIES.format(part=info.filename))
            return
