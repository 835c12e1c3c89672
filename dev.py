"""Set up and run evaleditor from a checkout with nothing but Python 3.11+.

    python3 dev.py demo    set up the editor alone, then open it on the bundled sample dataset
    python3 dev.py test    set up with the test tools too, then run the linter and the whole test suite
    python3 dev.py setup   only set up (.venv with the package and its test tools)
    python3 dev.py translations   refresh the translation sources from the code and compile them
                           (resources/translations: .po -> .mo, .ts -> .qm; docs/i18n.md)

Setting up makes `.venv/` (once), installs the package editable — `demo` with what the editor needs,
`test` and `setup` with the test tools too — (again only when pyproject.toml changed), and on Linux
checks that the Qt platform plugin the window will use (xcb under X11, wayland under Wayland) finds
its system libraries — installing them with apt-get when run as root, or printing the one command to
run otherwise. `test` and `setup` also install, once, the evaluation platforms' own clients that the
tests judge our files with, apart from .venv (`.venv-clients/`): azure-ai-evaluation in a venv of its
own (it pins pandas below 3) and promptfoo with npm (skipped, with the reason, when npm is missing;
EVALEDITOR_REQUIRE_CLIENTS=1 makes that an error, as in CI).
"""

from __future__ import annotations

import hashlib
import os
import platform
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
# what PySide6's QtGui/QtWidgets and the xcb/wayland/offscreen platform plugins link against (Debian names)
QT_DEBIAN_PACKAGES = [
    "libegl1", "libgl1", "libglib2.0-0", "libfontconfig1", "libfreetype6", "libdbus-1-3",
    "libxkbcommon0", "libxkbcommon-x11-0", "libx11-xcb1", "libxcb-cursor0", "libxcb-icccm4",
    "libxcb-image0", "libxcb-keysyms1", "libxcb-randr0", "libxcb-render-util0", "libxcb-shape0",
    "libxcb-xinerama0", "libxcb-xkb1", "libxcb-sync1", "libxcb-xfixes0", "libwayland-client0",
    "libwayland-cursor0", "libwayland-egl1", "fonts-dejavu-core",
    # Chinese glyphs for the zh_CN interface and 中文 datasets (tests never depend on them)
    "fonts-noto-cjk",
]

# The evaluation platforms' own clients (tests/io/test_platforms.py judges the files we write with them,
# offline), pinned, each apart from .venv.
CLIENTS = ROOT / ".venv-clients"
REQUIRE_CLIENTS = "EVALEDITOR_REQUIRE_CLIENTS"
AZURE_EVALUATION = "azure-ai-evaluation==1.18.10"  # pins pandas < 3: a venv of its own
AZURE_VENV = CLIENTS / "azure-ai-evaluation"
AZURE_PY = AZURE_VENV / BIN.name / PY.name
PROMPTFOO = "promptfoo@0.121.20"  # the last release that runs on Node.js 20 (^20.20 || >=22.22)
PROMPTFOO_PREFIX = CLIENTS / "promptfoo"
PROMPTFOO_BIN = PROMPTFOO_PREFIX / "node_modules" / ".bin" / ("promptfoo.cmd" if os.name == "nt" else "promptfoo")
# Installed without its optional dependencies (its other providers: 1.9 GB with them, 0.26 GB without),
# but its database driver (libsql, loaded at every start) finds its compiled part only among them.
LIBSQL = "0.5.29"
LIBSQL_NATIVE = {("linux", "x86_64", "glibc"): "linux-x64-gnu", ("linux", "x86_64", ""): "linux-x64-musl",
                 ("linux", "aarch64", "glibc"): "linux-arm64-gnu", ("linux", "aarch64", ""): "linux-arm64-musl",
                 ("darwin", "arm64", ""): "darwin-arm64", ("darwin", "x86_64", ""): "darwin-x64",
                 ("win32", "amd64", ""): "win32-x64-msvc"}


def run(*cmd: object, **kw) -> int:
    return subprocess.call([str(c) for c in cmd], cwd=ROOT, **kw)


