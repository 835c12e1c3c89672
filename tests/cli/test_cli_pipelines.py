"""The command line in pipelines (cli.md): several files and glob patterns in one run, JSON lines,
`-` for standard input and output, --format json on shape and convert."""

import io
import json
import shutil
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from evaleditor.cli import main
from evaleditor.core.schema import REPORTS
from evaleditor.io import write_table
from tests.io.io_builders import tables_ods

SAMPLES = Path(str(files("evaleditor.resources") / "samples"))


def run(capsys, *argv):
    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return code, out, err


def json_lines(out: str, command: str) -> list[dict]:
    """Each line one report, valid against its model, with the model's fields in its order."""
    reports = [json.loads(line) for line in out.splitlines()]
    model = REPORTS[command]
    for report in reports:
        assert list(report) == list(model.model_fields)
        assert model.model_validate(report).model_dump(mode="json") == report
    return reports


@pytest.fixture
def data(tmp_path):
    """A folder of files: clean, with errors, with warnings only, and a file no reader takes."""
    folder = tmp_path / "data"
    folder.mkdir()
    write_table(folder / "a_clean.csv", ["question", "answer"], [["q", "a"]])
    write_table(folder / "b_errors.csv", ["question", "answer"], [["", "a"], ["", "b"]])
    write_table(folder / "c_warnings.xlsx", ["question", "session_id", "turn_id"], [["q", "s", "1"], ["r", "s", "3"]])
    (folder / "d_notes.txt").write_text("", encoding="utf-8")
    return folder


def test_validate_expands_a_pattern_itself_and_exits_with_the_worst_file(capsys, data):
    code, out, _ = run(capsys, "validate", data / "*.csv")  # as a Windows shell passes it
    assert code == 1
    assert out.count("(target ground-truth)") == 2 and "b_errors.csv" in out and "c_warnings" not in out
    assert out.splitlines()[-1] == "2 files: 1 with errors, 0 unreadable; 2 errors, 0 warnings, 0 info"
    assert run(capsys, "validate", data / "a_*.csv", data / "c_*.xlsx")[0] == 0  # warnings are not errors


def test_a_double_star_pattern_reaches_into_subfolders(capsys, data):
    (data / "sub" / "deeper").mkdir(parents=True)
    write_table(data / "sub" / "deeper" / "e.csv", ["question"], [["q"]])
    code, out, _ = run(capsys, "shape", data / "**" / "*.csv")
    assert code == 1 and [Path(line.split(": ")[0]).name for line in out.splitlines()] == [
        "a_clean.csv", "b_errors.csv", "e.csv"]


def test_an_unreadable_file_among_others_is_reported_and_exits_2(capsys, data):
    code, out, err = run(capsys, "validate", data / "a_clean.csv", data / "d_notes.txt", data / "b_errors.csv")
    assert code == 2 and "d_notes.txt: the file is empty" in err
    assert out.count("(target ground-truth)") == 2  # the files after it are still checked
    assert out.splitlines()[-1].startswith("3 files: 1 with errors, 1 unreadable; ")


def test_a_pattern_that_matches_nothing_says_so(capsys, data):
    code, out, err = run(capsys, "validate", data / "*.xls", "--format", "json")
    assert code == 2 and err.strip().endswith("*.xls: no file matches this pattern")
    [report] = json_lines(out, "validate")
    assert report["issues"][0]["rule"] == "unreadable-file" and report["shape"] is None


def test_validate_json_is_one_report_per_line_in_the_order_named(capsys, data):
    code, out, _ = run(capsys, "validate", data / "*", "--format", "json")
    reports = json_lines(out, "validate")
    assert [Path(r["file"]).name for r in reports] == ["a_clean.csv", "b_errors.csv", "c_warnings.xlsx", "d_notes.txt"]
    assert [r["counts"]["error"] for r in reports] == [0, 2, 0, 1] and code == 2
    assert reports[2]["sheet"] and reports[2]["shape"]["mode"] == "multi-turn"


