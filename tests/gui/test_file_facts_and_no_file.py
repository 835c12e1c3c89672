"""After Save As, the window's facts about the file are the new file's: a CSV read as GB18030 (its bytes
fitting other encodings too) saved as .xlsx or .json no longer lists `encoding-guessed`, and File ▸
Reopen with Encoding is off. With no file open, Preview Upload, Close and Reopen with Encoding are off
(the toolbar's preview button already was); Esc closes the Upload Preview window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

GB18030_CSV = "question,answer\n北京是中国的首都吗,是的\n上海在哪里,中国东部\n".encode("gb18030")


def rules(w) -> set[str]:
    return {i.rule for i in w.doc.validator.all_issues()}


def listed_rules(w) -> set[str]:
    """The rules the Issues panel lists (it refreshes a moment after a change)."""
    return {i.rule for i in w.issues_panel.model.issues()}


@pytest.fixture
def guessed(qtbot, tmp_path):
    from evaleditor.gui import MainWindow

    path = tmp_path / "zh.csv"
    path.write_bytes(GB18030_CSV)
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path)
    assert w.doc.encoding == "gb18030" and "encoding-guessed" in rules(w)
    assert w.actions.encoding.menuAction().isEnabled()
    return w


@pytest.mark.parametrize("suffix", ["xlsx", "json"])
def test_save_as_another_format_forgets_how_the_csv_was_read(guessed, qtbot, tmp_path, suffix):
    w = guessed
    assert "encoding-guessed" in listed_rules(w)
    assert w.documents.save_as(tmp_path / f"zh.{suffix}", wait=True)
    assert w.doc.source_format == suffix and w.doc.encoding is None
    assert "encoding-guessed" not in rules(w)
    assert not w.actions.encoding.menuAction().isEnabled()
    qtbot.waitUntil(lambda: "encoding-guessed" not in listed_rules(w))
    assert not w.documents.reopen_with_encoding("gb18030")  # (a menu item off is not triggered)


def test_save_as_utf8_csv_forgets_it_too_but_a_save_in_gb18030_keeps_it(guessed, tmp_path):
    w = guessed
    w.model.setData(w.model.index(0, 1), "对")
    assert w.documents.save(wait=True)  # its own encoding kept: reopening it guesses again
    assert w.doc.encoding == "gb18030" and "encoding-guessed" in rules(w)
    assert w.documents.save_as(tmp_path / "utf8.csv", wait=True)
    assert w.doc.encoding == "utf-8-sig" and "encoding-guessed" not in rules(w)
    assert w.actions.encoding.menuAction().isEnabled()  # still a text file, read in an encoding


def test_with_no_file_open_preview_close_and_reopen_are_off(qtbot):
    from evaleditor.gui import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    a = w.actions
    assert not a.preview.isEnabled() and not a.close.isEnabled()
    assert not a.encoding.menuAction().isEnabled()
    with qtbot.waitActive(w):
        w.show()
        w.activateWindow()
    QTest.keyClick(w, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert getattr(w, "upload_preview", None) is None or not w.upload_preview.isVisible()


def test_escape_closes_the_upload_preview(window, qtbot):
    from evaleditor.gui.panels import upload_preview

    assert window.actions.preview.isEnabled() and window.actions.close.isEnabled()
    preview = upload_preview.show(window)
    with qtbot.waitExposed(preview):
        preview.show()
    preview.list.setFocus()
    QTest.keyClick(preview.list, Qt.Key.Key_Escape)
    assert not preview.isVisible()
