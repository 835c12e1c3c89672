"""The Upload Preview's content (io/upload_preview.py): what each target receives, counted from the
cases listed (equal to the shape line), made by the code that saves, each case only when asked."""

from __future__ import annotations

import json

import pytest

from evaleditor.core.commands import SetCells
from evaleditor.core.document import document_from_table
from evaleditor.core.table import RawTable
from evaleditor.core.targets import TARGET_NAMES
from evaleditor.io import upload_preview
from evaleditor.io.convert import as_planned, write_converted
from evaleditor.io.save import plan_save
from evaleditor.io.sdk import cases as sdk_cases
from evaleditor.io.sdk.write import dataset_to_sdk
from evaleditor.io.upload_preview import ACCEPT, ALONE, CONVERSATION, REJECT, SINGLE, build_preview

GT = ["session_id", "turn_id", "question", "answer", "expected_tool_calls"]
ROWS = [
    ["s1", "2", "And Lyon?", "Cloudy", ""],
    ["s1", "1", "Weather in Paris?", "Sunny", '[{"name": "weather", "arguments": {"city": "Paris"}}]'],
    ["", "", "What is 2+2?", "4", ""],
    ["", "", "", "", ""],  # entirely empty: not a case
    ["s2", "1", "Book a train", "Done", ""],
]


def doc(headers=GT, rows=ROWS, target=None, fmt="xlsx"):
    return document_from_table(RawTable(list(headers), [list(r) for r in rows], fmt), None, target)


CASES = {
    "conversations": (GT, ROWS),
    "misspelled session column": (["Session_ID", "turn_id", "question", "answer"], [r[:4] for r in ROWS]),
    "no session column": (["question", "answer"], [["a", "1"], ["b", "2"], ["", ""]]),
    "every session id empty": (["session_id", "question"], [["", "a"], ["", "b"]]),
    "chinese evaluation set": (["会话ID", "请求顺序", "问题", "答案"], [["c1", "1", "你好", "好"], ["c1", "2", "再见", "见"]]),
}


@pytest.mark.parametrize("target", TARGET_NAMES)
@pytest.mark.parametrize("name", CASES)
def test_the_counts_at_the_top_equal_the_shape_line(name, target):
    headers, rows = CASES[name]
    d = doc(headers, rows, target)
    preview = build_preview(d)
    assert preview.shape.line == d.shape.line
    assert sum(len(e[2]) for e in preview.entries) == d.shape.rows  # every data row is in one case


def test_every_target_has_a_preview():
    assert all(upload_preview.has_preview(t) for t in TARGET_NAMES)


def test_a_target_plugs_in_through_one_function(monkeypatch):
    made = []
    monkeypatch.setattr(upload_preview, "_BUILDERS", dict(upload_preview._BUILDERS))
    upload_preview.register("ground-truth", lambda d: made.append(d) or "built")
    d = doc()
    assert build_preview(d) == "built" and made == [d]


def test_ground_truth_lists_conversations_in_replay_order_with_their_rows():
    p = build_preview(doc(target="ground-truth"))
    assert [(e[0], e[1]) for e in p.entries] == [(CONVERSATION, "s1"), (ALONE, ""), (CONVERSATION, "s2")]
    s1 = p.case(0)
    assert [(t.row, t.turn, t.question) for t in s1.turns] == [(2, "1", "Weather in Paris?"), (1, "2", "And Lyon?")]
    assert s1.turns[0].tool_calls.startswith('[{"name": "weather"')
    assert p.case(1).turns[0].row == 3 and p.case(2).turns[0].row == 5  # row numbers as the table shows them
    assert p.session_header == "session_id" and s1.verdict is None


def test_a_misspelled_session_column_makes_every_row_a_single_turn_case():
    p = build_preview(doc(["Session_ID", "turn_id", "question", "answer"], [r[:4] for r in ROWS], "ground-truth"))
    assert {e[0] for e in p.entries} == {SINGLE} and len(p) == 4


