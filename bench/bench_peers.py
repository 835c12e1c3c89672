"""evaleditor against its peers, whole processes, in one run (issue 16's table).

    .venv/bin/python bench/bench_peers.py [--rows 100000] [--small 2000] [--repeat 5] [--before DIR] [--readme]
                                          [--only xlsx|csv|small|saves ...]

Files: bench_core's (bench/out/, written by evaleditor itself; made in a child process). Every figure is
a fresh process, started the way a user starts it (the package's bytecode compiled first, as an install
does), and the kinds of one measurement run alternately (`--repeat` rounds), so that a machine that slows
down mid-run weighs on all of them alike. Printed per row: the median wall time of each side, the median
of the per-round ratios (wall and CPU = user + sys, which a busy machine disturbs less), and peak RSS
(ru_maxrss of the child).

  validate .xlsx   `python -m evaleditor validate F` ÷ python-calamine reading the sheet (to_python)
  validate .csv    the same ÷ the fastest of polars (every column Utf8), pyarrow.csv (every column a
                   string) and the csv module, each reading the file into memory (those installed)
  small .xlsx      `validate` of the --small file, whole process (import time included)
  save .xlsx       save_document(doc, F.xlsx) with its read-back check, in a process that has the
                   document open (loading not timed) ÷ LibreOffice headless converting the .csv to .xlsx
                   (where soffice is installed; its start-up included, as a user would wait for it)
  save SDK JSON    save_document(doc, F.json) with its read-back ÷ orjson writing the same object, whose
                   bytes must equal ours (checked)

`--before DIR`: also run `validate` and the saves from the evaleditor package in DIR (an older checkout,
e.g. `git worktree add /tmp/before <commit>`), alternated with this tree: the "before" columns.
`--readme`: replace the table between the bench markers in README.md with this run's.
`--only`: just those rows (not with --readme: the table would lose the others).
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
README = ROOT / "README.md"
MARKS = ("<!-- bench_peers:start -->", "<!-- bench_peers:end -->")

BARE_XLSX = ("import sys, python_calamine\n"
             "book = python_calamine.CalamineWorkbook.from_path(sys.argv[1])\n"
             "rows = book.get_sheet_by_index(0).to_python(skip_empty_area=False)\n")
POLARS = "import sys, polars\nframe = polars.read_csv(sys.argv[1], infer_schema=False)\n"
PYARROW = ("import sys, csv, pyarrow as pa, pyarrow.csv as pc\n"
           "with open(sys.argv[1], encoding='utf-8-sig', newline='') as f:\n"
           "    names = next(csv.reader(f))\n"
           "table = pc.read_csv(sys.argv[1], convert_options=pc.ConvertOptions(\n"
           "    column_types={n: pa.string() for n in names}, strings_can_be_null=False))\n")
CSV_MODULE = ("import sys, csv\nwith open(sys.argv[1], encoding='utf-8-sig', newline='') as f:\n"
              "    rows = list(csv.reader(f))\n")


# ----- one child process -----------------------------------------------------------------------------------------
def run(argv: list[str], env: dict[str, str] | None = None, cwd: str | None = None) -> dict:
    """Wall and CPU seconds and peak RSS (MiB) of one child process; its stdout's last line as `out`. It runs
    in the temporary folder: `python -m` puts its working folder first on the path, which would hide an
    older tree given by PYTHONPATH behind this checkout."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE, env=env, cwd=cwd or tempfile.gettempdir())
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode(errors="replace")
        proc.stderr.close()
        out.seek(0)
        lines = out.read().decode(errors="replace").strip().splitlines()
    if proc.returncode not in ((0, 1) if argv[1:3] == ["-m", "evaleditor"] else (0,)):  # validate: 1 = errors found
        raise SystemExit(f"{' '.join(map(str, argv))} failed ({proc.returncode}):\n{err[-2000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "mib": usage.ru_maxrss / 1024,
            "out": lines[-1] if lines else ""}


def python(code_or_args: str | list[str], path: Path, tree: Path | None = None) -> tuple[list[str], dict]:
    env = dict(os.environ)
    if tree is not None:  # this checkout's package or an older one's, not the one the venv's editable install finds
        env["PYTHONPATH"] = str(tree)
    argv = [sys.executable, "-c", code_or_args, str(path)] if isinstance(code_or_args, str) else \
        [sys.executable, *code_or_args, str(path)]
    return argv, env


def validate(path: Path, tree: Path | None = None):
    """`tree`: the checkout whose package runs (by default this one, not the one the venv's editable install
    points at: a worktree shares the main checkout's venv)."""
    return python(["-m", "evaleditor", "validate"], path, tree or ROOT)


def saver(path: Path, fmt: str, tree: Path | None = None):
    return python([str(Path(__file__)), "--save-worker", fmt], path, tree or ROOT)


