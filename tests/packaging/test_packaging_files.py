"""The files of the packaged app that need no build: .desktop, AppStream metainfo, icons, licences,
and packaging/entry.py's hooks run from the checkout."""

import configparser
import json
import os
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from evaleditor import __version__

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "packaging" / "linux"
ICONS = ROOT / "resources" / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
MIME_TYPES = {"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "application/vnd.ms-excel",
              "text/csv", "application/json"}


def desktop_entry() -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(LINUX / "evaleditor.desktop", encoding="utf-8")
    return dict(parser["Desktop Entry"])


def list_value(value: str) -> list[str]:
    return [v for v in value.split(";") if v]


def test_desktop_entry_keys():
    entry = desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Name"] == "evaleditor"
    assert entry["GenericName"] == "Evaluation dataset editor"
    assert entry["Exec"] == "evaleditor %F"
    assert entry["Icon"] == "evaleditor"
    assert entry["Terminal"] == "false"
    assert list_value(entry["Categories"]) == ["Office", "Spreadsheet"]  # one main category: listed once in menus
    assert set(list_value(entry["MimeType"])) == MIME_TYPES
    assert entry["MimeType"].endswith(";") and entry["Categories"].endswith(";")


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-utils not installed")
def test_desktop_entry_validates():
    done = subprocess.run(["desktop-file-validate", str(LINUX / "evaleditor.desktop")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "error:" not in done.stdout + done.stderr


def test_metainfo_matches_the_desktop_entry_and_version():
    root = ET.parse(LINUX / "io.github.evaleditor.metainfo.xml").getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == "io.github.evaleditor"
    assert root.findtext("launchable") == "evaleditor.desktop"
    assert root.findtext("project_license") == "Apache-2.0"
    assert {m.text for m in root.iter("mediatype")} == MIME_TYPES
    assert root.find("provides/binary").text == "evaleditor"
    assert __version__ in [r.get("version") for r in root.iter("release")]


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="appstream not installed")
def test_metainfo_validates():
    done = subprocess.run(["appstreamcli", "validate", "--no-net", str(LINUX / "io.github.evaleditor.metainfo.xml")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", data[16:24])


def test_every_icon_size_exists_and_is_that_size():
    assert ET.parse(ICONS / "evaleditor.svg").getroot().tag.endswith("svg")
    for size in SIZES:
        assert png_size(ICONS / "png" / f"evaleditor-{size}.png") == (size, size)
    assert (ICONS / "evaleditor.ico").read_bytes()[:4] == b"\x00\x00\x01\x00"
    assert (ICONS / "evaleditor.icns").read_bytes()[:4] == b"icns"
    total = sum(p.stat().st_size for p in ICONS.rglob("*") if p.is_file())
    assert total < 300_000, f"icons take {total} bytes"


def test_install_script_names_the_files_that_exist():
    script = (LINUX / "install.sh").read_text()
    for name in ("evaleditor.desktop", "io.github.evaleditor.metainfo.xml", "update-desktop-database"):
        assert name in script
    assert f'SIZES="{" ".join(map(str, SIZES))}"' in script


def test_spec_declares_the_document_types_and_bundle_id():
    spec = (ROOT / "packaging" / "evaleditor.spec").read_text()
    for needle in ('"xlsx"', '"xls"', '"csv"', '"json"', "NSHighResolutionCapable", "bundle_identifier",
                   "console=False", "entry.py"):
        assert needle in spec


def test_third_party_licences_list_what_the_about_box_lists():
    sys.path.insert(0, str(ROOT / "packaging"))
    try:
        import licenses
    finally:
        sys.path.remove(str(ROOT / "packaging"))
    from evaleditor.gui.dialogs import about

    text = licenses.markdown()
    html = about.about_html()
    for component in about.present_components():
        assert f"| {component.name} |" in text
        assert about.licence_of(component) in text
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in text and "GNU GENERAL PUBLIC LICENSE" in text
    assert about.lgpl_notice() in text
    assert __version__ in html and "dynamically" in html and "LGPL" in html
    for name in ("openpyxl", "defusedxml", "PySide6"):
        assert name in html


def run_entry(env: dict[str, str], *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "packaging" / "entry.py"), *args], capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, **env})


def test_entry_runs_the_cli():
    done = run_entry({}, "--version")
    assert done.returncode == 0 and done.stdout.strip() == f"evaleditor {__version__}"


def test_entry_bundle_check_finds_the_resources():
    done = run_entry({"EVALEDITOR_BUNDLE_CHECK": "1"})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert "samples/ground_truth_multiturn.xlsx" in report["resources"]
    assert {f"icons/png/evaleditor-{s}.png" for s in SIZES} <= set(report["resources"])
    assert {"translations/evaleditor_zh_CN.qm", "translations/zh_CN/LC_MESSAGES/evaleditor.mo"} <= set(report["resources"])
    assert "PySide6 (Qt for Python)" in [c[0] for c in report["components"]]


def test_entry_quits_after_the_first_window_paints():
    done = run_entry({"EVALEDITOR_QUIT_AFTER_SHOW": "1", "QT_QPA_PLATFORM": "offscreen"}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "first window painted after" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(sys.platform != "linux", reason="the Linux installer")
def test_uninstall_takes_away_everything_install_added(tmp_path):
    app = tmp_path / "dist" / "evaleditor"
    app.mkdir(parents=True)
    (app / "evaleditor").write_text("#!/bin/sh\n")
    (app / "evaleditor").chmod(0o755)
    prefix = tmp_path / "prefix"
    env = {**os.environ, "PREFIX": str(prefix), "APP_SRC": str(app)}
    subprocess.run(["bash", str(LINUX / "install.sh")], env=env, check=True, capture_output=True)
    assert (prefix / "bin" / "evaleditor").is_symlink() and (prefix / "share" / "applications").is_dir()
    subprocess.run(["bash", str(LINUX / "install.sh"), "--uninstall"], env=env, check=True, capture_output=True)
    assert [p for p in prefix.rglob("*")] == []  # not even the empty folders it made


def test_every_package_folder_ships():
    """pyproject lists packages by name: a subpackage left out installs without its modules."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folders = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "evaleditor").rglob("__init__.py")}
    assert folders - listed == set()
