"""tests/core, tests/io, tests/api and tests/cli pass on a machine where PySide6 cannot be imported at all."""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BLOCKER = '''
import sys
class _NoQt:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("PySide6", "shiboken6"):
            raise ImportError("PySide6 is blocked for this run")
sys.meta_path.insert(0, _NoQt())
'''


def test_core_io_api_and_cli_suites_pass_with_pyside6_blocked(tmp_path):
    (tmp_path / "sitecustomize.py").write_text(BLOCKER)
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:pytest-qt", "-p", "no:cacheprovider",
         str(HERE / "core"), str(HERE / "io"), str(HERE / "api"), str(HERE / "cli"), "--deselect", "tests/core/test_incremental.py::TestIncremental"],
        capture_output=True, text=True, env=env, cwd=HERE.parent)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout
