"""Nothing leaves the machine, from the window either: opening, validating, editing, journalling, restoring
and saving make no network call — no Python socket connects or looks a name up, Qt's network module is
never loaded, and (on Linux) the process holds no new socket afterwards."""

import os
import sys
from importlib.resources import files
from pathlib import Path

from evaleditor.gui import MainWindow
from evaleditor.gui.window import restoring

SAMPLES = sorted(Path(str(files("evaleditor.resources") / "samples")).iterdir())


def socket_fds() -> set[str]:
    """The sockets this process holds (Linux), as `socket:[inode]`."""
    found = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:"):
            found.add(target)
    return found


def test_the_window_works_offline(network_calls, qtbot, tmp_path, dialogs_log):
    before = socket_fds() if sys.platform.startswith("linux") else set()
    dialogs_log.answers["ask_restore"] = lambda parent, entries: list(entries)
    for sample in SAMPLES:
        w = MainWindow()
        qtbot.addWidget(w)
        w.show()
        assert w.documents.open_file(sample)
        assert w.doc.validator.counts is not None
        m = w.model
        m.setData(m.index(0, 0), "edited offline")
        w.ops.paste("a\tb\nc\td")
        w.undo_stack.undo()
        w.undo_stack.redo()
        w.ops.next_issue()
        assert w.recovery.write(wait=True)
        w.recovery.release()
        again = MainWindow()
        qtbot.addWidget(again)
        assert restoring.offer_restore(again) == [again]
        for fmt in ("xlsx", "csv", "json"):
            assert again.documents.save_as(tmp_path / f"{sample.stem}.{fmt}", wait=True), fmt
            assert again.documents.open_file(tmp_path / f"{sample.stem}.{fmt}")
        again.documents.disk_watch.check()
        qtbot.wait(10)
    assert network_calls == []
    assert "PySide6.QtNetwork" not in sys.modules
    if sys.platform.startswith("linux"):
        assert socket_fds() <= before
