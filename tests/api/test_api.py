"""The public Python API (evaleditor/api.py): it agrees with `validate --format json`, moves data to
and from pandas as text, and saves with convert's writer."""

import json
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pandas as pd
import pytest

import evaleditor
from evaleditor.cli import main
from evaleditor.io import read_table, write_table
from tests.io.io_builders import tables_xlsx

SAMPLES = sorted(Path(str(files("evaleditor.resources") / "samples")).iterdir())
SAMPLES = [p for p in SAMPLES if p.suffix in (".xlsx", ".csv", ".json")]


def built_files(tmp: Path) -> list[tuple[Path, dict]]:
    """Files with errors and warnings of every kind the report carries: rows, file-level, sheets, targets."""
    gaps = tmp / "gaps.csv"
    write_table(gaps, ["question", "answer", "session_id", "turn_id", "Extra"],
                [["q1", "a", "s1", "1", ""], ["", "a", "s1", "3", "x"], ["", "", "", "", ""], ["q3", "a", "s2", "x", ""],
                 ["q4", "a\x01", "s2", "1", ""]])
    zh = tables_xlsx(tmp / "two.xlsx", {"Notes": [["just", "notes"]],
                                        "Cases": [["会话ID", "请求顺序", "问题", "答案"], ["s", "1", "你好", "好"],
                                                  ["s", "1", "再见", "x" * 5001]]})
    sdk = tmp / "cases.json"
    sdk.write_text(json.dumps({"eval_cases": [{"prompt": {"role": "user", "parts": [{"text": ""}]}}]}), "utf-8")
    return [(gaps, {}), (zh, {}), (zh, {"sheet": "Cases", "target": "evaluation-set"}), (sdk, {}),
            (gaps, {"target": "evaluation-set"})]


def cli_report(capsys, path, **options) -> tuple[int, dict]:
    argv = ["validate", str(path), "--format", "json"]
    for name, value in options.items():
        argv += [f"--{name}", value]
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def check_agrees(capsys, path, options):
    code, want = cli_report(capsys, path, **options)
    doc = evaleditor.open(str(path), **options)
    assert doc.report().model_dump(mode="json") == want
    # the same fields in the same order: the models are the printed JSON's schema
    assert json.dumps(doc.report().model_dump(mode="json"), ensure_ascii=False) == json.dumps(want, ensure_ascii=False)
    assert [i.model_dump() for i in doc.issues] == want["issues"]
    assert doc.shape.model_dump() == want["shape"] and doc.shape.line == want["shape"]["line"]
    assert doc.target == want["target"] and doc.sheet == want["sheet"]
    assert (code == 1) == (want["counts"]["error"] > 0)
    frame = doc.issues_frame()
    assert str(frame["row"].dtype) == "Int64" and list(frame.columns) == list(want["issues"][0] if want["issues"]
                                                                              else frame.columns)
    assert [{k: None if v is pd.NA else v for k, v in r.items()} for r in frame.to_dict("records")] == want["issues"]


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_the_api_reports_what_validate_json_prints_for_every_sample(capsys, path):
    check_agrees(capsys, path, {})


def test_the_api_reports_what_validate_json_prints_for_files_with_errors(capsys, tmp_path):
    seen_rows = set()
    for path, options in built_files(tmp_path):
        check_agrees(capsys, path, options)
        seen_rows |= {i.row is None for i in evaleditor.open(path, **options).issues}
    assert seen_rows == {True, False}  # file-level and row issues both compared


def test_open_raises_the_one_line_read_error(tmp_path):
    with pytest.raises(evaleditor.ReadError, match="no such file|not found|does not exist"):
        evaleditor.open(tmp_path / "missing.csv")
    with pytest.raises(ValueError, match="unknown target"):
        evaleditor.open(SAMPLES[0], target="gt")


def test_to_pandas_is_one_row_per_case_with_the_targets_headers(tmp_path):
    path = tmp_path / "in.csv"
    write_table(path, ["Query", "Expected_Answer", "note"], [["q1", "007", ""], ["", "a2", "n"]])
    doc = evaleditor.open(path)
    frame = doc.to_pandas()
    assert list(frame.columns) == ["question", "answer", "note"]
    assert frame.loc[2].tolist() == ["", "a2", "n"] and frame.loc[1, "answer"] == "007"
    assert list(doc.to_pandas(headers=None).columns) == ["Query", "Expected_Answer", "note"]
    zh = evaleditor.open(path, target="evaluation-set").to_pandas(headers="zh")
    assert list(zh.columns) == ["问题", "Expected_Answer", "note"]  # evaluation-set has no such answer header


