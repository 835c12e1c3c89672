"""A pipe or a device named as a file (`validate <(cmd)`, a FIFO, /dev/zero) is read as standard input is,
within the same bounds, instead of being taken for an empty file; the Python API says what it is."""

from __future__ import annotations

import os
import threading

import pytest

from evaleditor import cli_files
from evaleditor.cli import main
from evaleditor.core.errors import ReadError

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX pipes")


def run(capsys, *argv):
    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return code, out, err


def pipe_holding(data: bytes) -> str:
    """/dev/fd/N of a pipe holding `data` (as the shell's <(printf …) gives)."""
    r, w = os.pipe()
    os.write(w, data)
    os.close(w)
    return f"/dev/fd/{r}"


def test_a_process_substitution_is_read_as_csv(capsys):
    code, out, err = run(capsys, "validate", pipe_holding(b"question,answer\nhi,x\n"))
    assert code == 0, err
    assert "SINGLE-TURN \u2014 1 row" in out and "empty" not in out + err


def test_a_named_fifo_takes_its_format_from_its_name(capsys, tmp_path):
    fifo = tmp_path / "cases.csv"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(b"question;answer\nhi;x\nq2;y\n"))
    writer.start()
    code, out, err = run(capsys, "validate", fifo)
    writer.join()
    assert code == 0, err
    assert "SINGLE-TURN \u2014 2 rows" in out


def test_json_lines_in_a_pipe_are_told_by_their_first_line(capsys):
    lines = b'{"question": "hi", "answer": "x"}\n{"question": "q2", "answer": "y"}\n'
    code, out, err = run(capsys, "shape", pipe_holding(lines))
    assert code == 0, err
    assert "2 rows" in out


def test_dev_zero_is_refused_at_once(capsys):
    code, out, err = run(capsys, "validate", "/dev/zero")
    assert code == 2
    assert err.strip() == "evaleditor: /dev/zero: not a text file or workbook: it holds only zero bytes"


def test_an_endless_stream_is_read_only_up_to_the_limit(capsys, monkeypatch):
    """Bounded by bytes read: a writer that never stops is cut off at the limit, one line, exit 2."""
    monkeypatch.setattr(cli_files, "stream_limit", lambda: 3 * cli_files.CHUNK)
    r, w = os.pipe()
    written = [0]

    def endless():
        line = b"question,answer\n" + b"q,a\n" * 16_000
        try:
            while True:
                written[0] += os.write(w, line)
        except OSError:  # the reader closed its end
            pass
        finally:
            os.close(w)

    writer = threading.Thread(target=endless, daemon=True)
    writer.start()
    code, out, err = run(capsys, "validate", f"/dev/fd/{r}")
    os.close(r)
    writer.join(timeout=10)
    assert code == 2
    assert "the stream is too large to open (over 3.0 MB" in err
    assert len(err.strip().splitlines()) == 1
    assert written[0] <= 3 * cli_files.CHUNK + cli_files.CHUNK + (1 << 20)  # the limit, a chunk, the pipe's buffer


def test_the_api_says_a_device_is_not_a_file():
    import evaleditor

    with pytest.raises(ReadError, match="a pipe or a device, not a file"):
        evaleditor.open("/dev/zero")


def test_a_pipe_of_one_json_record_is_json_lines(capsys):
    code, out, err = run(capsys, "shape", pipe_holding(b'{"question": "hi", "answer": "x"}\n'))
    assert code == 0, err  # it was read as SDK JSON: 'not an SDK EvaluationDataset: no "eval_cases"'
    assert out.strip() == "SINGLE-TURN \u2014 1 row"


def test_a_pipe_of_sdk_json_on_one_line_is_sdk_json(capsys):
    one_line = (b'{"eval_cases": [{"prompt": {"role": "user", "parts": [{"text": "hi"}]}}, '
                b'{"prompt": {"role": "user", "parts": [{"text": "q2"}]}}]}\n')
    code, out, err = run(capsys, "shape", pipe_holding(one_line))
    assert code == 0, err
    assert out.strip() == "SINGLE-TURN \u2014 2 rows"
