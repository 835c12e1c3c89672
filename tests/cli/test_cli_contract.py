"""cli.md's contract where QA found the commands straying: exit statuses, what convert says, sheets."""

import json
import subprocess
import sys

import openpyxl
import pytest

from evaleditor.cli import main
from evaleditor.core.targets import infer_target
from evaleditor.io import write_table
from tests.io.io_builders import tables_xlsx

TURN = {"role": "user", "parts": [{"text": "x"}]}


def run(capsys, *argv):
    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return code, out, err


def sdk_file(tmp_path, case, name="in.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"eval_cases": [{"prompt": {"role": "user", "parts": [{"text": "a"}]}, **case}]}),
                    encoding="utf-8")
    return path


def test_convert_to_json_exits_1_when_the_written_cases_keep_sdk_errors(capsys, tmp_path):
    turns = [{"turn_index": i, "events": [{"author": "user", "content": TURN}]} for i in (0, 2)]
    src = sdk_file(tmp_path, {"agent_data": {"turns": turns}})
    code, _, err = run(capsys, "convert", src, tmp_path / "out.json")
    assert code == 1 and "sdk-turn-index [row 1]" in err
    assert run(capsys, "validate", tmp_path / "out.json")[0] == 1  # what convert said of its output holds


def test_convert_keeps_what_the_sdk_rejects_and_says_so(capsys, tmp_path):
    groups = {"g": [{"content": {"property": {"description": "d"}}}]}  # a list where the SDK wants a RubricGroup
    src = sdk_file(tmp_path, {"rubric_groups": groups})
    code, _, err = run(capsys, "convert", src, tmp_path / "out.json")
    assert code == 1 and "rubric_groups" in err and "kept as it is on save" in err and "warning" not in err
    assert json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["eval_cases"][0]["rubric_groups"] == groups


def test_convert_to_a_table_warns_that_traces_stay_behind(capsys, tmp_path):
    turns = [{"turn_index": 0, "events": [{"author": "user", "content": TURN},
                                          {"author": "planner", "content": {"role": "model", "parts": [{"text": "y"}]}}]}]
    src = sdk_file(tmp_path, {"agent_data": {"agents": {"planner": {}}, "turns": turns}})
    code, out, err = run(capsys, "convert", src, tmp_path / "out.csv")
    assert code == 0 and (tmp_path / "out.csv").exists()
    assert "1 case holds data a table cannot show" in err and "convert to .json" in err
    code, out, _ = run(capsys, "convert", src, tmp_path / "again.csv", "--format", "json")
    assert json.loads(out)["left_out"] == {"other_sheets": [], "hidden_cases": 1, "replaced_traces": [], "format_limits": []}
    code, out, err = run(capsys, "convert", src, tmp_path / "out.json", "--format", "json")
    assert json.loads(out)["left_out"] == {"other_sheets": [], "hidden_cases": 0, "replaced_traces": [], "format_limits": []}
    assert "warning" not in err  # SDK JSON keeps the trace


def test_convert_in_place_says_the_workbooks_other_sheets_are_gone(capsys, tmp_path):
    """The window asks before a save replaces a workbook of several sheets with one; convert writing
    over its input says so (the same SavePlan list)."""
    path = tables_xlsx(tmp_path / "sheets.xlsx", {"GT": [["question", "answer"], ["q", "a"]], "Notes": [["read me"]]})
    code, out, err = run(capsys, "convert", path, path, "--format", "json")
    assert code == 0 and json.loads(out)["left_out"]["other_sheets"] == ["Notes"]
    assert "its other sheets (Notes) are not kept" in err
    assert openpyxl.load_workbook(path).sheetnames == ["Cases"]
    code, out, err = run(capsys, "convert", path, tmp_path / "copy.xlsx", "--format", "json")
    assert json.loads(out)["left_out"]["other_sheets"] == [] and "warning" not in err


def test_convert_onto_its_input_named_another_way_says_the_other_sheets_are_gone(capsys, tmp_path):
    """`convert ../d/sheets.xlsx /…/d/sheets.xlsx` writes over its input as much as `convert x x` does:
    the warning and left_out say so (they said nothing, and the Notes sheet went)."""
    path = tables_xlsx(tmp_path / "sheets.xlsx", {"GT": [["question", "answer"], ["q", "a"]], "Notes": [["read me"]]})
    code, out, err = run(capsys, "convert", tmp_path / ".." / tmp_path.name / path.name, path, "--format", "json")
    assert code == 0 and json.loads(out)["left_out"]["other_sheets"] == ["Notes"]
    assert "its other sheets (Notes) are not kept" in err


def test_file_level_issues_in_convert_have_no_empty_place(capsys, tmp_path):
    src = tmp_path / "in.csv"
    write_table(src, ["question", "answer"], [])
    code, _, err = run(capsys, "convert", src, tmp_path / "out.xlsx")
    assert code == 1 and "empty-dataset: " in err and "[]" not in err


@pytest.mark.parametrize(("out", "target"), [("out.json", "ground-truth"), ("out.xlsx", "sdk"),
                                             ("out.csv", "evaluation-set")])
def test_convert_refuses_a_target_its_output_format_cannot_be(capsys, tmp_path, out, target):
    src = tmp_path / "in.csv"
    write_table(src, ["question", "answer"], [["q", "a"]])
    code, _, err = run(capsys, "convert", src, tmp_path / out, "--target", target)
    assert code == 2 and len(err.strip().splitlines()) == 1 and not (tmp_path / out).exists()


