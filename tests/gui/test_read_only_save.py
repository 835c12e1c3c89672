"""Saving over a read-only file asks first, as editors do (issue 14); Cancel is the default and keeps it."""

import os
import stat

import pytest

from tests.gui.conftest import make_doc


@pytest.mark.parametrize("replace", [False, True])
def test_saving_over_a_read_only_file_asks(window, tmp_path, dialogs_log, replace):
    out = tmp_path / "locked.csv"
    out.write_text("old", encoding="utf-8")
    out.chmod(0o444)
    dialogs_log.answers["ask_replace_read_only"] = replace
    window.set_document(make_doc())
    assert window.documents.save_as(out) is replace
    assert [c[1] for c in dialogs_log.calls if c[0] == "ask_replace_read_only"] == [("locked.csv",)]
    assert (out.read_text(encoding="utf-8") == "old") is not replace
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o444


def test_a_writable_file_is_not_asked_about(window, tmp_path, dialogs_log):
    window.set_document(make_doc())
    assert window.documents.save_as(tmp_path / "open.csv")
    assert "ask_replace_read_only" not in dialogs_log.names()
