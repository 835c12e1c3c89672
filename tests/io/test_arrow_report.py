"""`validate` and `shape` read a big CSV hollow (io/text/arrow_report.py): only the cells a rule may find
something in become text. What they print must be exactly what the whole table gives — the text report, the
JSON report, the shape line, the exit status — whatever the file holds; and the hollow read must leave most
cells unread."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaleditor.cli import main
from evaleditor.core import checks, toolcalls
from evaleditor.core.errors import Cancelled, ReadError
from evaleditor.core.report import report_json, report_text, shape_report_json
from evaleditor.io.load import load_document
from evaleditor.io.text import arrow_report, delimited
from evaleditor.io.text.long_cells import MANY_LINES

pa = pytest.importorskip("pyarrow")
pc = pytest.importorskip("pyarrow.compute")


@pytest.fixture
def hollow(monkeypatch):
    """What each call of hollow_read returned (None: the whole table was read), any file size read by pyarrow."""
    results, read = [], arrow_report.hollow_read

    def spy(*args, **kwargs):
        results.append(read(*args, **kwargs))
        return results[-1]

    monkeypatch.setattr(arrow_report, "hollow_read", spy)
    return results


def reports(path, monkeypatch, report_only: bool, target: str | None = None) -> tuple[str, str, str, bool] | str:
    """(text report, JSON report, shape JSON, has errors) of the document read hollow or whole; or why it
    cannot be read."""
    monkeypatch.setattr(delimited, "MIN_BYTES", 0 if report_only else 1 << 62)
    try:
        doc = load_document(path, target=target, report_only=report_only)
    except ReadError as err:
        return str(err)
    return (report_text(doc, "f.csv"), json.dumps(report_json(doc, "f.csv"), ensure_ascii=False),
            json.dumps(shape_report_json(doc, "f.csv"), ensure_ascii=False), bool(doc.validator.counts["error"]))


def write(path, rows: list[list[str]]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)


def same_reports(path, monkeypatch, target: str | None = None) -> None:
    assert reports(path, monkeypatch, True, target) == reports(path, monkeypatch, False, target)


HEADERS = ["session_id", "turn_id", "question", "answer", "context", "expected_tool_calls", "notes", "extra",
           "Session_ID", "tools", "query", ""]
PLAIN_CALL = '[{"name": "search", "arguments": {"q": "x", "n": 3}}]'
TOOL_CALLS = [PLAIN_CALL, '[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"k": null}}]',
              "[]", " " + PLAIN_CALL, PLAIN_CALL + "\n", '[{"name": "搜索", "arguments": {}}]',
              '[{"name": "\u3000", "arguments": {}}]', '[{"name": " ", "arguments": {}}]',
              '[{"name": "a", "arguments": {"n": 1\u0661}}]', '[{"name": "a", "arguments": {"n": \u0661}}]',
              "[{'name': 'a', 'arguments': {}}]", '{"name": "a", "arguments": {}}', '[{"name": "a", "args": {}}]',
              '[{"name": "a", "arguments": {"q": "a\\"b"}}]', "not json", "[", "NA"]
TEXTS = ["", " ", "\t", "\u3000", "x", "a question?", "问题是什么", "NA", "na", "N/A", "n/a", "None", "NULL", "Null",
         "NaN", "nan", "null", "Na", "nA", "None ", "abcde", "中文中文", "中文中文中", "🙂🙂🙂🙂", 'say "hi", then', "=1+1",
         "line 1\nline 2", "x\x01y", "a\x1fb", "x" * 40, "question", "Question", "s1", "s1 ", "S1", " s2", "s2",
         "1", "2", "3", "0", "1.5", "two", "-1", "2.0", " 1", *TOOL_CALLS]
SESSIONS = ["s1", "s1", "s2", "S1", "s1 ", "", "s3", " s4", "会话"]
TURNS = ["1", "2", "3", "", "0", "x", "1.5", "2.0"]


@st.composite
def files(draw) -> list[list[str]]:
    headers = draw(st.lists(st.sampled_from(HEADERS), min_size=1, max_size=7))
    if not draw(st.booleans()):
        headers = ["question", *headers]

    def cell(header: str) -> str:
        pool = {"session_id": SESSIONS, "turn_id": TURNS, "expected_tool_calls": TOOL_CALLS, "tools": TOOL_CALLS}
        if header in pool and draw(st.booleans()):
            return draw(st.sampled_from(pool[header]))
        return draw(st.sampled_from(TEXTS))

    rows = draw(st.lists(st.builds(lambda: [cell(h) for h in headers]), min_size=1, max_size=30))
    for at in draw(st.lists(st.integers(0, len(rows)), max_size=3)):  # rows entirely empty (`,,,`), which the
        rows.insert(at, [""] * len(headers))  # grid drops: in the first rows, the middle, at the end
    return [headers, *rows]


EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@EXAMPLES
@given(files(), st.sampled_from([None, None, "ground-truth", "langsmith", "azure-foundry", "evaluation-set"]),
       st.sampled_from([64, 256, 1 << 20]))
def test_the_hollow_read_reports_what_the_whole_table_does(tmp_path, monkeypatch, hollow, rows, target, block):
    """In record batches of any size (`block` bytes: one batch, or a few rows each)."""
    monkeypatch.setattr(arrow_report, "BLOCK_BYTES", block)
    path = tmp_path / "f.csv"
    write(path, rows)
    same_reports(path, monkeypatch, target)


CASES = {
    "every rule a row can break": [
        ["session_id", "turn_id", "question", "answer", "expected_tool_calls", "notes"],
        ["s1", "1", "q1", "a", PLAIN_CALL, "ok"], ["s1", "3", "q2", "NA", "not json", "null"],
        ["s2 ", "1", " ", "中文", '[{"name": "a", "args": {}}]', "x\x01y"], ["S1", "x", "q3", "", "", "N/A"],
        ["", "", "q1", "a", "[]", ""], ["", "", "q1", "b", "", "None"], ["s5", "1", "q5", "", PLAIN_CALL, ""]],
    "a header in a first row's unread cell": [
        ["question", "answer", "notes"], ["q", "a", "Question"], ["q2", "b", "NA"]],
    "rows with only unread cells": [["session_id", "question", "answer", "notes"], ["", "", "an answer", "a note"],
                                     ["s1", "q", "", ""], ["", "", "", "NA"], ["", "", "", "a long note"]],
    "rows entirely empty, a header below one": [["question", "answer"], ["", ""], ["q", "a"], ["", ""], ["", ""],
                                                ["Question", "x"], ["q2", "b"], ["", ""]],
}


@pytest.mark.parametrize("rows", CASES.values(), ids=CASES.keys())
def test_files_read_hollow_report_the_same(tmp_path, monkeypatch, hollow, rows):
    path = tmp_path / "f.csv"
    write(path, rows)
    same_reports(path, monkeypatch)
    assert hollow and hollow[0] is not None  # read hollow indeed


WHOLE = {
    "an empty header at an edge": "question,answer,\nq,a,\n",
    "a ragged row": "question,answer\nq,a,c\n",
    "no question column": "prompt_text,answer\nq,a\n",
    "a quote never closed": 'question,answer\nq,"a\nb\n',
    "the SDK's history column": "prompt,reference,conversation_history\nq,a,[]\n",
    "a cell of a thousand lines (the reference reports it)": 'question,answer\nq,"' + "line\n" * MANY_LINES + '"\n',
    "a header cell of a thousand lines": 'question,"answer\n' + "line\n" * MANY_LINES + '"\nq,a\n',
}


@pytest.mark.parametrize("text", WHOLE.values(), ids=WHOLE.keys())
def test_what_a_hollow_read_could_get_wrong_is_read_whole(tmp_path, monkeypatch, hollow, text):
    path = tmp_path / "f.csv"
    path.write_text(text, encoding="utf-8")
    same_reports(path, monkeypatch)
    assert all(found is None for found in hollow)


@pytest.fixture
def arrow_opens(monkeypatch):
    """How many times pyarrow's CSV reader is opened (arrow_csv.open_records)."""
    import pyarrow.csv as pcsv

    opened, open_csv = [], pcsv.open_csv
    monkeypatch.setattr(pcsv, "open_csv", lambda *args, **kwargs: opened.append(1) or open_csv(*args, **kwargs))
    return opened


