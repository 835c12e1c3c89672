"""The window's targets: the banner's "Check against" box offers every target Data ▸ Target does, and a
Save As into a format only another target takes leaves the window showing what reopening the file shows."""

import json

import pytest

import evaleditor
from evaleditor.core.targets import TARGET_NAMES


def test_the_banner_box_lists_the_same_targets_as_the_data_target_menu(window):
    box = window.banner.target_combo
    assert [box.itemData(i) for i in range(box.count())] == list(window.actions.targets) == list(TARGET_NAMES)


def test_opening_a_jsonl_shows_its_target_in_the_banner_box(window, tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps({"prompt": "Hello", "reference": "Hi"}) + "\n", encoding="utf-8")
    assert window.documents.open_file(path, discard=True)
    assert window.doc.dataset.target.name == "sdk-flat"
    assert window.banner.target_combo.currentData() == "sdk-flat"
    assert window.banner.target_combo.currentText() == "sdk-flat"


@pytest.mark.parametrize("suffix", ["jsonl", "json"])
def test_save_as_into_another_targets_format_takes_the_target_reopening_infers(window, tmp_path, suffix):
    assert window.doc.dataset.target.name == "ground-truth"
    out = tmp_path / f"cases.{suffix}"
    assert window.documents.save_as(out, wait=True)
    reopened = evaleditor.open(out)
    assert window.doc.dataset.target.name == reopened.target
    assert window.banner.target_combo.currentData() == reopened.target
    assert window.actions.targets[reopened.target].isChecked()
    assert "missing-question-column" not in window.doc.validator.rule_counts
    assert all(f is not None for f in window.doc.dataset.fields()[2:4])  # question, answer recognised
