"""Seed files for the hostile-file fuzz test (test_fuzz.py): valid files of every format the editor
reads, made with the editor's own writers, the bundled samples, openpyxl and (when installed) xlwt."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from importlib.resources import files
from pathlib import Path

SAMPLES = Path(str(files("evaleditor.resources") / "samples"))
HEADERS = ["session_id", "turn_id", "question", "answer", "expected_tool_calls", "notes"]
ROWS = [["s1", "1", "=1+1", "007", '[{"name": "f", "arguments": {"a": 1}}]', "NA"],
        ["s1", "2", "问题\n第二行", "a,b;c\td", "", "_x0041_"],
        ["", "", " lead", "TRUE", "not json", "😀"]]


def _written(tmp: Path, name: str, write) -> bytes:
    path = tmp / name
    write(path)
    return path.read_bytes()


def csv_seeds(tmp: Path) -> dict[str, bytes]:
    from evaleditor.io.text.delimited import write_csv

    return {
        "sample.csv": (SAMPLES / "ground_truth_single_turn.csv").read_bytes(),
        "written.csv": _written(tmp, "w.csv", lambda p: write_csv(p, HEADERS, ROWS)),
        "gbk.csv": "问题\t答案\n你好\t世界\n".encode("gb18030"),
        "utf16.csv": "question;answer\r\n\"a\r\nb\";c\r\n".encode("utf-16"),
    }


def xlsx_seeds(tmp: Path) -> dict[str, bytes]:
    import openpyxl

    from evaleditor.io.excel.write import write_xlsx

    book = openpyxl.Workbook()
    ws = book.active
    ws.append(["question", "answer", "n"])
    ws.append(["q", "=SUM(C2:C3)", 3])
    ws.append([dt.datetime(2026, 11, 30, 12, 0), "=C2*2", 0.1])
    ws["E7"] = "far"
    buf = io.BytesIO()
    book.save(buf)
    return {
        "sample.xlsx": (SAMPLES / "ground_truth_multiturn.xlsx").read_bytes(),
        "zh.xlsx": (SAMPLES / "evaluation_set_zh.xlsx").read_bytes(),
        "written.xlsx": _written(tmp, "w.xlsx", lambda p: write_xlsx(p, HEADERS, ROWS)),
        "openpyxl.xlsx": buf.getvalue(),
    }


def xls_seeds(tmp: Path) -> dict[str, bytes]:
    try:
        import xlwt
    except ImportError:
        return {}
    book = xlwt.Workbook()
    ws = book.add_sheet("Cases")
    for r, row in enumerate([HEADERS, *ROWS]):
        for c, value in enumerate(row):
            ws.write(r, c, value)
    ws.write(5, 0, 3.5)
    ws.write(5, 1, dt.date(2026, 11, 30), xlwt.easyxf(num_format_str="YYYY-MM-DD"))
    ws.write(5, 2, True)
    buf = io.BytesIO()
    book.save(buf)
    return {"written.xls": buf.getvalue()}


def json_seeds(tmp: Path) -> dict[str, bytes]:
    from evaleditor.core.dataset import Dataset
    from evaleditor.io.sdk import write_sdk_json

    return {
        "sample.json": (SAMPLES / "sdk_agent_cases.json").read_bytes(),
        "written.json": _written(tmp, "w.json", lambda p: write_sdk_json(p, Dataset(HEADERS, ROWS, "sdk"))),
    }


def members(data: bytes) -> list[tuple[zipfile.ZipInfo, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return [(info, zf.read(info)) for info in zf.infolist()]


def rezip(parts: list[tuple[zipfile.ZipInfo, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for info, data in parts:
            zf.writestr(info.filename, data)
    return buf.getvalue()
