"""Saving another platform's file from the window asks before leaving out what that file cannot hold
(io/platforms left_out: an Azure conversation's one value for turns that differ, the columns a Bedrock
prompt dataset does not hold), as it asks about a workbook's other sheets."""

import json

from evaleditor.gui import dialogs


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
    (_, fmt, lines, in_place), = [args for n, args in dialogs_log.calls if n == "ask_save_leaving_out"]
    assert (fmt, in_place) == ("jsonl", True) and lines == [
        "the column level where the turns of a conversation differ (a conversation is one line, with one value "
        "for all its turns): c1"]
    assert path.read_bytes() == before


def test_save_as_bedrock_names_the_columns_it_leaves_out(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow

    path = tmp_path / "cases.csv"
    path.write_text("session_id,turn_id,question,answer,note\ns1,1,Hi,Hello,n\n", encoding="utf-8")
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path)
    w.documents.set_target("bedrock")
    assert w.documents.save_as(tmp_path / "bedrock.jsonl", "jsonl")
    (_, fmt, lines, in_place), = [args for n, args in dialogs_log.calls if n == "ask_save_leaving_out"]
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
