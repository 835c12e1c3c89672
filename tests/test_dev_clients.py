"""dev.py installs the evaluation platforms' own clients for the tests (azure-ai-evaluation in a venv of
its own, promptfoo with npm) once, says why one cannot be, and in CI (EVALEDITOR_REQUIRE_CLIENTS=1)
stops rather than let the real-client checks skip in silence."""

import ast
import subprocess
import sys

import pytest

from tests.io import platform_clients


@pytest.fixture
def dev(tmp_path, monkeypatch):
    module = platform_clients.dev()
    monkeypatch.setattr(module, "ROOT", tmp_path)
    monkeypatch.setattr(module, "AZURE_VENV", tmp_path / ".venv-clients" / "azure")
    monkeypatch.setattr(module, "PROMPTFOO_PREFIX", tmp_path / ".venv-clients" / "promptfoo")
    monkeypatch.setattr(module, "client_install", lambda name: ["install", name])
    monkeypatch.setattr(module, "promptfoo_problem", lambda: None)
    monkeypatch.delenv(module.REQUIRE_CLIENTS, raising=False)
    return module


class Installs:
    """Stands for the install commands: records them, and ends each with `status`."""

    def __init__(self, status=0):
        self.status = status
        self.started: list[str] = []

    def __call__(self, command, **kw):
        self.started.append(command[-1])
        return self

    def wait(self):
        return self.status


def stamp(home, what, dev):
    home.mkdir(parents=True)
    (home / dev.STAMP.name).write_text(what)


def test_both_clients_are_installed_at_once_and_then_not_again(dev, monkeypatch):
    installs = Installs()
    monkeypatch.setattr(dev.subprocess, "Popen", installs)
    dev.AZURE_VENV.mkdir(parents=True)
    dev.PROMPTFOO_PREFIX.mkdir(parents=True)
    dev.setup_clients()
    assert sorted(installs.started) == sorted([dev.AZURE_EVALUATION, dev.PROMPTFOO])
    dev.setup_clients()
    assert len(installs.started) == 2


def test_a_new_pinned_version_is_installed_over_the_old(dev, monkeypatch):
    installs = Installs()
    monkeypatch.setattr(dev.subprocess, "Popen", installs)
    stamp(dev.AZURE_VENV, "azure-ai-evaluation==1.0.0", dev)
    stamp(dev.PROMPTFOO_PREFIX, dev.PROMPTFOO, dev)
    dev.setup_clients()
    assert installs.started == [dev.AZURE_EVALUATION]


def test_without_npm_promptfoo_is_skipped_with_the_reason_and_in_ci_that_is_an_error(dev, monkeypatch, capsys):
    installs = Installs()
    monkeypatch.setattr(dev.subprocess, "Popen", installs)
    monkeypatch.setattr(dev, "promptfoo_problem", lambda: "npm not found: install Node.js 20.20+ with npm")
    stamp(dev.AZURE_VENV, dev.AZURE_EVALUATION, dev)
    dev.setup_clients()
    assert installs.started == []
    assert "npm not found" in capsys.readouterr().out
    monkeypatch.setenv(dev.REQUIRE_CLIENTS, "1")
    with pytest.raises(SystemExit, match="client is not installed"):
        dev.setup_clients()


def test_a_failed_install_is_said_and_tried_again_next_time(dev, monkeypatch, capsys):
    installs = Installs(status=1)
    monkeypatch.setattr(dev.subprocess, "Popen", installs)
    dev.AZURE_VENV.mkdir(parents=True)
    stamp(dev.PROMPTFOO_PREFIX, dev.PROMPTFOO, dev)
    dev.setup_clients()
    assert f"installing {dev.AZURE_EVALUATION} failed" in capsys.readouterr().out
    installs.status = 0
    dev.setup_clients()
    assert installs.started == [dev.AZURE_EVALUATION] * 2


@pytest.mark.parametrize("version, fits", [
    ("v20.20.2", True), ("v20.19.0", False), ("v21.7.3", False), ("v22.21.1", False), ("v22.22.0", True),
    ("v24.11.1", True), ("", False), ("v18", False)])
def test_the_node_versions_the_pinned_promptfoo_runs_on(version, fits):
    assert platform_clients.dev().node_fits(version) is fits


def test_a_missing_client_skips_with_its_reason_and_fails_when_required(tmp_path, monkeypatch):
    absent = platform_clients.ROOT / ".venv-clients" / "not-a-client"
    monkeypatch.delenv("EVALEDITOR_REQUIRE_CLIENTS", raising=False)
    with pytest.raises(pytest.skip.Exception, match="npm not found"):
        platform_clients.client(absent, "npm not found")
    monkeypatch.setenv("EVALEDITOR_REQUIRE_CLIENTS", "1")
    with pytest.raises(pytest.fail.Exception, match="not-a-client is not installed"):
        platform_clients.client(absent)


@pytest.mark.skipif(not platform_clients._can_cut_network(), reason="no network namespace can be made here")
def test_a_client_runs_with_no_network_but_loopback():
    names = subprocess.run(platform_clients.offline([sys.executable, "-c", "import socket; print(socket.if_nameindex())"]),
                           capture_output=True, text=True, check=True).stdout
    assert [name for _, name in ast.literal_eval(names)] == ["lo"]
