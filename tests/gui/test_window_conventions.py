"""The window behaves as desktop apps do: the title's modified mark, the desktop file name, the
platform's style, files from Finder (QFileOpenEvent) and several dropped files, New (Ctrl+N) and
Close (Ctrl+W)."""

import csv
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QObject, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QFileOpenEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QApplication

from evaleditor.gui import MainWindow, dialogs
from evaleditor.gui.window import app, windows
from tests.gui.conftest import make_doc, shown_title

ROOT = Path(__file__).resolve().parents[2]


def csv_file(path, question="What?"):
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["question", "answer"], [question, "A"]])
    return path


@pytest.fixture
def made_windows():
    """Windows opened by the code under test (File ▸ New, drops): closed and gone after the test."""
    before = set(windows.tracked())
    yield lambda: [w for w in windows.tracked() if w not in before and w.isVisible()]
    for w in windows.tracked():
        if w not in before:
            w.undo_stack.setClean()
            w.close()


def test_modified_mark_comes_from_set_window_modified(window):
    assert window.windowTitle() == "Untitled[*] \u2014 evaleditor" and not window.isWindowModified()
    window.model.setData(window.model.index(0, 2), "changed")
    assert window.isWindowModified() and shown_title(window) == "Untitled* \u2014 evaleditor"
    window.undo_stack.undo()
    assert not window.isWindowModified()


def test_desktop_file_name_is_the_installed_desktop_entry():
    app.application()
    assert QGuiApplication.desktopFileName() == "evaleditor"
    assert (ROOT / "packaging" / "linux" / f"{app.DESKTOP_FILE}.desktop").is_file()


def test_native_style_on_windows_and_macos_fusion_elsewhere():
    assert app.style_for("win32") is None and app.style_for("darwin") is None
    assert app.style_for("linux") == "Fusion"


def test_file_from_finder_opens_in_the_blank_window(qtbot, tmp_path, made_windows):
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    app.application("darwin")  # installs the FileOpen filter
    path = csv_file(tmp_path / "finder.csv")
    QApplication.sendEvent(QApplication.instance(), QFileOpenEvent(str(path)))
    assert w.doc is not None and w.doc.path == path
    assert made_windows() == []
    # the window now holds a file: the next one gets a window of its own
    other = csv_file(tmp_path / "second.csv")
    QApplication.sendEvent(QApplication.instance(), QFileOpenEvent(str(other)))
    new = made_windows()
    assert len(new) == 1 and new[0].doc.path == other and w.doc.path == path


def test_no_application_wide_event_filter_off_macos(qtbot):
    """Elsewhere no file comes from Finder: no Python filter sees every event of the window (each a call
    into Python that takes the interpreter from a file being read in the background)."""
    qapp = QApplication.instance()

    def filters() -> list:
        return [f for f in qapp.findChildren(QObject) if isinstance(f, windows.FileOpenFilter)]

    for found in filters():  # one an earlier test installed as on macOS
        qapp.removeEventFilter(found)
        found.setParent(None)
    app.application("linux")
    assert filters() == []


def drop(window, paths):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    window.dropEvent(event)


def test_every_dropped_file_opens(qtbot, tmp_path, made_windows):
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    paths = [csv_file(tmp_path / f"f{i}.csv", f"Q{i}") for i in range(3)]
    drop(w, paths)
    assert w.doc.path == paths[0]
    assert sorted(x.doc.path.name for x in made_windows()) == ["f1.csv", "f2.csv"]


def test_one_file_dropped_on_a_document_replaces_it_as_before(window, tmp_path, made_windows):
    path = csv_file(tmp_path / "one.csv")
    drop(window, [path])
    assert window.doc.path == path and made_windows() == []


def test_ctrl_n_opens_the_checked_targets_template_beside_the_document(window, qtbot, made_windows):
    window.documents.set_target("evaluation-set")
    assert window.actions.new.shortcuts()[0] == QKeySequence("Ctrl+N")
    window.actions.new.trigger()
    (new,) = made_windows()
    assert new.doc.dataset.headers() == ["session_id", "request_id", "query", "answer"]
    assert window.doc.dataset.row_count() == 6  # the document is untouched


def test_ctrl_n_in_a_blank_window_uses_it(qtbot, made_windows):
    w = MainWindow()
    qtbot.addWidget(w)
    w.actions.new.trigger()
    assert w.doc is not None and w.doc.path is None and made_windows() == []


def test_ctrl_w_asks_then_leaves_the_last_window_empty(window, dialogs_log):
    assert QKeySequence("Ctrl+W") in window.actions.close.shortcuts()
    window.show()
    window.model.setData(window.model.index(0, 2), "changed")
    dialogs_log.answers["ask_save_changes"] = dialogs.CANCEL
    window.actions.close.trigger()
    assert window.doc is not None and window.is_modified()
    dialogs_log.answers["ask_save_changes"] = dialogs.DISCARD
    window.actions.close.trigger()
    assert window.doc is None and window.isVisible() and shown_title(window) == "evaleditor"


def test_ctrl_w_closes_the_window_when_another_is_open(qtbot, window, made_windows):
    window.show()
    other = windows.new_window(near=window)
    other.set_document(make_doc())
    other.actions.close.trigger()
    assert made_windows() == [] and window.isVisible() and window.doc is not None
