"""The floors CI installs (.ci/minimum-versions.txt) are the floors pyproject.toml declares: a floor
raised in one place and not the other would test versions nobody installs."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def version(text: str) -> tuple[int, ...]:
    parts = [int(p) for p in text.split(".")]
    while parts and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def test_every_runtime_floor_is_the_version_the_floors_ci_installs():
    declared = {}
    for spec in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]:
        name, floor = re.match(r"([A-Za-z0-9_.-]+)\s*>=\s*([0-9][0-9.]*)", spec).groups()
        declared[name.lower()] = version(floor)
    pinned = {name: version(v) for name, v in (line.lower().split("==") for line in
              (ROOT / ".ci" / "minimum-versions.txt").read_text().split("\n") if line and not line.startswith("#"))}
    assert pinned == declared
