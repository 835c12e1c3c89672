"""Bad input through the real command: exit 2, one line on stderr naming the file, no traceback, fast."""

import subprocess
import sys
import zipfile

import pytest

from evaleditor.io import write_table
from tests.io.io_builders import rewrite_zip, with_doctype


def _workbook(tmp_path):
    path = tmp_path / "good.xlsx"
    write_table(path, ["question", "answer"], [["q", "a"]])
    return path


def _truncated(tmp_path):
    data = _workbook(tmp_path).read_bytes()
    path = tmp_path / "truncated.xlsx"
    path.write_bytes(data[: len(data) // 2])
    return path


def _entity_bomb(tmp_path):
    src = _workbook(tmp_path)
    with zipfile.ZipFile(src) as zf:
        sheet = next(n for n in zf.namelist() if n.startswith("xl/worksheets/"))
    return rewrite_zip(src, tmp_path / "bomb.xlsx", {sheet: with_doctype})


def _password(tmp_path):
    ooxml = pytest.importorskip("msoffcrypto.format.ooxml", reason="msoffcrypto-tool not installed")
    path = tmp_path / "locked.xlsx"
    with open(_workbook(tmp_path), "rb") as src, open(path, "wb") as out:
        ooxml.OOXMLFile(src).encrypt("secret", out)
    return path


def _written(name: str, content: bytes):
    def make(tmp_path):
        (tmp_path / name).write_bytes(content)
        return tmp_path / name
    return make


def _huge(tmp_path):
    path = tmp_path / "huge.csv"
    with open(path, "wb") as f:
        f.write(b"question\n")
        f.truncate(200 * 1024**3)  # sparse: 200 GiB that take no disk
    return path


BAD = {
    "empty.csv": _written("empty.csv", b""),
    "junk.xlsx": _written("junk.xlsx", bytes(range(256)) * 64),
    "truncated.xlsx": _truncated,
    "locked.xlsx": _password,
    "page.xls": _written("page.xls", b"<html><body><table><tr><td>q</td></tr></table></body></html>"),
    "broken.json": _written("broken.json", b'{"eval_cases": ['),
    "bomb.xlsx": _entity_bomb,
    "huge.csv": _huge,
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_file_exits_2_with_one_line(tmp_path, name):
    path = BAD[name](tmp_path)
    done = subprocess.run([sys.executable, "-m", "evaleditor", "validate", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and "Traceback" not in done.stderr
