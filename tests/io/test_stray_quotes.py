"""A stray quote in a text file silently merges rows: it is said (rule unclosed-quote) by both readers of
the file — the csv module and the pyarrow fast path — while multi-line cells that close their quotes,
as Excel writes them, are not suspects."""

from __future__ import annotations

import pytest

from evaleditor.io.text import delimited


@pytest.fixture(params=["csv module", "pyarrow"])
def read(request, monkeypatch):
    if request.param == "pyarrow":
        pytest.importorskip("pyarrow")
    monkeypatch.setattr(delimited, "MIN_BYTES", 0 if request.param == "pyarrow" else 1 << 62)

    def read(tmp_path, text: str):
        path = tmp_path / "t.csv"
        path.write_bytes(text.encode())
        return delimited.read_delimited(path)

    return read


def quote_notes(table):
    return [n for n in table.notes if n.rule == "unclosed-quote"]


def test_a_quote_open_at_the_end_of_the_file_is_said_with_its_line(tmp_path, read):
    table = read(tmp_path, 'question,answer\nq1,a1\n"oops,a2\nq3,a3\nq4,a4\n')
    assert len(table.rows) == 2
    [note] = quote_notes(table)
    assert (note.row, note.column) == (1, 0)
    assert "opens on line 3 and is never closed: the rest of the file (3 lines)" in note.message
    assert table.rows[1][0] == "oops,a2\nq3,a3\nq4,a4\n"  # the text itself is kept as read


def test_a_quote_open_in_the_last_cell_without_a_final_line_end(tmp_path, read):
    table = read(tmp_path, 'question,answer\nq1,a1\nq2,"a2\nq3,a3')
    [note] = quote_notes(table)
    assert (note.row, note.column) == (1, 1)
    assert table.rows[1] == ["q2", "a2\nq3,a3"]


def test_a_stray_quote_closed_later_by_another_is_said_when_its_row_lost_cells(tmp_path):
    """The quote opens in the first column and swallows rows until a later quote: the record is narrower
    than the header and the cell holds whole rows (the csv module reads it; pyarrow hands such a ragged
    file back to it)."""
    path = tmp_path / "t.csv"
    path.write_text('question,answer,notes\nq1,a1,n1\n"oops,a2,n2\nq3,a3,n3\nq4,a4,n4"\nq5,a5,n5\n')
    table = delimited.read_delimited(path)
    [note] = quote_notes(table)
    assert note.row == 1
    assert "opens on line 3 and holds 2 lines that look like rows" in note.message


MULTI_LINE_CELLS = {
    "Excel's export": 'question,answer\r\n"line 1\r\nline 2, with a comma",a\r\n"x","first, second\r\nthird, fourth"\r\n',
    "a short row whose cell holds no row": 'question,answer,notes\n"Explain:\nfirst, second, third",ans\n',
    "a last cell ending in a quote": 'question,answer\nq,"he said ""hi"""\n',
    "an empty quoted last cell": 'question,answer\nq,""\n',
    "an empty quoted last cell, no line end": 'question,answer\nq,""',
}


@pytest.mark.parametrize("text", MULTI_LINE_CELLS.values(), ids=MULTI_LINE_CELLS.keys())
def test_cells_that_close_their_quotes_are_not_suspects(tmp_path, read, text):
    assert not quote_notes(read(tmp_path, text))


def test_an_empty_file_and_a_header_alone_read_as_before(tmp_path, read):
    with pytest.raises(delimited.ReadError, match="empty"):
        read(tmp_path, "")
    table = read(tmp_path, "question,answer\n")
    assert table.headers == ["question", "answer"] and table.rows == [] and not table.notes
