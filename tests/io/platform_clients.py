"""The evaluation platforms' own clients that `python3 dev.py test` installs apart from .venv
(dev.py's setup_clients): where each is, and how to run one with the network out of its reach."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.dev_module import load_dev

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def dev():
    return load_dev("dev_clients")


def client(path: Path, why_missing: str | None = None) -> Path:
    """`path` when the client is installed there; else the test skips with the reason (or fails, with
    EVALEDITOR_REQUIRE_CLIENTS=1 as in CI: a check that silently stops running is no check)."""
    if path.exists():
        return path
    why = why_missing or f"{path.relative_to(ROOT)} is not installed: `python3 dev.py test` installs it"
    if os.environ.get(dev().REQUIRE_CLIENTS) == "1":
        pytest.fail(f"{why} ({dev().REQUIRE_CLIENTS}=1)")
    pytest.skip(why)


def azure_python() -> Path:
    return client(dev().AZURE_PY)


def promptfoo() -> Path:
    return client(dev().PROMPTFOO_BIN, dev().promptfoo_problem())


@functools.cache
def _can_cut_network() -> bool:
    unshare = shutil.which("unshare")
    return unshare is not None and subprocess.run([unshare, "--map-root-user", "--net", "true"],
                                                  capture_output=True).returncode == 0


def offline(command: list[str]) -> list[str]:
    """`command` run with no network at all where Linux lets a user make a namespace without one (a
    client that reached out would fail or hang there, not pass); as it is elsewhere."""
    return ["unshare", "--map-root-user", "--net", *command] if _can_cut_network() else command


# Where no namespace can be made, every HTTP(S) request goes to a proxy that is not there.
NO_PROXY_THERE = "http://127.0.0.1:9"


def quiet_env(home: Path) -> dict[str, str]:
    """The environment for a client: a home of its own (nothing written to the user's), its phoning-home
    switches off, and a proxy that is not there. promptfoo with PROMPTFOO_DISABLE_TELEMETRY=1 still posts
    one "telemetry disabled" event (0.121.20, telemetry.js): here it goes nowhere."""
    proxies = {name: NO_PROXY_THERE for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")}
    return {**os.environ, **proxies, "NO_PROXY": "", "no_proxy": "", "HOME": str(home),
            "PROMPTFOO_CONFIG_DIR": str(home / ".promptfoo"), "PROMPTFOO_DISABLE_TELEMETRY": "1",
            "PROMPTFOO_DISABLE_UPDATE": "1", "PROMPTFOO_DISABLE_SHARING": "1",
            "PROMPTFOO_DISABLE_REMOTE_GENERATION": "1", "PYTHONNOUSERSITE": "1"}
