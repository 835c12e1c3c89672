"""A save killed half-way (SIGKILL while writing 100,000 rows) leaves the old file intact and a
recognisable temporary file, which the next save of the same file removes; other files' temporary
files, and those of a live process, are left alone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from evaleditor.io import read_table
from evaleditor.io.save import save_document
from tests.io.test_faults import make_doc, temps


def test_stale_temp_of_another_file_or_live_process_is_kept(tmp_path):
    path = tmp_path / "cases.csv"
    other = tmp_path / ".other.csv.evaleditor-999999999-abc.tmp"
    live = tmp_path / f".cases.csv.evaleditor-{os.getppid()}-abc.tmp"
    dead = tmp_path / ".cases.csv.evaleditor-999999999-abc.tmp"
    for p in (other, live, dead):
        p.write_bytes(b"partial")
    save_document(make_doc("new"), path)
    assert temps(tmp_path) == sorted([other.name, live.name])


KILLED_SAVE = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from evaleditor.core.dataset import Dataset
    from evaleditor.core.document import Document
    from evaleditor.io.save import save_document

    path, marker, n = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    headers = ["session_id", "turn_id", "question", "answer", "context"]
    rows = [[f"s{i // 4}", str(i % 4 + 1), f"question {i}", f"answer {i}", "ctx"] for i in range(n)]
    ds = Dataset(headers, rows)

    def progress(done, total):  # total = 2 x rows: the first half counts rows written
        if done >= total // 4 and not marker.exists():
            Path(f"{marker}.part").write_text(str(done))
            Path(f"{marker}.part").replace(marker)  # whole: the test reads it as soon as it exists
            time.sleep(120)  # killed here, half-way through writing the rows

    save_document(Document.of(ds), path, progress=progress)
""")


def test_sigkill_half_way_through_saving_100k_rows(tmp_path):
    path = tmp_path / "cases.xlsx"
    old = make_doc("old")
    save_document(old, path)
    before = path.read_bytes()
    marker = tmp_path / "half"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen([sys.executable, "-c", KILLED_SAVE, str(path), str(marker), "100000"], env=env,
                            stderr=subprocess.PIPE)
    try:
        while not marker.exists():  # a save that never gets half-way ends the process: the assert says why
            assert proc.poll() is None, proc.stderr.read().decode()
            time.sleep(0.02)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    assert int(marker.read_text()) >= 50_000
    assert path.read_bytes() == before
    assert read_table(path).rows == [r.cells for r in old.dataset.rows]
    stale = temps(tmp_path)
    assert len(stale) == 1 and stale[0].startswith(f".cases.xlsx.evaleditor-{proc.pid}-")
    assert (tmp_path / stale[0]).stat().st_size > 0  # half a workbook was on disk
    new = make_doc("new")
    save_document(new, path)
    assert temps(tmp_path) == []
    assert read_table(path).rows == [r.cells for r in new.dataset.rows]
