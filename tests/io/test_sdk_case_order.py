"""The order of the cases in a saved SDK JSON file, and the ids a save gives new cases.

A file opened and saved with no edit is written back byte for byte, even where the table shows its
cases in another order than the file holds them (another tool's conversations, all first turns then all
second turns: the table gathers each conversation). A save writes the table's order only where the user
changed it; a new case takes its place among the cases kept; a case keeps the id it was read with, and a
new case the id its first save gave it, however the rows move afterwards."""

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaleditor.core.commands import ReorderRows, SetCells
from evaleditor.core.editing import insert_rows
from evaleditor.core.sorting import sort_by_column
from evaleditor.core.targets import QUESTION, SESSION, TURN
from evaleditor.io.load import load_document
from evaleditor.io.save import plan_save, save_document
from evaleditor.io.sdk.conversations import conversation_data
from evaleditor.io.sdk.json_text import dumps

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "sdk_agent_cases.json"


def single(question: str, case_id: str | None = None) -> dict:
    case = {"eval_case_id": case_id} if case_id else {}
    return {**case, "prompt": {"role": "user", "parts": [{"text": question}]}}


def turn(sid: str, k: int, case_id: str | None = None) -> dict:
    """Turn k (0-based) of conversation `sid`, as the editor writes it (its questions `<sid> q<k>`)."""
    history = [(f"{sid} q{i}", f"{sid} a{i}") for i in range(k)]
    return {**single(f"{sid} q{k}", case_id), **conversation_data(sid, history, f"{sid} q{k}", k)}


def write(path: Path, cases: list[dict]) -> Path:
    path.write_bytes(dumps({"eval_cases": cases}))
    return path


def save_as_window(doc, path: Path) -> None:
    """Save as the window does: the plan's step (turn order) pushed on the document, then written."""
    plan = plan_save(doc, "json", path=path)
    if plan.command is not None:
        plan.command.apply(doc.dataset)
    save_document(doc, path, plan=plan)
    doc.saved_as(path, "json")


def questions(doc) -> list[str]:
    q = doc.dataset.field_position(QUESTION)
    return [r.cells[q] for r in doc.dataset.rows]


def file_cases(path: Path) -> list[tuple[str | None, str]]:
    return [(c.get("eval_case_id"), c["prompt"]["parts"][0]["text"])
            for c in json.loads(path.read_text(encoding="utf-8"))["eval_cases"]]


INTERLEAVED = [single("alone first"), turn("s1", 0), turn("s2", 0), single("in between"), turn("s1", 1),
               turn("s2", 1), turn("s1", 2), single("last")]


