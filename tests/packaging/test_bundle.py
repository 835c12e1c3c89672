"""Build the packaged app (packaging/build.sh) and use it as a person would.

Slow (about a minute to build): runs with `pytest --run-slow` or EVALEDITOR_RUN_SLOW=1.
EVALEDITOR_REUSE_BUNDLE=1 uses an existing dist/evaleditor instead of building it again.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from evaleditor import __version__

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="build.sh builds the Linux app")]

ROOT = Path(__file__).resolve().parents[2]
APP_DIR = ROOT / "dist" / "evaleditor"
APP = APP_DIR / "evaleditor"
SAMPLE = ROOT / "resources" / "samples" / "ground_truth_multiturn.xlsx"


@pytest.fixture(scope="module")
def app() -> Path:
    if not (os.environ.get("EVALEDITOR_REUSE_BUNDLE") == "1" and APP.exists()):
        done = subprocess.run(["bash", str(ROOT / "packaging" / "build.sh")], cwd=ROOT, capture_output=True,
                              text=True, timeout=1800)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert os.access(APP, os.X_OK)
    return APP


# the app's own settings and crash journals, not the ones of whoever runs the tests
ISOLATED = {"EVALEDITOR_DATA_DIR": tempfile.mkdtemp(prefix="evaleditor-data-"),
            "XDG_CONFIG_HOME": tempfile.mkdtemp(prefix="evaleditor-config-")}


def run(app: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 120):
    return subprocess.run([str(app), *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          env={**os.environ, **ISOLATED, **(env or {})})



def test_validate_prints_the_report_and_exits_0(app):
    done = run(app, "validate", str(SAMPLE))
    assert done.returncode == 0, done.stderr
    assert "MULTI-TURN — 9 rows, 2 conversations (grouped by session_id)" in done.stdout
    assert done.stderr == ""


def test_version(app):
    done = run(app, "--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"evaleditor {__version__}"


def test_convert_and_template_write_files(app, tmp_path):
    assert run(app, "convert", str(SAMPLE), str(tmp_path / "out.json")).returncode == 0
    assert json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert run(app, "template", str(tmp_path / "t.xlsx"), "--target", "evaluation-set").returncode == 0
    assert (tmp_path / "t.xlsx").stat().st_size > 0


def test_bad_file_is_one_line_exit_2(app, tmp_path):
    done = run(app, "validate", str(tmp_path / "missing.xlsx"))
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_resources_metadata_and_licences_are_inside(app):
    done = run(app, env={"EVALEDITOR_BUNDLE_CHECK": "1"})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert "samples/ground_truth_multiturn.xlsx" in report["resources"]
    assert "icons/png/evaleditor-256.png" in report["resources"]
    assert {"translations/evaleditor_zh_CN.qm", "translations/zh_CN/LC_MESSAGES/evaleditor.mo"} <= set(report["resources"])
    components = {name: (version, licence) for name, version, licence in report["components"]}
    assert components["PySide6 (Qt for Python)"][0]  # the version comes from the bundled metadata
    assert components["openpyxl"] == (components["openpyxl"][0], "MIT") and components["openpyxl"][0]
    licences = APP_DIR / "THIRD_PARTY_LICENSES.md"
    assert report["licences"] == str(licences)
    text = licences.read_text(encoding="utf-8")
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in text
    for name in components:
        assert f"| {name} |" in text


def test_the_bundle_is_trimmed(app):
    internal = APP_DIR / "_internal"
    names = {p.relative_to(internal).as_posix() for p in internal.rglob("*")}
    for unwanted in ("pytest", "_pytest", "hypothesis", "google", "PIL", "PyInstaller", "numpy", "pandas"):
        assert unwanted not in names, unwanted
    assert not [n for n in names if re.search(r"Qt6(Qml|Quick|Pdf|Network|WebEngine)|/qml/|qgtk3|qeglfs", n)]
    assert {"PySide6/Qt/plugins/platforms/libqxcb.so", "PySide6/Qt/plugins/platforms/libqoffscreen.so",
            "PySide6/Qt/plugins/platforms/libqwayland.so"} <= names


@pytest.mark.skipif(shutil.which("ldd") is None, reason="no ldd")
def test_no_bundled_library_misses_a_qt_library(app):
    missing = []
    for lib in (APP_DIR / "_internal").rglob("*.so*"):
        if lib.is_file() and not lib.is_symlink():
            out = subprocess.run(["ldd", str(lib)], capture_output=True, text=True).stdout
            missing += [f"{lib.name}: {line.strip()}" for line in out.splitlines()
                        if "not found" in line and re.search(r"Qt6|pyside|shiboken|icu|python", line)]
    assert not missing


def test_the_window_starts_offscreen_without_errors(app):
    proc = subprocess.Popen([str(app)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **ISOLATED, "QT_QPA_PLATFORM": "offscreen"})
    try:
        time.sleep(5)
        still_running = proc.poll() is None
    finally:
        proc.kill()
        _, err = proc.communicate(timeout=30)
    assert still_running, err
    assert "Traceback" not in err
    assert not re.search(r"\berror\b|could not load|cannot|failed", err, re.IGNORECASE), err


def test_first_window_paints(app):
    done = run(app, "--demo", env={"QT_QPA_PLATFORM": "offscreen", "EVALEDITOR_QUIT_AFTER_SHOW": "1"})
    assert done.returncode == 0, done.stderr
    assert "first window painted after" in done.stderr
