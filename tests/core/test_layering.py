"""The core and the readers never import Qt (architecture.md); the CLI's --help stays light."""

import subprocess
import sys


def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys; print('\\n'.join(sys.modules))"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_core_and_io_import_without_qt_or_pandas():
    mods = _modules_after(
        "import pkgutil, importlib, evaleditor.core, evaleditor.io\n"
        "for pkg in (evaleditor.core, evaleditor.io):\n"
        "    for m in pkgutil.iter_modules(pkg.__path__):\n"
        "        importlib.import_module(pkg.__name__ + '.' + m.name)")
    assert not {m for m in mods if m.startswith(("PySide6", "shiboken6"))}
    assert "pandas" not in mods


def test_cli_help_does_not_load_qt():
    mods = _modules_after("from evaleditor import cli\ntry:\n    cli.main(['--help'])\nexcept SystemExit:\n    pass")
    assert not {m for m in mods if m.startswith("PySide6")}