def test_shape_names_each_file_and_prints_json_lines(capsys, data):
    code, out, _ = run(capsys, "shape", data / "a_clean.csv", data / "c_warnings.xlsx")
    assert code == 0 and out.splitlines() == [
        f"{data / 'a_clean.csv'}: SINGLE-TURN \u2014 1 row",
        f"{data / 'c_warnings.xlsx'}: MULTI-TURN \u2014 2 rows, 1 conversation (grouped by session_id)"]
    code, out, _ = run(capsys, "shape", data / "*", "--format", "json")
    reports = json_lines(out, "shape")
    assert code == 2 and [r["shape"] and r["shape"]["rows"] for r in reports] == [1, 2, 2, None]
    assert run(capsys, "shape", data / "a_clean.csv")[1] == "SINGLE-TURN \u2014 1 row\n"  # one file: the line only


def stdin(monkeypatch, data: bytes):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_validate_reads_standard_input_in_the_format_said(capsys, monkeypatch):
    csv = (SAMPLES / "ground_truth_single_turn.csv").read_bytes()
    stdin(monkeypatch, csv)
    code, out, _ = run(capsys, "validate", "-", "--from", "csv", "--format", "json")
    [report] = json_lines(out, "validate")
    named = json_lines(run(capsys, "validate", SAMPLES / "ground_truth_single_turn.csv", "--format", "json")[1],
                       "validate")[0]
    assert code == 0 and report == {**named, "file": "-"}
    stdin(monkeypatch, b"{not json")
    code, _, err = run(capsys, "validate", "-", "--from", "json")
    assert code == 2 and err.startswith("evaleditor: -: ") and "stdin" not in err  # said of "-", not a temp file
    code, _, err = run(capsys, "validate", "-", "-", "--from", "csv")
    assert code == 2 and "only once" in err


@pytest.mark.parametrize("sample", ["ground_truth_single_turn.csv", "sdk_agent_cases.json", "demo_messy_multiturn.xlsx",
                                    "evaluation_set_zh.xlsx", "cases.ods", "cases.jsonl"])
def test_standard_input_without_from_is_read_as_its_first_bytes_show(capsys, monkeypatch, tmp_path, sample):
    """`cat FILE | evaleditor validate -` reports what `evaleditor validate FILE` does: a workbook by its
    signature (xlsx, ods), SDK JSON, JSON Lines, else CSV."""
    path = SAMPLES / sample
    if sample == "cases.ods":
        path = tables_ods(tmp_path / sample, {"Cases": [["question", "answer"], ["q", "007"]]})
    elif sample == "cases.jsonl":
        path = tmp_path / sample
        path.write_text('{"prompt": "q", "reference": "a"}\n{"prompt": "r", "reference": "b"}\n', "utf-8")
    named = json_lines(run(capsys, "validate", path, "--format", "json")[1], "validate")[0]
    stdin(monkeypatch, path.read_bytes())
    code, out, err = run(capsys, "validate", "-", "--format", "json")
    assert err == "" and json_lines(out, "validate") == [{**named, "file": "-"}]
    assert code == (1 if named["counts"]["error"] else 0)


def test_convert_between_standard_input_and_output_writes_what_a_named_file_holds(tmp_path):
    source = SAMPLES / "ground_truth_single_turn.csv"
    named = tmp_path / "named.json"
    assert main(["convert", str(source), str(named)]) == 0
    cmd = [sys.executable, "-m", "evaleditor", "convert", "-", "-", "--from", "csv", "--to", "json"]
    done = subprocess.run(cmd, input=source.read_bytes(), capture_output=True)
    assert done.returncode == 0 and done.stdout == named.read_bytes()
    assert done.stderr.decode().strip() == "-: SINGLE-TURN \u2014 10 rows (target sdk)"  # not mixed into the file
    back = subprocess.run([sys.executable, "-m", "evaleditor", "convert", str(named), "-", "--to", "csv"],
                          capture_output=True)
    named_csv = tmp_path / "named.csv"
    main(["convert", str(named), str(named_csv)])
    assert back.returncode == 0 and back.stdout == named_csv.read_bytes()


