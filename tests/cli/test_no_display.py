"""With no display (an SSH session, a container), `evaleditor FILE` says so in one line and exits 2,
instead of Qt's xcb plugin aborting the process (SIGABRT) with six lines. offscreen and the other
platforms Qt is told to use keep working; macOS and Windows have no DISPLAY and need none."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from evaleditor.cli import no_display

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "ground_truth_multiturn.xlsx"
HEADLESS = "for headless use run `evaleditor validate FILE`"


@pytest.mark.parametrize("env", [{}, {"QT_QPA_PLATFORM": "xcb"}, {"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "w"},
                                 {"DISPLAY": ""}])
def test_linux_without_a_display_is_refused_before_qt_starts(env):
    why = no_display(env, "linux")
    assert why is not None and why.startswith("no display (") and why.endswith(HEADLESS)


def test_the_reason_names_what_is_unset():
    assert no_display({}, "linux").startswith("no display (DISPLAY and WAYLAND_DISPLAY are unset)")
    assert "QT_QPA_PLATFORM is xcb" in no_display({"QT_QPA_PLATFORM": "xcb"}, "freebsd14")


@pytest.mark.parametrize("env", [{"DISPLAY": ":0"}, {"WAYLAND_DISPLAY": "wayland-0"},
                                 {"QT_QPA_PLATFORM": "offscreen"}, {"QT_QPA_PLATFORM": "wayland;xcb"},
                                 {"QT_QPA_PLATFORM": "vnc:size=800x600"}, {"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":99"}])
def test_a_display_or_another_qt_platform_is_left_to_qt(env):
    assert no_display(env, "linux") is None


@pytest.mark.parametrize("platform", ["darwin", "win32"])
def test_macos_and_windows_need_no_display_variable(platform):
    assert no_display({}, platform) is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland display variables are Linux's")
@pytest.mark.parametrize("argv", [[str(SAMPLE)], ["--demo"]])
def test_the_window_command_with_no_display_exits_2_with_one_line(argv):
    unset = ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
    env = {k: v for k, v in os.environ.items() if k not in unset} | {"LC_ALL": "C.UTF-8"}
    done = subprocess.run([sys.executable, "-m", "evaleditor", *argv], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"evaleditor: no display (DISPLAY and WAYLAND_DISPLAY are unset); {HEADLESS}"]
    assert done.stdout == ""
