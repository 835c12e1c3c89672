"""Start the editor: `run(paths, demo)` creates the QApplication (if none), opens one window per file
(or the bundled sample), and runs the event loop. The CLI calls it. The language (system, or
View ▸ Language) is applied before the first window is built. Once the windows show, unsaved changes
left by an editor that crashed are offered back (restoring.py)."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, QTimer
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import QApplication

from evaleditor import __version__
from evaleditor.core.errors import EvalEditorError
from evaleditor.core.i18n import error_text
from evaleditor.gui import dialogs
from evaleditor.gui.window import language, restoring, windows

DESKTOP_FILE = "evaleditor"  # packaging/linux/evaleditor.desktop, without .desktop
DEMO_SAMPLES = ("demo_messy_multiturn.xlsx", "ground_truth_multiturn.xlsx")
translate = QCoreApplication.translate


def application(platform: str = sys.platform) -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
        style = style_for(platform)
        if style is not None:
            app.setStyle(style)
    app.setOrganizationName("evaleditor")
    app.setApplicationName("evaleditor")
    app.setApplicationDisplayName("evaleditor")
    # Wayland (and GNOME's dock on X11) match a window to its taskbar entry and icon by this name: the
    # .desktop file packaging/linux installs is evaleditor.desktop
    QGuiApplication.setDesktopFileName(DESKTOP_FILE)
    if platform == "darwin" and not any(isinstance(f, windows.FileOpenFilter) for f in app.findChildren(QObject)):
        # Finder opens files in the running app. Only there: a filter on the application sees every event
        # of every widget, each a call into Python that takes the interpreter from a background read
        app.installEventFilter(windows.FileOpenFilter(app))
    app.setApplicationVersion(__version__)
    icon = _app_icon()
    if icon is not None:
        app.setWindowIcon(icon)
    language.apply()
    return app


def style_for(platform: str) -> str | None:
    """The widget style: the platform's own on Windows and macOS (what their users expect; the colours
    come from the palette, which both follow in dark mode). Elsewhere Fusion: a Linux desktop's native
    style is whatever Qt finds (often a plain "Windows" 95 look without the platform theme plugin),
    while Fusion follows the palette, dark schemes and high contrast alike."""
    return None if platform in ("win32", "darwin") else "Fusion"


def _app_icon() -> QIcon | None:
    try:
        from evaleditor.gui.dialogs.about import app_icon

        icon = app_icon()
    except (ModuleNotFoundError, OSError, ValueError):
        return None
    return None if icon.isNull() else icon


def demo_sample() -> Path | None:
    """The bundled sample the demo opens (the messy multi-turn one when shipped)."""
    try:
        folder = resources.files("evaleditor.resources") / "samples"
        for name in DEMO_SAMPLES:
            if (folder / name).is_file():
                return Path(str(folder / name))
        found = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(("_", ".")))
        return Path(str(found[0])) if found else None
    except (ModuleNotFoundError, OSError):
        return None


def open_demo(window) -> bool:
    """Open the sample as an untitled copy, so that Save never writes into the installed package."""
    path = demo_sample()
    if path is None:
        dialogs.show_error(window, translate("App", "No demo"),
                           translate("App", "The bundled sample dataset is missing from this installation."))
        return False
    from evaleditor.io.load import load_document
    try:
        doc = load_document(path)
    except EvalEditorError as exc:
        dialogs.show_error(window, translate("App", "Cannot open the demo"), error_text(exc))
        return False
    doc.path = None
    doc.display_name = translate("App", "{name} (demo)").format(name=path.name)
    window.set_document(doc)
    return True


def run(paths: list[str], demo: bool = False, preloaded=None) -> int:
    """`preloaded`: the load of paths[0] already under way (io.load.Preload)."""
    from evaleditor.gui.window.main_window import MainWindow

    app = application()
    first = None
    for path in paths or [None]:
        window = MainWindow()
        windows.track(window)
        first = first or window
        window.show()
        if path is not None:
            window.documents.open_file(path, preloaded=preloaded if window is first else None)
        elif demo:
            open_demo(window)
    QTimer.singleShot(0, lambda: [windows.track(w) for w in restoring.offer_restore(first)])
    return app.exec()
