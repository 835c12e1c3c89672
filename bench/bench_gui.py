"""GUI speed: open to first paint and to checked, edit-to-repaint latency, bulk steps, scrolling, data() cost.

    xvfb-run -a -s '-screen 0 1600x1000x24' .venv/bin/python bench/bench_gui.py [--sizes 2000,20000,100000]
    .venv/bin/python bench/bench_gui.py --offscreen [--formats xlsx,csv] [--repeat 3] [--edits 200] [--no-scroll]
    .venv/bin/python bench/bench_gui.py --offscreen --before /tmp/main-tree   # before -> after, same run

Files: bench_core's (bench/out/). Each measurement runs in a fresh process with a shown MainWindow
(throw-away QSettings) and bench_core's worker imports done first. With --before DIR every figure is
also measured with DIR first on PYTHONPATH (e.g. `git archive main | tar -x -C DIR`), alternated:
  bare      bench_core's bare read (python-calamine alone for .xlsx), best of --repeat
  core      load_document(path) as bench_core's `load` worker does (read + dataset + full validation)
  paint     window.documents.open_file(path) (what `evaleditor FILE` does) until the table's viewport has
            finished its first paint with rows; best of --repeat. ratio = paint / bare (goal at 100k
            .xlsx: <= 1.2); core = paint / core; cpu = paint/core in process CPU time (all threads)
  valid     open_file until the rows are all checked, the status counts and the issues panel up to date
  MiB       the GUI process's peak RSS
  edit      model.setData(index, text, EditRole) on a visible cell until the viewport's next paint has
            finished: median and p95 of question edits; of session_id edits (every 8th edit; goal at
            100k: <= 16 ms). `after`: median of the debounced work an edit schedules (issues panel, banner,
            conversation panel timers), run at once instead of 80-150 ms later
  bulk      (>= 20k rows) Replace All of "order" by "ORDER" (most rows), its undo, and its undo again (redone)
            while the crash journal of the replace is being written (`J`: the journal's timer fired just
            before); Sort by session and turn of shuffled rows, its undo, its undo while journalling: until
            painted, and (in brackets) until the rows are checked again (goal at 100k: <= 0.5 s, or in the
            background); after `;` the CPU time until painted of the UI thread + of the other threads (the
            journal's writer: what took the interpreter from the UI meanwhile). A `!` after a J figure:
            the journal write had already ended when the undo began
  scroll    the vertical scrollbar page by page through the whole table, each step until painted
  data()    µs per model.data() call for the visible cells of a page never shown (cold) and again (warm)
  Calc      (.xlsx, where soffice is installed; --no-calc skips it) `evaleditor FILE` as a user starts it:
            a fresh process (interpreter, imports, window) until its first painted row, best of --repeat;
            against LibreOffice Calc reading the same workbook headless, start-up included (bench/
            libreoffice.py: a lower bound of Calc's open), best of --repeat; Calc / evaleditor in wall
            time (goal at 100k: >= 2.5) and in CPU time (user + sys of every process of each side, which
            a busy machine disturbs less)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bench_core as core
from libreoffice import Calc, children_cpu

ROLES = ("DisplayRole", "BackgroundRole", "ToolTipRole")


# ----- worker side (one fresh process per measurement) ---------------------------------------------------------
class Session:
    """A shown MainWindow and a paint watcher on its table's viewport."""

    def __init__(self, settle_ms: int = 200):
        from PySide6.QtCore import QEvent, QEventLoop, QObject, QSettings, QTimer
        from PySide6.QtTest import QTest

        from evaleditor.gui.window.app import application
        from evaleditor.gui.window.main_window import MainWindow

        preload()
        self.app = application()
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
        os.environ["EVALEDITOR_DATA_DIR"] = tempfile.mkdtemp()  # its edits' crash journals: not the user's
        self.win = MainWindow()
        self.win.show()
        if settle_ms:
            QTest.qWaitForWindowExposed(self.win)
            QTest.qWait(settle_ms)
        self.view, self.model = self.win.view, self.win.model
        self.documents = getattr(self.win, "documents", self.win)  # an earlier tree opened files on the window
        self.QEventLoop, self.QTimer, self.paint_type = QEventLoop, QTimer, QEvent.Type.Paint
        self.painted_at, self.loop, session = None, None, self
        self.timeout = QTimer(singleShot=True, timeout=lambda: self.loop and self.loop.quit())

        class Watcher(QObject):
            def eventFilter(self, _obj, event) -> bool:
                return session._filter(event)

        self.watcher = Watcher()
        self.view.viewport().installEventFilter(self.watcher)

    def busy(self) -> bool:
        """A background job (a replace-all in slices) runs (an earlier tree kept it as `window.task`)."""
        tasks = getattr(self.win, "tasks", None)
        return (tasks.current if tasks is not None else self.win.task) is not None

    def _filter(self, event) -> bool:
        if event.type() == self.paint_type and self.loop is not None and self.model.rowCount():
            self.QTimer.singleShot(0, self._painted)  # runs once this paint has finished
        return False

    def _painted(self) -> None:
        if self.loop is not None and self.painted_at is None:
            self.painted_at = time.perf_counter()
            self.loop.quit()

    def wait_paint(self, timeout_s: float = 600, required: bool = True) -> float:
        """Run the event loop until the viewport has painted rows; the time the paint finished."""
        self.painted_at = None
        self.loop = self.QEventLoop()
        self.timeout.start(int(timeout_s * 1000))
        self.loop.exec()
        self.timeout.stop()
        self.loop = None
        if self.painted_at is None and required:
            raise SystemExit("no paint within the timeout")
        return self.painted_at

    def flush_deferred(self) -> float:
        """Run the debounced refreshes an edit schedules now, instead of after their delay."""
        start = time.perf_counter()
        w = self.win
        banner = getattr(w, "refresh_banner", None) or w._refresh_banner  # (its name in an earlier tree)
        for timer, fn in ((w.issues_panel._timer, w.issues_panel.refresh), (w._banner_timer, banner),
                          (w.conversation_panel._timer, w.conversation_panel.render)):
            if timer.isActive():
                timer.stop()
                fn()
        self.app.processEvents()
        return time.perf_counter() - start


def preload() -> None:
    """The imports bench_core's workers do before timing."""
    import python_calamine  # noqa: F401

    import evaleditor.io.load  # noqa: F401


def core_worker(path: Path) -> dict:
    """bench_core's `load` worker (same imports, same call), also reporting the CPU time."""
    preload()
    wall, cpu = time.perf_counter(), time.process_time()
    core.full_load(path)
    return {"seconds": time.perf_counter() - wall, "cpu": time.process_time() - cpu}


def open_worker(path: Path) -> dict:
    import evaleditor.io.load as load_module

    s = Session()
    marks: dict[str, float] = {}
    original, load = s.documents._opened, load_module.load_document

    def timed_load(*args, **kwargs):  # the same call, timed inside the app (a worker thread when big)
        begin = time.perf_counter()
        doc = load(*args, **kwargs)
        marks["load"] = time.perf_counter() - begin
        return doc

    checker = getattr(s.win, "checker", None)  # a tree from before paint-first has none

    def checked() -> None:
        marks["valid"] = time.perf_counter()
        marks["pending"] = s.win.issues_panel._timer.isActive()

    def opened(doc) -> None:
        original(doc)
        if checker is None or not checker.running():
            checked()

    if checker is not None:
        checker.finished.connect(checked)
    s.documents._opened, load_module.load_document = opened, timed_load
    start, cpu, ui_cpu = time.perf_counter(), time.process_time(), time.thread_time()
    s.documents.open_file(path)
    painted = s.wait_paint()
    cpu, ui_cpu = time.process_time() - cpu, time.thread_time() - ui_cpu  # the UI thread's: its share of the wait
    while "valid" not in marks:  # the rows checked after the first paint
        s.app.processEvents()
    v = s.win.doc.validator  # the issues panel lists every issue; the status bar counts the errors
    ok = (s.win.issues_panel.model.rowCount() == len(v.all_issues())
          and f"{v.counts.get('error', 0):,}" in count_labels(s.win)["error"].text())
    return {"paint": painted - start, "cpu": cpu, "ui_cpu": ui_cpu, "valid": marks["valid"] - start, "load": marks["load"],
            "consistent": ok and not marks["pending"], "rss_mib": core.peak_rss_kib() / 1024}


def launch_worker(path: Path) -> dict:
    """As `evaleditor FILE` starts: the window shown and the file opened at once; the driver times it from
    before this process started (time.monotonic is the one clock of every process on Linux and macOS).
    As the command does, the file's read starts before Qt is imported (cli.read_ahead; an earlier tree
    had none)."""
    import evaleditor.cli as cli

    ahead = cli.read_ahead([str(path)]) if hasattr(cli, "read_ahead") else None
    s = Session(settle_ms=0)
    s.documents.open_file(path, **({"preloaded": ahead} if ahead is not None else {}))
    painted = s.wait_paint()
    return {"painted_at": time.monotonic() - (time.perf_counter() - painted)}


