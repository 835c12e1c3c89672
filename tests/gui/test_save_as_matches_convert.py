"""Save As in the window and `evaleditor convert IN OUT` write the same cells, for every input and every
output format: with the settings as they come and no --headers (both keep the headers as they are), and
with an explicit choice on both sides (Data ▸ Headers When Saving As L, `--headers L`). Both take what
the file will hold from io.save.plan_save (core/saving.py) and write it with the same writer."""

import csv
import json
import shutil
from importlib.resources import files
from pathlib import Path

import pytest

from evaleditor import cli
from evaleditor.io import read_table

SAMPLES = Path(str(files("evaleditor.resources") / "samples"))
GT_ROWS = [
    ["s2", "2", "And the second?", "Second answer", ""],
    ["s1", "1", "Hello", "Hi there", '[{"name": "greet", "arguments": {}}]'],
    ["s2", "1", "First question", "First answer", ""],
    ["", "", "A single question", "A single answer", ""],
    ["s1", "3", "Anything else?", "No", ""],
]


def _sdk_multiturn(path: Path) -> None:
    """An SDK JSON file whose cases form conversations (written by the editor's own SDK writer)."""
    from evaleditor.core.document import document_from_table
    from evaleditor.core.table import RawTable
    from evaleditor.io.save import save_document

    headers = ["session_id", "turn_id", "question", "answer", "expected_tool_calls"]
    rows = sorted(GT_ROWS, key=lambda r: (r[0] or "~", r[1]))
    save_document(document_from_table(RawTable(headers, rows, "csv"), None, "sdk"), path)


def _near_miss_csv(path: Path) -> None:
    """Ground truth whose headers are near misses of the target's (a case, a space, a missing letter)."""
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["Session ID", "Turn_id", "Question", "answer", "expected_tool_calls"],
                                      *GT_ROWS])


def _unordered_csv(path: Path) -> None:
    """Ground truth whose conversations' turns are out of order and apart (SDK JSON stores them by place)."""
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["session_id", "turn_id", "question", "answer", "expected_tool_calls"],
                                      *GT_ROWS])


def _chinese_evaluation_set(path: Path) -> None:
    from tests.io.io_builders import table_xlsx

    table_xlsx(path, [["会话ID", "请求顺序", "问题", "答案"],
                      *[[s, t, f"问题 {q}", f"答案 {a}"] for s, t, q, a, _ in GT_ROWS]], title="评测集")


BUILT = {"sdk_multiturn.json": _sdk_multiturn, "gt_near_miss.csv": _near_miss_csv, "gt_unordered.csv": _unordered_csv,
         "evaluation_set_unordered.xlsx": _chinese_evaluation_set}
INPUTS = sorted(p.name for p in SAMPLES.iterdir() if p.suffix in (".xlsx", ".csv", ".json")) + sorted(BUILT)
# None: the window's settings untouched, convert without --headers
CASES = [(name, None) for name in INPUTS] + [(name, lang) for name in INPUTS if "evaluation_set" in name
                                             for lang in ("en", "zh")] + [("gt_near_miss.csv", "en")]


def _input(folder: Path, name: str) -> Path:
    path = folder / "in" / name
    path.parent.mkdir()
    if name in BUILT:
        BUILT[name](path)
    else:
        shutil.copy(SAMPLES / name, path)
    return path


def _cells(path: Path):
    """What a file holds: the JSON object for SDK JSON, else the headers and rows as read."""
    if path.suffix == ".json":
        return json.loads(path.read_bytes())
    table = read_table(path)
    return table.headers, table.rows


@pytest.mark.parametrize("fmt", ["xlsx", "csv", "json"])
@pytest.mark.parametrize(("name", "lang"), CASES)
def test_save_as_in_the_window_writes_the_cells_convert_writes(qtbot, tmp_path, dialogs_log, capsys, name, lang, fmt):
    from evaleditor.gui import MainWindow
    from evaleditor.gui.window import settings

    src = _input(tmp_path, name)
    by_cli, by_window = tmp_path / f"cli.{fmt}", tmp_path / f"window.{fmt}"
    cli.main(["convert", str(src), str(by_cli), *(["--headers", lang] if lang else [])])
    capsys.readouterr()

    if lang:
        settings.set_header_language(lang)

    dialogs_log.answers["ask_csv_formulas"] = False  # formulas written as they are, as convert does
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(src)
    saved = w.documents.save_as(by_window, wait=True)

    assert saved == by_cli.exists()
    if saved:
        assert _cells(by_window) == _cells(by_cli)


@pytest.mark.parametrize(("stored", "expected"), [(None, None), ("en", "en"), ("zh", "zh"), ("keep", None)])
def test_headers_are_kept_unless_the_user_chose_a_language(qtbot, stored, expected):
    """The menu's default is convert's (keep the headers); English was the default before "Keep As They
    Are" existed, but only a click in the menu stored it: a stored choice stays the user's choice."""
    from evaleditor.gui import MainWindow
    from evaleditor.gui.window import settings

    if stored is not None:
        settings.settings().setValue("header_language", stored)  # as an earlier version wrote it
    assert settings.header_language() == expected
    w = MainWindow()
    qtbot.addWidget(w)
    assert [lang for lang, act in w.actions.languages.items() if act.isChecked()] == [expected]
