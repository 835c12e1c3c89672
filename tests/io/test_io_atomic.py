import errno
import os
import stat

import pytest

from evaleditor.core.errors import WriteError
from evaleditor.io.atomic import atomic_write


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_writes_and_replaces(tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    with atomic_write(target) as handle:
        handle.write(b"new")
    assert target.read_bytes() == b"new"
    assert leftovers(tmp_path) == []


def test_text_mode(tmp_path):
    target = tmp_path / "out.txt"
    with atomic_write(target, "w", encoding="utf-8", newline="") as handle:
        handle.write("é\r\n")
    assert target.read_bytes() == "é\r\n".encode()


def test_exception_keeps_old_file(tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_write(target) as handle:
        handle.write(b"half")
        raise RuntimeError("boom")
    assert target.read_bytes() == b"old"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("victim", ["replace", "fsync"])
def test_disk_full_keeps_old_file(tmp_path, monkeypatch, victim):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, victim, full)
    with pytest.raises(WriteError) as info, atomic_write(target) as handle:
        handle.write(b"new")
    monkeypatch.undo()
    assert info.value.reason == "the disk is full"
    assert "\n" not in str(info.value)
    assert target.read_bytes() == b"old"
    assert leftovers(tmp_path) == []


def test_write_error_inside_block_becomes_write_error(tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    with pytest.raises(WriteError) as info, atomic_write(target):
        raise OSError(errno.EACCES, "Permission denied")
    assert "permission denied" in info.value.reason
    assert target.read_bytes() == b"old"


def test_missing_folder(tmp_path):
    with pytest.raises(WriteError) as info, atomic_write(tmp_path / "gone" / "out.bin") as handle:
        handle.write(b"x")
    assert info.value.reason == "the folder does not exist"


def test_target_is_a_folder(tmp_path):
    (tmp_path / "d").mkdir()
    with pytest.raises(WriteError), atomic_write(tmp_path / "d") as handle:
        handle.write(b"x")


def test_keeps_permissions_of_existing_file(tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    target.chmod(0o640)
    with atomic_write(target) as handle:
        handle.write(b"new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_new_file_gets_umask_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        with atomic_write(tmp_path / "new.bin") as handle:
            handle.write(b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.bin").stat().st_mode) == 0o644


def test_saving_through_a_symlink_keeps_the_link(tmp_path):
    real = tmp_path / "real.bin"
    real.write_bytes(b"old")
    link = tmp_path / "link.bin"
    link.symlink_to(real)
    with atomic_write(link) as handle:
        handle.write(b"new")
    assert link.is_symlink()
    assert real.read_bytes() == b"new"


def test_bad_mode():
    with pytest.raises(ValueError), atomic_write("x", "a"):
        pass
