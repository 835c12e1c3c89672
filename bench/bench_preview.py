"""Upload Preview at scale: what a rebuild after an edit costs, against what a save does.

    .venv/bin/python bench/bench_preview.py [--sizes 20000,100000] [--repeat 3]

For each size and target (the rows of bench_core.generate_rows: 40% in conversations of 2-4 turns)
it prints, best of --repeat, in one process:
  build     build_preview(doc): the list of cases (what the window rebuilds after an edit, debounced)
  screen    making the 30 cases a screen shows, and the selected one's detail
  save      the writer's whole output for comparison: export rows (tables) or dataset_to_sdk (SDK, with
            the cyclic collector paused, as a save runs it)
and the ratio build / save. The window waits twice the last build (200 ms - 3 s) after an edit.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_core import HEADERS, generate_rows  # noqa: E402

from evaleditor.core.alloc import bulk_allocation  # noqa: E402
from evaleditor.core.document import document_from_table  # noqa: E402
from evaleditor.core.export import export_headers, export_rows  # noqa: E402
from evaleditor.core.table import RawTable  # noqa: E402
from evaleditor.io.sdk.write import dataset_to_sdk  # noqa: E402
from evaleditor.io.upload_preview import build_preview  # noqa: E402

EVAL_SET_HEADERS = ["session_id", "request_id", "query", "answer", "context", "expected_tool_calls", "notes"]


def best(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def _without_collector(fn, *args):
    with bulk_allocation():
        return fn(*args)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="20000,100000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'rows':>8} {'target':<15} {'build':>9} {'screen':>9} {'save':>9} {'build/save':>10}")
    for n in map(int, args.sizes.split(",")):
        rows = generate_rows(n)
        for target, headers in (("ground-truth", HEADERS), ("evaluation-set", EVAL_SET_HEADERS), ("sdk", HEADERS)):
            doc = document_from_table(RawTable(list(headers), [list(r) for r in rows], "xlsx"), None, target)
            build, preview = best(lambda d=doc: build_preview(d), args.repeat)
            screen, _ = best(lambda p=preview: [p.case(i) for i in range(len(p) // 2, len(p) // 2 + 30)], args.repeat)
            if target == "sdk":  # as encode_sdk_json makes it: without the collector's walks
                save, _ = best(lambda d=doc: _without_collector(dataset_to_sdk, d.dataset), 1)
            else:
                save, _ = best(lambda d=doc: (export_headers(d.dataset), export_rows(d.dataset)), args.repeat)
            print(f"{n:>8,} {target:<15} {build * 1000:>7.0f}ms {screen * 1000:>7.1f}ms {save * 1000:>7.0f}ms "
                  f"{build / save:>10.2f}")


if __name__ == "__main__":
    main()