def test_evaluation_set_accepts_or_rejects_each_case_with_the_rules_reasons():
    rows = [["s1", "1", "fine", "ok"], ["s1", "3", "gap", "ok"],  # turns not consecutive
            ["s2", "1", "x" * 2001, "ok"],  # question over 2,000 characters
            ["", "", "alone", "a" * 5001],  # answer over 5,000 characters
            ["", "", "good", "ok"]]
    rows += [["s3", str(t), f"q{t}", "a"] for t in range(1, 12)]  # 11 turns: over 10
    p = build_preview(doc(["session_id", "request_id", "query", "answer"], rows, "evaluation-set"))
    verdicts = {(e[1] or p.case(i).turns[0].question): (p.case(i).verdict, {r.rule for r in p.case(i).reasons})
                for i, e in enumerate(p.entries)}
    assert verdicts["s1"] == (REJECT, {"turn-gap"})
    assert verdicts["s2"] == (REJECT, {"question-too-long"})
    assert verdicts["alone"] == (REJECT, {"answer-too-long"})
    assert verdicts["good"] == (ACCEPT, set())
    assert verdicts["s3"] == (REJECT, {"too-many-turns"})
    assert p.refusals == [] and p.verdicts


def test_a_file_the_evaluation_set_import_refuses_imports_none_of_its_cases():
    rows = [["", "", "q1", "a"], ["", "", "q2", "a"], ["", "", "q3", "a"]]
    p = build_preview(doc(["session_id", "request_id", "prompt text", "answer"], rows, "evaluation-set"))
    assert [i.rule for i in p.refusals] == ["missing-question-column"]
    assert len(p) == 3
    assert all(p.case(i).verdict == REJECT for i in range(len(p)))
    assert all("missing-question-column" in {r.rule for r in p.case(i).reasons} for i in range(len(p)))


def test_evaluation_set_over_2000_cases_is_refused_as_a_whole():
    rows = [["", "", f"q{i}", "a"] for i in range(2001)]
    p = build_preview(doc(["session_id", "request_id", "query", "answer"], rows, "evaluation-set"))
    assert [i.rule for i in p.refusals] == ["too-many-cases"]


def test_each_sdk_case_is_the_one_the_save_writes():
    d = doc(target="sdk")
    SetCells([(d.dataset.rows[2].id, d.dataset.columns[2].id, "edited")]).apply(d.dataset)
    p = build_preview(d)
    written = dataset_to_sdk(as_planned(d, plan_save(d, "json")).dataset)["eval_cases"]  # what convert writes
    assert len(p) == len(written)
    for n, case in enumerate(written):  # the same text: keys in the same order (save and preview make it apart)
        assert p.case(n).raw == json.dumps(case, ensure_ascii=False, indent=2)
    # the save gathers s1 in turn order (its turn 1 is the file's row 2): the preview shows it so
    assert [e[1] for e in p.entries[:2]] == ["s1-turn-1", "s1-turn-2"]
    turn2 = p.case(1)
    assert turn2.session == "s1" and turn2.turns[0].row == 1  # beside it, the row it is in the window
    assert turn2.turns[0].history == (("user", "Weather in Paris?"), ("agent", "Sunny"))
    assert p.case(0).turns[0].tool_calls == '[{"name": "weather", "arguments": {"city": "Paris"}}]'
    assert [r.cells[1] for r in d.dataset.rows][:2] == ["2", "1"]  # the document itself is not changed


def test_a_table_preview_reads_the_headers_the_save_writes():
    d = doc(["session_id", "turn_id", "Query", "answer"], [r[:4] for r in ROWS], "ground-truth")
    p = build_preview(d)
    assert p.case(0).turns[0].question == "Weather in Paris?"  # Query is read as the question


def test_an_sdk_preview_makes_only_the_cases_shown(monkeypatch):
    calls = []
    real = sdk_cases.new_case
    monkeypatch.setattr(sdk_cases, "new_case", lambda *a: calls.append(a) or real(*a))
    rows = [[f"s{i // 3}", str(i % 3 + 1), f"q{i}", "a", ""] for i in range(3000)]
    p = build_preview(doc(rows=rows, target="sdk"))
    assert len(p) == 3000 and calls == []
    p.case(1500)
    assert len(calls) == 1


