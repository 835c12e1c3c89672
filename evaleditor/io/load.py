"""Open a file as a validated Document."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from evaleditor.core.alloc import bulk_allocation, keep_built
from evaleditor.core.targets import SDK_HISTORY

if TYPE_CHECKING:
    from evaleditor.core.document import Document

BACKGROUND_BYTES = 2_000_000  # the window reads files bigger than this in the background (gui/window/documents.py)


def load_document(path: str | os.PathLike, sheet: str | None = None, target: str | None = None,
                  progress=None, cancel=None, sheet_target: str | None = None, deferred: bool = False,
                  encoding: str | None = None, report_only: bool = False) -> Document:
    """Read and validate (`deferred`: the rows are checked later, in slices: core/check_pass.py). Raises ReadError (one-line reason) or Cancelled. A workbook opens on the first
    sheet whose question header `sheet_target` (default: `target`) recognises (`convert --target` names
    the output's target, not the one the input is checked against). `report_only`: the document is for
    its report only (validate, shape: cells no rule reads may be left empty), never to show or save."""
    from evaleditor.io import read_table

    path = Path(path)
    with bulk_allocation():  # the table read is handed on, held by no name here (document_of_read frees it)
        return document_of_read(read_table(path, sheet=sheet, progress=progress, cancel=cancel,
                                           target=sheet_target or target,
                                           encoding=encoding,  # a text file's encoding, when the user chose it
                                           keep_texts=not deferred, meanwhile=_validation_imports,
                                           report_only=report_only and not deferred and sheet_target is None),
                                path, target, deferred)


def _validation_imports() -> None:
    """What document_of_read imports (the dataset, the validator: 15-20 ms of every command's start),
    imported while calamine opens a workbook on another thread, which lets go of the interpreter."""
    import evaleditor.core.document  # noqa: F401


def document_of_read(raw, path: str | os.PathLike, target: str | None = None, deferred: bool = False) -> Document:
    """The Document of the file at `path` whose table `read_table` read (`raw`, which it takes: a
    save's read-back check keeps it, io/verify.ReadBack)."""
    from evaleditor.core.document import document_from_table

    with bulk_allocation():
        if raw.source_format in ("csv", "jsonl") and SDK_HISTORY in raw.headers:  # else 20 ms of imports
            from evaleditor.io.platforms.sdk_flat import fold_history

            raw = fold_history(raw)  # the SDK's flat conversation history, made again on save
        doc = document_from_table(raw, Path(path), target, file_size=os.path.getsize(path), deferred=deferred)
        del raw
        keep_built(len(doc.dataset.rows))
        return doc



class Preload:
    """`load_document(path, deferred=True)` started now, on a thread of its own, before there is a
    window: `evaleditor FILE` imports Qt and builds its window while calamine parses the workbook,
    which lets go of the interpreter. The window's background task `take`s it: waits for it, passing
    on its progress and a Cancel."""

    def __init__(self, path: str | os.PathLike):
        import threading

        self.path = Path(path).absolute()
        self._done, self._cancelled = threading.Event(), threading.Event()
        self._reported: tuple[int, int] | None = None
        self._outcome: tuple[bool, object] = (False, None)  # (loaded, the document or what was raised)
        threading.Thread(target=self._load, name="evaleditor-preload", daemon=True).start()

    def _load(self) -> None:
        try:
            self._outcome = (True, load_document(self.path, progress=self._report, cancel=self._cancelled.is_set,
                                                 deferred=True))
        except BaseException as exc:  # noqa: BLE001 - raised again where the document is taken
            self._outcome = (False, exc)
        finally:
            self._done.set()

    def _report(self, done: int, total: int) -> None:
        self._reported = (done, total)

    def take(self, progress=None, cancel=None) -> Document:
        """The document (or what the load raised), waiting for it; `progress` and `cancel` as
        load_document's."""
        while not self._done.wait(0.05):
            if cancel is not None and cancel():
                self._cancelled.set()
            if progress is not None and self._reported is not None:
                progress(*self._reported)
        loaded, outcome = self._outcome
        if not loaded:
            raise outcome  # type: ignore[misc]
        return outcome  # type: ignore[return-value]
