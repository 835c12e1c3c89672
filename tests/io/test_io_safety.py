"""Bad input gives ReadError with a one-line reason, quickly, never a traceback or a hang."""

import os
import struct
import zipfile

import pytest

from evaleditor.core.errors import ReadError
from evaleditor.io import read_table, safety
from evaleditor.io.safety import OLE_MAGIC, prolog_verdict
from tests.io.io_builders import rewrite_zip, table_xlsx, with_doctype


def refused(path, sheet=None):
    with pytest.raises(ReadError) as info:
        read_table(path, sheet=sheet)
    err = info.value
    assert "\n" not in str(err) and err.reason
    return err.reason


@pytest.fixture
def book(tmp_path):
    return table_xlsx(tmp_path / "good.xlsx", [["question", "answer"], ["q", "a"]])


@pytest.mark.parametrize("suffix", [".xlsx", ".xls", ".csv", ".tsv"])
def test_zero_bytes(tmp_path, suffix):
    path = tmp_path / f"empty{suffix}"
    path.write_bytes(b"")
    assert refused(path) == "the file is empty"


def test_folder_named_like_a_file(tmp_path):
    (tmp_path / "dir.xlsx").mkdir()
    assert "folder" in refused(tmp_path / "dir.xlsx")


@pytest.mark.parametrize("content", [os.urandom(5000), b"\x01\x02\x03 not text \x04\x05" * 200])
def test_junk_named_xlsx(tmp_path, content):
    """Bytes that are no workbook and no text (text is read as text: test_text_named_as_workbook.py)."""
    path = tmp_path / "junk.xlsx"
    path.write_bytes(content)
    assert refused(path) == safety.DAMAGED_XLSX


