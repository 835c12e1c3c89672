"""docs/api.md's examples run: doctest over the file, in a folder holding the bundled samples."""

import doctest
import shutil
from importlib.resources import files
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_every_example_in_the_api_docs_runs_and_prints_what_it_shows(tmp_path, monkeypatch):
    shutil.copytree(str(files("evaleditor.resources") / "samples"), tmp_path / "samples")
    monkeypatch.chdir(tmp_path)
    result = doctest.testfile(str(DOC), module_relative=False, encoding="utf-8", report=True,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 20 and result.failed == 0, f"{result.failed} examples of docs/api.md failed"
