"""Faults during a save: the old file stays byte for byte, the document in memory is unchanged, and the
user gets one line saying why. Tests run as root, where permissions stop nothing, so the faults are
injected where the operating system would report them (os.open, a file's write, os.fsync, os.replace)."""

from __future__ import annotations

import copy
import errno
import os
import shutil
from pathlib import Path

import pytest

from evaleditor.core.document import Document, document_from_table
from evaleditor.core.errors import Mismatch, VerifyError, WriteError
from evaleditor.core.table import RawTable
from evaleditor.io import read_table
from evaleditor.io.save import save_document

FORMATS = ["csv", "xlsx", "json"]
HEADERS = ["question", "answer", "context"]


def make_doc(tag: str, n: int = 20) -> Document:
    rows = [[f"{tag} question {i}", f"{tag} answer {i}", "=1+1" if i == 3 else ""] for i in range(n)]
    return document_from_table(RawTable(list(HEADERS), rows, "csv"))


def snapshot(doc: Document):
    ds = doc.dataset
    return (ds.headers(), [(r.id, list(r.cells), copy.deepcopy(r.payload)) for r in ds.rows],
            ds.target.name, doc.path, doc.source_format)


def temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture(params=FORMATS)
def setup(request, tmp_path):
    """(path of the old file, its bytes, the edited document to save over it)."""
    path = tmp_path / f"cases.{request.param}"
    save_document(make_doc("old"), path)
    return path, path.read_bytes(), make_doc("new")


def failed_save(setup, expect=WriteError) -> WriteError:
    path, before, doc = setup
    state = snapshot(doc)
    with pytest.raises(expect) as info:
        save_document(doc, path)
    err = info.value
    assert "\n" not in str(err) and err.reason
    assert path.read_bytes() == before
    assert snapshot(doc) == state
    assert temps(path.parent) == []
    return err


class FailingHandle:
    """A file object whose writes fail (or run `hook`) once `limit` bytes/characters have gone through."""

    def __init__(self, inner, limit: int, hook):
        self._inner, self._left, self._hook = inner, limit, hook

    def write(self, data):
        self._left -= len(data)
        if self._left < 0 and self._hook is not None:
            hook, self._hook = self._hook, None
            hook()
        return self._inner.write(data)

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return self._inner.__exit__(*exc)


def fail_writes_after(monkeypatch, limit: int, hook) -> None:
    real = os.fdopen

    def fdopen(fd, *args, **kwargs):
        return FailingHandle(real(fd, *args, **kwargs), limit, hook)

    monkeypatch.setattr(os, "fdopen", fdopen)


