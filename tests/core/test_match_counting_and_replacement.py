"""Find/replace on big files (no Qt): the count a few rows at a time, with the matches in the
rows a filter hides; "find next" stopping at the first match; a bad replacement said before anything
is replaced."""

import re

import pytest

from evaleditor.core.search import (
    FindQuery,
    check_replacement,
    count_matches,
    find_cells,
    find_next_cell,
    replace_all_command,
    replace_cells_command,
)
from tests.core.conftest import make_doc

H = ["session_id", "turn_id", "question", "answer"]


def big_doc(n=500):
    rows = [[f"s{i // 4}", str(i % 4 + 1), f"Refund {i}" if i % 3 == 0 else f"question {i}",
             "refund refund" if i % 7 == 0 else ""] for i in range(n)]
    return make_doc(H, rows)


QUERIES = [FindQuery("refund"), FindQuery("Refund", match_case=True), FindQuery(r"s1\d", regex=True),
           FindQuery("s12", whole_cell=True), FindQuery(r".*", regex=True, whole_cell=True), FindQuery("1")]


@pytest.mark.parametrize("query", QUERIES)
def test_counting_a_chunk_at_a_time_ends_with_what_find_cells_finds(query):
    ds = big_doc().dataset
    steps = list(count_matches(ds, query, chunk_cells=40))
    assert len(steps) > 10  # the count stopped between chunks, more than once
    last = steps[-1]
    assert last.complete and last.done and last.hidden is None
    found = find_cells(ds, query)
    assert (last.matches, last.cells) == (found.matches, found.cells)


def test_partial_counts_grow_and_say_they_are_not_done():
    ds = big_doc().dataset
    seen = []
    for count in count_matches(ds, FindQuery("refund"), chunk_cells=40):
        seen.append((count.matches, count.done, count.complete))
    assert [m for m, _, _ in seen] == sorted(m for m, _, _ in seen)
    assert not seen[0][1] and seen[-1][1:] == (True, True)


def test_with_a_filter_it_counts_the_visible_rows_then_the_hidden_ones():
    ds = big_doc().dataset
    query = FindQuery("refund")
    visible = [r.id for r in ds.rows if r.cells[0] in ("s3", "s40", "s7")]  # any order: e.g. a filter's
    steps = list(count_matches(ds, query, visible, hidden=True, chunk_cells=40))
    done_at = next(i for i, c in enumerate(steps) if c.done)
    assert done_at < len(steps) - 1  # the visible rows are counted (and can be shown) before the hidden ones
    last = steps[-1]
    shown = find_cells(ds, query, visible)
    assert (last.matches, last.cells) == (shown.matches, shown.cells)
    assert last.complete and last.hidden == find_cells(ds, query).matches - shown.matches > 0


def test_count_matches_says_a_bad_regex_at_once_and_an_empty_pattern_counts_nothing():
    ds = big_doc().dataset
    with pytest.raises(ValueError, match="invalid regular expression"):
        count_matches(ds, FindQuery("(", regex=True))
    steps = list(count_matches(ds, FindQuery(""), [1, 2], hidden=True))
    assert len(steps) == 1 and steps[0].complete and steps[0].matches == 0 and steps[0].hidden == 0


def cats(rows=(["s1", "1", "a cat", "cat"], ["s1", "2", "dog", "dog"], ["s2", "1", "", "Cat!"])):
    """A dataset, its row ids, and the ids of its question and answer columns."""
    ds = make_doc(H, [list(r) for r in rows]).dataset
    return ds, [r.id for r in ds.rows], ds.columns[2].id, ds.columns[3].id


