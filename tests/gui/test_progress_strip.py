"""The progress strip of a long read or save: it shows that work goes on without costing the UI thread
the CPU the reading threads need (no 60-frames-a-second busy animation), and only real progress."""

from __future__ import annotations

import threading
from types import SimpleNamespace

from PySide6.QtCore import QEvent, QObject

from evaleditor.gui.window import loader
from evaleditor.gui.window.loader import ProgressStrip


class PaintCounter(QObject):
    def __init__(self, widgets):
        super().__init__()
        self.count = 0
        for widget in widgets:
            widget.installEventFilter(self)

    def eventFilter(self, _obj, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def shown_strip(qtbot) -> ProgressStrip:
    strip = ProgressStrip()
    qtbot.addWidget(strip)
    strip.begin("Opening big.xlsx\u2026")
    qtbot.waitExposed(strip)
    return strip


def test_waiting_with_nothing_to_measure_shows_the_seconds_and_repaints_at_most_once_a_tick(qtbot):
    strip = shown_strip(qtbot)
    ticks = []
    strip._ticker.timeout.connect(lambda: ticks.append(strip.elapsed.text()))
    paints = PaintCounter([strip, strip.label, strip.bar, strip.elapsed, strip.cancel_button])
    qtbot.waitUntil(lambda: len(ticks) >= 9, timeout=60000)  # two seconds by the strip's own clock
    assert not strip.bar.isVisible() and strip.elapsed.isVisible()  # no bar pretending to know how far
    assert ticks[-1] != ticks[0] and ticks[-1].endswith(" s")  # the seconds go up: work goes on
    assert paints.count <= len(ticks)  # a busy bar repaints 15 times a tick


def test_real_progress_shows_a_bar_and_the_seconds_again_once_it_cannot_tell(qtbot):
    strip = shown_strip(qtbot)
    strip.report(300, 1000)
    assert strip.bar.isVisible() and not strip.elapsed.isVisible()
    assert (strip.bar.value(), strip.bar.maximum()) == (300, 1000)
    strip.report(1000, 1000)  # read everything; checking now
    assert not strip.bar.isVisible() and strip.elapsed.isVisible()
    strip.end()
    assert not strip.isVisible() and not strip._ticker.isActive()


def test_a_fast_reader_posts_a_few_reports_a_second_to_the_ui_thread(monkeypatch):
    clock = SimpleNamespace(now=0.0)
    monkeypatch.setattr(loader, "time", SimpleNamespace(monotonic=lambda: clock.now))
    worker = loader._Worker(lambda progress, cancel: None, threading.Event())
    posted = []
    worker.progressed.connect(lambda done, total: posted.append(done))
    for done in range(10_000):  # ten seconds of a reader reporting every millisecond
        clock.now = done / 1000
        worker._progress(done, 10_000)
    worker._progress(10_000, 10_000)
    assert 50 <= len(posted) <= 10 / loader.REPORT_EVERY + 2 and posted[-1] == 10_000