def setup(extra: str = "test") -> None:
    """The venv, the package (with the `test` extra unless only the editor is wanted) and, on Linux,
    Qt's system libraries."""
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py may be started by an older python3
        sys.exit(f"evaleditor needs Python 3.11 or newer (this is {sys.version.split()[0]})")
    if not PY.exists():
        print("dev.py: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    have = STAMP.read_text().split() if STAMP.exists() else []
    # the stamp says which install is there: "<hash>" alone is the older stamp, with the test tools
    installed = (have[0], have[1] if len(have) > 1 else "test") if have else None
    if installed is None or installed[0] != want or (extra == "test" and installed[1] != "test"):
        what = "evaleditor and its test tools" if extra == "test" else "evaleditor"
        print(f"dev.py: installing {what} into .venv", flush=True)
        spec = ".[test]" if extra == "test" else "."
        if run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip") or \
                run(PY, "-m", "pip", "install", "--quiet", "-e", spec):
            sys.exit("dev.py: pip install failed (see above)")
        STAMP.write_text(f"{want} {extra}")
    if sys.platform.startswith("linux"):
        ensure_qt_libraries()


def node_fits(version: str) -> bool:
    """Whether `node --version` ("v20.20.2") is one the pinned promptfoo runs on: 20.20+ or 22.22+."""
    try:
        major, minor = (int(part) for part in version.strip().lstrip("v").split(".")[:2])
    except ValueError:
        return False
    return (major == 20 and minor >= 20) or (major, minor) >= (22, 22)


def libsql_native() -> str | None:
    """The package holding the compiled part of promptfoo's database driver for this machine, if any."""
    libc = "glibc" if sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc" else ""
    return LIBSQL_NATIVE.get((sys.platform, platform.machine().lower(), libc))


def promptfoo_problem() -> str | None:
    """Why promptfoo cannot be installed here, or None."""
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        return "npm not found: install Node.js 20.20+ with npm to run the promptfoo check"
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    if not node_fits(version):
        return f"Node.js {version or '?'} is too old for {PROMPTFOO}: it needs 20.20+ or 22.22+"
    if libsql_native() is None:
        return f"{PROMPTFOO}'s database driver has no build for {sys.platform} {platform.machine()}"
    return None


def client_install(name: str) -> list[str]:
    """The command that installs the client `name` (AZURE_EVALUATION or PROMPTFOO) where the tests look."""
    if name == PROMPTFOO:
        return [shutil.which("npm") or "npm", "install", "--prefix", str(PROMPTFOO_PREFIX), "--omit=optional",
                "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", PROMPTFOO,
                f"@libsql/{libsql_native()}@{LIBSQL}"]
    if not AZURE_PY.exists():
        venv.EnvBuilder(with_pip=True).create(AZURE_VENV)
    return [str(AZURE_PY), "-m", "pip", "install", "--quiet", name]


def setup_clients() -> None:
    """Install the clients not yet installed at their pinned versions, both at once (each is mostly
    download). One line for each that cannot be; an error instead with EVALEDITOR_REQUIRE_CLIENTS=1."""
    wanted = {PROMPTFOO: PROMPTFOO_PREFIX, AZURE_EVALUATION: AZURE_VENV}
    problems = []
    why = promptfoo_problem()
    if why:
        problems.append(why)
        del wanted[PROMPTFOO]
    jobs = []
    for name, home in wanted.items():
        stamp = home / STAMP.name
        if not (stamp.exists() and stamp.read_text() == name):
            print(f"dev.py: installing {name} into {home.relative_to(ROOT)}", flush=True)
            jobs.append((name, stamp, subprocess.Popen(client_install(name), cwd=ROOT)))
    for name, stamp, job in jobs:
        if job.wait():
            problems.append(f"installing {name} failed (see above)")
        else:
            stamp.write_text(name)
    for problem in problems:
        print(f"dev.py: {problem}; its real-client test will skip", flush=True)
    if problems and os.environ.get(REQUIRE_CLIENTS) == "1":
        sys.exit(f"dev.py: {REQUIRE_CLIENTS}=1 and a platform's client is not installed")


def window_platform(env: dict[str, str]) -> str:
    """The Qt platform plugin the editor's window will load: QT_QPA_PLATFORM when set, wayland in a
    Wayland session, xcb otherwise (also with no display at all: the window needs X11 or Wayland)."""
    chosen = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if chosen:
        return chosen
    if env.get("WAYLAND_DISPLAY") or env.get("XDG_SESSION_TYPE") == "wayland":
        return "wayland"
    return "xcb"


def libraries_not_found(ldd_output: str) -> list[str]:
    """The shared libraries `ldd` could not resolve ("libxcb-icccm.so.4 => not found")."""
    names = [line.split("=>")[0].strip() for line in ldd_output.splitlines() if "not found" in line]
    return list(dict.fromkeys(names))


def python_says(code: str, env: dict[str, str]) -> tuple[bool, str]:
    """Run `code` in the venv: ok, and what it printed (on failure the last line of its errors)."""
    try:
        probe = subprocess.run([str(PY), "-c", code], capture_output=True, text=True, env=env, timeout=120)
    except subprocess.TimeoutExpired:
        return False, "the probe did not finish"
    if probe.returncode == 0:
        return True, probe.stdout
    lines = probe.stderr.strip().splitlines()
    return False, lines[-1] if lines else f"exit status {probe.returncode}"


def qt_problem(env: dict[str, str] | None = None) -> str | None:
    """Why the editor's window cannot start here, or None. Loading Qt offscreen is not enough: the
    offscreen plugin needs none of the X11/Wayland libraries the real window links against, so the
    plugin the window will use is checked too — its libraries with `ldd`, and, when a display is
    there, by starting a QGuiApplication on it."""
    env = dict(os.environ if env is None else env)
    platform = window_platform(env)
    ok, why = python_says("from PySide6 import QtWidgets", dict(env, QT_QPA_PLATFORM="offscreen"))
    if not ok:
        return why
    if platform in ("offscreen", "minimal"):
        return None
    ok, plugins = python_says("import os, PySide6; print(os.path.join(os.path.dirname(PySide6.__file__), "
                              "'Qt', 'plugins', 'platforms'), end='')", env)
    plugin = Path(plugins if ok else "") / f"libq{platform}.so"
    if ok and plugin.exists() and shutil.which("ldd"):
        missing = libraries_not_found(subprocess.run(["ldd", str(plugin)], capture_output=True, text=True).stdout)
        if missing:
            return f"the {platform} platform plugin needs {', '.join(missing)}, which {'is' if len(missing) == 1 else 'are'} not installed"
    display = env.get("WAYLAND_DISPLAY") if platform == "wayland" else env.get("DISPLAY")
    if platform in ("xcb", "wayland") and not display:
        return None  # nothing to start on; the libraries are there
    ok, why = python_says("from PySide6.QtGui import QGuiApplication; QGuiApplication([])",
                          dict(env, QT_QPA_PLATFORM=platform))
    return None if ok else why


def ensure_qt_libraries() -> None:
    why = qt_problem()
    if why is None:
        return
    apt = shutil.which("apt-get")
    command = ["apt-get", "install", "-y", "--no-install-recommends", *QT_DEBIAN_PACKAGES]
    if apt and hasattr(os, "geteuid") and os.geteuid() == 0:
        print(f"dev.py: Qt cannot start ({why}); installing its system libraries", flush=True)
        quiet = {"stdout": subprocess.DEVNULL}
        if run("apt-get", "update", "-qq", **quiet) or run(*command, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"), **quiet):
            sys.exit("dev.py: apt-get could not install Qt's system libraries")
        why = qt_problem()
    if why is not None:
        hint = f"sudo {' '.join(command)}" if apt else "your distribution's Qt 6 runtime libraries (OpenGL/EGL, xkbcommon, xcb)"
        sys.exit(f"dev.py: Qt cannot start ({why}). Install: {hint}")


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "demo"
    if what not in ("demo", "test", "setup", "translations"):
        print(__doc__)
        return 2
    setup("runtime" if what == "demo" else "test")
    if what in ("test", "setup"):
        setup_clients()
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
