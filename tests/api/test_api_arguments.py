"""Arguments that used to do nothing in silence: an unknown header language, a folder to save to, --headers zh
for a target with no Chinese spelling; and rows a DataFrame holds that are no cases."""

from __future__ import annotations

import pandas as pd
import pytest

import evaleditor
from evaleditor.cli import main
from evaleditor.core.errors import WriteError


@pytest.fixture
def doc():
    return evaleditor.from_pandas(pd.DataFrame({"question": ["hi", "q2"], "answer": ["x", "y"]}))


@pytest.mark.parametrize("call", ["to_pandas", "save", "left_out"])
def test_an_unknown_header_language_is_refused_naming_the_allowed_ones(doc, tmp_path, call):
    method = getattr(doc, call)
    args = () if call == "to_pandas" else (tmp_path / "out.xlsx",)
    with pytest.raises(ValueError, match=r"unknown headers 'fr': choose 'en', 'zh' or None"):
        method(*args, headers="fr")
    assert not (tmp_path / "out.xlsx").exists()


def test_saving_to_a_folder_says_it_is_a_folder(doc, tmp_path):
    with pytest.raises(WriteError, match="this is a folder, not a file"):
        doc.save(tmp_path)
    (tmp_path / "named.csv").mkdir()
    with pytest.raises(WriteError, match="this is a folder, not a file"):
        doc.save(tmp_path / "named.csv")


def test_empty_rows_of_a_frame_are_not_cases_as_documented(tmp_path):
    frame = pd.DataFrame({"question": ["a", "", None, "b"], "answer": ["x", "", None, "y"]})
    doc = evaleditor.from_pandas(frame)
    assert doc.shape.line == "SINGLE-TURN \u2014 2 rows"
    assert doc.to_pandas()["question"].tolist() == ["a", "b"]
    assert evaleditor.open(doc.save(tmp_path / "out.csv").file).to_pandas()["question"].tolist() == ["a", "b"]


def test_convert_says_when_the_target_has_no_chinese_headers(capsys, tmp_path):
    """--headers zh cannot be done for ground-truth: the headers stay as the file has them (they were
    spelt in English, Question -> question), unless a target given spells them."""
    source = tmp_path / "in.csv"
    source.write_text("Question,tools,Notes\nhi,,x\n")
    code = main(["convert", str(source), str(source), "--headers", "zh"])
    err = capsys.readouterr().err
    assert code == 0
    assert "warning: ground-truth has no Chinese header spelling: the headers are kept as the file has them" in err
    assert source.read_text().splitlines()[0] == "Question,tools,Notes"
    code = main(["convert", str(source), str(tmp_path / "out.csv"), "--headers", "zh", "--target", "ground-truth"])
    err = capsys.readouterr().err
    assert "warning: ground-truth has no Chinese header spelling: the headers are written in English" in err
    assert (tmp_path / "out.csv").read_text(encoding="utf-8-sig").splitlines()[0] == "question,expected_tool_calls,Notes"
    code = main(["convert", str(source), str(tmp_path / "es.xlsx"), "--headers", "zh", "--target", "evaluation-set"])
    assert "Chinese header spelling" not in capsys.readouterr().err


def test_template_says_it_too(capsys, tmp_path):
    assert main(["template", str(tmp_path / "t.xlsx"), "--target", "ground-truth", "--headers", "zh"]) == 0
    assert "ground-truth has no Chinese header spelling" in capsys.readouterr().err