EXCEL_ROWS = [["session_id", "turn_id", "question", "answer", "expected_tool_calls", "notes"],
              *[[f"s{i}", "1", f"question {i}", "an answer", PLAIN_CALL, ""] for i in range(2000)]]


def test_a_trailing_empty_row_is_read_once(tmp_path, monkeypatch, hollow, arrow_opens):
    """As Excel writes a CSV (`,,,,,` last): the file is parsed once, hollow, in record batches of a few kB."""
    monkeypatch.setattr(arrow_report, "BLOCK_BYTES", 4096)
    path = tmp_path / "f.csv"
    write(path, [*EXCEL_ROWS, [""] * 6])
    whole = reports(path, monkeypatch, False)
    arrow_opens.clear()
    assert reports(path, monkeypatch, True) == whole
    assert hollow[0] is not None and len(arrow_opens) == 1


def test_a_ragged_row_is_parsed_by_pyarrow_once(tmp_path, monkeypatch, hollow, arrow_opens):
    """pyarrow refuses it as the hollow read gets there: the csv module reads the file next, not pyarrow again."""
    monkeypatch.setattr(arrow_report, "BLOCK_BYTES", 4096)
    path = tmp_path / "f.csv"
    write(path, [*EXCEL_ROWS, ["s", "1", "q", "a", "", "", "a seventh cell"]])
    whole = reports(path, monkeypatch, False)
    arrow_opens.clear()
    assert reports(path, monkeypatch, True) == whole
    assert not hollow and len(arrow_opens) == 1  # hollow_read raised Refused


