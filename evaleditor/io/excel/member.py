"""A zip member's bytes, a piece at a time, for the scans of a workbook's sheet XML (extent.py, formulas.py).

A plainly deflated member is inflated by ISA-L (python-isal, installed for the writer), which also
computes its CRC-32: 14 ms instead of zipfile's 29 ms for a 100k-row sheet's 24 MB of XML, most of the
difference zlib's CRC-32. Anything else — stored, encrypted, an unusual local header, no isal wheel —
goes through zipfile, so that a member zipfile refuses is refused as before; damage found while
inflating raises what zipfile raises (zlib.error, EOFError, BadZipFile for a wrong CRC-32).
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from collections.abc import Iterator

_HEADER = struct.Struct("<4s2B4HL2L2H")  # a local file header (zipfile.structFileHeader)
_SIGNATURE = b"PK\x03\x04"
_UNUSUAL = 0x1 | 0x20 | 0x40  # encrypted, compressed patched data, strong encryption: zipfile says why
_UTF8_NAME = 0x800
_READ = 1 << 18  # compressed bytes read at a time


def member_pieces(zf: zipfile.ZipFile, part: str, size: int) -> Iterator[bytes]:
    """The bytes of member `part`, in pieces of at most `size` bytes."""
    info = zf.getinfo(part)
    start = _deflated_data_at(zf, info)
    if start is None:
        with zf.open(info) as member:
            while chunk := member.read(size):
                yield chunk
        return
    yield from _inflated(zf.filename, start, info, size)  # type: ignore[arg-type]


def _deflated_data_at(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> int | None:
    """Where the deflated data of `info` starts in the file, when ISA-L can inflate it; else None."""
    if info.compress_type != zipfile.ZIP_DEFLATED or info.flag_bits & _UNUSUAL or not isinstance(zf.filename, str):
        return None
    try:
        import isal.isal_zlib  # noqa: F401
    except ImportError:  # no wheel for this platform
        return None
    try:
        with open(zf.filename, "rb") as f:
            f.seek(info.header_offset)
            header = f.read(_HEADER.size)
            if len(header) != _HEADER.size:
                return None
            fields = _HEADER.unpack(header)
            name = f.read(fields[10])
    except OSError:
        return None
    encoding = "utf-8" if fields[3] & _UTF8_NAME else (zf.metadata_encoding or "cp437")
    if fields[0] != _SIGNATURE or name.decode(encoding, "replace") != info.orig_filename:
        return None
    return info.header_offset + _HEADER.size + fields[10] + fields[11]


def _inflated(path: str, start: int, info: zipfile.ZipInfo, size: int) -> Iterator[bytes]:
    """zipfile's reading of a deflated member, with ISA-L: at most file_size bytes, the stream's end or
    the compressed bytes' end ends it, then the CRC-32 is checked."""
    from isal import isal_zlib

    inflate = isal_zlib.decompressobj(-15)
    left_in, left_out, crc = info.compress_size, info.file_size, 0
    with open(path, "rb") as f:
        f.seek(start)
        while left_out > 0 and not inflate.eof:
            data = inflate.unconsumed_tail
            if not data and left_in > 0:
                data = f.read(min(left_in, _READ))
                if not data:
                    raise EOFError
                left_in -= len(data)
            try:
                out = inflate.decompress(data, min(size, left_out)) if data else inflate.flush()[:left_out]
            except isal_zlib.error as err:
                raise zlib.error(str(err)) from None
            if not out and not data:
                break  # the compressed bytes are spent
            left_out -= len(out)
            crc = isal_zlib.crc32(out, crc)
            for at in range(0, len(out), size):  # once, but for the end a flush gives
                yield out[at:at + size] if len(out) > size else out
    if crc != info.CRC:
        raise zipfile.BadZipFile(f"Bad CRC-32 for file {info.filename!r}")
