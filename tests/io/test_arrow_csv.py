"""The CSV fast path (io/text/arrow_csv.py) reads every file exactly as the csv module reads it — the cells,
the headers, the notes, the errors — either by itself or by handing the file back to the reference reader."""

from __future__ import annotations

import codecs
import csv
import gc
import os
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaleditor.core import bulk, checks, validation
from evaleditor.core.bulk import columns_of
from evaleditor.core.checks import SHORT
from evaleditor.core.errors import Cancelled, ReadError
from evaleditor.core.targets import get_target
from evaleditor.io import budget
from evaleditor.io.load import load_document
from evaleditor.io.text import arrow_csv, delimited
from evaleditor.io.text.long_cells import MANY_LINES

pytest.importorskip("pyarrow")


def read(path, fast: bool, monkeypatch, **kwargs):
    """read_delimited with the fast path tried on any size (`fast`) or never; (table, or the one-line error)."""
    monkeypatch.setattr(delimited, "MIN_BYTES", 0 if fast else 1 << 62)
    try:
        return delimited.read_delimited(path, **kwargs)
    except ReadError as err:
        return str(err)


@pytest.fixture
def tried(monkeypatch):
    """What each call of arrow_records returned: rows, or None when it handed the file back."""
    results = []

    def spy(*args, **kwargs):
        results.append(arrow_csv.arrow_records(*args, **kwargs))
        return results[-1]

    monkeypatch.setattr(delimited, "arrow_records", spy)
    return results


def same_as_reference(path, monkeypatch, **kwargs):
    fast = read(path, True, monkeypatch, **kwargs)
    assert fast == read(path, False, monkeypatch, **kwargs)
    return fast


# files the fast path reads by itself: every way the csv module is lenient that pyarrow is lenient alike
PLAIN = {
    "quoted commas, newlines, quotes": 'question,answer\n"a, b","line 1\nline 2 ""quoted"""\n',
    "quote inside an unquoted cell": 'q,a\nsay a"b,c\n',
    "text after a closing quote": 'q,a\n"ab"cd,e\n',
    "CRLF and lone CR line ends": "q,a\r\n1,2\r3,4\r\n",
    "CRLF inside a quoted cell": 'q,a\r\n"x\r\ny",z\r\n',
    "whitespace kept": "q,a\n  padded  , \t\n",
    "blank lines and all-empty rows": "\n\nq,a\n\n,\n1,2\n\n",
    "text that looks like numbers, nulls, formulas": "q,a\n007,NA\n=1+1,1e5\nTRUE,\n",
    "semicolons": "frage;antwort\n1,5;2,5\n",
    "tabs": "q\ta\n1\t2\n",
    "Chinese and emoji": "问题,答案\n你好,世界 🙂\n",
    "form feed, vertical tab, U+2028 stay in cells": "q,a\nx\x0cy,z\x0bw\u2028v\n",
    "no line end at the end": "q,a\n1,2",
    "one column": "question\nwhat?\n\nwhy?\n",
    "a row longer than a block": "q,a\n" + "x" * (arrow_csv.BLOCK_BYTES + 10) + ',"y\nz"\n',
}


@pytest.mark.parametrize("text", PLAIN.values(), ids=PLAIN.keys())
@pytest.mark.parametrize("bom", [b"", codecs.BOM_UTF8])
def test_the_fast_path_reads_as_the_csv_module_does(tmp_path, monkeypatch, tried, text, bom):
    path = tmp_path / "t.csv"
    path.write_bytes(bom + text.encode())
    table = same_as_reference(path, monkeypatch)
    assert tried[0] is not None  # read by pyarrow itself, not handed back
    assert table.encoding == ("utf-8-sig" if bom else "utf-8")


HANDED_BACK = {
    "a row longer than the header": b"q,a\n1,2,3\n",
    "a row shorter than the header": b"q,a,b\n1,2\n",
    "a quote never closed (the reference says so)": b'q,a\nx,"never closed\nat all\n',
    "an empty quoted last cell, no line end (told apart by the reference)": b'q,a\nx,""',
    "not UTF-8 far into the file": b"q,a\n" + b"x,y\n" * 20_000 + b"caf\xe9,1\n",
    "a surrogate in UTF-8 form far into the file": b"q,a\n" + b"x,y\n" * 20_000 + b"a\xed\xa0\x80b,1\n",
    "an overlong form far into the file": b"q,a\n" + b"x,y\n" * 20_000 + b"a\xc0\x80b,1\n",
}


@pytest.mark.parametrize("data", HANDED_BACK.values(), ids=HANDED_BACK.keys())
def test_what_pyarrow_reads_otherwise_goes_to_the_reference(tmp_path, monkeypatch, tried, data):
    path = tmp_path / "t.csv"
    path.write_bytes(data)
    table = same_as_reference(path, monkeypatch)
    assert tried[0] is None
    assert not isinstance(table, str)


def test_a_stray_quote_that_swallows_rows_is_reported_by_the_reference_with_its_line(tmp_path, monkeypatch,
                                                                                      tried):
    path = tmp_path / "t.csv"
    path.write_text('q,a\nok,1\nbad,"oops\n' + "".join(f"row {i},{i}\n" for i in range(MANY_LINES + 5)))
    table = same_as_reference(path, monkeypatch)
    assert tried[0] is None
    assert [n.rule for n in table.notes] == ["unclosed-quote"]
    assert "line 3" in table.notes[0].message


def test_many_short_multiline_cells_stay_on_the_fast_path(tmp_path, monkeypatch, tried):
    """More than MANY_LINES line ends in a column, none of them many in one cell: nothing to report."""
    path = tmp_path / "t.csv"
    path.write_text("q,a\n" + "".join(f'"line 1\nline 2\nline {i}",{i}\n' for i in range(MANY_LINES)))
    same_as_reference(path, monkeypatch)
    assert tried[0] is not None


def test_a_cell_over_the_limit_is_refused_with_the_references_message(tmp_path, monkeypatch, tried):
    monkeypatch.setattr(budget, "MAX_CELL_CHARS", 1000)
    before = csv.field_size_limit(1000)
    try:
        path = tmp_path / "t.csv"
        path.write_text("q,a\n1,2\n" + "x" * 1001 + ",3\n")
        message = same_as_reference(path, monkeypatch)
    finally:
        csv.field_size_limit(before)
    assert isinstance(message, str) and "longer than 1,000 characters" in message
    assert tried[0] is None


def test_a_table_over_the_budget_is_refused_with_the_references_message(tmp_path, monkeypatch, tried):
    monkeypatch.setattr(budget, "max_cells", lambda columns=1: 100)
    path = tmp_path / "t.csv"
    path.write_text("q,a\n" + "x,y\n" * 2000)
    message = same_as_reference(path, monkeypatch)
    assert isinstance(message, str) and "more than 100 cells" in message
    assert tried[0] is None


def test_progress_and_cancel_on_the_fast_path(tmp_path, monkeypatch, tried):
    path = tmp_path / "t.csv"
    path.write_text("question,answer\n" + "a question of some length,an answer\n" * 100_000)
    size = os.path.getsize(path)
    calls = []
    table = read(path, True, monkeypatch, progress=lambda done, total: calls.append((done, total)))
    assert len(table.rows) == 100_000 and tried[0] is not None
    assert len(calls) >= 3 and calls[-1] == (size, size)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    with pytest.raises(Cancelled):
        read(path, True, monkeypatch, cancel=lambda: True)  # at the first of its blocks
    assert not [t for t in threading.enumerate() if t.name == "csv read-ahead"]  # the parsing thread stopped


def test_without_pyarrow_the_reference_reads(tmp_path, monkeypatch, tried):
    monkeypatch.setitem(__import__("sys").modules, "pyarrow", None)  # import pyarrow raises ImportError
    path = tmp_path / "t.csv"
    path.write_text("q,a\n1,2\n")
    assert read(path, True, monkeypatch).rows == [["1", "2"]]
    assert tried == [None]


def test_small_files_are_read_without_pyarrow(tmp_path, monkeypatch, tried):
    path = tmp_path / "t.csv"
    path.write_text("q,a\n1,2\n")
    delimited.read_delimited(path)
    assert tried == []


# generated files: any mix of the characters where the two parsers could disagree, free-form (mostly ragged:
# handed back) and as rows of one width (mostly read by pyarrow itself)
PIECES = ["a", "b", " ", "中", "é", ",", ";", "\t", '"', '""', "\n", "\r\n", "\r", "\x0c", "\u2028", "\ufeff"]
GENERATED = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def same_either_way(tmp_path, monkeypatch, data: bytes, suffix: str) -> None:
    path = tmp_path / f"g{suffix}"
    path.write_bytes(data)
    fast = read(path, True, monkeypatch)
    assert fast == read(path, False, monkeypatch)
    if not isinstance(fast, str) and fast.scans is not None:
        assert_scans_hold(fast)


def assert_scans_hold(table) -> None:
    """The scans the fast path learnt are what bulk.scan_column finds in the cells (`longest` at least)."""
    assert len(table.scans) == len(table.headers)
    for c, scan in enumerate(table.scans):
        found = bulk.scan_column([row[c] for row in table.rows], SHORT, control=False)
        assert scan.short == found.short and scan.control == found.control == []
        assert scan.texts == [row[c] for row in table.rows]
        assert scan.longest >= found.longest


@GENERATED
@given(st.lists(st.sampled_from(PIECES), max_size=60), st.booleans(), st.sampled_from([".csv", ".tsv"]))
def test_generated_text_reads_the_same_either_way(tmp_path, monkeypatch, pieces, bom, suffix):
    same_either_way(tmp_path, monkeypatch, (codecs.BOM_UTF8 if bom else b"") + "".join(pieces).encode(), suffix)


@st.composite
def tables(draw) -> bytes:
    """Rows of one width: cells quoted as a writer quotes them, bare, or any mix of pieces (stray quotes)."""
    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    width = draw(st.integers(1, 4))

    def cell() -> str:
        text = "".join(draw(st.lists(st.sampled_from(PIECES), max_size=5)))
        kind = draw(st.sampled_from(["quoted", "bare", "raw"]))
        if kind == "quoted":
            return '"' + text.replace('"', '""') + '"'
        return "".join(c for c in text if c not in '\r\n"' + delimiter) if kind == "bare" else text

    rows = [delimiter.join(cell() for _ in range(width)) for _ in range(draw(st.integers(1, 6)))]
    text = "".join(row + draw(st.sampled_from(["\n", "\r\n", "\r", "\n\n"])) for row in rows)
    return (codecs.BOM_UTF8 if draw(st.booleans()) else b"") + text[:len(text) - draw(st.integers(0, 1))].encode()


@GENERATED
@given(tables(), st.sampled_from([".csv", ".tsv", ".txt"]))
def test_generated_tables_read_the_same_either_way(tmp_path, monkeypatch, data, suffix):
    same_either_way(tmp_path, monkeypatch, data, suffix)


LENGTHS = ["", "a", "NA", "null", "None", "N/A", "nULL", "abcd", "abcde", " ", "中", "中文", "中文中文", "中文中文中",
           "🙂", "🙂🙂🙂🙂", "🙂🙂🙂🙂🙂", "é" * 4, "é" * 5, "x" * 40]


@GENERATED
@given(st.lists(st.lists(st.sampled_from(LENGTHS), min_size=3, max_size=3), min_size=1, max_size=40),
       st.integers(16, 256))
def test_the_columns_lengths_are_learnt_as_scan_column_finds_them(tmp_path, monkeypatch, tried, rows, block):
    """Texts around checks.SHORT characters in 1 to 4 bytes each, in record batches of any size."""
    monkeypatch.setattr(arrow_csv, "BLOCK_BYTES", block)
    path = tmp_path / "t.csv"
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([["q", "a", "b"], *rows])
    table = read(path, True, monkeypatch)
    if tried[-1] is not None and all(map(any, rows)):  # read by pyarrow (a batch of 16 bytes may be too
        assert table.scans is not None  # short for it); no row dropped as blank
        assert_scans_hold(table)


SCANS_DROPPED = {
    "a blank row dropped": "q,a\n1,2\n,\n3,4\n",
    "the header not first": ",\nq,a\n1,2\n",
    "an empty column at the edge": "q,a,\n1,2,\n",
}


