"""Saving another platform's file from the window asks before leaving out what that file cannot hold
(io/platforms left_out: an Azure conversation's one value for turns that differ, the columns a Bedrock
prompt dataset does not hold), as it asks about a workbook's other sheets."""

import json

from evaleditor.gui import dialogs


def opened(qtbot, path, text):
    """A window with `path` (written with `text`) open."""
    from evaleditor.gui import MainWindow

    path.write_text(text, encoding="utf-8")
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path)
    return w


def test_saving_an_azure_conversation_whose_turns_differ_in_a_column_asks_first(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow

    path = tmp_path / "azure.jsonl"
    line = {"conversation": {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"},
                                          {"role": "user", "content": "Bye"}]}, "id": "c1", "level": "easy"}
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path)
    w.model.setData(w.model.index(1, w.doc.dataset.headers().index("level")), "hard")
    dialogs_log.answers["ask_save_leaving_out"] = dialogs.CANCEL
    before = path.read_bytes()
    assert not w.documents.save()
    (_, fmt, lines, in_place, _sheets), = [args for n, args in dialogs_log.calls if n == "ask_save_leaving_out"]
    assert (fmt, in_place) == ("jsonl", True) and lines == [
        "the column level where the turns of a conversation differ (a conversation is one line, with one value "
        "for all its turns): c1"]
    assert path.read_bytes() == before


def test_save_as_bedrock_names_the_columns_it_leaves_out(qtbot, tmp_path, dialogs_log):
    w = opened(qtbot, tmp_path / "cases.csv", "session_id,turn_id,question,answer,note\ns1,1,Hi,Hello,n\n")
    w.documents.set_target("bedrock")
    assert w.documents.save_as(tmp_path / "bedrock.jsonl", "jsonl")
    (_, fmt, lines, in_place, _sheets), = [args for n, args in dialogs_log.calls if n == "ask_save_leaving_out"]
    assert (fmt, in_place) == ("jsonl", False) and lines[-1].endswith(": session_id, turn_id, note")


def test_a_new_dataset_saved_as_jsonl_reopens_as_the_platform_it_was_made_for(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow
    from evaleditor.io.load import load_document

    w = MainWindow()
    qtbot.addWidget(w)
    for target in ("azure-foundry", "bedrock", "langsmith"):
        w.documents.new_from_template(target)
        path = tmp_path / f"{target}.jsonl"
        assert w.documents.save_as(path, "jsonl")
        assert load_document(path).dataset.target.name == target
        assert w.documents.open_file(path) and w.doc.dataset.target.name == target


def test_save_as_ground_truth_of_a_promptfoo_file_writes_its_reference_answers_and_names_the_other_checks(
        qtbot, tmp_path, dialogs_log):
    """promptfoo's `equals:4` is the answer 4 in a ground-truth file, as the window then shows (undoable);
    `contains:hi` is no reference answer: kept as text, and the window says so before saving."""
    import csv

    w = opened(qtbot, tmp_path / "pf.csv", "question,__expected\nWhat is 2+2?,equals:4\nSay hi,contains:hi\n")
    w.documents.set_target("ground-truth")
    out = tmp_path / "gt.csv"
    assert w.documents.save_as(out, "csv")
    (_, fmt, lines, in_place, _sheets), = [args for n, args in dialogs_log.calls if n == "ask_save_leaving_out"]
    assert lines == ["the meaning of promptfoo checks that are no reference answer (rows 2: their text is kept "
                     "as the answer)"]
    with out.open(encoding="utf-8-sig", newline="") as f:
        assert [r["answer"] for r in csv.DictReader(f)] == ["4", "contains:hi"]
    assert [row.cells[1] for row in w.doc.dataset.rows] == ["4", "contains:hi"]
    w.undo_stack.undo()
    assert [row.cells[1] for row in w.doc.dataset.rows] == ["equals:4", "contains:hi"]
