"""The command-line contract of cli.md: output shapes, exit codes, one-line errors."""

import json
import subprocess
import sys
import threading
from importlib.resources import files
from pathlib import Path

import pytest

from evaleditor.cli import main
from evaleditor.io import read_table, write_table

SAMPLES = Path(str(files("evaleditor.resources") / "samples"))


def run(capsys, *argv):
    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def messy(tmp_path):
    path = tmp_path / "cases.csv"
    write_table(path, ["Session_ID", "turn_id", "Question", "answer"],
                [["s1", "1", "hi", "a"], ["s1", "3", "how", "b"], ["", "", "", "orphan"]])
    return path


def test_validate_json_matches_the_documented_object(capsys, messy):
    code, out, err = run(capsys, "validate", messy, "--format", "json")
    report = json.loads(out)
    assert code == 1 and err == ""
    assert report["file"] == str(messy) and report["target"] == "ground-truth" and report["sheet"] is None
    assert report["shape"] == {"mode": "single-turn", "rows": 3, "conversations": None,
                               "line": "SINGLE-TURN \u2014 3 rows"}
    assert report["columns"][0] == {"header": "Session_ID", "field": None}
    assert report["columns"][2] == {"header": "Question", "field": "question"}
    by_rule = {i["rule"]: i for i in report["issues"]}
    assert by_rule["misspelled-session-column"] == {
        "rule": "misspelled-session-column", "severity": "warning", "row": None, "column": "Session_ID",
        "message": by_rule["misspelled-session-column"]["message"]}
    assert by_rule["empty-question"]["row"] == 3 and by_rule["empty-question"]["column"] == "Question"
    assert report["counts"] == {"error": 1, "warning": 2, "info": 0}


def test_validate_multi_turn_sample_exits_zero_with_shape_line(capsys):
    code, out, _ = run(capsys, "validate", SAMPLES / "ground_truth_multiturn.xlsx")
    assert code == 0
    assert "MULTI-TURN \u2014 9 rows, 2 conversations (grouped by session_id)" in out.splitlines()
    assert "sheet Cases" in out.splitlines()[0]


def test_target_override_changes_rules(capsys, messy):
    code, out, _ = run(capsys, "validate", messy, "--target", "evaluation-set", "--format", "json")
    report = json.loads(out)
    assert report["target"] == "evaluation-set"
    assert "unsupported-file-type" in {i["rule"] for i in report["issues"]}


def test_chinese_headers_infer_evaluation_set(capsys):
    code, out, _ = run(capsys, "shape", SAMPLES / "evaluation_set_zh.xlsx")
    assert (code, out) == (0, "MULTI-TURN \u2014 7 rows, 4 conversations (grouped by 会话ID)\n")


@pytest.mark.parametrize("content", [b"", b"\x00\x01\x02\xff" * 100, b"PK\x03\x04garbage"])
def test_unreadable_file_exits_2_with_one_line_and_json_report(capsys, tmp_path, content):
    bad = tmp_path / "broken.xlsx"
    bad.write_bytes(content)
    code, out, err = run(capsys, "validate", bad, "--format", "json")
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and str(bad) in err
    report = json.loads(out)
    assert report["shape"] is None and [i["rule"] for i in report["issues"]] == ["unreadable-file"]


def test_missing_file_and_bad_arguments_exit_2(capsys, tmp_path):
    code, _, err = run(capsys, "validate", tmp_path / "nope.csv")
    assert code == 2 and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "validate", tmp_path / "x.csv", "--target", "bogus")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "bogus" in err


def test_convert_refuses_control_character_into_workbook_and_writes_nothing(capsys, tmp_path):
    src = tmp_path / "in.csv"
    write_table(src, ["question", "answer"], [["ok", "fine"], ["bell\x07", "x"]])
    out_path = tmp_path / "out.xlsx"
    code, _, err = run(capsys, "convert", src, out_path)
    assert code == 1 and not out_path.exists()
    assert "control-character" in err and "row 2" in err and "column question" in err


def test_convert_csv_to_xlsx_with_chinese_headers_round_trips(capsys, tmp_path):
    out_path = tmp_path / "zh.xlsx"
    code, out, _ = run(capsys, "convert", SAMPLES / "ground_truth_multiturn.xlsx", out_path,
                       "--target", "evaluation-set", "--headers", "zh")
    assert code == 0, out
    table = read_table(out_path)
    assert table.headers[:4] == ["会话ID", "请求顺序", "问题", "答案"]
    source = read_table(SAMPLES / "ground_truth_multiturn.xlsx")
    assert table.rows == source.rows