def test_a_table_preview_after_edits_groups_nothing_again(monkeypatch):
    """The conversations come from the validator's session index, kept up to date edit by edit: a
    rebuild after an edit orders only the conversation shown, and agrees with grouping the rows anew."""
    rows = [[f"s{i // 3}", str(3 - i % 3), f"q{i}", "a", ""] for i in range(3000)]
    d = doc(rows=rows, target="ground-truth")
    ds = d.dataset
    session = ds.columns[0].id
    edits = [(ds.rows[0].id, session, "late"), (ds.rows[10].id, session, ""), (ds.rows[2999].id, session, "s0")]
    SetCells(edits).apply(ds)  # s0 loses its first row and gains the last; a row leaves every session
    sizes = []
    real = upload_preview._layout
    monkeypatch.setattr(upload_preview, "_layout", lambda s, t: sizes.append(len(s)) or real(s, t))
    p = build_preview(d)
    assert sizes == [] and p.shape.line == d.shape.line
    fresh = upload_preview._entries_from_rows(ds, {"session_id": 0, "turn_id": 1, "question": 2})
    assert [(k, n, sorted(ids)) for k, n, ids in p.entries] == [(k, n, sorted(ids)) for k, n, ids in fresh]
    sizes.clear()
    s0 = p.case(next(i for i, e in enumerate(p.entries) if e[1] == "s0"))
    assert [t.turn for t in s0.turns] == ["1", "1", "2"] and sizes == [3]  # only the case shown is ordered


@pytest.mark.parametrize("target", ["sdk-flat", "azure-foundry", "bedrock", "langsmith", "promptfoo"])
def test_another_platforms_preview_is_one_record_a_row_as_its_writer_saves_it(tmp_path, target):
    import csv

    from evaleditor.core.saving import default_format

    d = doc(target=target)
    fmt = default_format(d)
    out = tmp_path / f"cases.{fmt}"
    write_converted(d, out, plan_save(d, fmt, path=out))
    p = build_preview(d)
    assert p.objects and not p.verdicts and p.shape.line == d.shape.line
    if fmt == "jsonl":
        written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        assert [json.loads(p.case(n).raw) for n in range(len(p))] == written
    else:
        headers, *rows = list(csv.reader(out.read_text(encoding="utf-8-sig").splitlines()))
        assert [list(csv.reader(p.case(n).raw.splitlines())) for n in range(len(p))] == [[headers, r] for r in rows]
    questions = [[t.question for t in p.case(n).turns] for n in range(len(p))]
    if target == "azure-foundry":  # a conversation is one record, its turns in turn order
        assert questions == [["Weather in Paris?", "And Lyon?"], ["What is 2+2?"], ["Book a train"]]
    else:
        assert questions == [["And Lyon?"], ["Weather in Paris?"], ["What is 2+2?"], ["Book a train"]]
    assert all(len(p.case(n).raw.splitlines()) == (1 if fmt == "jsonl" else 2) for n in range(len(p)))


def test_a_promptfoo_preview_shows_the_answer_as_the_exact_match_its_save_writes():
    """A table checked against promptfoo: its answer column becomes `__expected`, and the preview, as
    the save, holds `equals:<answer>` (an answer starting `python:` is no Python check)."""
    d = doc(["question", "answer"], [["Q", "python: it is the best"]], target="promptfoo")
    assert build_preview(d).case(0).raw.splitlines()[1] == "Q,equals:python: it is the best"


def test_sdk_flat_preview_shows_the_history_a_record_sends():
    p = build_preview(doc(target="sdk-flat"))
    lyon = p.case(0)  # s1's turn 2, before its turn 1 in the file
    assert lyon.session == "s1" and lyon.turns[0].history == (("user", "Weather in Paris?"), ("model", "Sunny"))
    assert build_preview(doc(target="bedrock")).case(0).session == ""  # bedrock sends every row on its own
