"""The sheet scans read a zip member through member.py: ISA-L inflates a plainly deflated one, zipfile
reads the rest; both give the same bytes, and a damaged member fails the read with the same one line.
The extent scan's first step (extent._QUICK) still sends every piece the earlier pattern flagged to
the detailed searches, and no ordinary piece."""

import re
import struct
import zipfile
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaleditor.core.errors import ReadError
from evaleditor.io import read_table
from evaleditor.io.excel import extent, member
from tests.io.io_builders import raw_xlsx

PART = "xl/worksheets/sheet1.xml"
HEADER = '<row r="1"><c r="A1" t="inlineStr"><is><t>question</t></is></c></row>'
ROWS = "".join(f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>q{r} ünï</t></is></c></row>' for r in range(2, 3000))


@pytest.fixture
def without_isal(monkeypatch):
    """member.py as on a platform without the isal wheel: zipfile reads every member."""
    monkeypatch.setattr(member, "_deflated_data_at", lambda zf, info: None)


def pieces(path, size, part=PART):
    with zipfile.ZipFile(path) as zf:
        return list(member.member_pieces(zf, part, size))


@pytest.mark.parametrize("size", [1, 24, 4096, 1 << 20])
@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED])
def test_pieces_are_the_member_bytes(tmp_path, size, method):
    path = tmp_path / "b.xlsx"
    data = (HEADER + ROWS).encode()
    with zipfile.ZipFile(path, "w", method) as zf:
        zf.writestr(PART, data)
    found = pieces(path, size)
    assert b"".join(found) == data and all(0 < len(p) <= size for p in found)


def test_a_deflated_member_is_inflated_by_isal(tmp_path, monkeypatch):
    pytest.importorskip("isal")
    path = raw_xlsx(tmp_path / "b.xlsx", HEADER + ROWS)

    def no_zipfile(*_args, **_kwargs):
        raise AssertionError("zipfile inflated the member")

    with zipfile.ZipFile(path) as zf:
        monkeypatch.setattr(zf, "open", no_zipfile)
        assert b"".join(member.member_pieces(zf, PART, 1 << 20)) == zipfile.ZipFile(path).read(PART)


def _damaged(tmp_path, how: str):
    path = raw_xlsx(tmp_path / f"{how}.xlsx", HEADER + ROWS)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo(PART)
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    if how == "inflate":  # the deflate stream itself
        data[start + 200:start + 240] = bytes(40)
    elif how == "crc":  # in the local header and the central directory alike
        good = struct.pack("<L", info.CRC)
        data = bytearray(bytes(data).replace(good, struct.pack("<L", info.CRC ^ 1)))
    elif how == "truncated":  # the member's compressed bytes stop early (the directory is intact)
        del data[start + 100:start + info.compress_size]
        data[start + 100:start + 100] = bytes(info.compress_size - 100)
    bad = tmp_path / f"bad-{how}.xlsx"
    bad.write_bytes(bytes(data))
    return bad


@pytest.mark.parametrize("how", ["inflate", "crc", "truncated"])
def test_a_damaged_member_fails_as_zipfile_fails_it(tmp_path, how, monkeypatch):
    bad = _damaged(tmp_path, how)
    with pytest.raises((zipfile.BadZipFile, zlib.error, EOFError)) as fast:
        pieces(bad, 1 << 20)
    with pytest.raises(ReadError) as read_fast:
        read_table(bad)
    monkeypatch.setattr(member, "_deflated_data_at", lambda zf, info: None)
    with pytest.raises((zipfile.BadZipFile, zlib.error, EOFError)) as slow:
        pieces(bad, 1 << 20)
    with pytest.raises(ReadError) as read_slow:
        read_table(bad)
    assert type(fast.value) is type(slow.value)
    assert read_fast.value.reason == read_slow.value.reason and "\n" not in read_fast.value.reason


# ----- the first step of the extent scan ---------------------------------------------------------------------
# the pattern before the negative lookahead: what it flagged must still be flagged
_BEFORE = re.compile(rb'<(?:c(?: r="(?:[A-Za-z]{2,3}\d|[A-Za-z]?(?:3[89]\d{4}|[4-9]\d{5}|\d{7}))|(?! r=")[\s>])'
                     rb'|f[\s>/]|t>[ \t\r\n]|/t>(?<=[ \t\r\n]</t>))')

refs = st.builds(lambda letters, digits: letters + digits,
                 st.text("ABCZabz", min_size=0, max_size=4), st.text("0123456789", min_size=0, max_size=8))
tags = st.one_of(
    st.builds(lambda ref, rest: f'<c r="{ref}"{rest}><v>1</v></c>', refs, st.sampled_from(["", ' s="2"', ' t="s"'])),
    st.sampled_from(['<c s="1" r="A1"><v>1</v></c>', "<c><v>1</v></c>", '<c\tr="A1">', '<col min="1"/>',
                     "<f>1+1</f>", "<f/>", "<t> x</t>", "<t>x </t>", '<t xml:space="preserve"> x</t>', "<t>x</t>",
                     '<row r="400000">', "<v>7</v>", "</c>", '<cols><col min="1" max="2"/></cols>']),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(tags, min_size=1, max_size=6))
def test_the_first_step_flags_all_the_earlier_pattern_flagged(parts):
    piece = "".join(parts).encode()
    if _BEFORE.search(piece):
        assert extent._QUICK.search(piece)


@pytest.mark.parametrize("cell", ['<c r="A1" s="2" t="s">', '<c r="Z379999">', '<c r="z99999" t="s">',
                                  '<c r="A012345">', '<col min="1" max="2"/>', '<row r="999999">'])
def test_an_ordinary_piece_is_not_flagged(cell):
    assert extent._QUICK.search(f"{cell}<v>1</v></c>".encode()) is None


@pytest.mark.parametrize("cell", ['<c r="AA1">', '<c r="A380000">', '<c r="a1234567">', '<c s="1" r="A1">',
                                  "<c>", '<c r="1">', '<c r="ABCD1">', '<c r="A1 ">'])
def test_an_unusual_cell_is_flagged(cell):
    assert extent._QUICK.search(f"{cell}<v>1</v></c>".encode())
