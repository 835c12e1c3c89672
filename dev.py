"""Set up and run evaleditor from a checkout with nothing but Python 3.11+.

    python3 dev.py demo    set up, then open the editor on the bundled sample dataset
    python3 dev.py test    set up, then run the linter and the whole test suite
    python3 dev.py setup   only set up (.venv with the package and its test tools)
    python3 dev.py translations   refresh the translation sources from the code and compile them
                           (resources/translations: .po -> .mo, .ts -> .qm; docs/i18n.md)

Setting up makes `.venv/` (once), installs the package editable with its test extras (again only
when pyproject.toml changed), and on Linux checks that Qt's system libraries are present —
installing them with apt-get when run as root, or printing the one command to run otherwise.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".evaleditor-installed"
# what PySide6's QtGui/QtWidgets and the xcb/offscreen platform plugins link against (Debian names)
QT_DEBIAN_PACKAGES = [
    "libegl1", "libgl1", "libglib2.0-0", "libfontconfig1", "libfreetype6", "libdbus-1-3",
    "libxkbcommon0", "libxkbcommon-x11-0", "libx11-xcb1", "libxcb-cursor0", "libxcb-icccm4",
    "libxcb-image0", "libxcb-keysyms1", "libxcb-randr0", "libxcb-render-util0", "libxcb-shape0",
    "libxcb-xinerama0", "libxcb-xkb1", "libxcb-sync1", "libxcb-xfixes0", "fonts-dejavu-core",
    # Chinese glyphs for the zh_CN interface and 中文 datasets (tests never depend on them)
    "fonts-noto-cjk",
]


def run(*cmd: object, **kw) -> int:
    return subprocess.call([str(c) for c in cmd], cwd=ROOT, **kw)


def setup() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py may be started by an older python3
        sys.exit(f"evaleditor needs Python 3.11 or newer (this is {sys.version.split()[0]})")
    if not PY.exists():
        print("dev.py: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not STAMP.exists() or STAMP.read_text() != want:
        print("dev.py: installing evaleditor and its test tools into .venv", flush=True)
        if run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip") or \
                run(PY, "-m", "pip", "install", "--quiet", "-e", ".[test]"):
            sys.exit("dev.py: pip install failed (see above)")
        STAMP.write_text(want)
    if sys.platform.startswith("linux"):
        ensure_qt_libraries()


def qt_loads() -> tuple[bool, str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    probe = subprocess.run([str(PY), "-c", "from PySide6 import QtWidgets"], capture_output=True, text=True, env=env)
    lines = probe.stderr.strip().splitlines()
    return probe.returncode == 0, lines[-1] if lines else ""


def ensure_qt_libraries() -> None:
    ok, why = qt_loads()
    if ok:
        return
    apt = shutil.which("apt-get")
    command = ["apt-get", "install", "-y", "--no-install-recommends", *QT_DEBIAN_PACKAGES]
    if apt and hasattr(os, "geteuid") and os.geteuid() == 0:
        print(f"dev.py: Qt cannot load ({why}); installing its system libraries", flush=True)
        quiet = {"stdout": subprocess.DEVNULL}
        if run("apt-get", "update", "-qq", **quiet) or run(*command, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"), **quiet):
            sys.exit("dev.py: apt-get could not install Qt's system libraries")
        ok, why = qt_loads()
    if not ok:
        hint = f"sudo {' '.join(command)}" if apt else "your distribution's Qt 6 runtime libraries (OpenGL/EGL, xkbcommon, xcb)"
        sys.exit(f"dev.py: Qt cannot load ({why}). Install: {hint}")


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "demo"
    if what not in ("demo", "test", "setup", "translations"):
        print(__doc__)
        return 2
    setup()
    if what == "demo":
        return run(BIN / "evaleditor", "--demo", *argv[1:])
    if what == "test":
        if run(PY, "-m", "ruff", "check", "evaleditor", "tests", "bench", "dev.py"):
            return 1
        return run(PY, "-m", "pytest", *argv[1:])
    if what == "translations":
        script = ROOT / "scripts" / "translations.py"
        return run(PY, script, "update") or run(PY, script, "compile") or run(PY, script, "check")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