def test_convert_to_standard_output_takes_the_inputs_format_or_says_to_choose(capsys, tmp_path):
    shutil.copy(SAMPLES / "demo_messy_multiturn.xlsx", tmp_path / "in.xlsx")
    code, out, err = run(capsys, "convert", tmp_path / "in.xlsx", "-")
    assert code == 2 and out == "" and "--to csv|json|jsonl" in err
    code, _, err = run(capsys, "convert", tmp_path / "in.xlsx", "-", "--to", "json", "--format", "json")
    assert code == 2 and "cannot both go to standard output" in err


def test_convert_json_is_the_report_of_the_output_and_says_whether_it_was_written(capsys, tmp_path):
    src = tmp_path / "in.csv"
    write_table(src, ["question", "answer"], [["ok", "a"], ["bell\x07", ""]])
    code, out, err = run(capsys, "convert", src, tmp_path / "out.xlsx", "--format", "json")
    [report] = json_lines(out, "convert")
    assert code == 1 and report["written"] is False and not (tmp_path / "out.xlsx").exists()
    assert report["file"] == str(tmp_path / "out.xlsx") and report["input"] == str(src)
    assert [(i["rule"], i["row"]) for i in report["issues"] if i["severity"] == "error"] == [("control-character", 2)]
    code, out, _ = run(capsys, "convert", src, tmp_path / "out.csv", "--format", "json")
    [report] = json_lines(out, "convert")
    assert code == 0 and report["written"] is True and report["sheet"] is None and (tmp_path / "out.csv").exists()
    code, out, err = run(capsys, "convert", src, tmp_path / "no-folder" / "out.csv", "--format", "json")
    [report] = json_lines(out, "convert")
    assert code == 2 and report["written"] is False and report["shape"]["rows"] == 2 and len(err.splitlines()) == 1
    code, out, _ = run(capsys, "convert", tmp_path / "missing.csv", tmp_path / "o.json", "--format", "json")
    [report] = json_lines(out, "convert")
    assert code == 2 and report["issues"][0]["rule"] == "unreadable-file" and report["written"] is False


def test_the_json_reports_cost_no_pydantic_or_pandas_import():
    """The reports are built as plain dicts: pydantic's import alone would nearly double a small validate."""
    code = ("import sys\nfrom evaleditor.cli import main\n"
            f"main(['validate', {str(SAMPLES / 'ground_truth_single_turn.csv')!r}, '--format', 'json'])\n"
            f"main(['shape', {str(SAMPLES / 'sdk_agent_cases.json')!r}, '--format', 'json'])\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'pandas'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "[]" and out.count('"file"') == 2


def test_json_lines_go_through_standard_input_and_output(capsys, monkeypatch, tmp_path):
    named = tmp_path / "cases.jsonl"
    assert run(capsys, "convert", SAMPLES / "ground_truth_single_turn.csv", named, "--target", "sdk-flat")[0] == 0
    want = json_lines(run(capsys, "validate", named, "--format", "json")[1], "validate")[0]
    stdin(monkeypatch, named.read_bytes())
    code, out, _ = run(capsys, "validate", "-", "--from", "jsonl", "--format", "json")
    assert code == 0 and json_lines(out, "validate") == [{**want, "file": "-"}] and want["target"] == "sdk-flat"
    done = subprocess.run([sys.executable, "-m", "evaleditor", "convert", "-", "-", "--from", "jsonl"],
                          input=named.read_bytes(), capture_output=True)
    assert done.returncode == 0 and done.stdout == named.read_bytes()  # --to defaults to the input's format
