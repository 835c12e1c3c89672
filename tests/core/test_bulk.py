"""The row rules are defined once (checks.RULES); the whole-file pass made from them finds exactly what
the one-row check made from them finds, and does per-cell work only in the cells that may hold a finding."""

import dataclasses
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from evaleditor.core import bulk, checks, file_checks
from evaleditor.core.dataset import Dataset
from evaleditor.core.document import Document
from evaleditor.core.sessions import SessionIndex
from evaleditor.core.targets import SESSION

HEADERS = ["session_id", "turn_id", "question", "answer", "expected_tool_calls", "notes"]
PIECES = ["", " ", "q", "NA", "null", "中文", "\t", "\n", "\r", "\x00", "\x07", "\x1f", "\ud800", "é",
          "1", "2", "x", '[{"name": "f", "arguments": {}}]', "[", "{}", "s1", "s1 "]
cell = st.lists(st.sampled_from(PIECES), max_size=4).map("".join)


def per_row(ds, workbook):
    ctx = checks.RowContext(ds, workbook)
    return {r.id: tuple(found) for r in ds.rows if not r.is_empty() and (found := ctx.check(r))}


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.lists(cell, min_size=6, max_size=6), max_size=12),
       target=st.sampled_from(["ground-truth", "evaluation-set"]), workbook=st.booleans(),
       piece=st.integers(1, 5))
def test_whole_file_pass_equals_the_row_check(rows, target, workbook, piece):
    ds = Dataset(HEADERS, rows, target)
    ctx = checks.RowContext(ds, workbook)
    empty = bulk.empty_rows(ds.rows)
    assert empty == {r.id for r in ds.rows if r.is_empty()}
    with mock.patch.object(bulk, "PIECE", piece):  # scan_column's pieces end anywhere in the column
        found = ctx.check_all(ds.rows, bulk.columns_of(ds.rows, len(HEADERS)), empty)
    assert found == per_row(ds, workbook)


def control_cells(texts):
    scan = bulk.scan_column(texts, 4)
    assert scan.longest == max(map(len, texts))
    assert scan.short == [i for i, text in enumerate(texts) if 1 <= len(text) <= 4]
    return scan.control


def test_control_characters_are_found_in_any_script():
    assert control_cells(["中文", "ok\x0bok"]) == [1] and control_cells(["\ud800\x1f"]) == [0]
    assert control_cells(["abc", "中文\x1f"]) == [1] and control_cells(["a\x00", "中文"]) == [0]
    assert control_cells(["中文\t\n\r", "\ud800", "é" * 1000, "plain"]) == []
    texts = ["plain"] * (3 * bulk.PIECE)
    texts[5] = texts[bulk.PIECE + 7] = "bell\x07"
    texts[2 * bulk.PIECE - 1] = "中文\x1f"
    assert control_cells(texts) == [5, bulk.PIECE + 7, 2 * bulk.PIECE - 1]
    assert bulk.scan_column(texts, 4, control=False).control == []


def test_a_rule_runs_its_finding_only_on_the_cells_that_may_hold_one(monkeypatch):
    """A clean cell costs the rules' C-level column passes, not one call per cell and rule."""
    looked = []
    rules = []
    for rule in checks.RULES:
        def finds(ctx, text, rule=rule):
            looked.append((rule.rule, text))
            return rule.finds(ctx, text)
        rules.append(dataclasses.replace(rule, finds=finds))
    monkeypatch.setattr(checks, "RULES", tuple(rules))
    rows = [[f"s{i}", "1", f"question {i}", "answer", '[{"name": "f", "arguments": {"q": 1}}]', "ok"]
            for i in range(2000)]
    rows[7][5] = "NA"
    rows[9][3] = "bell\x07"
    rows[11][0] = "s11 "
    rows[12][1] = "one"
    rows[13][2] = " "
    rows[14][4] = '[{"name": "f", "arguments": {"q": 1}}'
    rows[15][4] = ' [{"name":"f","arguments":{}}]'
    ds = Dataset(HEADERS, rows, "ground-truth")
    ctx = checks.RowContext(ds, workbook=True)
    found = ctx.check_all(ds.rows, bulk.columns_of(ds.rows, len(HEADERS)), set())
    assert {(i.rule, i.row_id) for f in found.values() for i in f} == {
        ("literal-null-text", ds.rows[7].id), ("control-character", ds.rows[9].id),
        ("whitespace-in-session-id", ds.rows[11].id), ("invalid-turn-id", ds.rows[12].id),
        ("empty-question", ds.rows[13].id), ("invalid-tool-calls", ds.rows[14].id)}
    assert sorted(looked) == sorted([
        ("literal-null-text", "NA"), ("control-character", "bell\x07"), ("whitespace-in-session-id", "s11 "),
        ("invalid-turn-id", "one"), ("empty-question", " "), ("invalid-tool-calls", rows[14][4]),
        ("invalid-tool-calls", rows[15][4])])  # written otherwise than json.dumps does: parsed, and valid