def test_shape_exits_1_on_a_file_with_errors(capsys, tmp_path):
    src = tmp_path / "noq.csv"
    write_table(src, ["answer"], [["a"]])
    assert run(capsys, "shape", src)[:2] == (1, "SINGLE-TURN \u2014 1 row\n")
    write_table(src, ["question"], [["q"]])
    assert run(capsys, "shape", src)[0] == 0


def test_named_target_picks_the_first_sheet_with_its_question_header(capsys, tmp_path):
    path = tables_xlsx(tmp_path / "two.xlsx", {"ZH": [["问题", "答案"], ["你好", "好"]],
                                                "EN": [["question", "answer"], ["hi", "hello"]]})
    code, out, _ = run(capsys, "validate", path, "--target", "ground-truth")
    assert code == 0 and "sheet EN" in out.splitlines()[0]
    code, out, _ = run(capsys, "validate", path)  # inferred: the first sheet with any question header
    assert "sheet ZH" in out.splitlines()[0]


def test_a_closed_pipe_ends_validate_quietly(tmp_path):
    src = tmp_path / "many.csv"
    write_table(src, ["question", "answer", "notes"], [["", "a", "NA"] for i in range(3000)])
    proc = subprocess.Popen([sys.executable, "-m", "evaleditor", "validate", str(src)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()  # as `| head -1` does
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and proc.returncode == 1


@pytest.mark.parametrize(("headers", "target"), [
    (["Question", "Expected_Answer", "评分"], "ground-truth"),  # an extra Chinese column
    (["问题", "答案"], "evaluation-set"),
    (["题目", "回答"], "evaluation-set"),  # Chinese headers and no question ground-truth knows
    (["question", "请求顺序"], "evaluation-set"),
])
def test_chinese_headers_mean_evaluation_set_only_when_they_are_its_own(headers, target):
    assert infer_target(headers, ".xlsx") == target


def test_a_missing_file_in_an_existing_folder_is_not_called_a_missing_folder(tmp_path):
    import errno

    from evaleditor.io.atomic import os_error_reason

    here = OSError(errno.ENOENT, "No such file or directory", str(tmp_path / "x.xlsx"))
    gone = OSError(errno.ENOENT, "No such file or directory", str(tmp_path / "gone" / "x.xlsx"))
    assert os_error_reason(here) == "the file does not exist or cannot be created there"
    assert os_error_reason(gone) == "the folder does not exist"


def test_help_says_how_to_open_the_editor(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0 and "--demo" in out and "[FILE" in out and "validate" in out


def test_why_a_file_cannot_be_read_is_said_in_the_users_language_and_english_in_json(capsys, tmp_path, monkeypatch):
    from evaleditor.core import i18n
    monkeypatch.setenv("LANGUAGE", "zh_CN")
    try:
        missing = tmp_path / "missing.csv"
        code, out, err = run(capsys, "validate", missing, "--format", "json")
        assert code == 2 and "文件不存在" in err
        assert json.loads(out)["issues"][0]["message"] == f"{missing}: the file does not exist"
    finally:
        i18n.set_language("en")


def test_why_a_file_cannot_be_written_is_said_in_the_users_language(capsys, tmp_path, monkeypatch):
    from evaleditor.core import i18n
    src = tmp_path / "in.csv"
    src.write_text("question,answer\nq,a\n", encoding="utf-8")
    for target, suffix in (("sdk", ".json"), ("azure-foundry", ".jsonl / .csv")):  # no "a sdk", "a azure-foundry"
        code, _, err = run(capsys, "template", tmp_path / "t.xlsx", "--target", target)
        assert code == 2 and f"target {target} takes {suffix} files" in err and f"a {target}" not in err
    monkeypatch.setenv("LANGUAGE", "zh_CN")
    try:
        code, _, err = run(capsys, "convert", src, tmp_path / "out.tsv")
        assert code == 2 and "无法写入 .tsv" in err and "cannot write" not in err
        code, _, err = run(capsys, "template", tmp_path / "t.csv", "--target", "bedrock")
        assert code == 2 and "目标 bedrock 只接受 .jsonl 文件" in err
    finally:
        i18n.set_language("en")


def test_convert_with_a_target_reads_the_sheet_validate_reads(capsys, tmp_path):
    path = tables_xlsx(tmp_path / "sheets.xlsx", {
        "Notes": [["read me"]],
        "GT": [["session_id", "turn_id", "question", "answer"], ["s1", "1", "q", "a"]],
        "ZH": [["会话ID", "请求顺序", "问题", "答案"], ["s2", "1", "问", "答"]]})
    assert "sheet ZH" in run(capsys, "validate", path, "--target", "evaluation-set")[1].splitlines()[0]
    assert run(capsys, "convert", path, tmp_path / "out.xlsx", "--target", "evaluation-set")[0] == 0
    out = openpyxl.load_workbook(tmp_path / "out.xlsx").active
    assert [[c.value for c in r] for r in out.iter_rows()][1] == ["s2", "1", "问", "答"]
    code, _, err = run(capsys, "convert", path, tmp_path / "x.json", "--target", "evaluation-set")
    assert code == 2 and "only Excel workbooks" in err