def rounds(kinds: dict[str, tuple[list[str], dict]], repeat: int) -> dict[str, list[dict]]:
    """Each kind once per round, in turn; `repeat` rounds."""
    found: dict[str, list[dict]] = {k: [] for k in kinds}
    for _ in range(repeat):
        for kind, (argv, env) in kinds.items():
            found[kind].append(run(argv, env))
    return found


def med(results: list[dict], key: str = "wall") -> float:
    return statistics.median(r[key] for r in results)


def ratio(a: list[dict], b: list[dict], key: str = "wall") -> float:
    """The median of the per-round ratios a/b (rounds are interleaved, so pairs share the machine's state)."""
    return statistics.median(x[key] / y[key] for x, y in zip(a, b, strict=True))


# ----- the save worker (a process that has the document open) -----------------------------------------------------
def save_worker(fmt: str, source: str) -> None:
    """Open `source`, then time save_document to a temporary .`fmt` (verified); for json also time orjson
    writing the same SDK object and compare the bytes. Prints one JSON line."""
    from evaleditor.io.load import load_document
    from evaleditor.io.save import save_document

    doc = load_document(source)
    folder = Path(tempfile.mkdtemp(prefix="bench-save-"))
    try:
        out = folder / f"saved.{fmt}"
        start, cpu = time.perf_counter(), time.process_time()
        save_document(doc, out)
        result = {"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu,
                  "bytes": out.stat().st_size}
        if fmt == "json":
            import orjson

            try:
                from evaleditor.io.sdk.write import dataset_to_sdk
            except ImportError:  # an older tree
                from evaleditor.io.sdk_write import dataset_to_sdk
            obj = dataset_to_sdk(doc.dataset)
            start, cpu = time.perf_counter(), time.process_time()
            data = orjson.dumps(obj, option=orjson.OPT_INDENT_2) + b"\n"
            (folder / "orjson.json").write_bytes(data)
            result["orjson"], result["orjson_cpu"] = time.perf_counter() - start, time.process_time() - cpu
            result["identical"] = data == out.read_bytes()
        print(json.dumps(result))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def libreoffice_convert(csv_path: Path) -> tuple[list[str], dict] | None:
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        return None
    folder = tempfile.mkdtemp(prefix="bench-lo-")
    profile = Path(tempfile.mkdtemp(prefix="bench-lo-profile-")).as_uri()
    return [soffice, f"-env:UserInstallation={profile}", "--headless", "--convert-to", "xlsx", "--outdir", folder,
            str(csv_path)], dict(os.environ)