def raise_oserror(code: int):
    def fail(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    return fail


def test_disk_full_while_writing(setup, monkeypatch):
    fail_writes_after(monkeypatch, 200, raise_oserror(errno.ENOSPC))
    assert failed_save(setup).reason == "the disk is full"


def test_disk_full_on_fsync(setup, monkeypatch):
    monkeypatch.setattr(os, "fsync", raise_oserror(errno.ENOSPC))
    assert failed_save(setup).reason == "the disk is full"


def test_permission_denied_creating_the_temporary_file(setup, monkeypatch):
    real = os.open

    def deny(path, *args, **kwargs):
        if ".evaleditor-" in os.fspath(path):
            raise OSError(errno.EACCES, "Permission denied", os.fspath(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", deny)
    assert failed_save(setup).reason.startswith("permission denied")


def test_permission_denied_replacing_the_file(setup, monkeypatch):
    """What Windows says when the file is open in Excel."""
    monkeypatch.setattr(os, "replace", raise_oserror(errno.EACCES))
    assert failed_save(setup).reason.startswith("permission denied")


@pytest.mark.parametrize("fmt", FORMATS)
def test_folder_deleted_between_open_and_save(tmp_path, fmt):
    folder = tmp_path / "project"
    folder.mkdir()
    path = folder / f"cases.{fmt}"
    save_document(make_doc("old"), path)
    doc = make_doc("new")
    state = snapshot(doc)
    shutil.rmtree(folder)
    with pytest.raises(WriteError) as info:
        save_document(doc, path)
    assert info.value.reason == "the folder does not exist"
    assert not folder.exists()
    assert snapshot(doc) == state


@pytest.mark.parametrize("fmt", FORMATS)
def test_folder_deleted_while_writing(tmp_path, monkeypatch, fmt):
    folder = tmp_path / "project"
    folder.mkdir()
    path = folder / f"cases.{fmt}"
    save_document(make_doc("old"), path)
    doc = make_doc("new", 3000)
    state = snapshot(doc)
    fail_writes_after(monkeypatch, 5000, lambda: shutil.rmtree(folder))
    with pytest.raises(WriteError) as info:
        save_document(doc, path)
    assert "folder no longer exists" in info.value.reason and "\n" not in str(info.value)
    assert not folder.exists()
    assert snapshot(doc) == state


@pytest.mark.parametrize("fmt", FORMATS)
def test_folder_moved_while_writing(tmp_path, monkeypatch, fmt):
    """The old file moves with its folder, intact; the next save there clears what this one left."""
    folder, moved = tmp_path / "project", tmp_path / "moved"
    folder.mkdir()
    path = folder / f"cases.{fmt}"
    save_document(make_doc("old"), path)
    before = path.read_bytes()
    doc = make_doc("new", 3000)
    state = snapshot(doc)
    fail_writes_after(monkeypatch, 5000, lambda: folder.rename(moved))
    with pytest.raises(WriteError) as info:
        save_document(doc, path)
    monkeypatch.undo()
    assert "folder no longer exists" in info.value.reason
    assert (moved / path.name).read_bytes() == before
    assert snapshot(doc) == state
    assert len(temps(moved)) == 1  # written inside the folder that moved: out of reach then
    save_document(doc, moved / path.name)
    assert temps(moved) == []
    assert read_table(moved / path.name).rows[0][:2] == ["new question 0", "new answer 0"]


def changed_table(real, row: int, col: int):
    def read(path, *args, **kwargs):
        table = real(path, *args, **kwargs)
        table.rows[row][col] += " (changed)"
        return table

    return read


def stored_otherwise(monkeypatch, change) -> None:
    """The file being saved holds `change(bytes)` instead of the bytes written (a disk that does not
    keep what it is given): SDK JSON's read-back compares bytes before it parses."""
    real = os.fdopen

    class Handle(FailingHandle):
        def write(self, data):
            return self._inner.write(change(bytes(data)))  # bytes: SDK JSON's chunks are memoryviews

    monkeypatch.setattr(os, "fdopen", lambda fd, *args, **kwargs: Handle(real(fd, *args, **kwargs), 0, None))


def test_verification_mismatch_in_a_table(setup, monkeypatch):
    path = setup[0]
    if path.suffix == ".json":
        stored_otherwise(monkeypatch, lambda data: data.replace(b"new answer 11", b"new answer 11 (changed)"))
        where = "row 12, column eval_cases[11].reference.response.parts[0].text"
    else:
        import evaleditor.io as io_package

        monkeypatch.setattr(io_package, "read_table", changed_table(io_package.read_table, 11, 1))
        where = "row 12, column answer"
    err = failed_save(setup, VerifyError)
    assert isinstance(err, WriteError)
    assert err.mismatches == [Mismatch(12, where.split("column ")[1], "new answer 11", "new answer 11 (changed)")]
    assert f"1 cell differs ({where})" in err.reason
    assert "the old file was kept" in err.reason


def test_verification_names_the_first_few_and_keeps_them_all(tmp_path, monkeypatch):
    import evaleditor.io as io_package

    path = tmp_path / "cases.xlsx"
    save_document(make_doc("old"), path)
    real = io_package.read_table

    def read(p, *args, **kwargs):
        table = real(p, *args, **kwargs)
        for row in table.rows[5:]:
            row[0] = "x"
        del table.rows[-2:]
        table.headers[2] = "contexts"
        return table

    monkeypatch.setattr(io_package, "read_table", read)
    doc = make_doc("new")
    doc.dataset.rows.insert(3, doc.dataset.new_row())  # an empty row: not written, still numbered
    with pytest.raises(VerifyError) as info:
        save_document(doc, path)
    err = info.value
    assert err.mismatches[0] == Mismatch(None, "context", "context", "contexts")
    assert err.mismatches[1] == Mismatch(7, "question", "new question 5", "x")
    assert err.mismatches[-1].row == 21 and err.mismatches[-1].column is None
    assert len(err.mismatches) == 1 + 13 + 2
    assert "16 cells differ (header 'context'; row 7, column question; row 8, column question, …)" in str(err)


def test_unreadable_read_back_is_a_verify_error(setup, monkeypatch):
    from evaleditor.core.errors import ReadError

    def broken(path, *args, **kwargs):
        raise ReadError(path, "not a valid .xlsx workbook")

    import evaleditor.io as io_package
    from evaleditor.io.sdk import read as sdk_read

    monkeypatch.setattr(io_package, "read_table", broken)
    monkeypatch.setattr(sdk_read, "_load", broken)
    if setup[0].suffix == ".json":  # the bytes written are compared first: parsed only when they differ
        stored_otherwise(monkeypatch, lambda data: data[:-100])
    err = failed_save(setup, VerifyError)
    assert err.reason.startswith("the saved file would not open again (not a valid .xlsx workbook)")


def test_json_read_back_with_the_same_values_in_other_bytes_is_a_verify_error(tmp_path, monkeypatch):
    """SDK JSON is verified against the bytes written: other bytes fail the save even when they parse
    to the same values (here the indentation differs), naming where they start to differ."""
    path = tmp_path / "cases.json"
    stored_otherwise(monkeypatch, lambda data: data.replace(b'\n      "prompt"', b'\n    "prompt"', 1))
    with pytest.raises(VerifyError) as info:
        save_document(make_doc("new"), path)
    assert not path.exists()
    [found] = info.value.mismatches
    assert found.row is None and found.expected.startswith("the ") and "different from byte " in found.found


def test_json_read_back_compares_bytes_without_parsing(tmp_path, monkeypatch):
    """A save of SDK JSON whose bytes orjson wrote is verified by comparing them with the file, not by
    parsing it again (3 s at 100k rows); an object orjson cannot write alone is still parsed back."""
    from evaleditor.io.sdk import read as sdk_read

    parsed = []
    real = sdk_read._load
    monkeypatch.setattr(sdk_read, "_load", lambda *a: parsed.append(1) or real(*a))
    save_document(make_doc("new"), tmp_path / "a.json")
    assert parsed == []
    doc = make_doc("new")
    doc.dataset.rows[0].cells[0] = "lone \ud800 surrogate"  # orjson refuses it: the json module writes the file
    save_document(doc, tmp_path / "b.json")
    assert parsed == [1]


def test_longest_file_name_saves(tmp_path):
    """The temporary name adds ~30 bytes: a 250-byte name (83 Chinese characters) still saves."""
    path = tmp_path / ("问" * 81 + ".csv")
    assert len(os.fsencode(path.name)) == 247
    save_document(make_doc("new"), path)
    save_document(make_doc("newer"), path)
    assert read_table(path).rows[0][0] == "newer question 0"
    assert temps(tmp_path) == []
