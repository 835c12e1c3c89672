"""GUI speed: open to first paint and to validated, edit-to-repaint latency, scrolling, data() cost.

    xvfb-run -a -s '-screen 0 1600x1000x24' .venv/bin/python bench/bench_gui.py [--sizes 2000,20000,100000]
    .venv/bin/python bench/bench_gui.py --offscreen [--formats xlsx,csv] [--repeat 3] [--edits 200]

Files: bench_core's (bench/out/). Each measurement runs in a fresh process with a shown MainWindow
(throw-away QSettings) and bench_core's worker imports done first:
  core      load_document(path) as bench_core's `load` worker does (read + dataset + full validation)
  paint     window.open_file(path) (what `evaleditor FILE` does) until the table's viewport has
            finished its first paint with rows; core and paint alternate, best of --repeat each;
            ratio = paint/core wall time; cpu = the same ratio in process CPU time (all threads),
            which a busy machine disturbs less
  in-app    the same load_document call timed inside the app (in a worker thread for files > 2 MB)
  valid     open_file until the document is set, the status counts and the issues panel up to date
  MiB       the GUI process's peak RSS after the first paint
  edit      model.setData(index, text, EditRole) on a visible cell until the viewport's next paint has
            finished: median, p95 and max of question edits; median of session_id edits (every 8th
            edit). `after`: median of the debounced work an edit schedules (issues panel, banner,
            conversation panel timers), run at once instead of 80-150 ms later
  scroll    the vertical scrollbar page by page through the whole table, each step until painted
  data()    µs per model.data() call for the visible cells of a page never shown (cold) and again (warm)
Targets at 100k rows: paint/core <= 1.1, edit median <= 16 ms.
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

ROLES = ("DisplayRole", "BackgroundRole", "ToolTipRole")


# ----- worker side (one fresh process per measurement) ---------------------------------------------------------
class Session:
    """A shown MainWindow and a paint watcher on its table's viewport."""

    def __init__(self):
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
        QTest.qWaitForWindowExposed(self.win)
        QTest.qWait(200)
        self.view, self.model = self.win.view, self.win.model
        self.QEventLoop, self.QTimer, self.paint_type = QEventLoop, QTimer, QEvent.Type.Paint
        self.painted_at, self.loop, session = None, None, self
        self.timeout = QTimer(singleShot=True, timeout=lambda: self.loop and self.loop.quit())

        class Watcher(QObject):
            def eventFilter(self, _obj, event) -> bool:
                return session._filter(event)

        self.watcher = Watcher()
        self.view.viewport().installEventFilter(self.watcher)

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
        for timer, fn in ((w.issues_panel._timer, w.issues_panel.refresh), (w._banner_timer, w._refresh_banner),
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
    original, load = s.win._opened, load_module.load_document

    def timed_load(*args, **kwargs):  # the same call, timed inside the app (a worker thread when big)
        begin = time.perf_counter()
        doc = load(*args, **kwargs)
        marks["load"] = time.perf_counter() - begin
        return doc

    def opened(doc) -> None:
        original(doc)
        marks["valid"] = time.perf_counter()
        marks["pending"] = s.win.issues_panel._timer.isActive()

    s.win._opened, load_module.load_document = opened, timed_load
    start, cpu = time.perf_counter(), time.process_time()
    s.win.open_file(path)
    painted = s.wait_paint()
    cpu = time.process_time() - cpu
    v = s.win.doc.validator  # the issues panel lists every issue; the status bar counts the errors
    ok = (s.win.issues_panel.model.rowCount() == len(v.all_issues())
          and f"{v.counts.get('error', 0):,}" in s.win.count_labels["error"].text())
    return {"paint": painted - start, "cpu": cpu, "valid": marks["valid"] - start, "load": marks["load"],
            "consistent": ok and not marks["pending"], "rss_mib": core.peak_rss_kib() / 1024}


def interact_worker(path: Path, n_edits: int) -> dict:
    from PySide6.QtCore import Qt

    s = Session()
    s.win.open_file(path)
    s.wait_paint()
    s.flush_deferred()
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
    while bar.value() < bar.maximum():
        start = time.perf_counter()
        bar.setValue(bar.value() + bar.pageStep())
        steps.append(s.wait_paint() - start)
    return {"edits": times, "after": after, "session_edits": session_edits, "cells": len(cells),
            "scroll_total": time.perf_counter() - total_start, "scroll_steps": steps, "data_us": data_us}


def worker(kind: str, path: str, n_edits: str) -> None:
    workers = {"core": core_worker, "open": open_worker, "interact": lambda p: interact_worker(p, int(n_edits))}
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
    ap.add_argument("--offscreen", action="store_true", help="QT_QPA_PLATFORM=offscreen instead of $DISPLAY")
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
    platform = env.get("QT_QPA_PLATFORM") or ("xcb" if env.get("DISPLAY") else "wayland")
    print(f"platform {platform}; times in ms unless marked; edit/scroll: median / p95\n")
    print(f"{'rows':>7} {'fmt':>4} | {'core s':>7} {'in-app':>7} {'paint s':>7} {'ratio':>5} {'cpu':>5} {'valid s':>7} {'MiB':>5} | "
          f"{'edit med':>8} {'p95':>6} {'max':>6} {'sid med':>7} {'after':>6} | {'scroll s':>8} {'steps':>5} "
          f"{'step med':>8} {'p95':>6} | data() µs cold/warm: display background tooltip")
    for n in (int(s) for s in args.sizes.split(",")):
        for fmt in args.formats.split(","):
            path = core.make_file(n, fmt)
            loads, opens = [], []
            for _ in range(args.repeat):  # alternated, so that both see the same machine load
                loads.append(run("core", path, env))
                opens.append(run("open", path, env))
            load, op = min(r["seconds"] for r in loads), min(opens, key=lambda r: r["paint"])
            cpu_ratio = min(r["cpu"] for r in opens) / min(r["cpu"] for r in loads)
            it = run("interact", path, env, args.edits)
            st = it["scroll_steps"]
            e = [t for t, sid in zip(it["edits"], it["session_edits"], strict=True) if not sid]
            sid = [t for t, sid in zip(it["edits"], it["session_edits"], strict=True) if sid] or [0.0]
            data = "  ".join(f"{c:.1f}/{w:.1f}" for c, w in it["data_us"].values())
            flag = "" if op["consistent"] else " (issues panel not up to date!)"
            print(f"{n:>7} {fmt:>4} | {load:>7.3f} {op['load']:>7.3f} {op['paint']:>7.3f} "
                  f"{op['paint'] / load:>5.2f} {cpu_ratio:>5.2f} {op['valid']:>7.3f} {op['rss_mib']:>5.0f} | "
                  f"{ms(statistics.median(e)):>8} {ms(p95(e)):>6} {ms(max(e)):>6} {ms(statistics.median(sid)):>7} "
                  f"{ms(statistics.median(it['after'])):>6} | {it['scroll_total']:>8.2f} {len(st):>5} "
                  f"{ms(statistics.median(st)) if st else '-':>8} {ms(p95(st)) if st else '-':>6} | "
                  f"{data} ({it['cells']} cells){flag}", flush=True)


if __name__ == "__main__":
    main()