# ----- the run ----------------------------------------------------------------------------------------------------
def make(n: int, fmt: str) -> Path:
    """bench_core.make_file in a child process, so that this one stays small (ru_maxrss of a child
    starts from its parent's size at fork)."""
    out = subprocess.run([sys.executable, "-c", f"import bench_core; print(bench_core.make_file({n}, {fmt!r}))"],
                         cwd=HERE, capture_output=True, text=True, check=True)
    return Path(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--small", type=int, default=2_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--saves", type=int, default=3, help="rounds of the save measurements")
    ap.add_argument("--before", type=Path, help="an older checkout to compare with, alternated")
    ap.add_argument("--readme", action="store_true", help="write the table into README.md")
    ap.add_argument("--only", nargs="+", choices=ROWS, help="measure just these rows")
    ap.add_argument("--save-worker", help=argparse.SUPPRESS)
    ap.add_argument("source", nargs="?", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.only and args.readme:
        ap.error("--only measures part of the table: not with --readme")
    if args.save_worker:
        save_worker(args.save_worker, args.source)
        return
    n, before = args.rows, args.before
    for tree in (ROOT, before):  # bytecode written once, as an install does; under PYTHONDONTWRITEBYTECODE
        if tree is not None:  # every child would compile the package again (0.05 s of each small validate)
            compileall.compile_dir(tree / "evaleditor", quiet=1)
    wanted = set(args.only or ROWS)
    xlsx = make(n, "xlsx") if "xlsx" in wanted else None
    csv_file = make(n, "csv") if wanted & {"csv", "saves"} else None
    small = make(args.small, "xlsx") if "small" in wanted else None
    table: list[str] = []

    def row(what: str, ours: list[dict], peer_name: str, peer: list[dict] | None, old: list[dict] | None = None,
            memory: bool = False) -> None:
        cells = [what]
        cells.append(f"{med(old):.2f} s (CPU {med(old, 'cpu'):.2f})" if old else "")
        cells.append(f"{med(ours):.2f} s (CPU {med(ours, 'cpu'):.2f})")
        if peer:
            cells.append(f"{peer_name} {med(peer):.2f} s (CPU {med(peer, 'cpu'):.2f})")
            cells.append(f"{ratio(ours, peer):.2f}× (CPU {ratio(ours, peer, 'cpu'):.2f}×)")
            if old:
                cells[-1] += f"; before {ratio(old, peer):.2f}×"
        else:
            cells += [peer_name, ""]
        if memory and peer:
            cells.append(f"{med(ours, 'mib'):.0f} / {med(peer, 'mib'):.0f} MiB = {ratio(ours, peer, 'mib'):.2f}×"
                         + (f"; before {ratio(old, peer, 'mib'):.2f}×" if old else ""))
        else:
            cells.append("")
        line = "| " + " | ".join(cells) + " |"
        table.append(line)
        print(line, flush=True)

    print(f"{n:,} rows; {args.repeat} rounds (saves {args.saves}), medians; ratios: median of per-round ratios\n")
    header = ["what", "before", "evaleditor", "peer", "ratio to the peer (wall; CPU)", "peak memory, evaleditor / peer"]
    table += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    print(table[0])

    if "xlsx" in wanted:
        validate_xlsx(xlsx, n, args.repeat, before, row)
    if "csv" in wanted:
        validate_csv(csv_file, n, args.repeat, before, row)
    if "small" in wanted:
        validate_small(small, args.small, args.repeat, before, row)
    if "saves" in wanted:
        saves(csv_file, n, args.saves, before, row)
    if args.readme:
        text = README.read_text(encoding="utf-8")
        start, end = text.index(MARKS[0]) + len(MARKS[0]), text.index(MARKS[1])
        README.write_text(text[:start] + "\n" + "\n".join(table) + "\n" + text[end:], encoding="utf-8")
        print(f"\n{README.name}: table replaced")


ROWS = ("xlsx", "csv", "small", "saves")


def validate_xlsx(xlsx: Path, n: int, repeat: int, before: Path | None, row) -> None:
    kinds = {"ours": validate(xlsx), "bare": python(BARE_XLSX, xlsx)}
    if before:
        kinds["before"] = validate(xlsx, before)
    r = rounds(kinds, repeat)
    row(f"`validate` {n // 1000}k .xlsx", r["ours"], "python-calamine", r["bare"], r.get("before"), memory=True)


def validate_csv(csv_file: Path, n: int, repeat: int, before: Path | None, row) -> None:
    parsers = {name: code for name, code in (("polars", POLARS), ("pyarrow", PYARROW), ("csv", CSV_MODULE))
               if name == "csv" or importlib.util.find_spec(name) is not None}  # the installed ones
    kinds = {"ours": validate(csv_file), **{name: python(code, csv_file) for name, code in parsers.items()}}
    if before:
        kinds["before"] = validate(csv_file, before)
    r = rounds(kinds, repeat)
    fastest = min(parsers, key=lambda k: med(r[k]))
    row(f"`validate` {n // 1000}k .csv", r["ours"], fastest, r[fastest], r.get("before"), memory=True)


def validate_small(small: Path, rows: int, repeat: int, before: Path | None, row) -> None:
    kinds = {"ours": validate(small), "bare": python(BARE_XLSX, small)}
    if before:
        kinds["before"] = validate(small, before)
    r = rounds(kinds, repeat)
    row(f"`validate` {rows // 1000}k .xlsx (whole process)", r["ours"], "python-calamine", r["bare"], r.get("before"))


def saves(csv_file: Path, n: int, repeat: int, before: Path | None, row) -> None:
    kinds = {"ours": saver(csv_file, "xlsx")}
    if before:
        kinds["before"] = saver(csv_file, "xlsx", before)
    lo = libreoffice_convert(csv_file)
    if lo is not None:
        kinds["lo"] = lo
    r = rounds(kinds, repeat)
    for kind in ("ours", "before"):  # the worker's own timing: the save, not the load before it
        for result in r.get(kind, ()):
            result["wall"], result["cpu"] = (json.loads(result["out"])[k] for k in ("seconds", "cpu"))
    row(f"save {n // 1000}k .xlsx, verified", r["ours"], "LibreOffice headless" if lo else
        "LibreOffice: not installed", r.get("lo"), r.get("before"))

    kinds = {"ours": saver(csv_file, "json")}
    if before:
        kinds["before"] = saver(csv_file, "json", before)
    r = rounds(kinds, repeat)
    found = [json.loads(x["out"]) for x in r["ours"]]
    for x, f in zip(r["ours"], found, strict=True):
        x["wall"], x["cpu"] = f["seconds"], f["cpu"]
    for x in r.get("before", ()):
        f = json.loads(x["out"])
        x["wall"], x["cpu"] = f["seconds"], f["cpu"]
    peer = [{"wall": f["orjson"], "cpu": f["orjson_cpu"]} for f in found]
    same = "same bytes" if all(f["identical"] for f in found) else "BYTES DIFFER"
    row(f"save {n // 1000}k SDK JSON, verified ({found[0]['bytes'] / 1e6:.0f} MB)", r["ours"],
        f"orjson ({same})", peer, r.get("before"))


if __name__ == "__main__":
    main()
