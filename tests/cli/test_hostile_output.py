"""What a hostile file can do to the terminal and to what `convert` replaces (issue 14): names and keys
reach the terminal escaped, a rule that fires on every row prints a bounded report, only regular files
are replaced (a read-only one only with --force), and data a format cannot store exits 1."""

import json
import os
import socket
import stat

import pytest

from evaleditor.cli import main
from evaleditor.core.report import LINES_PER_RULE


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


HOSTILE = "\x1b]0;owned\x07\x1b[2J\r"


def test_a_header_cannot_retitle_or_clear_the_terminal(tmp_path, capsys):
    path = tmp_path / "evil.csv"
    path.write_text(f"question,answer,{HOSTILE.rstrip()}notes\nq,a,n\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 0
    assert not any(c in out for c in "\x1b\x07\r")
    assert "\\x1b]0;owned\\x07\\x1b[2Jnotes" in out


def test_a_key_with_a_line_break_stays_on_its_one_line(tmp_path, capsys):
    path = tmp_path / "key.json"
    case = {"prompt": {"role": "user", "parts": [{"text": "q"}]}, "bad\nkey\x1b[2J": 1}
    path.write_text(json.dumps({"eval_cases": [case]}), encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(path))
    [line] = [x for x in out.splitlines() if "bad" in x]
    assert "bad\\nkey\\x1b[2J" in line and line.startswith("info    unknown-column")
    assert "\x1b" not in out


def test_an_unreadable_file_named_with_escapes_is_one_clean_line(tmp_path, capsys):
    path = tmp_path / f"gone{HOSTILE}.csv"
    code, out, err = run(capsys, "validate", str(path))
    assert code == 2 and err.count("\n") == 1 and not any(c in err for c in "\x1b\x07\r")


def test_an_argument_with_escapes_is_echoed_escaped(capsys):
    code, _, err = run(capsys, "validate", "x.csv", "--target", f"bad{HOSTILE}")
    assert code == 2 and err.count("\n") == 1 and not any(c in err for c in "\x1b\x07\r")


def test_json_escapes_c1_controls_too(tmp_path, capsys):
    path = tmp_path / "c1.csv"
    path.write_text("question,answer\x9b2J\nq,a\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(path), "--format", "json")
    assert "\x9b" not in out and "\\u009b" in out
    assert json.loads(out)["issues"] is not None


# ----- a rule that fires on every row ---------------------------------------------------------------
def test_a_rule_firing_on_every_row_prints_a_bounded_report(tmp_path, capsys):
    n = LINES_PER_RULE + 480
    path = tmp_path / "na.csv"
    path.write_text("question,answer\n" + "".join(f"q{i},NA\n" for i in range(n)), encoding="utf-8")
    _, out, _ = run(capsys, "validate", str(path))
    lines = out.splitlines()
    assert sum("literal-null-text [" in line for line in lines) == LINES_PER_RULE
    assert f"… {n - LINES_PER_RULE:,} more literal-null-text not shown (--format json lists them all)" in lines
    assert lines[-1].endswith(f"{n} info")  # the count is of every issue
    _, out, _ = run(capsys, "validate", str(path), "--format", "json")
    assert len([i for i in json.loads(out)["issues"] if i["rule"] == "literal-null-text"]) == n


# ----- only regular files are replaced ------------------------------------------------------------------
@pytest.fixture
def source(tmp_path):
    path = tmp_path / "in.csv"
    path.write_text("question,answer\nq,a\n", encoding="utf-8")
    return path


def test_convert_into_a_fifo_is_refused_and_leaves_it_a_fifo(tmp_path, capsys, source):
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    code, _, err = run(capsys, "convert", str(source), str(fifo))
    assert code == 2 and err.count("\n") == 1 and "a pipe (FIFO), not a file" in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_convert_into_a_device_through_a_link_is_refused(tmp_path, capsys, source):
    link = tmp_path / "out.csv"
    link.symlink_to("/dev/null")
    code, _, err = run(capsys, "convert", str(source), str(link))
    assert code == 2 and "a device, not a file" in err
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_convert_into_a_socket_is_refused(tmp_path, capsys, source):
    path = tmp_path / "s.json"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        code, _, err = run(capsys, "convert", str(source), str(path), "--target", "sdk")
    finally:
        server.close()
    assert code == 2 and "a socket, not a file" in err
    assert stat.S_ISSOCK(os.stat(path).st_mode)


def test_a_read_only_target_is_replaced_only_with_force(tmp_path, capsys, source):
    out = tmp_path / "out.csv"
    out.write_text("old", encoding="utf-8")
    out.chmod(0o444)
    code, _, err = run(capsys, "convert", str(source), str(out))
    assert code == 2 and "read-only" in err and "--force" in err and out.read_text(encoding="utf-8") == "old"
    code, _, _ = run(capsys, "convert", str(source), str(out), "--force")
    assert code == 0 and "question" in out.read_text(encoding="utf-8-sig")
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o444  # still read-only, as it was


# ----- data a format cannot store: exit 1 (README and cli.md) -----------------------------------------------
@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_a_lone_surrogate_is_refused_with_exit_1_and_nothing_written(tmp_path, capsys, suffix):
    path = tmp_path / "sur.json"
    path.write_text('{"eval_cases": [{"prompt": {"role": "user", "parts": [{"text": "a\\ud800b"}]}}]}',
                    encoding="utf-8")
    out = tmp_path / f"out{suffix}"
    code, _, err = run(capsys, "convert", str(path), str(out))
    assert code == 1 and not out.exists()
    assert "refused to write" in err and "lone surrogate" in err and err.count("\n") == 1
