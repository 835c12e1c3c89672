"""Hostile inputs (issue 14's table): small on disk, huge once read. Each is validated in a fresh process;
the time, the peak memory and the one line it printed are shown.

    .venv/bin/python bench/bench_hostile.py [--scale 1.0] [--only csv,json,xlsx] [--as-limit 3000000000]

--scale shrinks every input (0.1: a tenth of the rows, cases, bytes); at 1.0 they are the table's
sizes (a 40 MB CSV of 10M rows, a 5 GB sparse JSON, a 1 GB line ...; the files go to bench/out/, not
committed: delete them after). --as-limit runs each under that address-space limit (as prlimit --as),
so that a machine's memory is never at stake. Nothing here is asserted: the tests bound the work
(tests/io/test_work_budget.py, test_xlsx_budget.py); this prints what it costs.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out" / "hostile"
_CONTENT_TYPES = (b'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
                  b'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
                  b'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override '
                  b'PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.'
                  b'spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType='
                  b'"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')
_RELS = (b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
         b'2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
         b'2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
_WORKBOOK = (b'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/'
             b'spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
             b'relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>')
_WORKBOOK_RELS = (b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
                  b'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
                  b'officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>')
_SHEET_HEAD = (b'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/'
               b'spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>question</t></is>'
               b'</c><c r="B1" t="inlineStr"><is><t>answer</t></is></c></row>')


def _workbook(path: Path, rows) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("[Content_Types].xml", _CONTENT_TYPES)
        zf.writestr("_rels/.rels", _RELS)
        zf.writestr("xl/workbook.xml", _WORKBOOK)
        zf.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS)
        with zf.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as sheet:
            sheet.write(_SHEET_HEAD)
            for block in rows:
                sheet.write(block)
            sheet.write(b"</sheetData></worksheet>")


def _blocks(n: int, row, per: int = 10_000):
    for start in range(2, n + 2, per):
        yield b"".join(row(r) for r in range(start, min(start + per, n + 2)))


def make_inputs(scale: float) -> list[tuple[str, Path]]:
    OUT.mkdir(parents=True, exist_ok=True)
    n = lambda count: max(1, int(count * scale))  # noqa: E731
    made = []

    def made_as(label: str, name: str, write) -> None:
        path = OUT / f"{scale:g}-{name}"
        if not path.exists():
            write(path)
        made.append((label, path))

    made_as("10M rows of q,a (.csv)", "rows.csv", lambda p: p.write_bytes(b"q,a\n" * n(10_000_000)))
    made_as("5M {} cases (.json)", "empty.json",
            lambda p: p.write_bytes(b'{"eval_cases":[' + b",".join([b"{}"] * n(5_000_000)) + b"]}"))
    made_as("10M null cases (.json)", "null.json",
            lambda p: p.write_bytes(b'{"eval_cases":[' + b",".join([b"null"] * n(10_000_000)) + b"]}"))

    def sparse(p: Path) -> None:
        with open(p, "wb") as f:
            f.truncate(n(5 << 30))

    made_as("sparse 5 GB (.json)", "sparse.json", sparse)

    def line(p: Path) -> None:
        with open(p, "wb") as f:
            f.write(b"question,answer\n")
            block = b"x" * (1 << 20)
            for _ in range(n(1024)):
                f.write(block)

    made_as("one 1 GB line (.csv)", "line.csv", line)
    made_as("1M columns in the header (.csv)", "columns.csv",
            lambda p: p.write_bytes(b",".join(b"c%d" % i for i in range(n(1_000_000))) + b"\nq\n"))
    made_as("1M empty styled rows (.xlsx)", "styled.xlsx", lambda p: _workbook(p, _blocks(
        n(1_000_000), lambda r: b'<row r="%d" s="1" customFormat="1"><c r="A%d" s="1"/><c r="B%d" s="1"/></row>'
        % (r, r, r))))
    cell = b'<c t="s"><v>0</v></c>'
    made_as("one cell repeated ~40M times (.xlsx)", "repeated.xlsx", lambda p: _workbook(p, _blocks(
        n(16_400_000), lambda r: b'<row r="%d">%s</row>' % (r, cell * 2))))
    return made


def run(path: Path, as_limit: int | None) -> tuple[float, float, int, str]:
    """(seconds, peak MB, exit status, what it said: the refusal, or the shape and count lines) of
    `evaleditor validate path`, in a
    fresh process whose own peak is read from os.wait4."""
    import tempfile

    def limit() -> None:
        if as_limit:
            resource.setrlimit(resource.RLIMIT_AS, (as_limit, as_limit))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "evaleditor", "validate", str(path)], stdout=out,
                                stderr=err, preexec_fn=limit)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        out.seek(0)
        refused = err.read(4096).decode("utf-8", "replace").strip().splitlines()
        report = out.read(1 << 20).decode("utf-8", "replace").strip().splitlines()
    said = refused[0] if refused else (f"{report[1]}; {report[-1]}" if len(report) > 1 else "")
    return seconds, usage.ru_maxrss / 1024, proc.returncode, said


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=0.1)
    ap.add_argument("--only", default="csv,json,xlsx")
    ap.add_argument("--as-limit", type=int, default=3_000_000_000)
    args = ap.parse_args()
    kinds = tuple(f".{k}" for k in args.only.split(","))
    print(f"scale {args.scale:g}, address-space limit {args.as_limit / 1e9:.1f} GB")
    for label, path in make_inputs(args.scale):
        if path.suffix not in kinds:
            continue
        seconds, peak, code, said = run(path, args.as_limit or None)
        print(f"{label:40} {seconds:6.2f} s {peak:7.0f} MB  exit {code}  {said[:160]}")


if __name__ == "__main__":
    main()
