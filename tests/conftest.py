"""Shared pytest options. Tests marked `slow` (building the packaged app) run only when asked:
`pytest --run-slow`, or EVALEDITOR_RUN_SLOW=1 in the environment."""

import os

import pytest


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", default=False, help="also run tests marked slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--run-slow") or os.environ.get("EVALEDITOR_RUN_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow or EVALEDITOR_RUN_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
