"""Nothing leaves the machine: opening, validating, saving and converting every sample, and the command
line, make no network call (no connect, no name lookup). The window's part is tested under tests/gui."""

import socket
from importlib.resources import files
from pathlib import Path

import pytest

from evaleditor.cli import main
from evaleditor.io.convert import write_converted
from evaleditor.io.load import load_document
from evaleditor.io.save import plan_save

SAMPLES = sorted(Path(str(files("evaleditor.resources") / "samples")).iterdir())


def test_the_spy_sees_a_connection(network_calls):
    with pytest.raises(OSError), socket.create_connection(("example.com", 80), timeout=1):
        pass
    with socket.socket() as s, pytest.raises(OSError):
        s.connect(("127.0.0.1", 9))
    assert [c[0] for c in network_calls] == ["create_connection", "socket.connect"]


def test_samples_open_validate_save_and_convert_offline(network_calls, tmp_path, capsys):
    assert SAMPLES
    for sample in SAMPLES:
        doc = load_document(sample)
        assert doc.validator.counts is not None
        for fmt in ("xlsx", "csv", "json"):
            out = tmp_path / f"{sample.stem}.{fmt}"
            write_converted(doc, out, plan_save(doc, fmt, path=out))  # as convert writes it
            load_document(out)
        assert main(["validate", str(sample)]) in (0, 1)
        assert main(["validate", str(sample), "--format", "json"]) in (0, 1)
        assert main(["shape", str(sample)]) in (0, 1)
        for fmt in ("xlsx", "csv", "json"):
            assert main(["convert", str(sample), str(tmp_path / f"cli-{sample.stem}.{fmt}")]) in (0, 1)
    assert main(["template", str(tmp_path / "t.xlsx"), "--target", "evaluation-set"]) == 0
    capsys.readouterr()
    assert network_calls == []