@pytest.mark.parametrize(("lang", "want"), [("en", "session_id"), ("zh", "会话ID")])
def test_convert_near_miss_names_the_session_header_in_the_spelling_written(capsys, tmp_path, lang, want):
    source = tmp_path / "cases.csv"
    write_table(source, ["会话id", "问题", "答案"], [["s", "a", "b"]])
    code, out, _ = run(capsys, "convert", source, tmp_path / "out.xlsx", "--target", "evaluation-set",
                       "--headers", lang, "--format", "json")
    assert code == 0
    assert [i["message"] for i in json.loads(out)["issues"] if i["rule"] == "misspelled-session-column"] == [
        f"Header '会话id' is not read as the session column (the target wants '{want}'): the whole file will be "
        f"evaluated as SINGLE-TURN. Rename it to '{want}'"]


@pytest.mark.parametrize(("lang", "session", "turn", "question"), [("zh", "会话ID", "请求顺序", "问题"),
                                                                   ("en", "session_id", "request_id", "query")])
def test_convert_that_makes_a_single_turn_file_conversations_spells_the_session_and_says_so(
        capsys, tmp_path, lang, session, turn, question):
    """Session_ID is a near miss for ground-truth (the input is single-turn) but evaluation-set reads it,
    case folded, as its session column: the output is spelt as evaluation-set spells it, and the change
    of meaning is said on stderr and in the JSON report (the input's shape beside the output's)."""
    source = tmp_path / "messy.csv"
    write_table(source, ["Session_ID", "turn_id", "Question", "Answer", "notes"],
                [["s1", "1", "hi", "a", ""], ["s1", "2", "and", "b", ""], ["s2", "1", "q", "c", "n"]])
    assert run(capsys, "shape", source)[1] == "SINGLE-TURN \u2014 3 rows\n"
    out_path = tmp_path / "eval.xlsx"
    code, out, err = run(capsys, "convert", source, out_path, "--target", "evaluation-set", "--headers", lang)
    assert code == 0
    assert read_table(out_path).headers == [session, turn, question, "answer" if lang == "en" else "答案", "notes"]
    assert f"MULTI-TURN \u2014 3 rows, 2 conversations (grouped by {session})" in out
    [warning] = [line for line in err.splitlines() if "conversations" in line]
    assert warning.startswith(f"evaleditor: warning: {out_path}: evaluation-set reads the file as conversations, "
                              "ground-truth as single-turn cases")
    code, out, err = run(capsys, "convert", source, out_path, "--target", "evaluation-set", "--format", "json")
    report = json.loads(out)
    assert (report["input_shape"]["mode"], report["shape"]["mode"]) == ("single-turn", "multi-turn")
    assert "conversations" in err


def test_convert_that_keeps_the_shape_warns_of_none(capsys, tmp_path):
    code, out, err = run(capsys, "convert", SAMPLES / "ground_truth_multiturn.xlsx", tmp_path / "zh.xlsx",
                         "--target", "evaluation-set", "--headers", "zh", "--format", "json")
    report = json.loads(out)
    assert code == 0 and err == ""
    assert report["input_shape"]["line"] == "MULTI-TURN \u2014 9 rows, 2 conversations (grouped by session_id)"
    assert report["shape"]["line"] == "MULTI-TURN \u2014 9 rows, 2 conversations (grouped by 会话ID)"


def test_convert_of_a_formula_without_value_writes_its_text_and_exits_1(capsys, tmp_path):
    """The written cell is plain text, but it is the formula's text, not the value the author meant: the
    data still has the error (cli.md: 1, the file has errors), and only convert can still say so, as
    the output no longer holds a formula for `validate` to see."""
    import openpyxl

    book = openpyxl.Workbook()
    book.active.append(["question", "answer"])
    book.active.append(["q1", "=1+1"])  # openpyxl saves no value for it: a file written by a script
    book.save(tmp_path / "in.xlsx")
    code, _, err = run(capsys, "convert", tmp_path / "in.xlsx", tmp_path / "out.csv")
    assert code == 1 and "formula-without-value [row 1, column answer]" in err
    assert read_table(tmp_path / "out.csv").rows == [["q1", "=1+1"]]
    assert run(capsys, "validate", tmp_path / "out.csv")[0] == 0


def test_convert_keeps_text_exactly_through_csv(capsys, tmp_path):
    src = tmp_path / "in.xlsx"
    rows = [["007", "=1+1", "NA"], ["TRUE", "1e5", "line\nbreak"]]
    write_table(src, ["question", "answer", "extra"], rows)
    out_path = tmp_path / "out.csv"
    assert run(capsys, "convert", src, out_path)[0] == 0
    assert read_table(out_path).rows == rows


