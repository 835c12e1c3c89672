"""The Find & Replace dialog's live match count, run on the event loop a slice at a time
(core/search.count_matches), so that typing stays responsive on a big file: "Counting… N so far", then
the total; a small file shows the total at once. A change of the text, the options, the data or the row
filter starts it again."""

from __future__ import annotations

import time

from PySide6.QtCore import QCoreApplication, QObject, QTimer

from evaleditor.core.i18n import error_text
from evaleditor.core.search import MatchCount, count_matches

translate = QCoreApplication.translate

SLICE_SECONDS = 0.03  # counting between two turns of the event loop (a chunk may run a little over)
CHUNK_CELLS = 2000  # cells counted between two looks at the clock


def matches_text(matches: int) -> str:
    return (translate("FindReplace", "1 match") if matches == 1
            else translate("FindReplace", "{n:,} matches").format(n=matches))


def count_text(matches: int, cells: int) -> str:
    where = translate("FindReplace", "1 cell") if cells == 1 else translate("FindReplace", "{n:,} cells").format(n=cells)
    return translate("FindReplace", "{matches} in {cells}").format(matches=matches_text(matches), cells=where)


class _Changes:
    """Listens to the dataset (which holds it weakly): `n` grows with every change, so that a count
    (and the cells it found) can tell it is out of date — also for rows hidden by a filter, which the
    table model says nothing about."""

    def __init__(self, changed):
        self.n = 0
        self._changed = changed

    def before_change(self, change) -> None:
        pass

    def after_change(self, change) -> None:
        self.n += 1
        self._changed()


class LiveCount(QObject):
    """Counts the matches of `dialog.query()` in `dialog.scope` of `dialog.model`, and says so in
    `dialog.count_label`."""

    def __init__(self, dialog):
        super().__init__(dialog)
        self.dialog = dialog
        self._timer = QTimer(self, singleShot=True, interval=200, timeout=self.start)
        self._slice = QTimer(self, singleShot=True, interval=0, timeout=self._count_slice)
        self._steps = None  # the count under way (a count_matches generator), or None
        self.counted: MatchCount | None = None  # the latest count, so far or complete
        self._key = None  # what it counts: (query, data and filter version)
        self._changes = _Changes(self._data_changed)
        self._watched = None  # the dataset _changes listens to
        self.model.modelReset.connect(self._model_reset)  # another document, or another row filter
        self._watch()

    @property
    def model(self):
        return self.dialog.model

    def show_error(self, exc: Exception) -> None:
        self.dialog.count_label.setText(f"\u2716 {error_text(exc)}")

    def _watch(self) -> None:
        ds = self.model.ds if self.model.doc is not None else None
        if ds is not self._watched:
            if self._watched is not None:
                self._watched.unsubscribe(self._changes)
            if ds is not None:
                ds.subscribe(self._changes)
            self._watched = ds

    def _model_reset(self) -> None:
        self._watch()
        self._changes.n += 1  # the rows shown changed: a count under way starts again at its next slice
        self._data_changed()

    def _data_changed(self) -> None:
        """The data or the rows shown changed: a finished count shown in the open dialog is counted
        again (after a pause, like typing); one under way restarts at its next slice."""
        if self.counted is not None and self.counted.complete and self.dialog.isVisible():
            self.schedule()

    def _current_key(self):
        scoped = self.dialog.in_selection.isChecked()
        return self.dialog.query(), self.dialog.scope.version if scoped else None, self._changes.n

    def is_current(self) -> bool:
        """The latest count (complete or under way) is for the text, options, data and filter shown."""
        return self.counted is not None and self._key == self._current_key()

    def stop(self) -> None:
        self._timer.stop()
        self._slice.stop()
        self._steps = None
        if self.counted is not None and not self.counted.complete:
            self.counted = None  # a count stopped half way is no count

    def schedule(self) -> None:
        self.stop()
        self._timer.start()

    def _begin(self) -> bool:
        """Sets up a new count of the current query; False (with the reason shown) when there is none."""
        self.stop()
        self.counted = None
        if self.model.doc is None:
            return False
        if not self.dialog.find_edit.text():
            self.dialog.count_label.setText(" ")
            return False
        try:
            scope = self.dialog.scope.cells()
            self._steps = count_matches(self.model.ds, self.dialog.query(), self.dialog.scope.rows(),
                                        hidden=self.model.filtered and scope is None, chunk_cells=CHUNK_CELLS,
                                        within=scope)
        except ValueError as exc:
            self.show_error(exc)
            return False
        self._key = self._current_key()
        self.counted = MatchCount()
        return True

    def start(self) -> None:
        """Counts the matches, a slice of at most ~SLICE_SECONDS now and the rest on later turns of the
        event loop: the label says "Counting… N so far", then the total."""
        if self._begin():
            self._count_slice()

    def _count_slice(self) -> None:
        if self._steps is None:
            return
        if self._key != self._current_key():  # the data or the filter changed since the count began
            self.start()
            return
        deadline = time.monotonic() + SLICE_SECONDS
        for counted in self._steps:
            self.counted = counted
            if counted.complete or time.monotonic() >= deadline:
                break
        if self.counted.complete:
            self._steps = None
        else:
            self._slice.start()
        self._show(self.counted)

    def _show(self, counted: MatchCount) -> None:
        label = self.dialog.count_label
        if not counted.done:
            label.setText(translate("FindReplace", "Counting\u2026 {matches} so far").format(
                matches=matches_text(counted.matches)))
            return
        text = count_text(counted.matches, len(counted.cells))
        if self.dialog.scope.cells() is not None:
            text = translate("FindReplace", "{count} in the selection").format(count=text)
        elif counted.hidden is not None:
            if counted.complete and counted.hidden:
                text = translate("FindReplace", "{count} in the filtered rows; {hidden} in hidden rows").format(
                    count=text, hidden=matches_text(counted.hidden))
            else:
                text = translate("FindReplace", "{count} in the filtered rows").format(count=text)
        label.setText(text)

    def finish(self) -> MatchCount | None:
        """The complete count now, at once (for an action that needs it, e.g. Replace all): the one under
        way is finished, a current one reused. None (with the reason shown) for no text or a bad pattern."""
        if not self.is_current() and not self._begin():
            return None
        self._timer.stop()
        self._slice.stop()
        if self._steps is not None:
            for counted in self._steps:
                self.counted = counted
            self._steps = None
        self._show(self.counted)
        return self.counted