@pytest.mark.parametrize("text", SCANS_DROPPED.values(), ids=SCANS_DROPPED.keys())
def test_no_scans_when_the_rows_are_not_the_records(tmp_path, monkeypatch, tried, text):
    path = tmp_path / "t.csv"
    path.write_text(text)
    assert same_as_reference(path, monkeypatch).scans is None
    assert tried[0] is not None


def test_the_reference_learns_no_scans(tmp_path, monkeypatch):
    path = tmp_path / "t.csv"
    path.write_text("q,a\n1,2\n")
    assert read(path, True, monkeypatch).scans is not None
    assert read(path, False, monkeypatch).scans is None


def issues_read(path, fast: bool, monkeypatch, target: str | None = None) -> list:
    monkeypatch.setattr(delimited, "MIN_BYTES", 0 if fast else 1 << 62)
    return load_document(path, target=target).validator.all_issues()


@pytest.mark.parametrize("target, headers", [(None, ["session_id", "turn_id", "question", "answer", "notes"]),
                                             ("evaluation-set", ["session_id", "request_id", "query", "answer", "notes"])])
def test_validation_takes_the_scans_instead_of_scanning_every_column(tmp_path, monkeypatch, target, headers):
    """The same issues as when the reference reads the file, without one more pass over each column's
    cells (bulk.scan_column) nor over the rows (bulk.columns_of); a workbook's rules (evaluation-set), which also ask for control characters,
    still scan."""
    path = tmp_path / "t.csv"
    rows = [headers]
    rows += [[f"s{i // 2}", str(i % 2 + 1), "问" * (1990 + i % 20), "答" * (4990 + i % 20), NOTES[i % len(NOTES)]]
             for i in range(40)]
    rows += [["", "", "NA", "null", "x\x01y"], ["s9 ", "x", " ", "", "None"]]
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    expected = issues_read(path, False, monkeypatch, target)
    workbook = target is not None and get_target(target).workbook_only
    assert {"literal-null-text", "empty-question", "whitespace-in-session-id"} <= {i.rule for i in expected}
    if workbook:
        assert {"question-too-long", "answer-too-long", "control-character"} <= {i.rule for i in expected}
    scanned, transposed = [], []
    monkeypatch.setattr(checks, "scan_column", lambda *a: scanned.append(1) or bulk.scan_column(*a))
    monkeypatch.setattr(bulk, "columns_of", lambda *a: transposed.append(1) or columns_of(*a))
    assert issues_read(path, True, monkeypatch, target) == expected
    assert len(scanned) == (len(headers) if workbook else 0)
    assert not transposed  # the columns as read, not the rows turned into columns again


NOTES = ["", "N/A", "nan", "NaN", "a note", "中文中文", "🙂🙂🙂🙂🙂"]


def scans_holding_texts(rows: int) -> list:
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, bulk.ColumnScan) and o.texts is not None and len(o.texts) == rows]


@pytest.mark.parametrize("deferred", [False, True])
def test_the_columns_texts_are_held_only_until_validation_has_taken_them(tmp_path, monkeypatch, deferred):
    """8 bytes a cell: validation lets the reader's column lists go before it builds its indexes (no scan still
    holds them), and a window, whose check in slices does not take them, has none kept at all."""
    path = tmp_path / "t.csv"
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([["question", "answer"], *([f"q{i}", "a"] for i in range(37))])
    monkeypatch.setattr(delimited, "MIN_BYTES", 0)
    read_scans, held = [], []
    real_scans, real_index = arrow_csv.ColumnsRead.scans, validation.Validator._index_questions

    def scans(self, grid):
        read_scans.append(real_scans(self, grid))
        read_scans.append([scan.texts for scan in read_scans[-1]])
        return read_scans[0]

    def index_questions(self, questions):
        held.append(scans_holding_texts(37))
        return real_index(self, questions)

    monkeypatch.setattr(arrow_csv.ColumnsRead, "scans", scans)
    monkeypatch.setattr(validation.Validator, "_index_questions", index_questions)
    doc = load_document(path, deferred=deferred)
    texts = read_scans.pop()
    if deferred:
        assert texts == [None, None]
        doc.validator.finish_checking()
    else:
        assert len(texts) == 2 and all(len(t) == 37 for t in texts)  # the reader kept them for validation
    del texts
    assert held == [[]]
    assert len(doc.validator.all_issues()) == len(load_document(path).validator.all_issues())
