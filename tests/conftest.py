"""Shared pytest options. Tests marked `slow` (building the packaged app) run only when asked:
`pytest --run-slow`, or EVALEDITOR_RUN_SLOW=1 in the environment."""

import os
import shutil
import socket
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# Hypothesis's default 200 ms per-example deadline is a wall-clock limit: a busy machine fails it for
# nothing. Work bounds live in the tests; speed in bench/.
settings.register_profile("evaleditor", deadline=None)
settings.load_profile("evaleditor")

_HOME = Path(tempfile.mkdtemp(prefix="evaleditor-tests-"))


def pytest_configure(config):
    """Nothing a test run starts may touch the user's own settings, recent files or crash journals:
    the processes tests start (the recovery driver, the command line, the packaged app) inherit these.
    (Within the test process, tests/gui/conftest.py also points QSettings at a folder per test.)"""
    os.environ["XDG_CONFIG_HOME"] = str(_HOME / "config")
    os.environ["EVALEDITOR_DATA_DIR"] = str(_HOME / "data")


def pytest_unconfigure(config):
    shutil.rmtree(_HOME, ignore_errors=True)


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", default=False, help="also run tests marked slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--run-slow") or os.environ.get("EVALEDITOR_RUN_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow or EVALEDITOR_RUN_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def network_calls(monkeypatch):
    """Records (and refuses) every attempt to connect or look a name up, for the "nothing leaves the
    machine" tests of the command line and the window."""
    calls = []

    def spy(name):
        def call(*args, **kwargs):
            calls.append((name, args[1:] if name.startswith("socket.") else args))
            raise OSError(f"network access attempted: {name}")

        return call

    for name in ("connect", "connect_ex", "sendto"):
        monkeypatch.setattr(socket.socket, name, spy(f"socket.{name}"))
    for name in ("create_connection", "getaddrinfo", "gethostbyname", "gethostbyname_ex"):
        monkeypatch.setattr(socket, name, spy(name))
    return calls