def test_single_turn_conversations_cost_no_session_check(monkeypatch):
    checked = []
    real = file_checks.check_session
    monkeypatch.setattr(file_checks, "check_session", lambda ds, ctx, members, c: checked.append(members) or
                        real(ds, ctx, members, c))
    rows = [[f"s{i}", "1", f"q{i}", "a", "", ""] for i in range(50)] + [["t", "1", "q", "a", "", ""],
                                                                        ["t", "3", "q2", "a", "", ""]]
    v = Document.of(Dataset(HEADERS, rows, "ground-truth")).validator
    assert len(checked) == 1  # the conversation with a turn gap only
    assert v.rule_counts["single-turn-session"] == 50 and v.rule_counts["turn-gap"] == 1


def naive_sessions(ds):
    pos = ds.field_position(SESSION)
    sessions = {}
    for row in ds.rows:
        if row.cells[pos]:
            sessions.setdefault(row.cells[pos], []).append(row.id)
    return sessions


def naive_plain(sids, turns, sessions, max_turns):
    """The per-row definition: rows together, turns "1" … "n" in file order."""
    regular, single = set(), set()
    for sid, members in sessions.items():
        at = [i for i, s in enumerate(sids) if s == sid]
        together = at == list(range(at[0], at[0] + len(at)))
        numbered = turns is None or [turns[i] for i in at] == [str(k) for k in range(1, len(at) + 1)]
        if together and numbered and len(members) == len(at):
            if len(at) == 1:
                single.add(sid)
            elif len(at) <= (max_turns or len(at)):
                regular.add(sid)
    return regular, single


@settings(max_examples=300, deadline=None)
@given(cells=st.lists(st.tuples(st.sampled_from(["", "a", "b", "c", "A"]), st.sampled_from(["", "1", "2", "3", "x"])),
                      max_size=14),
       max_turns=st.sampled_from([None, 2]))
def test_conversations_from_runs_equal_the_row_by_row_index(cells, max_turns):
    ds = Dataset(["session_id", "turn_id", "question"], [[s, t, "q"] for s, t in cells], "ground-truth")
    index = SessionIndex(ds)
    assert index.sessions == naive_sessions(ds)
    assert list(index.sessions) == list(naive_sessions(ds))  # first appearance order
    assert index.session_of == {rid: sid for sid, members in index.sessions.items() for rid in members}
    sids, turns = tuple(r.cells[0] for r in ds.rows), tuple(r.cells[1] for r in ds.rows)
    firsts = ds.positions(members[0] for members in index.sessions.values())
    lasts = ds.positions(members[-1] for members in index.sessions.values())
    assert bulk.plain_sessions(turns, index.sessions, firsts, lasts, max_turns) == \
        naive_plain(sids, turns, index.sessions, max_turns)
    assert bulk.plain_sessions(None, index.sessions, firsts, lasts, max_turns) == \
        naive_plain(sids, None, index.sessions, max_turns)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab", max_size=7), max_size=40), st.sampled_from([1, 3, 8, 64]))
def test_short_texts_are_found_whatever_the_lengths_beside_them(texts, piece):
    """A piece whose filled texts are all short, or none, is decided from its shortest and longest."""
    with mock.patch.object(bulk, "PIECE", piece):
        scan = bulk.scan_column(texts, 4)
    assert scan.short == [i for i, text in enumerate(texts) if 1 <= len(text) <= 4]
    assert scan.longest == max(map(len, texts), default=0)
