"""Clipboard TSV as Excel and LibreOffice write it (core/tsv.py), without Qt."""

from hypothesis import given
from hypothesis import strategies as st

from evaleditor.core.tsv import parse_tsv, quote_cell, to_tsv


def test_excel_block_with_quoted_multiline_cell():
    text = 'a\t"two\nlines"\r\n"say ""hi"""\t\r\n'
    assert parse_tsv(text) == [["a", "two\nlines"], ['say "hi"', ""]]


def test_libreoffice_lf_endings_and_no_final_newline():
    assert parse_tsv("a\tb\nc\td") == [["a", "b"], ["c", "d"]]


def test_single_cell_and_empty():
    assert parse_tsv("x") == [["x"]]
    assert parse_tsv("x\r\n") == [["x"]]
    assert parse_tsv("") == []
    assert parse_tsv("\r\n") == [[""]]


def test_quote_in_the_middle_of_a_cell_is_literal():
    assert parse_tsv('5" screen\tok\n') == [['5" screen', "ok"]]


def test_tabs_inside_quotes_stay_in_the_cell():
    assert parse_tsv('"a\tb"\tc') == [["a\tb", "c"]]


def test_unterminated_quote_keeps_the_rest():
    assert parse_tsv('"abc\tdef') == [['"abc\tdef']]


def test_quote_cell_only_when_needed():
    assert quote_cell("plain") == "plain"
    assert quote_cell("a\tb") == '"a\tb"'
    assert quote_cell('x"y') == '"x""y"'
    assert to_tsv([["a", "b\nc"]]) == 'a\t"b\nc"\r\n'


cells = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)


@given(st.lists(st.lists(cells, min_size=1, max_size=4), min_size=1, max_size=5).filter(
    lambda g: len({len(r) for r in g}) == 1))
def test_round_trip(grid):
    assert parse_tsv(to_tsv(grid)) == grid