def test_another_tools_interleaved_conversations_are_saved_back_byte_for_byte(tmp_path):
    src = write(tmp_path / "in.json", INTERLEAVED)
    doc = load_document(src)
    assert questions(doc) == ["alone first", "s1 q0", "s1 q1", "s1 q2", "s2 q0", "s2 q1", "in between", "last"]
    save_as_window(doc, tmp_path / "out.json")
    assert (tmp_path / "out.json").read_bytes() == src.read_bytes()
    save_as_window(doc, tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == src.read_bytes()


def test_a_file_whose_later_turn_comes_first_is_saved_back_byte_for_byte(tmp_path):
    src = write(tmp_path / "in.json", [turn("s1", 1, "b"), single("x", "x"), turn("s1", 0, "a")])
    doc = load_document(src)
    assert questions(doc) == ["s1 q0", "s1 q1", "x"]
    save_as_window(doc, tmp_path / "out.json")
    assert (tmp_path / "out.json").read_bytes() == src.read_bytes()


def test_the_bundled_sample_is_still_saved_back_byte_for_byte(tmp_path):
    doc = load_document(SAMPLE)
    save_as_window(doc, tmp_path / "out.json")
    assert (tmp_path / "out.json").read_bytes() == SAMPLE.read_bytes()


def test_an_edited_cell_changes_only_its_case(tmp_path):
    src = write(tmp_path / "in.json", INTERLEAVED)
    doc = load_document(src)
    ds = doc.dataset
    row = ds.rows[questions(doc).index("in between")]
    SetCells([(row.id, ds.columns[ds.field_position(QUESTION)].id, "edited")]).apply(ds)
    save_as_window(doc, tmp_path / "out.json")
    before, after = file_cases(src), file_cases(tmp_path / "out.json")
    assert [q for _, q in after] == [("edited" if q == "in between" else q) for _, q in before]


def test_new_rows_take_their_place_among_the_cases_kept(tmp_path):
    src = write(tmp_path / "in.json", INTERLEAVED)
    doc = load_document(src)
    ds = doc.dataset
    q = ds.field_position(QUESTION)
    at = questions(doc).index("in between")
    insert_rows(ds, at).apply(ds)  # a new single case before "in between", after conversation s2
    SetCells([(ds.rows[at].id, ds.columns[q].id, "new")]).apply(ds)
    save_as_window(doc, tmp_path / "out.json")
    assert [text for _, text in file_cases(tmp_path / "out.json")] == [
        "alone first", "s1 q0", "s2 q0", "new", "in between", "s1 q1", "s2 q1", "s1 q2", "last"]
    assert questions(load_document(tmp_path / "out.json")) == questions(doc)  # reopening shows the window


def test_a_sort_by_the_user_is_the_order_saved_and_reopened(tmp_path):
    src = write(tmp_path / "in.json", INTERLEAVED)
    doc = load_document(src)
    ds = doc.dataset
    sort_by_column(doc.validator, ds.columns[ds.field_position(QUESTION)].id, descending=True).apply(ds)
    save_as_window(doc, tmp_path / "out.json")
    assert questions(load_document(tmp_path / "out.json")) == questions(doc)
    assert questions(doc)[:3] == ["s2 q0", "s2 q1", "s1 q0"]  # the conversations stay whole, in turn order


def test_ids_read_stay_and_a_new_cases_id_is_the_one_its_first_save_gave_it(tmp_path):
    src = write(tmp_path / "in.json", [single("b", "case-1"), single("a", "case-2"), single("c", "case-3")])
    doc = load_document(src)
    ds = doc.dataset
    q = ds.field_position(QUESTION)
    insert_rows(ds, 3).apply(ds)
    SetCells([(ds.rows[3].id, ds.columns[q].id, "0 new")]).apply(ds)
    save_as_window(doc, tmp_path / "one.json")
    first = dict((text, case_id) for case_id, text in file_cases(tmp_path / "one.json"))
    assert first == {"b": "case-1", "a": "case-2", "c": "case-3", "0 new": "case-4"}
    sort_by_column(doc.validator, ds.columns[q].id).apply(ds)  # the new row is now the first
    save_as_window(doc, tmp_path / "two.json")
    assert file_cases(tmp_path / "two.json") == [("case-4", "0 new"), ("case-2", "a"), ("case-1", "b"),
                                                 ("case-3", "c")]
    reopened = load_document(tmp_path / "two.json")  # the ids are the file's now
    save_as_window(reopened, tmp_path / "three.json")
    assert (tmp_path / "three.json").read_bytes() == (tmp_path / "two.json").read_bytes()


def test_a_new_conversation_turn_keeps_its_id_when_a_turn_is_added_before_it(tmp_path):
    src = write(tmp_path / "in.json", [turn("s1", 0, "first")])
    doc = load_document(src)
    ds = doc.dataset
    s, q = ds.field_position(SESSION), ds.field_position(QUESTION)
    insert_rows(ds, 1).apply(ds)
    row = ds.rows[1]
    SetCells([(row.id, ds.columns[s].id, "s1"), (row.id, ds.columns[q].id, "last")]).apply(ds)
    save_as_window(doc, tmp_path / "one.json")
    assert file_cases(tmp_path / "one.json") == [("first", "s1 q0"), ("s1-turn-2", "last")]
    insert_rows(ds, 1).apply(ds)  # a turn between them
    t = ds.field_position(TURN)
    middle, last = ds.rows[1], ds.rows[2]
    SetCells([(middle.id, ds.columns[s].id, "s1"), (middle.id, ds.columns[q].id, "middle"),
              (middle.id, ds.columns[t].id, "2"), (last.id, ds.columns[t].id, "3")]).apply(ds)
    save_as_window(doc, tmp_path / "two.json")
    ids = {text: case_id for case_id, text in file_cases(tmp_path / "two.json")}
    assert ids["s1 q0"] == "first" and ids["last"] == "s1-turn-2"  # not the new middle turn's
    assert ids["middle"] not in ("first", "s1-turn-2")


# ----- any file, any edit of order: reopening shows the window; no edit: the same bytes -----------------
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["", "s1", "s2", "s3"]), min_size=1, max_size=10), st.randoms(use_true_random=False),
       st.sampled_from(["none", "sort", "insert", "delete", "move"]))
def test_any_file_reads_back_as_the_window_shows_and_unedited_is_the_same_bytes(tmp_path, picks, rnd, edit):
    cases, turns = [], {}
    for n, sid in enumerate(picks):  # each conversation's turns 0, 1, 2 … placed anywhere in the file
        case_id = rnd.choice([None, f"id{n}"])
        if sid:
            turns[sid] = turns.get(sid, -1) + 1
            cases.append(turn(sid, turns[sid], case_id))
        else:
            cases.append(single(f"q{n}", case_id))
    if rnd.random() < 0.5:
        rnd.shuffle(cases)
    src = write(tmp_path / "in.json", cases)
    doc = load_document(src)
    ds = doc.dataset
    q = ds.field_position(QUESTION)
    if edit == "sort" and (command := sort_by_column(doc.validator, ds.columns[q].id, rnd.random() < 0.5)):
        command.apply(ds)
    elif edit == "insert":
        at = rnd.randrange(len(ds.rows) + 1)
        insert_rows(ds, at).apply(ds)
        SetCells([(ds.rows[at].id, ds.columns[q].id, "new")]).apply(ds)
    elif edit == "delete":
        from evaleditor.core.editing import delete_rows

        delete_rows([rnd.choice(ds.rows).id]).apply(ds)
    elif edit == "move":
        order = [r.id for r in ds.rows]
        rnd.shuffle(order)
        ReorderRows(order).apply(ds)
    save_as_window(doc, tmp_path / "out.json")
    if edit == "none":
        assert (tmp_path / "out.json").read_bytes() == src.read_bytes()
    reopened = load_document(tmp_path / "out.json")
    assert questions(reopened) == questions(doc)
    ids = [case_id for case_id, _ in file_cases(tmp_path / "out.json") if case_id]
    assert len(ids) == len(set(ids))
    kept = {text: case_id for case_id, text in file_cases(src) if case_id}
    assert all(kept[text] == case_id for case_id, text in file_cases(tmp_path / "out.json") if text in kept)
