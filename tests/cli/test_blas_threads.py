"""The evaleditor process does not start numpy's OpenBLAS thread pool, which it never uses."""

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    not os.path.isdir("/proc/self/task") or (os.cpu_count() or 1) < 2,
    reason="counts the process's threads in /proc; one core starts no pool anyway")

THREADS_AFTER_NUMPY = (
    "import os, sys\n"
    "from evaleditor import cli\n"
    "sys.argv = ['evaleditor', '--help']\n"
    "try:\n"
    "    cli.main()  # prints the help, then exits\n"
    "except SystemExit:\n"
    "    pass\n"
    "import numpy\n"
    "print(len(os.listdir('/proc/self/task')))\n")


def _threads(env: dict[str, str]) -> int:
    out = subprocess.run([sys.executable, "-c", THREADS_AFTER_NUMPY], env=env, capture_output=True,
                         text=True, check=True, timeout=60)
    return int(out.stdout.split()[-1])


def test_the_process_imports_numpy_with_one_thread():
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    assert _threads(env) == 1


def test_a_thread_count_the_user_set_is_kept():
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    env["OPENBLAS_NUM_THREADS"] = "2"
    assert _threads(env) == 2