def test_to_pandas_indexes_cases_by_the_row_numbers_issues_name():
    doc = evaleditor.from_pandas(pd.DataFrame({"question": ["q1", None, None], "answer": ["a", None, "a3"]}))
    frame = doc.to_pandas()
    assert frame.index.name == "row" and list(frame.index) == [1, 3]  # an entirely empty row is not a case
    assert [i.row for i in doc.issues if i.rule == "empty-question"] == [3]
    assert frame.loc[3, "answer"] == "a3"


def test_from_pandas_makes_cells_the_text_a_reader_would():
    frame = pd.DataFrame({"question": ["q1", "q2", None], "answer": [3.0, float("nan"), 0.5],
                          "turn_id": pd.array([1, 2, None], dtype="Int64"),
                          "flag": [True, False, True],
                          "when": pd.to_datetime(["2024-05-01", "2024-05-01 10:30", None], format="ISO8601"),
                          "expected_tool_calls": [[{"name": "t", "arguments": {}}], "", None]})
    doc = evaleditor.from_pandas(frame)
    assert doc.target == "ground-truth" and doc.file == "<DataFrame>"
    back = doc.to_pandas()
    assert back["answer"].tolist() == ["3", "", "0.5"]
    assert back["turn_id"].tolist() == ["1", "2", ""]
    assert back["flag"].tolist() == ["TRUE", "FALSE", "TRUE"]
    assert back["when"].tolist() == ["2024-05-01", "2024-05-01 10:30:00", ""]
    assert json.loads(back["expected_tool_calls"][1]) == [{"name": "t", "arguments": {}}]
    assert [(i.rule, i.row) for i in doc.issues if i.severity == "error"] == [("empty-question", 3)]


def test_from_pandas_infers_the_target_as_for_a_table_file():
    assert evaleditor.from_pandas(pd.DataFrame({"问题": ["你好"]})).target == "evaluation-set"
    assert evaleditor.from_pandas(pd.DataFrame({"question": ["q"]}), target="sdk").target == "sdk"
    with pytest.raises(TypeError):
        evaleditor.from_pandas([["q"]])


def test_save_writes_the_bytes_convert_writes(capsys, tmp_path):
    source = SAMPLES[0]
    for name in ("out.csv", "out.json"):
        via_cli, via_api = tmp_path / f"cli-{name}", tmp_path / f"api-{name}"
        main(["convert", str(source), str(via_cli)])
        written = evaleditor.open(source).save(via_api)
        assert via_api.read_bytes() == via_cli.read_bytes()
        assert written.file == str(via_api) and written.target == ("sdk" if name.endswith("json") else "ground-truth")
    main(["convert", str(source), str(tmp_path / "cli.xlsx"), "--headers", "zh", "--target", "evaluation-set"])
    written = evaleditor.open(source).save(tmp_path / "api.xlsx", headers="zh", target="evaluation-set")
    cli, api = read_table(tmp_path / "cli.xlsx"), read_table(tmp_path / "api.xlsx")
    assert (api.headers, api.rows, api.sheet) == (cli.headers, cli.rows, cli.sheet) and written.sheet == cli.sheet
    capsys.readouterr()


def test_save_orders_sdk_turns_as_convert_and_the_window_do(capsys, tmp_path):
    src = tmp_path / "turns.csv"
    write_table(src, ["question", "answer", "session_id", "turn_id"],
                [["second", "b", "s1", "2"], ["other", "c", "s2", "1"], ["first", "a", "s1", "1"]])
    main(["convert", str(src), str(tmp_path / "cli.json")])
    written = evaleditor.open(src).save(tmp_path / "api.json")
    assert (tmp_path / "api.json").read_bytes() == (tmp_path / "cli.json").read_bytes()
    assert written.to_pandas()["question"].tolist()[:2] == ["first", "second"]  # as the file stores them
    capsys.readouterr()