def count_labels(win) -> dict:
    """The status bar's count labels by severity (an earlier tree kept them on the window)."""
    return win.count_labels if hasattr(win, "count_labels") else win.counts.labels


def bare_worker(path: Path) -> dict:
    """bench_core's bare read: the reader library alone (calamine for .xlsx)."""
    preload()
    wall, cpu = time.perf_counter(), time.process_time()
    core.bare_read(path)
    return {"seconds": time.perf_counter() - wall, "cpu": time.process_time() - cpu}


def settle(s: Session) -> None:
    """Until the document's rows are all checked (a deferred check), and the deferred refreshes run."""
    checker = getattr(s.win, "checker", None)
    while checker is not None and checker.running():
        s.app.processEvents()
    s.flush_deferred()


def bulk_worker(path: Path) -> dict:
    """Replace-all over every row (Find & Replace, confirmed), its undo; a sort of shuffled rows, its undo.
    Each until the table has painted and the rows are checked again (`… checked`)."""
    import random as rnd

    from evaleditor.core.commands import ReorderRows
    from evaleditor.gui import dialogs
    from evaleditor.gui.window.undo import push

    dialogs.confirm_replace = lambda *args, **kwargs: True
    s = Session()
    s.documents.open_file(path)
    s.wait_paint()
    settle(s)
    w = s.win
    out = {}

    def step(name: str, fn) -> None:
        start, cpu, all_cpu = time.perf_counter(), time.thread_time(), time.process_time()
        fn()
        while s.busy():  # a replace-all of many cells runs in slices
            s.app.processEvents()
        s.view.viewport().update()  # a paint even if the step's own happened within it
        out[name] = s.wait_paint() - start
        out[name + " cpu"] = time.thread_time() - cpu  # the UI thread's, until painted
        out[name + " others"] = time.process_time() - all_cpu - out[name + " cpu"]  # other threads' (a journal)
        settle(s)
        out[name + " checked"] = time.perf_counter() - start

    def while_journalling(name: str, fn) -> None:
        """`step` while the crash journal of the edit before it is being written (seconds at 100k rows),
        as when the journal's timer fires just before the user undoes."""
        settle(s)
        if not w.recovery.write():
            raise SystemExit("no journal write started")
        writing = getattr(w.recovery, "_writing", None)  # an earlier tree kept the writer's thread as _thread
        writer = writing.thread if writing is not None else getattr(w.recovery, "_thread", None)
        time.sleep(0.02)  # the writer is into the rows
        out[name + " writing"] = writer is not None and writer.is_alive()  # still in flight at the undo
        step(name, fn)

    w.show_find()
    w.find_dialog.find_edit.setText("order")
    w.find_dialog.replace_edit.setText("ORDER")
    w.find_dialog.update_count()
    step("replace", w.find_dialog.replace_all)
    step("undo replace", w.undo_stack.undo)
    w.undo_stack.redo()
    while_journalling("undo replace, journal", w.undo_stack.undo)
    w.find_dialog.hide()
    order = [r.id for r in w.doc.dataset.rows]
    rnd.Random(1).shuffle(order)
    push(w.undo_stack, w.doc.dataset, ReorderRows(order))
    settle(s)
    step("sort", w.ops.sort_by_session_and_turn)
    step("undo sort", w.undo_stack.undo)
    w.undo_stack.redo()
    while_journalling("undo sort, journal", w.undo_stack.undo)
    return out


