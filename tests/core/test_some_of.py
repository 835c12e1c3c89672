"""Messages naming rows or conversations name the first ones and say when there are more
(core/report.some_of: the window, convert and the platform writers all use it)."""

from evaleditor.core.report import some_of


def test_some_of_names_the_first_ones_and_says_there_are_more():
    assert some_of([3, 7]) == "3, 7" and some_of([]) == ""
    assert some_of(range(1, 12)) == "1, 2, 3, 4, 5, 6, 7, 8, 9, 10 \u2026"
    assert some_of(["conv-a", "conv-b", "conv-c"], 2) == "conv-a, conv-b \u2026"
