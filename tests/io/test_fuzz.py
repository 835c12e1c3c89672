"""Hostile files: valid seeds of every format, mutated (bytes flipped, cut, inserted, chunks duplicated,
parts of a workbook's zip mutated and re-zipped), must give a RawTable or a one-line EvalEditorError —
never another exception, never a memory blow-up (the slowest read is reported, not asserted).

CI runs 150 inputs per format; EVALEDITOR_FUZZ_EXAMPLES=5000 runs more. Reads raising from the last
guard of `read_table` (an unexpected exception inside our code) fail the test too: the guard keeps the
user safe, but each such case is a reader bug to fix.
"""

from __future__ import annotations

import ast
import os
import resource
import tempfile
import time
import traceback
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaleditor.core.errors import EvalEditorError
from evaleditor.core.table import RawTable
from evaleditor.io import read_table
from tests.io import fuzz_seeds

EXAMPLES = int(os.environ.get("EVALEDITOR_FUZZ_EXAMPLES", "150"))
PY_MEMORY_LIMIT = 256 << 20  # peak Python allocations per read (tracemalloc)
RSS_GROWTH_LIMIT = 1 << 30  # growth of the process's peak resident memory over the whole run
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("EVALEDITOR_FUZZ_RANDOM") != "1",
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
INTERESTING = [b"\x00", b"\xff", b"\xff\xff\xff\xff", b"\x00\x00\x00\x00", b"\x7f\xff\xff\xff", b"\x80\x00",
               b"\xfe\xff", b"PK\x03\x04", b"PK\x01\x02", b'"', b"\r\n", b"\n\n", b",", b";", b"\t",
               b"<!DOCTYPE x [<!ENTITY a 'b'>]>", b"&a;", b"<", b"]]>", b'r="XFD1048576"', b'r="A0"',
               b"9" * 20, b"-1", b"1e308", b"{", b"[" * 50, b"\xef\xbb\xbf", b"\xc3", b"\xed\xa0\x80"]

_SEEDS: dict[str, dict[str, bytes]] = {}
_STATS: dict[str, dict[str, float]] = {}
_RSS_START = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def seeds(fmt: str) -> dict[str, bytes]:
    if fmt not in _SEEDS:
        with tempfile.TemporaryDirectory() as tmp:
            _SEEDS[fmt] = getattr(fuzz_seeds, f"{fmt}_seeds")(Path(tmp))
    return _SEEDS[fmt]


def position(data: bytes | bytearray, at: float) -> int:
    return min(len(data), int(at * len(data)))


fraction = st.floats(0, 1)
operation = st.one_of(
    st.tuples(st.just("flip"), fraction, st.integers(1, 255)),
    st.tuples(st.just("truncate"), fraction),
    st.tuples(st.just("insert"), fraction, st.binary(min_size=1, max_size=64)),
    st.tuples(st.just("duplicate"), fraction, st.integers(1, 4096), fraction),
    st.tuples(st.just("overwrite"), fraction, st.sampled_from(INTERESTING)),
)


def mutate(data: bytes, ops) -> bytes:
    out = bytearray(data)
    for op in ops:
        kind, at = op[0], position(out, op[1])
        if kind == "flip" and out:
            i = min(at, len(out) - 1)
            out[i] ^= op[2]
        elif kind == "truncate":
            del out[at:]
        elif kind == "insert":
            out[at:at] = op[2]
        elif kind == "duplicate":
            chunk = bytes(out[at:at + op[2]])
            dest = position(out, op[3])
            out[dest:dest] = chunk
        elif kind == "overwrite":
            out[at:at + len(op[2])] = op[2]
    return bytes(out)


def column_letters(n: int) -> str:
    letters = ""
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


# a cell reference moved anywhere in the sheet's range (reaches the area check, extent.py)
reference = st.tuples(st.just("reference"), fraction, st.integers(1, 16384), st.integers(1, 1048576))


def move_reference(xml: bytes, op) -> bytes:
    starts = [i for i in range(len(xml) - 3) if xml.startswith(b'r="', i)]
    if not starts:
        return xml
    at = starts[min(len(starts) - 1, int(op[1] * len(starts)))] + 3
    end = xml.find(b'"', at)
    return xml[:at] + f"{column_letters(op[2])}{op[3]}".encode() + xml[end:] if end > 0 else xml


json_value = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)


