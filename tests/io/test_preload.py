"""`evaleditor FILE` starts reading a big file before the window exists (io.load.Preload): the window
then takes that document, with the read's progress, its Cancel and its errors as its own read's."""

import threading

import pytest

from evaleditor.core.errors import Cancelled, ReadError
from evaleditor.io import load
from evaleditor.io.load import Preload, load_document


def write_csv(path, rows=3):
    path.write_text("question,answer\n" + "".join(f"q{i},a{i}\n" for i in range(rows)), encoding="utf-8")
    return path


def test_the_document_taken_is_the_file_as_read(tmp_path):
    path = write_csv(tmp_path / "cases.csv")
    doc = Preload(path).take()
    assert doc.path == path.absolute()
    assert [r.cells for r in doc.dataset.rows] == [r.cells for r in load_document(path).dataset.rows]
    assert doc.validator.checking is not None  # checked later, in slices, as the window's own read


def test_a_file_that_cannot_be_read_raises_where_it_is_taken(tmp_path):
    path = tmp_path / "broken.xlsx"
    path.write_bytes(b"PK\x03\x04 not a workbook")
    with pytest.raises(ReadError):
        Preload(path).take()


def test_progress_and_cancel_reach_the_read(tmp_path, monkeypatch):
    """The taker's Cancel stops the read under way; what the read reported reaches the taker."""
    reading = threading.Event()

    def slow_load(path, progress=None, cancel=None, deferred=False):
        progress(5, 10)
        reading.set()
        for _ in range(500):  # bounded: a Cancel not passed on fails the test instead of hanging the suite
            if cancel():
                raise Cancelled()
            threading.Event().wait(0.01)
        raise AssertionError("the taker's Cancel never reached the read")

    monkeypatch.setattr(load, "load_document", slow_load)
    preload = Preload(write_csv(tmp_path / "cases.csv"))
    reading.wait(10)
    reported = []
    with pytest.raises(Cancelled):
        preload.take(lambda done, total: reported.append((done, total)), cancel=lambda: bool(reported))
    assert reported[0] == (5, 10)


def test_the_window_command_reads_only_a_big_first_file_ahead(tmp_path, monkeypatch):
    """What the window would read in the background anyway; a small file is read when the window opens it."""
    from evaleditor import cli

    monkeypatch.setattr(load, "BACKGROUND_BYTES", 100)
    big, small = write_csv(tmp_path / "big.csv", rows=20), write_csv(tmp_path / "small.csv", rows=1)
    preloaded = cli.read_ahead([str(big), str(small)])
    assert preloaded.path == big.absolute() and len(preloaded.take().dataset.rows) == 20
    assert cli.read_ahead([str(small), str(big)]) is None and cli.read_ahead([]) is None
