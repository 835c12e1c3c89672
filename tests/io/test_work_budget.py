"""Hostile files that are small on disk but huge once read (issue 14's table, scaled down with the
same shape): each is refused with one line after bounded work — rows kept, bytes read, nothing built
past the refusal — never by a timed assertion."""

import csv
import json
import os

import pytest

from evaleditor.core.errors import ReadError
from evaleditor.io import budget, read_table
from evaleditor.io.load import load_document
from evaleditor.io.sdk import read as sdk_read
from evaleditor.io.text import delimited


def refused(path) -> str:
    with pytest.raises(ReadError) as info:
        read_table(path)
    assert "\n" not in str(info.value)
    return info.value.reason


@pytest.fixture
def rows_seen(monkeypatch):
    """The largest row count the budget was asked about while reading."""
    seen = [0]
    real = budget.check_table

    def spy(path, rows, columns, limit=None):
        seen[0] = max(seen[0], rows)
        return real(path, rows, columns, limit)

    monkeypatch.setattr(budget, "check_table", spy)
    return seen


def test_millions_of_tiny_rows_stop_at_the_row_limit(tmp_path, monkeypatch, rows_seen):
    monkeypatch.setattr(budget, "MAX_ROWS", 5_000)
    path = tmp_path / "rows.csv"
    path.write_bytes(b"q,a\n" * 50_000)  # 10M rows of `q,a` in the issue
    assert refused(path).startswith("the file has more than 5,000 rows")
    assert rows_seen[0] <= 5_000 + 1_000  # one batch past the limit, not the whole file


def test_a_million_columns_in_the_header_are_refused_before_the_grid_is_built(tmp_path, monkeypatch):
    path = tmp_path / "wide.csv"
    path.write_text(",".join(f"c{i}" for i in range(budget.MAX_COLUMNS + 10)) + "\nq\n")

    def built(*_args, **_kwargs):
        raise AssertionError("the grid was built")

    monkeypatch.setattr(delimited, "build_grid", built)
    assert refused(path) == budget.TOO_MANY_COLUMNS.format(columns=budget.MAX_COLUMNS + 10,
                                                           limit=budget.MAX_COLUMNS)


