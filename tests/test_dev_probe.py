"""dev.py's Qt probe checks the platform plugin the window will really use. Loading Qt offscreen
proved nothing: the offscreen plugin links none of the xcb libraries, so on a bare Debian the probe
passed, nothing was installed, and the window died with Qt's raw message (exit 250)."""

import subprocess
from pathlib import Path

import pytest

from tests.dev_module import load_dev

LDD_MISSING = """\tlinux-vdso.so.1 (0x00007ffd)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f50)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
"""
LDD_OK = "\tlibxcb-icccm.so.4 => /lib/x86_64-linux-gnu/libxcb-icccm.so.4 (0x00007f50)\n"


@pytest.fixture
def dev():
    return load_dev()


class Machine:
    """Qt loads offscreen; the xcb plugin's libraries resolve only once apt-get has run."""

    def __init__(self, plugins: Path):
        self.plugins = plugins
        self.installed = False
        self.commands: list[list[str]] = []
        self.platforms: list[str] = []

    def run(self, cmd, **kw):
        cmd = [str(c) for c in cmd]
        self.commands.append(cmd)
        env = kw.get("env") or {}
        if cmd[0] == "ldd":
            return subprocess.CompletedProcess(cmd, 0, LDD_OK if self.installed else LDD_MISSING, "")
        code = cmd[-1]
        self.platforms.append(env.get("QT_QPA_PLATFORM", ""))
        if "PySide6.__file__" in code:
            return subprocess.CompletedProcess(cmd, 0, str(self.plugins), "")
        if "QGuiApplication" in code and not self.installed:
            return subprocess.CompletedProcess(cmd, 250, "", "qt.qpa.plugin: Could not load the Qt platform plugin \"xcb\"")
        return subprocess.CompletedProcess(cmd, 0, "", "")

    def call(self, cmd, **kw):
        cmd = [str(c) for c in cmd]
        self.commands.append(cmd)
        if cmd[:2] == ["apt-get", "install"]:
            self.installed = True
        return 0


@pytest.fixture
def machine(dev, tmp_path, monkeypatch):
    (tmp_path / "libqxcb.so").write_bytes(b"")
    m = Machine(tmp_path)
    monkeypatch.setattr(dev.subprocess, "run", m.run)
    monkeypatch.setattr(dev.subprocess, "call", m.call)
    monkeypatch.setattr(dev.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(dev.os, "environ", {"DISPLAY": ":0", "PATH": "/usr/bin"})
    return m


def test_qt_loading_offscreen_alone_is_not_accepted_as_qt_works(dev, machine, monkeypatch):
    monkeypatch.setattr(dev.os, "geteuid", lambda: 1000)
    with pytest.raises(SystemExit) as stop:
        dev.ensure_qt_libraries()
    message = str(stop.value.code)
    assert "libxcb-icccm.so.4" in message and "sudo apt-get install" in message and "libxcb-icccm4" in message
    assert not any(cmd[:2] == ["apt-get", "install"] for cmd in machine.commands)


def test_as_root_the_missing_libraries_are_installed_and_the_window_platform_checked_again(dev, machine, monkeypatch):
    monkeypatch.setattr(dev.os, "geteuid", lambda: 0)
    dev.ensure_qt_libraries()
    installs = [cmd for cmd in machine.commands if cmd[:2] == ["apt-get", "install"]]
    assert len(installs) == 1 and {"libxcb-icccm4", "libxcb-keysyms1", "libxcb-cursor0"} <= set(installs[0])
    assert machine.platforms[-1] == "xcb"  # the last word was a real start on the display's platform


def test_a_real_start_on_the_display_decides_when_the_libraries_look_fine(dev, machine, monkeypatch):
    monkeypatch.setattr(dev.subprocess, "run", lambda cmd, **kw: (
        subprocess.CompletedProcess(cmd, 0, LDD_OK, "") if cmd[0] == "ldd" else machine.run(cmd, **kw)))
    assert "Could not load the Qt platform plugin" in dev.qt_problem({"DISPLAY": ":0"})
    assert machine.platforms[-1] == "xcb"


@pytest.mark.parametrize("env, platform", [
    ({"DISPLAY": ":0"}, "xcb"),
    ({}, "xcb"),  # no display yet: the window will still need X11's libraries
    ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, "wayland"),
    ({"XDG_SESSION_TYPE": "wayland"}, "wayland"),
    ({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":0"}, "wayland"),
    ({"QT_QPA_PLATFORM": "offscreen"}, "offscreen"),
])
def test_the_window_platform(dev, env, platform):
    assert dev.window_platform(env) == platform


def test_unresolved_libraries_are_read_from_ldd(dev):
    assert dev.libraries_not_found(LDD_MISSING) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert dev.libraries_not_found(LDD_OK) == []
