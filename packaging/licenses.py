"""Write THIRD_PARTY_LICENSES.md: every third-party part of the app, its licence, and the full texts.

    .venv/bin/python packaging/licenses.py OUT.md      (all components installed in this environment)

The PyInstaller spec calls `write(path, bundled)` with the top-level modules it actually bundled,
so the packaged app's file lists exactly what it ships. The list of components, their versions and
licences come from evaleditor.gui.dialogs.about — the same as the About box. Full texts come from each
package's own licence files (its .dist-info), from Python's LICENSE.txt, and for Qt/PySide6 from
packaging/licenses/ (LGPL-3.0 and GPL-3.0, as the wheels carry no licence file).
"""

from __future__ import annotations

import importlib.metadata
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from evaleditor import __version__  # noqa: E402
from evaleditor.gui.dialogs.about import (  # noqa: E402
    APP_LICENCE,
    APP_NAME,
    COMPONENTS,
    LICENCES_FILE,  # noqa: F401 - the spec reads it from here
    Component,
    is_present,
    lgpl_notice,
    licence_of,
    version_of,
)

LICENCE_WORDS = ("LICEN", "COPYING", "NOTICE", "AUTHORS")
QT_THIRD_PARTY = "https://doc.qt.io/qt-6/licenses-used-in-qt.html"


def _dist_licence_files(dist: str) -> list[tuple[str, str]]:
    try:
        files = importlib.metadata.files(dist) or []
    except importlib.metadata.PackageNotFoundError:
        return []
    out = []
    for f in files:
        parts = str(f).replace("\\", "/").split("/")
        if ".dist-info" in parts[0] and any(w in parts[-1].upper() for w in LICENCE_WORDS):
            try:
                out.append(("/".join(parts[1:]), Path(f.locate()).read_text(encoding="utf-8", errors="replace")))
            except OSError:
                continue
    return out


def _python_licence() -> list[tuple[str, str]]:
    for candidate in (Path(sysconfig.get_paths()["stdlib"]) / "LICENSE.txt", Path(sys.base_prefix) / "LICENSE.txt"):
        if candidate.is_file():
            return [("LICENSE.txt", candidate.read_text(encoding="utf-8", errors="replace"))]
    return []


def licence_texts(component: Component) -> list[tuple[str, str]]:
    if component.name == "Python":
        return _python_licence()
    if component.licence.startswith("LGPL"):  # Qt, PySide6, shiboken6: the wheels ship no licence file
        return [(name, (HERE / "licenses" / name).read_text(encoding="utf-8")) for name in ("LGPL-3.0.txt", "GPL-3.0.txt")]
    return _dist_licence_files(component.dist) if component.dist else []


def chosen(bundled: set[str] | None) -> list[Component]:
    if bundled is None:
        return [c for c in COMPONENTS if is_present(c)]
    return [c for c in COMPONENTS if c.module == "sys" or c.module in bundled]


def markdown(bundled: set[str] | None = None) -> str:
    components = chosen(bundled)
    lines = [
        f"# Third-party software in {APP_NAME} {__version__}",
        "",
        f"{APP_NAME} itself is licensed under {APP_LICENCE}. The packaged app also contains the following "
        "software, each under its own licence (the same list as Help ▸ About).",
        "",
        "| Component | Version | Licence | Home |",
        "|---|---|---|---|",
    ]
    lines += [f"| {c.name} | {version_of(c)} | {licence_of(c)} | {c.url} |" for c in components]
    lines += ["", "## Qt and the LGPL", "", lgpl_notice(), "",
              f"Qt itself contains third-party code under permissive licences, listed at {QT_THIRD_PARTY}.", "",
              "## Licence texts", ""]
    done: set[str] = set()
    for c in components:
        texts = licence_texts(c)
        if c.licence.startswith("LGPL"):
            if "LGPL" in done:
                lines += [f"### {c.name}", "", "Licensed under the LGPLv3: see the texts under Qt above.", ""]
                continue
            done.add("LGPL")
        lines += [f"### {c.name}", ""]
        if not texts:
            lines += [f"{licence_of(c)} — see {c.url}", ""]
        for name, text in texts:
            lines += [f"#### {name}", "", "```", text.strip("\n").replace("```", "'''"), "```", ""]
    return "\n".join(lines)


def write(path: str | Path, bundled: set[str] | None = None) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(markdown(bundled), encoding="utf-8")
    return path


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print(f"licenses: wrote {write(sys.argv[1])}")
