"""The bundled app's entry point: `evaleditor` exactly as the installed command behaves.

No arguments or files open the window; `validate | shape | convert | template`, `--version` and
`--help` run headless (evaleditor.cli.main decides). The process exits with main()'s status.

Platform details handled here, because only a frozen, windowed build has them:
- Windows: a windowed (no-console) .exe has no stdout/stderr. When started from a console with a
  headless subcommand, attach to that console so the report and exit message are visible.
- macOS: Finder may pass a `-psn_…` process serial number; it is not a file.

Checks of the bundle (not for users; tests/packaging/test_bundle.py uses them):
EVALEDITOR_BUNDLE_CHECK=1 prints, as JSON, the files importlib.resources finds in
evaleditor.resources and the components the About box lists, then exits.
Measuring start-up: EVALEDITOR_QUIT_AFTER_SHOW=1 prints
`evaleditor: first window painted after N.NNN s` to stderr once the first top-level window has
painted, then quits. The GUI is not changed for it: QApplication is replaced, before the GUI
imports it, by a subclass that installs an event filter on itself.
"""

from __future__ import annotations

import os
import sys
import time

_STARTED = time.monotonic()


def _process_age() -> float:
    """Seconds since the process started (the bootloader included where the OS tells it)."""
    try:  # Linux: field 22 of /proc/self/stat is the start time in clock ticks after boot
        with open("/proc/self/stat") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return time.monotonic() - _STARTED


def _attach_windows_console() -> None:
    if sys.platform != "win32" or sys.stdout is not None:
        return
    import ctypes

    if ctypes.windll.kernel32.AttachConsole(-1):  # ATTACH_PARENT_PROCESS
        sys.stdout = open("CONOUT$", "w", encoding="utf-8", errors="replace")  # noqa: SIM115
        sys.stderr = open("CONOUT$", "w", encoding="utf-8", errors="replace")  # noqa: SIM115


def _quit_after_first_paint() -> None:
    from PySide6 import QtWidgets
    from PySide6.QtCore import QEvent, QObject, QTimer

    class _FirstPaint(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
            if event.type() == QEvent.Type.Paint and isinstance(obj, QtWidgets.QWidget) \
                    and obj.window().isVisible() and not self.property("seen"):
                self.setProperty("seen", True)
                print(f"evaleditor: first window painted after {_process_age():.3f} s", file=sys.stderr, flush=True)
                QTimer.singleShot(0, QtWidgets.QApplication.quit)
            return False

    base = QtWidgets.QApplication

    class _MeasuredApplication(base):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._first_paint = _FirstPaint()
            self.installEventFilter(self._first_paint)

    QtWidgets.QApplication = _MeasuredApplication


def _bundle_check() -> int:
    import json
    from importlib.resources import files

    from evaleditor.gui.dialogs import about

    root = files("evaleditor.resources")
    found = sorted(os.path.relpath(str(p), str(root)).replace(os.sep, "/") for p in _walk(root))
    components = [[c.name, about.version_of(c), about.licence_of(c)] for c in about.present_components()]
    print(json.dumps({"resources": found, "components": components, "licences": str(about.licences_path())}))
    return 0


def _walk(folder):
    for child in folder.iterdir():
        if child.is_dir():
            yield from _walk(child)
        else:
            yield child


def main() -> int:
    if os.environ.get("EVALEDITOR_BUNDLE_CHECK") == "1":
        return _bundle_check()
    args = [a for a in sys.argv[1:] if not a.startswith("-psn_")]
    from evaleditor.cli import COMMANDS
    from evaleditor.cli import main as cli_main

    if args and (args[0] in COMMANDS or args[0] in ("-h", "--help", "--version")):
        _attach_windows_console()
    elif os.environ.get("EVALEDITOR_QUIT_AFTER_SHOW") == "1":
        _quit_after_first_paint()
    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