@pytest.mark.parametrize("value", ["1\u0661", "\u0661", "1.\u0662", "1e\u0663", "\uff11"])
@pytest.mark.parametrize("report_only", [True, False], ids=["hollow", "whole"])
def test_a_digit_json_does_not_read_makes_invalid_tool_calls(tmp_path, monkeypatch, value, report_only):
    """Arabic-Indic and fullwidth digits: Python's `\\d` matches them, json.loads refuses them."""
    path = tmp_path / "f.csv"
    write(path, [["question", "expected_tool_calls"], ["q", PLAIN_CALL],
                 ["q2", '[{"name": "a", "arguments": {"n": ' + value + "}}]"]])
    assert reports(path, monkeypatch, report_only)[1].count('"invalid-tool-calls"') == 1


def test_a_workbook_target_reads_the_whole_table(tmp_path, monkeypatch, hollow):
    """Its rules look for control characters and lengths in every cell."""
    path = tmp_path / "f.csv"
    write(path, [["question", "answer"], ["q", "x\x01y"]])
    same_reports(path, monkeypatch, "evaluation-set")
    assert not hollow


def test_a_clean_file_makes_text_of_its_key_columns_only(tmp_path, monkeypatch):
    """2,000 rows, 10 with a literal null note, in record batches of a few kB: the other cells of the other
    columns are never made text."""
    monkeypatch.setattr(arrow_report, "BLOCK_BYTES", 4096)
    rows = [["session_id", "turn_id", "question", "answer", "expected_tool_calls", "notes"]]
    rows += [[f"s{i // 2}", str(i % 2 + 1), f"question {i}", f"answer {i} " * 5, PLAIN_CALL, "NA" if i % 200 == 7 else
              "a note long enough"] for i in range(2000)]
    path = tmp_path / "f.csv"
    write(path, rows)
    monkeypatch.setattr(delimited, "MIN_BYTES", 0)
    table = delimited.read_delimited(path, report_only=True)
    assert [row[:3] for row in table.rows] == [row[:3] for row in rows[1:]]
    assert sum(map(any, (row[3:] for row in table.rows))) == 10
    assert sum(row[5] == "NA" for row in table.rows) == 10