def nodes(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from nodes(v, (*path, i))


@st.composite
def json_tree_mutation(draw, data: bytes) -> bytes:
    """The seed parsed, one node replaced, removed or doubled (structure-aware: reaches sdk_read)."""
    import json

    tree = json.loads(data)
    for _ in range(draw(st.integers(1, 3))):
        paths = list(nodes(tree))
        path = paths[draw(st.integers(0, len(paths) - 1))]
        if not path:
            tree = draw(json_value)
            continue
        parent = tree
        for key in path[:-1]:
            parent = parent[key]
        key, action = path[-1], draw(st.sampled_from(["replace", "remove", "double"]))
        if action == "replace":
            parent[key] = draw(json_value)
        elif isinstance(parent, dict) and action == "remove":
            del parent[key]
        elif isinstance(parent, list):
            parent.insert(key, parent[key] if action == "double" else draw(json_value))
        else:
            parent[draw(st.sampled_from(["eval_case_id", "prompt", "reference", "agent_data", "turns",
                                         "parts", "text", "role", "function_call", "source_case_id",
                                         "source_turn_index", "evalCases", "x"]))] = parent[key]
    return json.dumps(tree).encode()


@st.composite
def mutated(draw, fmt: str):
    chosen = seeds(fmt)
    name = draw(st.sampled_from(sorted(chosen)))
    data = chosen[name]
    if fmt == "json" and draw(st.booleans()):
        return name, draw(json_tree_mutation(data))
    ops = draw(st.lists(operation, min_size=1, max_size=4))
    if fmt == "xlsx" and draw(st.booleans()):  # mutate one part, re-zipped: reaches the XML parsers
        parts = fuzz_seeds.members(data)
        k = draw(st.integers(0, len(parts) - 1))
        content = parts[k][1]
        if "worksheets/" in parts[k][0].filename and draw(st.booleans()):
            content = move_reference(content, draw(reference))
        parts[k] = (parts[k][0], mutate(content, ops))
        return name, fuzz_seeds.rezip(parts)
    return name, mutate(data, ops)


def from_last_guard(err: BaseException) -> str | None:
    """The frame of our code where an unexpected exception started, if the last guard caught one."""
    cause = err.__cause__
    if cause is None or isinstance(cause, EvalEditorError):
        return None
    frames = [f for f in traceback.extract_tb(cause.__traceback__) if "evaleditor" in f.filename]
    last = frames[-1] if frames else None
    return f"{type(cause).__name__} at {Path(last.filename).name}:{last.lineno}" if last else None


def read_hostile(fmt: str, suffix: str, data: bytes) -> None:
    """Read once timed, then again under tracemalloc (which slows allocation-heavy code several
    times) for the memory peak."""
    stats = _STATS.setdefault(fmt, {"inputs": 0, "seconds": 0.0, "tables": 0, "refused": 0, "slowest": 0.0})
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"hostile{suffix}"
        path.write_bytes(data)
        start = time.perf_counter()
        try:
            result = read_table(path)
        except EvalEditorError as err:
            result = err
        elapsed = time.perf_counter() - start
        tracemalloc.start()
        try:
            read_table(path)
        except EvalEditorError:
            pass
        finally:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
    stats["inputs"] += 1
    stats["seconds"] += elapsed
    stats["slowest"] = max(stats["slowest"], elapsed)
    assert peak < PY_MEMORY_LIMIT, f"read allocated {peak >> 20} MiB"
    if isinstance(result, EvalEditorError):
        stats["refused"] += 1
        assert "\n" not in str(result) and str(result)
        bug = from_last_guard(result)
        assert bug is None, f"unexpected {bug}: {result}"
        return
    stats["tables"] += 1
    assert isinstance(result, RawTable)
    assert all(type(h) is str for h in result.headers)
    for row in result.rows:
        assert len(row) == len(result.headers) and all(type(c) is str for c in row)


@FUZZ
@given(mutated("csv"), st.sampled_from([".csv", ".tsv", ".txt"]))
def test_hostile_csv(sample, suffix):
    read_hostile("csv", suffix, sample[1])


@FUZZ
@given(mutated("xlsx"))
def test_hostile_xlsx(sample):
    read_hostile("xlsx", ".xlsx", sample[1])


@FUZZ
@given(mutated("json"))
def test_hostile_json(sample):
    read_hostile("json", ".json", sample[1])


@FUZZ
@given(st.data())
def test_hostile_xls(data):
    if not seeds("xls"):
        pytest.skip("xlwt (test-only helper that writes .xls fixtures) is not installed")
    read_hostile("xls", ".xls", data.draw(mutated("xls"))[1])


def test_memory_stayed_bounded_and_report():
    """Runs last in this module: the process's peak memory grew little, and the counts are printed."""
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - _RSS_START
    for fmt, s in sorted(_STATS.items()):
        print(f"fuzz {fmt}: {s['inputs']:.0f} inputs in {s['seconds']:.1f} s (slowest {s['slowest']:.2f} s), "
              f"{s['tables']:.0f} read, {s['refused']:.0f} refused")
    print(f"fuzz: peak resident memory grew by {grown >> 20} MiB")
    assert grown < RSS_GROWTH_LIMIT


def test_xml_parsing_goes_through_defusedxml():
    """No module of ours parses XML with the standard library (or lxml) directly."""
    root = Path(__file__).resolve().parents[2] / "evaleditor"
    unsafe = ("xml.etree", "xml.dom", "xml.sax", "xml.parsers", "lxml", "pyexpat")
    found = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{path.name}: {n}" for n in names if n.startswith(unsafe)]
    assert found == []


@pytest.mark.parametrize("data", [
    b'{"\\n": null}',  # found by this fuzz test: a key with a line break broke the one-line reason
    b'{"' + b"k" * 5000 + b'": 1}',
])
def test_keys_from_the_file_stay_one_short_line(tmp_path, data):
    path = tmp_path / "x.json"
    path.write_bytes(data)
    with pytest.raises(EvalEditorError) as info:
        read_table(path)
    assert "\n" not in str(info.value) and len(str(info.value)) < 300 + len(str(path))


def test_file_names_stay_one_line(tmp_path):
    path = tmp_path / "two\nlines.csv"
    path.write_bytes(b"")
    with pytest.raises(EvalEditorError) as info:
        read_table(path)
    assert "\n" not in str(info.value) and "two\\nlines.csv" in str(info.value)
