"""LibreOffice Calc as the window's peer: how long Calc takes to open a workbook.

Calc is timed headless, start-up included: it reads the whole workbook and is then asked to export a
sheet the workbook does not have, so it writes nothing ("No sheet number 99", checked). No window, no
layout, no paint, no export: a lower bound of Calc's open to its first painted cells. (Calc with a
window is not timed: Debian's libreoffice-*-nogui packages, which a build machine may have, have none.)
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

NO_SUCH_SHEET = 99  # Calc's CSV export option 12 picks the sheet to write: one no bench workbook has
EXPORT = f"csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,{NO_SUCH_SHEET}"


def children_cpu() -> float:
    """User + system CPU seconds of the child processes waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Calc:
    """soffice with a profile of its own, made (and the file read once) by a first, untimed run."""

    def __init__(self):
        self.soffice = shutil.which("soffice") or shutil.which("libreoffice")
        self._folder = Path(tempfile.mkdtemp(prefix="bench-calc-"))
        self._warm = False

    def available(self) -> bool:
        return self.soffice is not None

    def load_seconds(self, path: Path) -> tuple[float, float]:
        """Wall and CPU time (user + sys, all its processes) of soffice reading `path` (a fresh process,
        the profile already made)."""
        if not self._warm:
            self._run(path)
            self._warm = True
        start, cpu = time.perf_counter(), children_cpu()
        self._run(path)
        return time.perf_counter() - start, children_cpu() - cpu

    def _run(self, path: Path) -> None:
        out = subprocess.run([self.soffice, f"-env:UserInstallation={(self._folder / 'profile').as_uri()}",
                              "--headless", "--norestore", "--convert-to", EXPORT, "--outdir",
                              str(self._folder / "out"), str(path)], capture_output=True, text=True)
        said = out.stdout + out.stderr
        if f"No sheet number {NO_SUCH_SHEET}" not in said:  # it did not read the workbook through
            raise SystemExit(f"LibreOffice did not read {path.name} as expected:\n{said}")

    def close(self) -> None:
        shutil.rmtree(self._folder, ignore_errors=True)