def test_template_writes_target_headers(capsys, tmp_path):
    path = tmp_path / "t.xlsx"
    code, _, _ = run(capsys, "template", path, "--target", "evaluation-set", "--headers", "zh")
    assert code == 0
    assert read_table(path).headers == ["会话ID", "请求顺序", "问题", "答案"]
    code, _, err = run(capsys, "template", tmp_path / "t.csv", "--target", "evaluation-set")
    assert code == 2 and "xlsx" in err


@pytest.mark.parametrize("target", ["sdk-flat", "azure-foundry", "bedrock", "langsmith"])
def test_a_jsonl_template_is_one_line_naming_the_columns_and_validates_as_an_empty_dataset_of_its_target(
        capsys, tmp_path, target):
    path = tmp_path / "t.jsonl"
    assert run(capsys, "template", path, "--target", target)[0] == 0
    assert len(path.read_bytes().splitlines()) == 1  # JSON Lines has no header row: a line of empty values
    code, out, _ = run(capsys, "validate", path)
    assert code == 1 and "SINGLE-TURN \u2014 0 rows" in out and f"target {target}" in out
    assert [ln.split()[1].rstrip(":") for ln in out.splitlines() if ln.startswith("error")] == ["empty-dataset"]


def test_python_dash_m_is_the_same_command(messy):
    done = subprocess.run([sys.executable, "-m", "evaleditor", "shape", str(messy)], capture_output=True, text=True)
    assert done.returncode == 1 and done.stdout == "SINGLE-TURN \u2014 3 rows\n"  # its empty question is an error


def test_a_read_only_command_ends_its_process_without_freeing_the_document(capsys, messy, monkeypatch):
    """Run as the process (no argv given), validate and shape flush what they printed and end the
    process with the document still alive: freeing a 100k-row document costs 0.1 s for nothing.
    Called with arguments (as here, and by the Python API's users), main() returns and frees it."""
    import weakref

    from evaleditor import cli

    ended, read, load = [], [], cli._load

    def loading(*args, **kwargs):
        doc, error = load(*args, **kwargs)
        read.append(weakref.ref(doc))
        return doc, error

    def end(code):
        sys.stdout.flush()
        ended.append((code, [type(ref()).__name__ for ref in read]))
        raise SystemExit(code)

    monkeypatch.setattr(cli, "_load", loading)
    monkeypatch.setattr(cli.os, "_exit", end)
    for command in ("validate", "shape"):
        monkeypatch.setattr(sys, "argv", ["evaleditor", command, str(messy)])
        with pytest.raises(SystemExit):
            main()
        assert ended.pop() == (1, ["Document"])  # still alive when the process ends
        assert "SINGLE-TURN" in capsys.readouterr().out
        read.clear()
    code, out, _ = run(capsys, "validate", messy)
    assert code == 1 and "SINGLE-TURN" in out and [ref() for ref in read] == [None] and ended == []


def test_convert_reports_the_platform_file_as_written_not_the_columns_it_left_out(capsys, tmp_path):
    """Bedrock holds prompt, referenceResponse, category and modelResponses: the conversations and the broken tool
    calls are left out (and warned of), so the report, its shape line and the exit status are those of
    the file written, as `validate` on it says, not of the columns it does not hold."""
    src, out = tmp_path / "cases.csv", tmp_path / "bedrock.jsonl"
    write_table(src, ["session_id", "turn_id", "question", "answer", "expected_tool_calls"],
                [["s1", "1", "hi", "a", "[{broken"], ["s1", "2", "more", "b", ""]])
    code, stdout, err = run(capsys, "convert", src, out, "--target", "bedrock", "--format", "json")
    report = json.loads(stdout)
    assert "leaves out" in err
    validated = json.loads(run(capsys, "validate", out, "--format", "json")[1])
    assert (report["shape"], report["columns"], report["issues"]) == (
        validated["shape"], validated["columns"], validated["issues"])
    assert report["shape"]["line"] == "SINGLE-TURN \u2014 2 rows" and code == 0


