"""dev.py (the repository's setup and test script, not a package) loaded as a module, for the tests
that check its parts: a fresh module each call."""

import importlib.util
from pathlib import Path

DEV = Path(__file__).resolve().parents[1] / "dev.py"


def load_dev(name: str = "dev_under_test"):
    spec = importlib.util.spec_from_file_location(name, DEV)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