def test_truncated_xlsx(tmp_path, book):
    data = book.read_bytes()
    for cut in (len(data) // 3, len(data) - 30):
        path = tmp_path / f"cut{cut}.xlsx"
        path.write_bytes(data[:cut])
        assert refused(path) == safety.DAMAGED_XLSX


def test_damaged_member(tmp_path, book):
    data = bytearray(book.read_bytes())
    with zipfile.ZipFile(book) as zf:
        info = zf.getinfo("xl/worksheets/sheet1.xml")
    start = info.header_offset + 30 + len(info.filename) + 10
    data[start:start + 40] = os.urandom(40)
    path = tmp_path / "bad.xlsx"
    path.write_bytes(bytes(data))
    assert refused(path)


def test_zip_of_another_kind(tmp_path):
    path = tmp_path / "other.xlsx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("readme.txt", "not a workbook")
    assert "cannot read the workbook" in refused(path)


def test_encrypted_ole_named_xlsx(tmp_path):
    path = tmp_path / "locked.xlsx"
    name = "EncryptedPackage".encode("utf-16-le")
    path.write_bytes(OLE_MAGIC + b"\x00" * 1000 + name + b"\x00" * 1000)
    assert refused(path) == safety.PASSWORD


def test_really_encrypted_xlsx(tmp_path, book):
    ooxml = pytest.importorskip("msoffcrypto.format.ooxml", reason="msoffcrypto-tool not installed")
    path = tmp_path / "locked.xlsx"
    with open(book, "rb") as src, open(path, "wb") as out:
        ooxml.OOXMLFile(src).encrypt("secret", out)
    assert refused(path) == safety.PASSWORD
    renamed = tmp_path / "locked.xls"
    renamed.write_bytes(path.read_bytes())
    assert refused(renamed) == safety.PASSWORD


def test_zip_bomb_by_ratio(tmp_path):
    path = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("xl/worksheets/sheet1.xml", b" " * (40 << 20))
    assert "zip bomb" in refused(path)


def test_zip_bomb_by_declared_size(tmp_path, book):
    data = bytearray(book.read_bytes())
    at = data.find(b"PK\x01\x02")  # first central directory entry: patch its uncompressed size
    data[at + 24:at + 28] = struct.pack("<I", 0xFFFFFFF0)
    path = tmp_path / "huge.xlsx"
    path.write_bytes(bytes(data))
    assert "zip bomb" in refused(path)


@pytest.mark.parametrize(
    "part", ["xl/worksheets/sheet1.xml", "xl/workbook.xml", "[Content_Types].xml", "xl/styles.xml"]
)
def test_billion_laughs(tmp_path, book, part):
    path = rewrite_zip(book, tmp_path / "lol.xlsx", {part: with_doctype})
    assert "XML entities" in refused(path)


def test_doctype_hidden_after_comment(tmp_path, book):
    def hide(data):
        return b"<?xml version='1.0'?><!-- <a> -->" + with_doctype(data)[len(b'<?xml version="1.0"?>'):]

    path = rewrite_zip(book, tmp_path / "lol.xlsx", {"xl/worksheets/sheet1.xml": hide})
    assert "XML entities" in refused(path)


def test_prolog_verdict():
    assert prolog_verdict('<?xml version="1.0"?>\n<worksheet>') is True
    assert prolog_verdict('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x/>') is False
    assert prolog_verdict("<?xml version=") is None
    assert prolog_verdict("<!-- long comment") is None
    assert prolog_verdict("\ufeff  <a/>") is True


def test_file_larger_than_memory_refused_without_reading(tmp_path, monkeypatch):
    path = tmp_path / "big.csv"
    path.write_bytes(b"question\nq\n" * 1000)
    monkeypatch.setattr(safety, "available_memory", lambda: 10_000)
    assert "too large to open" in refused(path)


def test_html_saved_as_xls(tmp_path):
    path = tmp_path / "report.xls"
    path.write_bytes(b"\xef\xbb\xbf\r\n<html><body><table><tr><td>question</td></tr></table></body></html>")
    assert refused(path) == safety.HTML_XLS
    path.write_bytes(b"<table><tr><td>question</td></tr></table>")
    assert refused(path) == safety.HTML_XLS


def test_xml_spreadsheet_saved_as_xls(tmp_path):
    path = tmp_path / "x.xls"
    path.write_bytes(b'<?xml version="1.0"?>\n<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet">')
    assert refused(path) == safety.XML_XLS


@pytest.mark.parametrize("content", [b"\x01" + os.urandom(4000), OLE_MAGIC + os.urandom(4000)])  # not "<": a web page
def test_junk_named_xls(tmp_path, content):
    path = tmp_path / "junk.xls"
    path.write_bytes(content)
    assert "not a valid .xls workbook" in refused(path)


def test_xlsx_named_xls_is_read(tmp_path, book):
    path = tmp_path / "real.xls"
    path.write_bytes(book.read_bytes())
    t = read_table(path)
    assert t.source_format == "xlsx" and t.rows == [["q", "a"]]


def test_text_named_xls_is_read(tmp_path):
    path = tmp_path / "export.xls"
    path.write_bytes("问题\t答案\n你好\t世界\n".encode("gb18030"))
    t = read_table(path)
    assert t.headers == ["问题", "答案"] and t.delimiter == "\t"
    path.write_bytes("question\tanswer\nq\ta\n".encode("utf-16"))
    assert read_table(path).rows == [["q", "a"]]


def test_last_guard_turns_any_library_error_into_one_line(tmp_path, monkeypatch):
    import evaleditor.io.text.delimited as delimited

    def broken(*args, **kwargs):
        raise struct.error("unpack requires a buffer of 4 bytes\nand more detail")

    monkeypatch.setattr(delimited, "read_delimited", broken)
    path = tmp_path / "a.csv"
    path.write_text("question\nq\n")
    with pytest.raises(ReadError) as info:
        read_table(path)
    assert info.value.reason == "cannot read the file: unpack requires a buffer of 4 bytes"
    assert isinstance(info.value.__cause__, struct.error)


def test_zip_member_larger_than_declared(tmp_path):
    """A part whose headers under-declare its size (to slip past the bomb check) is refused too:
    calamine's zip reader stops at the declared size."""
    from tests.io.io_builders import raw_xlsx

    src = raw_xlsx(tmp_path / "src.xlsx",
                   '<row r="1"><c r="A1" t="inlineStr"><is><t>question</t></is></c></row>' + " " * (30 << 20))
    data = bytearray(src.read_bytes())
    with zipfile.ZipFile(src) as zf:
        info = zf.getinfo("xl/worksheets/sheet1.xml")
    declared = struct.pack("<I", 1 << 20)
    data[info.header_offset + 22:info.header_offset + 26] = declared
    at = data.find(b"PK\x01\x02")
    while at >= 0:
        length = struct.unpack("<H", data[at + 28:at + 30])[0]
        if bytes(data[at + 46:at + 46 + length]) == b"xl/worksheets/sheet1.xml":
            data[at + 24:at + 28] = declared
        at = data.find(b"PK\x01\x02", at + 4)
    path = tmp_path / "liar.xlsx"
    path.write_bytes(bytes(data))
    assert refused(path)


@pytest.mark.parametrize("bomb", ["ratio", "declared"])
def test_zip_bomb_refused_before_any_member_is_inflated(tmp_path, book, monkeypatch, bomb):
    """The sizes in the zip's directory decide: no member is opened, no library sees the file."""
    if bomb == "ratio":
        path = tmp_path / "bomb.xlsx"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("xl/worksheets/sheet1.xml", b"<a/>" + b" " * (8 << 20))
    else:
        data = bytearray(book.read_bytes())
        at = data.find(b"PK\x01\x02")
        data[at + 24:at + 28] = struct.pack("<I", 0xFFFFFFF0)
        path = tmp_path / "huge.xlsx"
        path.write_bytes(bytes(data))
    opened = []
    real_open = zipfile.ZipFile.open
    monkeypatch.setattr(zipfile.ZipFile, "open", lambda self, name, *a, **k: opened.append(name)
                        or real_open(self, name, *a, **k))
    import python_calamine

    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_path", None)  # would raise if reached
    assert "zip bomb" in refused(path)
    assert opened == []
