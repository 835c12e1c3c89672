"""pytest-qt, offscreen, with QSettings and the data folder (crash-recovery journals) in temporary
folders, and every modal dialog replaced."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before Qt is imported

import pytest  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402

from evaleditor.core.document import document_from_table  # noqa: E402
from evaleditor.core.table import RawTable  # noqa: E402

HEADERS = ["session_id", "turn_id", "question", "answer", "expected_tool_calls"]
ROWS = [
    ["s1", "1", "Weather in Paris?", "Sunny", '[{"name": "weather", "arguments": {"city": "Paris"}}]'],
    ["s1", "2", "And Lyon?", "Cloudy", ""],
    ["s2", "1", "Book a train", "Done", "[{'name': 'book', 'arguments': {}}]"],
    ["s2", "3", "Thanks", "Welcome", ""],
    ["", "", "What is 2+2?", "4", ""],
    ["", "", "", "no question", ""],
]


def shown_title(w) -> str:
    """The title as the window system shows it on Linux and Windows: Qt puts "*" for the "[*]" mark
    of a modified window (setWindowModified), nothing otherwise."""
    return w.windowTitle().replace("[*]", "*" if w.isWindowModified() else "")


def make_doc(headers=HEADERS, rows=ROWS, target=None, fmt="csv", path=None):
    return document_from_table(RawTable(list(headers), [list(r) for r in rows], fmt), path, target)


@pytest.fixture(autouse=True)
def qsettings_tmp(tmp_path_factory, qapp):
    folder = tmp_path_factory.mktemp("qsettings")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    return folder


@pytest.fixture(autouse=True)
def data_dir_tmp(tmp_path_factory, monkeypatch):
    """The user's data folder (gui/window/recovery.py: recovery journals) in a temporary folder."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("EVALEDITOR_DATA_DIR", str(folder))
    return folder


class DialogLog:
    """Replaces every function of evaleditor.gui.dialogs; records the calls, answers as told (an answer
    that is a function is called with the dialog's arguments)."""

    def __init__(self, monkeypatch):
        from evaleditor.gui import dialogs

        self.calls = []
        self.answers = {
            "ask_save_changes": dialogs.DISCARD,
            "open_file_name": None,
            "save_file_name": None,
            "show_error": None,
            "confirm_replace": True,
            "ask_file_changed": dialogs.KEEP_MINE,
            "ask_csv_formulas": True,
            "ask_csv_encoding": True,
            "ask_replace_read_only": False,
            "ask_save_leaving_out": dialogs.SAVE,
            "show_verify_error": None,
            "ask_restore": None,
            "ask_text": None,
            "choose_sheet": None,
            "choose_item": None,
            "show_about": None,
            "ask_sort_scrambles": dialogs.SORT_SESSIONS,
        }
        for name in self.answers:
            monkeypatch.setattr(dialogs, name, self._make(name))

    def _make(self, name):
        def fake(*args, **kwargs):
            self.calls.append((name, args[1:]))
            answer = self.answers[name]
            return answer(*args, **kwargs) if callable(answer) else answer
        return fake

    def names(self):
        return [c[0] for c in self.calls]


@pytest.fixture(autouse=True)
def dialogs_log(monkeypatch):
    """Autouse: no GUI test can block on a real modal dialog (closing a modified window asks)."""
    return DialogLog(monkeypatch)


@pytest.fixture
def window(qtbot, dialogs_log):
    from evaleditor.gui import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.set_document(make_doc())
    return w


@pytest.fixture(autouse=True)
def saves_end_before_save_returns(monkeypatch):
    """A small document's save runs off the UI thread and shows its progress only once it has taken
    Documents.quiet_save_ms; until then Save does not return. Here that is long enough for any save of
    a test's document to end first, however loaded the machine, so that a test reads the file Save
    wrote (tests of a slow save set quiet_save_ms, or background_rows, lower)."""
    from evaleditor.gui.window.documents import Documents

    monkeypatch.setattr(Documents, "quiet_save_ms", 600_000)