def test_the_command_line_reads_hollow_and_prints_the_same(tmp_path, monkeypatch, hollow, capsys):
    path = tmp_path / "f.csv"
    write(path, CASES["every rule a row can break"])
    for command in (["validate"], ["validate", "--format", "json"], ["shape"]):
        monkeypatch.setattr(delimited, "MIN_BYTES", 0)
        code = main([*command, str(path)])
        out = capsys.readouterr().out
        monkeypatch.setattr(delimited, "MIN_BYTES", 1 << 62)
        assert (main([*command, str(path)]), capsys.readouterr().out) == (code, out)
    assert len(hollow) == 3 and all(found is not None for found in hollow)


def test_cancel_and_progress_of_a_hollow_read(tmp_path, monkeypatch):
    path = tmp_path / "f.csv"
    write(path, [["question", "answer"], *[[f"q{i}", "an answer"] for i in range(50_000)]])
    monkeypatch.setattr(delimited, "MIN_BYTES", 0)
    calls = []
    delimited.read_delimited(path, progress=lambda done, total: calls.append((done, total)), report_only=True)
    assert calls[-1] == (path.stat().st_size,) * 2 and len(calls) >= 2
    with pytest.raises(Cancelled):
        delimited.read_delimited(path, cancel=lambda: True, report_only=True)


def test_without_pyarrow_the_whole_table_is_read(tmp_path, monkeypatch, hollow):
    monkeypatch.setitem(__import__("sys").modules, "pyarrow", None)  # import pyarrow raises ImportError
    path = tmp_path / "f.csv"
    write(path, CASES["every rule a row can break"])
    same_reports(path, monkeypatch)
    assert hollow == [None]


def test_a_pyarrow_whose_private_kernels_moved_reads_the_whole_table(tmp_path, monkeypatch, hollow):
    """The hollow read calls kernels through pyarrow._compute (not a documented module): where a pyarrow
    release no longer has them there, `validate` still reads the file, whole."""
    import pyarrow._compute

    monkeypatch.delattr(pyarrow._compute, "call_function")
    path = tmp_path / "f.csv"
    write(path, CASES["every rule a row can break"])
    same_reports(path, monkeypatch)
    assert hollow == [None]


def test_every_row_rule_is_filtered():
    """A new row rule must say how the hollow read keeps the cells it finds something in (FILTERED)."""
    assert {rule.rule for rule in checks.RULES} == set(arrow_report.FILTERED)


NAME_PIECES = ["a", "中", " ", "\u3000", "\u0661", "1", '"', "\\", "\x01", ":", ",", "{", "}"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(NAME_PIECES), max_size=4), st.lists(st.sampled_from(NAME_PIECES), max_size=4),
       st.sampled_from(["", " ", "\n"]))
def test_the_ascii_plain_form_is_read_alike_by_re2_and_matches_only_plain_calls(name, value, around):
    text = around + '[{"name": "' + "".join(name) + '", "arguments": {"k": ' + "".join(value) + "}}]"
    import re

    python = re.fullmatch(toolcalls.PLAIN_CALLS_ASCII, text) is not None
    assert pc.match_substring_regex(pa.array([text]), f"^(?:{toolcalls.PLAIN_CALLS_ASCII})$")[0].as_py() == python
    if python:
        assert toolcalls.PLAIN_CALLS.fullmatch(text) and toolcalls.problem(text) is None


def test_the_hollow_read_imports_neither_pandas_nor_pyarrow_compute(tmp_path):
    """Each would add a tenth of a second or more to `validate` (pandas imports pyarrow.compute, whose import
    writes a Python wrapper for each of its kernels): the hollow read calls the kernels through
    pyarrow._compute, and makes no pyarrow array from Python or numpy objects (pa.array imports pandas)."""
    import subprocess
    import sys

    path = tmp_path / "f.csv"
    write(path, CASES["every rule a row can break"])
    code = ("import sys\nfrom evaleditor.io.text import arrow_report, delimited\ndelimited.MIN_BYTES = 0\n"
            "read, hollow = arrow_report.hollow_read, []\n"
            "arrow_report.hollow_read = lambda *args: hollow.append(read(*args)) or hollow[-1]\n"
            "delimited.read_delimited(sys.argv[1], report_only=True)\n"
            "print(hollow[0] is not None, sorted({'pandas', 'pyarrow.compute'} & set(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parents[2]).stdout  # this checkout's package
    assert out.split("\n")[0] == "True []"
