"""Crash recovery: unsaved edits are journalled a few seconds after the last change, a killed editor's
journal is offered at the next start and restores the exact dataset, and a clean save or an explicit
discard removes the journal."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from importlib.resources import files
from pathlib import Path

import pytest

from evaleditor.gui import MainWindow, dialogs
from evaleditor.gui.window import recovery, restoring, windows
from evaleditor.io.load import load_document
from tests.gui.conftest import shown_title
from tests.gui.test_window import Q, write_csv

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = Path(str(files("evaleditor.resources") / "samples"))


def journals(folder=None):
    return sorted((folder or recovery.recovery_dir()).glob("*.json"))


def restore_all(parent, entries):
    return list(entries)


@pytest.fixture
def edited(qtbot, tmp_path):
    """A window on a CSV file with two unsaved edits, journalled quickly (200 ms after the last edit)."""
    w = MainWindow()
    qtbot.addWidget(w)
    path = write_csv(tmp_path / "cases.csv")
    assert w.documents.open_file(path)
    w.recovery.delay_ms = 200
    w.model.setData(w.model.index(0, Q), "first edit")
    w.model.setData(w.model.index(1, Q), "second edit \u4e2d\u6587")
    qtbot.waitUntil(lambda: journals() != [] and not w.recovery.is_writing(), timeout=5000)  # its thread ended too
    return w


def test_the_journal_waits_for_a_pause_in_the_edits(qtbot, tmp_path):
    """Each edit restarts the wait (counted, not timed: a busy machine cannot make it fail); the journal
    is written once the wait runs out."""
    assert recovery.DELAY_MS == 3000
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(write_csv(tmp_path / "cases.csv"))
    timer = w.recovery._timer
    starts = []
    real_start = timer.start
    timer.start = lambda ms: starts.append(ms) or real_start(ms)
    for i in range(4):
        before = len(starts)
        w.model.setData(w.model.index(0, Q), f"typing {i}")
        assert w.recovery.is_pending() and len(starts) > before and set(starts) == {w.recovery.delay_ms}
        assert journals() == []
    real_start(0)  # the pause: the wait runs out
    qtbot.waitUntil(lambda: journals() != [], timeout=30000)  # a hang guard: a loaded machine may take seconds
    assert not w.recovery.is_pending()


def test_a_journal_is_written_atomically_beside_its_lock(edited):
    path = journals()[0]
    assert path.with_suffix(".lock").exists()
    assert [p.name for p in path.parent.iterdir() if p.suffix == ".tmp"] == []
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["evaleditor_recovery"] == 1 and record["path"] == str(edited.doc.path)
    assert record["rows"][0][Q] == "first edit"


def test_a_window_that_is_still_open_is_not_offered(edited, dialogs_log):
    assert restoring.orphans() == []
    assert restoring.offer_restore(edited) == [] and "ask_restore" not in dialogs_log.names()


def test_restore_after_a_crash_in_process(edited, qtbot, dialogs_log):
    expected = [r.cells[:] for r in edited.doc.dataset.rows]
    path, stamp = edited.doc.path, edited.documents.file_stamp
    edited.recovery.release()  # as if the process died: the lock goes, the journal stays
    dialogs_log.answers["ask_restore"] = restore_all
    w = MainWindow()
    qtbot.addWidget(w)
    assert restoring.offer_restore(w) == [w]
    (name, (entries,)), = [c for c in dialogs_log.calls if c[0] == "ask_restore"]
    assert [(e.name, e.rows) for e in entries] == [("cases.csv", len(expected))]
    assert [r.cells for r in w.doc.dataset.rows] == expected
    assert w.doc.path == path and w.documents.file_stamp == stamp and w.is_modified()
    assert shown_title(w).startswith("cases.csv*")
    assert not w.undo_stack.canUndo()
    assert w.documents.save() and not w.is_modified()  # to its own file; the journal goes with the clean save
    assert [r.cells for r in load_document(path).dataset.rows] == expected
    assert journals() == []


def test_restored_windows_are_new_when_the_window_shows_a_document(edited, qtbot, dialogs_log, tmp_path):
    edited.recovery.release()
    dialogs_log.answers["ask_restore"] = restore_all
    w = MainWindow()
    qtbot.addWidget(w)
    w.documents.open_file(write_csv(tmp_path / "other.csv"))
    restored = restoring.offer_restore(w)
    for r in restored:
        qtbot.addWidget(r)
    assert len(restored) == 1 and restored[0] is not w and restored[0].doc.path.name == "cases.csv"
    assert w.doc.path.name == "other.csv"


@pytest.mark.parametrize("background", [False, True])
@pytest.mark.parametrize("named", ["as before", "another way"])
def test_restoring_the_file_the_window_opened_replaces_it_rather_than_opening_a_second_window(
        edited, qtbot, dialogs_log, background, named):
    """`evaleditor crash.csv` after a crash: the window opening crash.csv takes the restored edits (the
    load under way cancelled, or its document replaced); no second window on the same file, however the
    file was named (`evaleditor ../x/crash.csv` from another folder)."""
    expected = [r.cells[:] for r in edited.doc.dataset.rows]
    path = edited.doc.path
    edited.recovery.release()
    dialogs_log.answers["ask_restore"] = restore_all
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    opened = path if named == "as before" else path.parent / ".." / path.parent.name / path.name
    assert w.documents.open_file(opened, background=background)
    assert restoring.offer_restore(w) == [w]
    qtbot.waitUntil(lambda: w.tasks.current is None, timeout=30000)  # a hang guard
    assert [x for x in windows.open_windows() if x is not edited] == [w]
    assert [r.cells for r in w.doc.dataset.rows] == expected and w.is_modified()
    assert shown_title(w).startswith("cases.csv*")
    assert w.documents.save() and [r.cells for r in load_document(path).dataset.rows] == expected


def test_a_clean_save_removes_the_journal(edited):
    assert edited.documents.save()
    assert journals() == [] and list(recovery.recovery_dir().glob("*.lock")) == []


def test_undo_back_to_the_saved_state_removes_the_journal(edited):
    edited.undo_stack.undo()
    edited.undo_stack.undo()
    assert not edited.is_modified() and journals() == []


def test_an_undo_back_to_the_saved_state_does_not_wait_for_a_journal_being_written(edited, qtbot, monkeypatch):
    """At 100k rows a journal takes seconds to write: the undo goes on, the journal goes once written."""
    import threading

    from evaleditor.io import journal

    written, real = threading.Event(), journal.write_journal
    monkeypatch.setattr(journal, "write_journal", lambda *args, **kwargs: written.wait(10) and real(*args, **kwargs))
    edited.model.setData(edited.model.index(2, Q), "third edit")
    assert edited.recovery.write()
    writing = edited.recovery._writing.thread
    while edited.undo_stack.canUndo():
        edited.undo_stack.undo()
    assert not edited.is_modified() and writing.is_alive()  # the undo did not wait for the write
    written.set()
    qtbot.waitUntil(lambda: journals() == [] and list(recovery.recovery_dir().glob("*.lock")) == [], timeout=10000)


def test_closing_with_discard_removes_the_journal(edited, dialogs_log):
    dialogs_log.answers["ask_save_changes"] = dialogs.DISCARD
    edited.show()
    assert edited.close()
    assert journals() == [] and list(recovery.recovery_dir().iterdir()) == []


def test_cancelling_the_close_keeps_the_journal(edited, dialogs_log):
    dialogs_log.answers["ask_save_changes"] = dialogs.CANCEL
    edited.show()
    assert not edited.close()
    assert len(journals()) == 1


def test_declining_the_restore_removes_the_journal_and_later_keeps_it(edited, qtbot, dialogs_log):
    edited.recovery.release()
    w = MainWindow()
    qtbot.addWidget(w)
    dialogs_log.answers["ask_restore"] = None  # closed without an answer: asked again next time
    assert restoring.offer_restore(w) == [] and len(journals()) == 1 and w.doc is None
    dialogs_log.answers["ask_restore"] = []  # Discard All
    assert restoring.offer_restore(w) == [] and journals() == [] and w.doc is None
    assert dialogs_log.names().count("ask_restore") == 2


def test_an_unreadable_journal_is_left_alone(qtbot, dialogs_log):
    folder = recovery.recovery_dir()
    folder.mkdir(parents=True)
    (folder / "1-dead.json").write_text("{not json", encoding="utf-8")
    from PySide6.QtCore import QSysInfo

    (folder / "2-dead.lock").write_text(f"99999999\nevaleditor\n{QSysInfo.machineHostName()}\n", encoding="utf-8")
    assert restoring.orphans() == []
    assert (folder / "1-dead.json").exists() and not (folder / "2-dead.lock").exists()


def test_a_restored_sdk_document_saves_as_the_lost_one_would_have(qtbot, tmp_path, dialogs_log):
    src = tmp_path / "cases.json"
    shutil.copy(SAMPLES / "sdk_agent_cases.json", src)
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(src)
    w.model.setData(w.model.index(0, 1), "changed")
    from evaleditor.io.sdk.write import encode_sdk_json

    want = encode_sdk_json(src, w.doc.dataset)[1]
    assert w.recovery.write(wait=True)
    w.recovery.release()
    dialogs_log.answers["ask_restore"] = restore_all
    again = MainWindow()
    qtbot.addWidget(again)
    restoring.offer_restore(again)
    assert encode_sdk_json(src, again.doc.dataset)[1] == want
    assert [i.message for i in again.doc.validator.all_issues()] == [i.message for i in w.doc.validator.all_issues()]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("sample", ["ground_truth_single_turn.csv", "demo_messy_multiturn.xlsx", "sdk_agent_cases.json"])
def test_killed_editor_is_restored_at_the_next_start(sample, qtbot, tmp_path, dialogs_log, data_dir_tmp):
    src = tmp_path / sample
    shutil.copy(SAMPLES / sample, src)
    expected = tmp_path / "expected.json"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", recovery.ENV_DATA_DIR: str(data_dir_tmp)}
    proc = subprocess.Popen([sys.executable, "-m", "tests.gui.recovery_driver", str(src), str(expected)], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not expected.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert expected.exists(), proc.stderr.read() if proc.poll() is not None else "no journal in 60 s"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    state = json.loads(expected.read_text(encoding="utf-8"))
    assert state["waited"] >= 2.5  # written after the debounce, not at each edit
    assert len(journals()) == 1 and journals()[0].with_suffix(".lock").exists()  # left behind by the kill

    dialogs_log.answers["ask_restore"] = restore_all
    w = MainWindow()
    qtbot.addWidget(w)
    assert restoring.offer_restore(w) == [w]
    ds = w.doc.dataset
    assert ds.headers() == state["headers"] and [r.cells for r in ds.rows] == state["rows"]
    assert ds.target.name == state["target"] and str(w.doc.path) == state["path"]
    assert w.is_modified() and list(w.documents.file_stamp) == state["stamp"]
    if "sdk" in state:
        from evaleditor.io.sdk.write import encode_sdk_json

        assert encode_sdk_json(w.doc.path, ds)[1].decode("utf-8") == state["sdk"]
    assert load_document(src).dataset.rows[0].cells[0] != "edited \u4e2d\u6587\nsecond line"  # not saved yet


def test_journals_are_listed_from_their_heads_and_read_only_when_restored(edited, qtbot, dialogs_log,
                                                                          monkeypatch):
    """A big file's journal is 100 MB: the start-up prompt lists it from its first bytes. One that turns
    out damaged when restored says why, and is kept for the next start."""
    from evaleditor.io import journal

    edited.recovery.release()
    path = journals()[0]
    whole_reads = []
    real_read = journal.read_journal
    monkeypatch.setattr(journal, "read_journal", lambda p: whole_reads.append(p) or real_read(p))
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:text.index('"rows":')] + '"rows": [[damaged', encoding="utf-8")
    dialogs_log.answers["ask_restore"] = restore_all
    w = MainWindow()
    qtbot.addWidget(w)
    assert restoring.offer_restore(w) == []
    (_, (entries,)), = [c for c in dialogs_log.calls if c[0] == "ask_restore"]
    assert [(e.name, e.rows) for e in entries] == [("cases.csv", len(edited.doc.dataset.rows))]
    assert whole_reads == [path]  # once: to restore it, not to list it
    assert "show_error" in dialogs_log.names() and w.doc is None
    assert journals() == [path]  # kept


def test_processes_the_tests_start_keep_out_of_the_users_settings(tmp_path):
    """A killed-editor test once left its files in the user's Open Recent: its subprocess wrote the real
    settings. Every process a test run starts writes below the run's own folder."""
    script = ("from PySide6.QtCore import QCoreApplication, QSettings; app = QCoreApplication([]);"
              "app.setOrganizationName('evaleditor'); app.setApplicationName('evaleditor');"
              "QSettings.setDefaultFormat(QSettings.Format.IniFormat);"
              "from evaleditor.gui.window.recovery import recovery_dir;"
              "print('PATHS', QSettings().fileName(), recovery_dir(), sep='\\n')")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60)
    settings_file, journals = out.stdout.split("PATHS\n")[1].splitlines()[:2]
    assert Path(settings_file).is_relative_to(os.environ["XDG_CONFIG_HOME"]), out.stdout
    assert Path(journals).is_relative_to(os.environ["EVALEDITOR_DATA_DIR"]), out.stdout
    assert not Path(settings_file).is_relative_to(Path.home() / ".config")