def test_cells_beyond_the_memory_budget_are_refused(tmp_path, monkeypatch, rows_seen):
    monkeypatch.setattr(budget, "memory_budget", lambda: 4_000_000)  # a small container
    limit = budget.max_cells(4)
    path = tmp_path / "cells.csv"
    path.write_bytes(b"question,answer,context,notes\n" + b"q,a,c,n\n" * (limit // 2))
    assert refused(path).startswith(f"the file holds more than {limit:,} cells")
    assert rows_seen[0] * 4 <= limit + 4 * 1_000


def test_one_enormous_line_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    monkeypatch.setattr(budget, "MAX_LINE_BYTES", 256 * 1024)
    path = tmp_path / "line.csv"
    path.write_bytes(b"question,answer\n" + b"x" * (3 << 20))  # one 1 GB line in the issue

    def parsed(*_args, **_kwargs):
        raise AssertionError("the line was parsed")

    monkeypatch.setattr(delimited, "collect", parsed)
    assert refused(path) == budget.LINE_TOO_LONG.format(line=2, limit="256.0 KB")


def test_an_ordinary_big_file_is_probed_not_read_for_its_line_lengths(tmp_path, monkeypatch):
    path = tmp_path / "rows.csv"
    path.write_bytes(b"question,answer\n" + b"a question,an answer\n" * 200_000)  # 4.2 MB
    monkeypatch.setattr(budget, "MAX_LINE_BYTES", 256 * 1024)
    reads = []
    real_open = open

    def counting_open(*args, **kwargs):
        handle = real_open(*args, **kwargs)
        real_read = handle.read

        def read(n=-1):
            data = real_read(n)
            reads.append(len(data))
            return data

        handle.read = read
        return handle

    monkeypatch.setattr("builtins.open", counting_open)
    budget.check_line_lengths(path)
    assert sum(reads) <= 33 * 64 * 1024  # one 64 KB probe per 128 KB window: not the whole file
    assert sum(reads) < path.stat().st_size


def test_line_lengths_are_checked_inside_a_chunk_and_across_chunks(tmp_path):
    path = tmp_path / "lines.txt"
    path.write_bytes(b"short\n" + b"y" * 5000 + b"\nshort\n")
    budget.check_line_lengths(path, limit=5000)
    with pytest.raises(ReadError, match="line 2 is longer"):
        budget.check_line_lengths(path, limit=4999)
    path.write_bytes(b"a\n" * 10 + b"z" * ((1 << 20) + 10) + b"\n")
    with pytest.raises(ReadError, match="line 11 is longer"):
        budget.check_line_lengths(path, limit=1 << 20)


@pytest.mark.parametrize("case", [b"{}", b"null"])
def test_millions_of_empty_cases_are_refused_before_rows_are_built(tmp_path, monkeypatch, case):
    monkeypatch.setattr(budget, "MAX_ROWS", 2_000)
    path = tmp_path / "cases.json"
    path.write_bytes(b'{"eval_cases": [' + b",".join([case] * 20_000) + b"]}")

    def tabled(*_args, **_kwargs):
        raise AssertionError("rows were built")

    monkeypatch.setattr(sdk_read, "_table", tabled)
    assert refused(path) == budget.TOO_MANY_CASES.format(cases=20_000, limit=2_000)


def test_a_json_file_larger_than_memory_allows_is_refused_unread(tmp_path, monkeypatch):
    path = tmp_path / "sparse.json"
    with open(path, "wb") as f:  # a sparse file: 64 MB on paper, nothing on disk
        f.write(b'{"eval_cases": [')
        f.truncate(64 << 20)
    monkeypatch.setattr(budget, "memory_budget", lambda: 100 << 20)

    def read(*_args, **_kwargs):
        raise AssertionError("the file was read")

    monkeypatch.setattr(sdk_read, "decode_text", read)
    assert refused(path).startswith("the file is too large to open (64.0 MB of JSON takes about 256.0 MB")


def test_the_container_limit_counts_not_the_hosts(tmp_path, monkeypatch):
    (tmp_path / "memory.max").write_text("3000000000\n")
    (tmp_path / "memory.stat").write_text("file 5000\nanon 1000000000\n")
    monkeypatch.setattr(budget, "_cgroup_dirs", lambda: [str(tmp_path)])
    monkeypatch.setattr(budget, "_meminfo_available", lambda: 20_000_000_000)
    assert budget.cgroup_room() == 2_000_000_000
    assert budget.available_memory() == 2_000_000_000
    (tmp_path / "memory.max").write_text("max\n")
    assert budget.cgroup_room() is None
    assert budget.available_memory() == 20_000_000_000


def test_an_address_space_limit_counts_too(monkeypatch):
    import resource

    monkeypatch.setattr(budget, "_meminfo_available", lambda: 20_000_000_000)
    monkeypatch.setattr(budget, "cgroup_room", lambda: None)
    monkeypatch.setattr(resource, "getrlimit", lambda _which: (3_000_000_000, resource.RLIM_INFINITY))
    room = budget.available_memory()
    assert 0 < room < 3_000_000_000  # less what the interpreter has mapped already


def test_an_ordinary_table_is_well_within_every_limit(tmp_path):
    path = tmp_path / "ok.csv"
    path.write_bytes(b"question,answer\n" + b"q,a\n" * 5_000)
    assert len(read_table(path).rows) == 5_000


# ----- a stray quote --------------------------------------------------------------------------------
def _lines(n):
    return ["question,answer"] + [f"q{i},a{i}" for i in range(1, n + 1)]


def test_a_stray_quote_that_swallows_the_rest_says_where_it_opened(tmp_path):
    lines = _lines(3_000)
    lines[100] = 'q100,"a100 with a stray quote'
    path = tmp_path / "stray.csv"
    path.write_text("\n".join(lines) + "\n")
    doc = load_document(path)
    assert len(doc.dataset.rows) == 100  # the rest is inside the cell, as Excel reads it too
    [issue] = [i for i in doc.validator.all_issues() if i.rule == "unclosed-quote"]
    assert issue.severity == "warning"
    assert doc.dataset.position(issue.row_id) == 99
    assert "opens on line 101 and is never closed: the rest of the file (2,901 lines)" in issue.message


def test_long_multi_line_cells_that_close_their_quotes_are_not_suspects(tmp_path):
    answer = '"' + "\n".join(f"step {i}" for i in range(50)) + '"'
    path = tmp_path / "steps.csv"
    path.write_text("question,answer\n" + "".join(f"q{i},{answer}\n" for i in range(300)))
    doc = load_document(path)
    assert len(doc.dataset.rows) == 300
    assert not [i for i in doc.validator.all_issues() if i.rule == "unclosed-quote"]


def test_a_cell_over_the_field_limit_is_refused_with_the_line_it_starts_on(tmp_path):
    lines = _lines(50)
    lines[20] = 'q20,"' + "x" * 3000
    path = tmp_path / "long.csv"
    path.write_text("\n".join(lines) + "\n")
    old = csv.field_size_limit(2000)
    try:
        reason = refused(path)
    finally:
        csv.field_size_limit(old)
    assert reason == budget.CELL_TOO_LONG.format(line=21, limit=budget.MAX_CELL_CHARS)


# ----- SDK JSON: a key given twice -------------------------------------------------------------------
def test_a_second_eval_cases_key_is_said_and_the_last_is_read(tmp_path):
    path = tmp_path / "twice.json"
    a, b, c = (json.dumps({"prompt": {"role": "user", "parts": [{"text": t}]}}) for t in "abc")
    path.write_text(f'{{"eval_cases": [{a}], "eval_cases": [{b}, {c}]}}')
    doc = load_document(path)
    assert [r.cells[0] for r in doc.dataset.rows] == ["b", "c"]
    [issue] = [i for i in doc.validator.all_issues() if i.rule == "duplicate-json-key"]
    assert issue.severity == "warning"
    assert '"eval_cases" is given 2 times (1 case, then 2 cases): only the last is read' in issue.message


def _repeats(path):
    from evaleditor import api

    doc = api.open(path)
    return doc, [i for i in doc.issues if i.rule == "duplicate-json-key"]


def test_a_case_field_given_twice_is_said_on_its_row_and_column(tmp_path):
    path = tmp_path / "twice.json"
    path.write_text('{"eval_cases": [{"prompt": {"role": "user", "parts": [{"text": "a"}]}},'
                    ' {"eval_case_id": "x", "prompt": {"role": "user", "parts": [{"text": "hi"}]},'
                    ' "prompt": {"role": "user", "parts": [{"text": "dup"}]}}]}')
    doc, [issue] = _repeats(path)
    assert list(doc.to_pandas()["question"]) == ["a", "dup"]  # the last is read, as the SDK reads it
    assert (issue.severity, issue.row, issue.column) == ("warning", 2, "question")
    assert issue.message.startswith('eval_cases.1.prompt: the key "prompt" is given 2 times (object, then object): '
                                    "only the last is read")


def test_a_case_id_given_twice_is_said_on_its_column(tmp_path):
    path = tmp_path / "twice.json"
    path.write_text('{"eval_cases": [{"eval_case_id": "a", "eval_case_id": "b", '
                    '"prompt": {"role": "user", "parts": [{"text": "q"}]}}]}')
    doc, [issue] = _repeats(path)
    assert list(doc.to_pandas()["eval_case_id"]) == ["b"]
    assert (issue.row, issue.column) == (1, "eval_case_id")
    assert '"eval_case_id" is given 2 times (string, then string)' in issue.message


def test_a_key_given_twice_deeper_in_a_case_is_said_on_its_row(tmp_path):
    path = tmp_path / "twice.json"
    path.write_text('{"eval_cases": [{"prompt": {"role": "user", "parts": [{"text": "hi", "text": "dup"}]},'
                    ' "reference": {"response": {"role": "model", "parts": [{"text": "x"}]}}}]}')
    doc, [issue] = _repeats(path)
    assert (issue.row, issue.column) == (1, "question")
    assert issue.message.startswith('eval_cases.0.prompt.parts.0.text: the key "text" is given 2 times')


def test_a_key_given_twice_in_the_records_form_is_said(tmp_path):
    path = tmp_path / "records.json"
    path.write_text('{"eval_dataset_df": [{"prompt": "hi", "prompt": "dup"}]}')
    doc, [issue] = _repeats(path)
    assert list(doc.to_pandas()["question"]) == ["dup"]
    assert issue.message.startswith('eval_dataset_df.0.prompt: the key "prompt" is given 2 times (string, then string)')


def test_a_key_given_twice_under_a_root_key_of_digits_is_said_in_the_records_form(tmp_path):
    """With no case list at the root, "7" is a key like "meta", not case 7: its repeat is said, not
    dropped as if it belonged to a case that has no row."""
    path = tmp_path / "records.json"
    path.write_text('{"eval_dataset_df": [{"prompt": "hi"}], "7": {"a": 1, "a": 2}}')
    doc, [issue] = _repeats(path)
    assert issue.row is None and issue.message.startswith('7.a: the key "a" is given 2 times')


def test_keys_inside_cases_are_not_looked_for_in_a_big_file(tmp_path, monkeypatch):
    """Looking for them makes parsing a third slower (sdk/parse.py): a big file is read as before."""
    path = tmp_path / "twice.json"
    path.write_text('{"eval_cases": [{"prompt": {"role": "user", "parts": [{"text": "hi", "text": "dup"}]}}]}')
    monkeypatch.setattr(sdk_read, "REPEATS_CHECKED_UP_TO", os.path.getsize(path) - 1)
    doc, issues = _repeats(path)
    assert list(doc.to_pandas()["question"]) == ["dup"] and issues == []


def test_json_without_repeated_keys_parses_as_json_does(tmp_path):
    path = tmp_path / "once.json"
    path.write_text('{"eval_cases": [{"prompt": {"role": "user", "parts": [{"text": "a"}]}}]}')
    doc = load_document(path)
    assert not [i for i in doc.validator.all_issues() if i.rule == "duplicate-json-key"]
    assert os.path.getsize(path) > 0
