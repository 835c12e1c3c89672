"""Common window actions on a big file: how long the window stops answering (goal: no freeze > 0.5 s at
100k rows; longer work runs in the background with progress and Cancel).

    .venv/bin/python bench/bench_actions.py --offscreen [--rows 100000] [--before DIR] [--only TEXT]

One fresh process per tree opens bench_core's .xlsx (bench/out/), waits until it is checked, then runs
each action and undoes it. For each: `painted` = wall time from the action until the table has painted,
`freeze` = the longest time the event loop did not turn (a 5 ms timer's longest gap) from the action
until the rows are checked again and the panels are up to date (a background task's own progress
included), with the UI thread's and all threads' CPU time in it (in brackets), `cpu` = the UI thread's CPU time over the same span (a busy machine stretches wall time, not
this), `done` = until everything settled. With --before DIR, DIR's tree (e.g. `git archive main | tar -x
-C DIR`) is measured too, in alternation. With --only TEXT, only the actions whose name holds TEXT
(`--only save`: the saves, as the window runs them).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bench_core as core
from bench_gui import Session, settle


class Freezes:
    """The longest gap between the turns of the event loop (a 5 ms timer) while running, with the UI
    thread's CPU time within it and the whole process's (what a busy machine does not stretch: a gap
    with little UI CPU and much of the process's is another thread holding the GIL, as a background
    save's read-back did)."""

    def __init__(self, app):
        from PySide6.QtCore import QTimer

        self.app, self.longest, self.last = app, (0.0, 0.0, 0.0), None
        self.timer = QTimer(interval=5, timeout=self._tick)

    @staticmethod
    def _now() -> tuple[float, float, float]:
        return time.perf_counter(), time.thread_time(), time.process_time()

    def _tick(self) -> None:
        now = self._now()
        if self.last is not None and now[0] - self.last[0] > self.longest[0]:
            self.longest = tuple(a - b for a, b in zip(now, self.last, strict=True))
        self.last = now

    def start(self) -> None:
        self.longest, self.last = (0.0, 0.0, 0.0), self._now()
        self.timer.start()

    def stop(self) -> tuple[float, float, float]:
        self._tick()
        self.timer.stop()
        return self.longest


def actions_worker(path: Path, only: str = "") -> dict:
    from PySide6.QtCore import QItemSelection, QItemSelectionModel

    from evaleditor.gui import dialogs

    dialogs.confirm_replace = lambda *args, **kwargs: True
    s = Session()
    s.documents.open_file(path)
    s.wait_paint()
    settle(s)
    w, model, view = s.win, s.model, s.view
    freezes, out = Freezes(s.app), {}
    q = w.doc.dataset.field_position("question")

    def select(top: int, bottom: int, left: int, right: int) -> None:
        selection = QItemSelection(model.index(top, left), model.index(bottom, right))
        view.selectionModel().setCurrentIndex(model.index(top, left), QItemSelectionModel.SelectionFlag.NoUpdate)
        view.selectionModel().select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)

    def measure(name: str, fn, undo: bool = True, until=lambda: True) -> None:
        if only not in name:
            return
        settle(s)
        freezes.start()
        start, cpu = time.perf_counter(), time.thread_time()
        fn()
        s.view.viewport().update()
        painted = s.wait_paint() - start
        while s.busy() or not until():  # a background task (a save, a replace-all in slices), a live count
            s.app.processEvents()
        settle(s)
        for _ in range(20):  # the panels' debounced refreshes
            s.app.processEvents()
        freeze, freeze_cpu, freeze_all = freezes.stop()
        out[name] = {"painted": painted, "done": time.perf_counter() - start, "cpu": time.thread_time() - cpu,
                     "freeze": freeze, "freeze cpu": freeze_cpu, "freeze all": freeze_all}
        if undo and w.undo_stack.canUndo():
            w.undo_stack.undo()
            settle(s)

    w.show_find()
    w.find_dialog.find_edit.setText("")

    def counted() -> bool:
        count = w.find_dialog.count.counted
        return count is not None and count.complete

    measure("find: type 'order'", lambda: w.find_dialog.find_edit.setText("order"), undo=False, until=counted)
    measure("replace all 'order'", w.find_dialog.replace_all)
    w.find_dialog.hide()
    select(0, 49_999, q, q)
    measure("fill 50k cells", lambda: w.ops.paste("filled"))
    grid = "\n".join("\t".join(f"r{r}c{c}" for c in range(4)) for r in range(2_500))
    select(1_000, 1_000, 0, 0)
    measure("paste 2,500 x 4", lambda: w.ops.paste(grid))
    select(0, 49_999, 0, model.columnCount() - 1)
    measure("delete 50k rows", w.ops.delete_rows)
    select(50_000, 50_000, 0, 0)
    measure("insert a row", lambda: w.ops.insert_row(below=False))
    measure("sort by session", w.ops.sort_by_session_and_turn)
    folder = tempfile.mkdtemp()
    measure("save as .xlsx", lambda: w.documents.save_as(os.path.join(folder, "out.xlsx"), "xlsx"), undo=False)
    measure("save as .csv", lambda: w.documents.save_as(os.path.join(folder, "out.csv"), "csv"), undo=False)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--before", help="a source tree of an earlier version, measured too")
    ap.add_argument("--offscreen", action="store_true")
    ap.add_argument("--only", default="", help="only the actions whose name holds this text")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(actions_worker(Path(args.worker), args.only)), flush=True)
        os._exit(0)
    env = dict(os.environ)
    if args.offscreen:
        env["QT_QPA_PLATFORM"] = "offscreen"
    trees = {"after": env}
    if args.before:
        trees = {"before": {**env, "PYTHONPATH": str(Path(args.before).resolve())}, "after": env}
    path = core.make_file(args.rows, "xlsx")
    results = {}
    for tree, tree_env in trees.items():
        run = subprocess.run([sys.executable, __file__, "--worker", str(path), "--only", args.only],
                             capture_output=True, text=True,
                             env=tree_env)
        if run.returncode:
            raise SystemExit(f"{tree} failed:\n{run.stderr}")
        results[tree] = json.loads(run.stdout.strip().splitlines()[-1])
    print(f"{args.rows:,} rows, {path.name}; seconds: painted / longest freeze (its UI CPU, all threads' CPU) / "
          f"UI-thread CPU / settled")
    for name in results[next(iter(results))]:
        print(f"  {name:<22}" + " | ".join(
            f"{tree} {r[name]['painted']:.2f} / {r[name]['freeze']:.2f} ({r[name]['freeze cpu']:.2f}, "
            f"{r[name]['freeze all']:.2f}) / "
            f"{r[name]['cpu']:.2f} / {r[name]['done']:.2f}" for tree, r in results.items()))


if __name__ == "__main__":
    main()