def test_a_read_only_command_run_as_the_process_leaves_calamines_memory_to_the_system(capsys, tmp_path,
                                                                                       monkeypatch):
    """Freeing calamine's workbook and handing its pages back (malloc_trim) pay only in a process that
    lives on: validate and shape run as the process skip both, keeping the last file's workbook alive
    until the process ends; called with arguments (the Python API's users) they free it and trim."""
    import ctypes

    import python_calamine

    from evaleditor import cli
    from evaleditor.core import alloc
    from evaleditor.io.excel import read as excel_read

    trims, books, ended = [], [], []

    class Libc:
        def __init__(self, _name):
            self.malloc_trim = lambda pad: trims.append(pad)

    def end(code):
        ended.append([id(kept) for kept in alloc._left])
        raise SystemExit(code)

    real_open = python_calamine.CalamineWorkbook.from_path

    def opened(path):
        books.append(real_open(path))
        return books[-1]

    paths = [tmp_path / "a.xlsx", tmp_path / "b.xlsx"]
    for path in paths:
        write_table(path, ["question", "answer"], [[f"q{i}", "a"] for i in range(30)])
    monkeypatch.setattr(ctypes, "CDLL", Libc)
    monkeypatch.setattr(excel_read, "RELEASE_ROWS", 20)
    monkeypatch.setattr(cli.os, "_exit", end)
    monkeypatch.setattr(alloc, "_left", [])
    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_path", opened)
    for command in ("validate", "shape"):
        monkeypatch.setattr(sys, "argv", ["evaleditor", command, *map(str, paths)])
        with pytest.raises(SystemExit):
            main()
        assert len(books) == 2 and ended.pop()[0] == id(books[-1])  # the last file's workbook, still alive
        books.clear()
    assert trims == []
    alloc._left.clear()
    code, out, _ = run(capsys, "validate", paths[0])
    for thread in threading.enumerate():  # the trim runs on a thread of its own (alloc.release_freed_memory)
        if thread.name == "evaleditor-trim":
            thread.join()
    assert code == 0 and trims == [0] and alloc._left == []


@pytest.mark.parametrize("command", ["validate", "shape"])
@pytest.mark.parametrize("name", ["cases.csv", "cases.json"])
def test_a_sheet_asked_of_a_file_without_sheets_is_one_line_and_exit_2(capsys, tmp_path, command, name):
    """cli.md: wrong arguments exit 2 with one line; a workbook lacking the sheet says so, and so does a
    file that has no sheets, instead of reading it as if --sheet were not there."""
    path = tmp_path / name
    if name.endswith(".csv"):
        write_table(path, ["question", "answer"], [["q", "a"]])
    else:
        path.write_text('{"eval_cases": [{"prompt": {"role": "user", "parts": [{"text": "q"}]}}]}')
    code, out, err = run(capsys, command, path, "--sheet", "X")
    assert (code, out) == (2, "")
    assert err == (f"evaleditor: {path}: this is not a workbook: it has no sheet named 'X' (only .xlsx, .xls and "
                   ".ods files have sheets)\n")
    assert run(capsys, "convert", path, tmp_path / "out.xlsx", "--sheet", "X")[0] == 2
    assert not (tmp_path / "out.xlsx").exists()


@pytest.mark.parametrize(("argv", "said"), [
    (["valdiate", "x.csv"], "evaleditor: valdiate: no such file (did you mean validate?)\n"),
    (["convrt", "a.csv", "b.xlsx"], "evaleditor: convrt: no such file (did you mean convert?)\n"),
    (["frobnicate", "x"], "evaleditor: frobnicate: no such file, nor a command (validate, shape, convert, "
                          "template)\n"),
    (["cases.csv"], "evaleditor: cases.csv: no such file\n"),  # a file's name: no command meant
])
def test_a_mistyped_command_is_a_missing_file_with_a_hint(capsys, tmp_path, monkeypatch, argv, said):
    monkeypatch.chdir(tmp_path)
    assert run(capsys, *argv) == (2, "", said)


@pytest.mark.parametrize(("content", "kept"), [
    (b"question,answer\nq1,a1\n", True),  # LF, no BOM
    (b"question;answer\r\nq1;a1\r\n", True),  # semicolons
    (b"\xef\xbb\xbfquestion,answer\r\nq1,a1\r\n", True)])
def test_convert_onto_its_own_csv_keeps_its_style_and_a_new_csv_is_utf8_bom_crlf(capsys, tmp_path, content, kept):
    """formats.md: a .csv written is UTF-8 with a BOM, commas, RFC 4180 (CRLF): a new file. Written onto
    the file it was read from, the file keeps its own encoding, delimiter and line ends, as the window's
    Save keeps them (and as the Python API's save onto its own file does): no edit, the same bytes."""
    import evaleditor

    src = tmp_path / "cases.csv"
    src.write_bytes(content)
    assert run(capsys, "convert", src, tmp_path / "new.csv")[0] == 0
    assert (tmp_path / "new.csv").read_bytes() == b"\xef\xbb\xbfquestion,answer\r\nq1,a1\r\n"
    assert run(capsys, "convert", src, src)[0] == 0
    assert src.read_bytes() == content
    evaleditor.open(src).save(src)
    assert src.read_bytes() == content