def interact_worker(path: Path, n_edits: int, scroll: bool = True) -> dict:
    from PySide6.QtCore import Qt

    s = Session()
    s.documents.open_file(path)
    s.wait_paint()
    settle(s)
    model, view, ds = s.model, s.view, s.win.doc.dataset
    bar = view.verticalScrollBar()

    # data() on a page never shown (cold caches), then again (warm)
    bar.setValue(bar.maximum() // 2 + 7)
    first, last = view.rowAt(0), view.rowAt(view.viewport().height() - 1)
    cells = [model.index(r, c) for r in range(first, last + 1 if last >= 0 else model.rowCount())
             for c in range(model.columnCount())]
    data_us = {}
    for name in ROLES:
        role, reps = getattr(Qt.ItemDataRole, name), [0.0, 0.0]
        for i, n in enumerate((1, 20)):
            start = time.perf_counter()
            for _ in range(n):
                for idx in cells:
                    model.data(idx, role)
            reps[i] = (time.perf_counter() - start) / (n * len(cells)) * 1e6
        data_us[name] = reps
    s.wait_paint()

    qcol, scol = ds.field_position("question"), ds.field_position("session_id")
    edit = int(Qt.ItemDataRole.EditRole)
    rnd = random.Random(5)
    times, after, session_edits = [], [], []
    for i in range(n_edits):
        col = scol if i % 8 == 7 and scol is not None else qcol
        index = model.index(rnd.randrange(model.rowCount()), col)
        for _ in range(50):  # a session_id edit renames a conversation's row (not an empty cell)
            if col == qcol or model.data(index, edit):
                break
            index = model.index(rnd.randrange(model.rowCount()), col)
        view.go_to(index)  # the user is on the cell: scrolled there, painted, panels settled
        s.wait_paint(1, required=False)
        s.flush_deferred()
        text = model.data(index, edit) + ("-x" if col == scol else " x")
        start = time.perf_counter()
        model.setData(index, text, edit)
        times.append(s.wait_paint() - start)
        after.append(s.flush_deferred())
        session_edits.append(col == scol)

    bar.setValue(0)
    s.wait_paint()
    steps, total_start = [], time.perf_counter()
    while scroll and bar.value() < bar.maximum():
        start = time.perf_counter()
        bar.setValue(bar.value() + bar.pageStep())
        steps.append(s.wait_paint() - start)
    return {"edits": times, "after": after, "session_edits": session_edits, "cells": len(cells),
            "scroll_total": time.perf_counter() - total_start, "scroll_steps": steps, "data_us": data_us}


def worker(kind: str, path: str, n_edits: str) -> None:
    workers = {"core": core_worker, "bare": bare_worker, "open": open_worker, "launch": launch_worker,
               "bulk": bulk_worker,
               "interact": lambda p: interact_worker(p, abs(int(n_edits)), int(n_edits) > 0)}
    result = workers[kind](Path(path))
    print(json.dumps(result), flush=True)
    os._exit(0)  # skip closeEvent / settings and Qt's teardown


# ----- driver --------------------------------------------------------------------------------------------------
def run(kind: str, path: Path, env: dict, n_edits: int = 0) -> dict:
    out = subprocess.run([sys.executable, __file__, "--worker", kind, str(path), str(n_edits)],
                         capture_output=True, text=True, env=env)
    if out.returncode:
        raise SystemExit(f"{kind} {path.name} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def launch(path: Path, env: dict) -> tuple[float, float]:
    """A fresh process (interpreter, imports, window) opening `path` until its first painted row: wall
    time, and the CPU time of the whole process (which ends soon after)."""
    start, cpu = time.monotonic(), children_cpu()
    return run("launch", path, env)["painted_at"] - start, children_cpu() - cpu


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f}"


def p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=20, method="inclusive")[-1] if len(xs) > 1 else max(xs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="2000,20000,100000")
    ap.add_argument("--formats", default="xlsx,csv")
    ap.add_argument("--repeat", type=int, default=3, help="best of N alternated runs for core and open")
    ap.add_argument("--edits", type=int, default=200)
    ap.add_argument("--no-scroll", action="store_true", help="skip paging through the whole table")
    ap.add_argument("--before", help="a source tree of an earlier version (a checkout of main): each figure "
                                     "is measured for it too, alternated with this one, in the same run")
    ap.add_argument("--offscreen", action="store_true", help="QT_QPA_PLATFORM=offscreen instead of $DISPLAY")
    ap.add_argument("--no-calc", action="store_true", help="skip the LibreOffice Calc peer of the .xlsx files")
    ap.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(*args.worker)
        return
    env = dict(os.environ)
    if args.offscreen:
        env["QT_QPA_PLATFORM"] = "offscreen"
    elif not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        raise SystemExit("no display: run under xvfb-run -a -s '-screen 0 1600x1000x24' …, or pass --offscreen")
    trees = {"": env}
    if args.before:
        trees = {"before": {**env, "PYTHONPATH": str(Path(args.before).resolve())}, "after": env}
    platform = env.get("QT_QPA_PLATFORM") or ("xcb" if env.get("DISPLAY") else "wayland")
    print(f"platform {platform}; times in ms unless marked; edit/scroll: median / p95; "
          f"ratio = paint / bare read, core = paint / evaleditor's load with validation\n")
    print(f"{'rows':>7} {'fmt':>4} {'':>6} | {'bare s':>6} {'core s':>6} {'paint s':>7} {'ratio':>5} {'core':>5} "
          f"{'cpu':>5} {'valid s':>7} {'MiB':>5} | {'edit med':>8} {'p95':>6} {'sid med':>7} {'sid p95':>7} "
          f"{'after':>6} | {'scroll s':>8} {'step med':>8} | replace / undo / undo J, sort / undo / undo J: painted "
          f"(checked; CPU UI+others) s | "
          f"data() µs cold/warm: display background tooltip")
    n_edits = args.edits * (-1 if args.no_scroll else 1)
    calc = Calc()
    for n in (int(s) for s in args.sizes.split(",")):
        for fmt in args.formats.split(","):
            path = core.make_file(n, fmt)
            bare, loads, opens = [], {t: [] for t in trees}, {t: [] for t in trees}
            with_calc = fmt == "xlsx" and calc.available() and not args.no_calc
            calc_s, launches = [], {t: [] for t in trees}
            for _ in range(args.repeat):  # alternated, so that all see the same machine load
                bare.append(run("bare", path, env)["seconds"])
                for tree, tree_env in trees.items():
                    loads[tree].append(run("core", path, tree_env))
                    opens[tree].append(run("open", path, tree_env))
                    if with_calc:
                        launches[tree].append(launch(path, tree_env))
                if with_calc:
                    calc_s.append(calc.load_seconds(path))
            its = {t: run("interact", path, e, n_edits) for t, e in trees.items()}
            bulks = {t: run("bulk", path, e) for t, e in trees.items()} if n >= 20000 else {}
            for tree in trees:
                load, op = min(r["seconds"] for r in loads[tree]), min(opens[tree], key=lambda r: r["paint"])
                cpu_ratio = min(r["cpu"] for r in opens[tree]) / min(r["cpu"] for r in loads[tree])
                it = its[tree]
                st = it["scroll_steps"]
                e = [t for t, sid in zip(it["edits"], it["session_edits"], strict=True) if not sid]
                sid = [t for t, sid in zip(it["edits"], it["session_edits"], strict=True) if sid] or [0.0]
                flag = "" if op["consistent"] else " (issues panel not up to date!)"
                b = bulks.get(tree)
                steps = ", ".join(f"{b[k]:.2f} ({b[k + ' checked']:.2f}; {b.get(k + ' cpu', 0):.2f}+"
                                  f"{b.get(k + ' others', 0):.2f}){'' if b.get(k + ' writing', True) else '!'}"
                                  for k in ("replace", "undo replace", "undo replace, journal", "sort", "undo sort",
                                            "undo sort, journal")) if b else "-"
                print(f"{n:>7} {fmt:>4} {tree:>6} | {min(bare):>6.2f} {load:>6.2f} {op['paint']:>7.3f} "
                      f"{op['paint'] / min(bare):>5.2f} {op['paint'] / load:>5.2f} {cpu_ratio:>5.2f} {op['valid']:>7.3f} "
                      f"{op['rss_mib']:>5.0f} | {ms(statistics.median(e)):>8} {ms(p95(e)):>6} "
                      f"{ms(statistics.median(sid)):>7} {ms(p95(sid)):>7} {ms(statistics.median(it['after'])):>6} | "
                      f"{it['scroll_total']:>8.2f} {ms(statistics.median(st)) if st else '-':>8} | {steps} | "
                      f"{'  '.join(f'{c:.1f}/{w:.1f}' for c, w in it['data_us'].values())}{flag}",
                      flush=True)
                if with_calc:
                    ours, calc_wall = min(launches[tree]), min(calc_s)
                    print(f"{'':>19}| `evaleditor FILE` to its first painted row {ours[0]:.2f} s (CPU {ours[1]:.2f} s); "
                          f"LibreOffice Calc reading the workbook, start-up included, headless (a lower bound of "
                          f"its open) {calc_wall[0]:.2f} s (CPU {calc_wall[1]:.2f} s): Calc / evaleditor = "
                          f"{calc_wall[0] / ours[0]:.2f}, in CPU time {min(c for _, c in calc_s) / min(c for _, c in launches[tree]):.2f} "
                          f"(goal at 100k: >= 2.5)", flush=True)
    calc.close()


if __name__ == "__main__":
    main()