def test_find_next_goes_in_reading_order_and_round_to_the_start():
    ds, ids, q, a = cats()
    query = FindQuery("cat")
    assert find_next_cell(ds, query, (-1, -1)) == (ids[0], q)
    assert find_next_cell(ds, query, (0, 2)) == (ids[0], a)
    assert find_next_cell(ds, query, (0, 3)) == (ids[2], a)
    assert find_next_cell(ds, query, (2, 3)) == (ids[0], q)  # round to the start
    assert find_next_cell(ds, FindQuery("Cat!"), (2, 3)) == (ids[2], a)  # the only match: stays there
    assert find_next_cell(ds, FindQuery("cat", column_id=a), (0, 3)) == (ids[2], a)
    assert find_next_cell(ds, FindQuery("cat", whole_cell=True), (0, 3)) == (ids[0], a)
    assert find_next_cell(ds, FindQuery("horse"), (1, 1)) is None
    # among the rows shown (a row not among them is between its neighbours)
    assert find_next_cell(ds, query, (0, 3), [ids[0], ids[2]]) == (ids[2], a)
    assert find_next_cell(ds, query, (1, 0), [ids[0], ids[2]]) == (ids[2], a)
    assert find_next_cell(ds, query, (1, 0), [ids[0], ids[2]], backward=True) == (ids[0], a)
    assert find_next_cell(ds, query, (-1, -1), [ids[1]]) is None
    with pytest.raises(ValueError, match="invalid regular expression"):
        find_next_cell(ds, FindQuery("[", regex=True), (0, 0))


def test_find_previous_goes_back_in_reading_order_and_round_to_the_end():
    ds, ids, q, a = cats()
    query = FindQuery("cat")
    assert find_next_cell(ds, query, (-1, -1), backward=True) == (ids[2], a)  # no current cell: the last
    assert find_next_cell(ds, query, (2, 3), backward=True) == (ids[0], a)
    assert find_next_cell(ds, query, (0, 3), backward=True) == (ids[0], q)
    assert find_next_cell(ds, query, (0, 2), backward=True) == (ids[2], a)  # round to the end
    assert find_next_cell(ds, FindQuery("Cat!"), (2, 3), backward=True) == (ids[2], a)


def test_find_within_cells_skips_the_others_and_goes_round_inside_them():
    ds, ids, q, a = cats((["s1", "1", "a cat", "cat"], ["s1", "2", "cat", "dog"], ["s2", "1", "cat", "Cat!"]))
    within = {(ids[0], a), (ids[1], q), (ids[2], a)}  # every column matches: only these are found
    rows = ids  # the selection's rows, in file order
    query = FindQuery("cat")
    found, at = [], (0, 3)
    for _ in range(4):
        hit = find_next_cell(ds, query, at, rows, within=within)
        found.append(hit)
        at = ds.position(hit[0]), ds.column_position(hit[1])
    assert found == [(ids[1], q), (ids[2], a), (ids[0], a), (ids[1], q)]
    assert find_next_cell(ds, query, (1, 2), rows, within=within, backward=True) == (ids[0], a)
    assert find_next_cell(ds, query, (0, 3), rows, within=within, backward=True) == (ids[2], a)


@pytest.mark.parametrize("template, reason", [(r"\3", "invalid group reference 3"),
                                              (r"\g<name>", "unknown group name"),
                                              (r"\q", "bad escape")])
def test_a_bad_replacement_is_said_before_any_cell_is_replaced(template, reason):
    query = FindQuery(r"(\w+) in Paris", regex=True)
    with pytest.raises(ValueError, match=f"invalid replacement: {re.escape(reason)}"):
        check_replacement(query, template)  # from the pattern alone
    with pytest.raises(ValueError, match="invalid replacement"):
        check_replacement(query, template, "Weather in Paris?")
    with pytest.raises(ValueError, match="invalid replacement"):  # also when no cell matches
        replace_all_command(make_doc(H, [["s1", "1", "no match", ""]]).dataset, query, template)


def test_good_and_literal_replacements_pass():
    check_replacement(FindQuery(r"(\w+) in Paris", regex=True), r"\1 in Rome", "Weather in Paris?")
    check_replacement(FindQuery(r"(?P<w>\w+)", regex=True, whole_cell=True), r"<\g<w>>", "word")
    check_replacement(FindQuery("Paris"), r"\3 $&", "Paris")  # not a regex: the text as it is


def test_replacing_the_cells_a_count_found_is_replace_all():
    d1, d2 = big_doc(), big_doc()
    query = FindQuery(r"refund (\d+)", regex=True)
    *_, counted = count_matches(d1.dataset, query, chunk_cells=40)
    cmd1, n1 = replace_cells_command(d1.dataset, query, r"R-\1", counted.cells)
    cmd2, n2 = replace_all_command(d2.dataset, query, r"R-\1")
    assert n1 == n2 == counted.matches > 0
    cmd1.apply(d1.dataset)
    cmd2.apply(d2.dataset)
    assert [r.cells for r in d1.dataset.rows] == [r.cells for r in d2.dataset.rows]