def test_save_refuses_cells_the_format_cannot_hold_and_writes_nothing(tmp_path):
    doc = evaleditor.from_pandas(pd.DataFrame({"question": ["ok", "bell\x07"]}))
    with pytest.raises(evaleditor.SaveRefused) as refused:
        doc.save(tmp_path / "out.xlsx")
    assert [(i.rule, i.row) for i in refused.value.issues] == [("control-character", 2)]
    assert not (tmp_path / "out.xlsx").exists()
    assert doc.save(tmp_path / "out.csv").target == "ground-truth"  # a CSV holds it
    with pytest.raises(ValueError, match="evaluation-set accepts only Excel"):
        doc.save(tmp_path / "out.csv", target="evaluation-set")
    with pytest.raises(evaleditor.WriteError, match=r"\.txt"):
        doc.save(tmp_path / "out.txt")


def test_left_out_is_the_list_convert_reports_before_anything_is_written(capsys, tmp_path):
    """doc.left_out(path) is the save plan's list (core/saving.py), as `convert --format json` reports it."""
    agent = next(p for p in SAMPLES if p.suffix == ".json")
    for name in ("out.csv", "out.json"):
        main(["convert", str(agent), str(tmp_path / name), "--format", "json"])
        reported = json.loads(capsys.readouterr().out)["left_out"]
        assert evaleditor.open(agent).left_out(tmp_path / f"api-{name}").model_dump() == reported
        assert not (tmp_path / f"api-{name}").exists()
    assert evaleditor.open(agent).left_out("x.csv").hidden_cases > 0
    two = tables_xlsx(tmp_path / "two.xlsx", {"Cases": [["question"], ["q"]], "Notes": [["n"]]})
    doc = evaleditor.open(two)
    assert doc.left_out(two).other_sheets == ["Notes"] and doc.left_out(tmp_path / "other.xlsx").other_sheets == []
    with pytest.raises(ValueError, match="evaluation-set accepts only Excel"):
        doc.left_out("x.csv", target="evaluation-set")


def test_save_refuses_a_format_the_documents_own_target_cannot_be(tmp_path):
    doc = evaleditor.from_pandas(pd.DataFrame({"query": ["hi"], "answer": ["a"]}), target="evaluation-set")
    with pytest.raises(ValueError, match="evaluation-set accepts only Excel"):
        doc.save(tmp_path / "x.csv")  # no target passed: the document's own is the one written
    assert not (tmp_path / "x.csv").exists()
    assert doc.save(tmp_path / "x.xlsx").target == "evaluation-set"


def test_import_evaleditor_loads_nothing_of_the_api_until_used():
    code = ("import sys, evaleditor\n"
            "light = not {'pydantic', 'pandas', 'evaleditor.api'} & set(sys.modules)\n"
            "evaleditor.Issue\n"
            "print(light, 'pydantic' in sys.modules, 'pandas' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True", "False"]


BLOCK_QT = '''
import sys
class _NoQt:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("PySide6", "shiboken6"):
            raise ImportError("PySide6 is blocked for this run")
sys.meta_path.insert(0, _NoQt())
'''


def test_the_whole_api_runs_where_pyside6_cannot_be_imported(tmp_path):
    code = BLOCK_QT + f'''
import evaleditor
doc = evaleditor.open({str(SAMPLES[0])!r})
doc.issues_frame()
again = evaleditor.from_pandas(doc.to_pandas(), target="sdk")
again.save({str(tmp_path / "out.json")!r})
print(doc.shape.line, len(doc.issues), again.target)
'''
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "SINGLE-TURN" in done.stdout and done.stdout.split()[-1] == "sdk"
    assert (tmp_path / "out.json").exists()


def test_the_report_schema_in_docs_is_the_models():
    import importlib.util

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("schema_doc", root / "scripts" / "schema_doc.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for path, text in module.texts().items():
        assert path.exists() and path.read_text(encoding="utf-8") == text, \
            f"{path.name} is out of date: run python3 scripts/schema_doc.py"


def test_every_public_name_resolves_and_nothing_else_does():
    assert all(getattr(evaleditor, name) is not None for name in evaleditor.__all__)
    assert evaleditor.open is evaleditor.api.open and evaleditor.Issue.model_fields
    with pytest.raises(AttributeError):
        evaleditor.no_such_name  # noqa: B018
