"""Help ▸ About: the version, and the licences of the libraries that ship with the editor.

`COMPONENTS` is the one list of third-party parts. The About box shows those present in this
installation (found by import name, so a packaged app lists what it bundled), with the version and
licence from their own package metadata, falling back to the table. The packaged app's
THIRD_PARTY_LICENSES.md is written from the same list at build time (packaging/licenses.py), so the
two never disagree.

Qt is imported inside the functions: `about_html()` and the table work without a display.
"""

from __future__ import annotations

import html
import importlib.metadata
import importlib.util
import platform
import sys
from dataclasses import dataclass
from pathlib import Path

from evaleditor import __version__

APP_NAME = "evaleditor"
APP_LICENCE = "Apache-2.0"
QT_SOURCE = "https://download.qt.io/official_releases/qt/"
PYSIDE_SOURCE = "https://code.qt.io/cgit/pyside/pyside-setup.git/"
LICENCES_FILE = "THIRD_PARTY_LICENSES.md"


@dataclass(frozen=True)
class Component:
    name: str
    dist: str | None  # the distribution whose metadata gives version and licence; None: not a pip package
    module: str  # the import name that tells whether it is present
    licence: str  # used when the metadata has no short licence field
    url: str


COMPONENTS: tuple[Component, ...] = (
    Component("Python", None, "sys", "PSF-2.0", "https://www.python.org/"),
    Component("Qt", None, "PySide6", "LGPL-3.0-only", "https://www.qt.io/"),
    Component("PySide6 (Qt for Python)", "PySide6_Essentials", "PySide6", "LGPL-3.0-only", "https://pyside.org/"),
    Component("shiboken6", "shiboken6", "shiboken6", "LGPL-3.0-only", "https://pyside.org/"),
    Component("pandas", "pandas", "pandas", "BSD-3-Clause", "https://pandas.pydata.org/"),
    Component("NumPy", "numpy", "numpy", "BSD-3-Clause", "https://numpy.org/"),
    Component("python-dateutil", "python-dateutil", "dateutil", "Apache-2.0 AND BSD-3-Clause",
              "https://github.com/dateutil/dateutil"),
    Component("tzdata", "tzdata", "tzdata", "Apache-2.0", "https://github.com/python/tzdata"),
    Component("openpyxl", "openpyxl", "openpyxl", "MIT", "https://openpyxl.readthedocs.io/"),
    Component("et-xmlfile", "et_xmlfile", "et_xmlfile", "MIT", "https://foss.heptapod.net/openpyxl/et_xmlfile"),
    Component("xlrd", "xlrd", "xlrd", "BSD-3-Clause", "https://github.com/python-excel/xlrd"),
    Component("python-calamine", "python-calamine", "python_calamine", "MIT",
              "https://github.com/dimastbk/python-calamine"),
    Component("pydantic", "pydantic", "pydantic", "MIT", "https://docs.pydantic.dev/"),
    Component("pydantic-core", "pydantic_core", "pydantic_core", "MIT", "https://github.com/pydantic/pydantic-core"),
    Component("annotated-types", "annotated-types", "annotated_types", "MIT",
              "https://github.com/annotated-types/annotated-types"),
    Component("typing-extensions", "typing_extensions", "typing_extensions", "PSF-2.0",
              "https://github.com/python/typing_extensions"),
    Component("typing-inspection", "typing-inspection", "typing_inspection", "MIT",
              "https://github.com/pydantic/typing-inspection"),
    Component("defusedxml", "defusedxml", "defusedxml", "PSF-2.0", "https://github.com/tiran/defusedxml"),
    Component("charset-normalizer", "charset-normalizer", "charset_normalizer", "MIT",
              "https://github.com/jawah/charset_normalizer"),
    Component("python-isal", "isal", "isal", "PSF-2.0 (ISA-L: BSD-3-Clause)", "https://github.com/pycompression/python-isal"),
    Component("orjson", "orjson", "orjson", "MPL-2.0 AND (Apache-2.0 OR MIT)", "https://github.com/ijl/orjson"),
    Component("Apache Arrow (pyarrow)", "pyarrow", "pyarrow", "Apache-2.0", "https://arrow.apache.org/"),
)


def is_present(component: Component) -> bool:
    if component.module == "sys":
        return True
    try:
        return importlib.util.find_spec(component.module) is not None
    except (ImportError, ValueError):
        return False


def version_of(component: Component) -> str:
    if component.dist is None:
        return platform.python_version() if component.name == "Python" else qt_version()
    try:
        return importlib.metadata.version(component.dist)
    except importlib.metadata.PackageNotFoundError:
        return ""


def licence_of(component: Component) -> str:
    """The SPDX-like licence from the package metadata when it is short, else the table's."""
    if component.dist is not None:
        try:
            meta = importlib.metadata.metadata(component.dist)
        except importlib.metadata.PackageNotFoundError:
            meta = None
        if meta is not None:
            for field in ("License-Expression", "License"):
                value = (meta.get(field) or "").strip()
                if value and "\n" not in value and len(value) <= 60 and value.upper() != "UNKNOWN":
                    return value
    return component.licence


def qt_version() -> str:
    try:
        from PySide6.QtCore import qVersion
    except ImportError:
        return ""
    return qVersion()


def present_components() -> list[Component]:
    return [c for c in COMPONENTS if is_present(c)]


def licences_path() -> Path | None:
    """THIRD_PARTY_LICENSES.md beside the packaged app (Contents/Resources in a macOS .app)."""
    if not getattr(sys, "frozen", False):
        return None
    exe_dir = Path(sys.executable).resolve().parent
    for candidate in (exe_dir / LICENCES_FILE, exe_dir.parent / "Resources" / LICENCES_FILE):
        if candidate.is_file():
            return candidate
    return None


def lgpl_notice() -> str:
    """Plain text: what the LGPLv3 asks a distributor of Qt to tell the user."""
    pyside = next((version_of(c) for c in COMPONENTS if c.dist == "PySide6_Essentials"), "") or qt_version()
    return (
        f"This program uses the Qt libraries {qt_version()}, through PySide6 and shiboken6 {pyside}, under "
        "the GNU Lesser General Public License version 3 (LGPLv3). Qt, PySide6 and shiboken6 are dynamically "
        "linked: they are separate shared libraries in the program's folder (PySide6/ and shiboken6/ in the "
        "packaged app's _internal/, or Contents/Frameworks/ in the macOS app), and you may replace them with "
        "your own compatible build. Their "
        f"source code is available from {QT_SOURCE} and {PYSIDE_SOURCE} (tag v{pyside}). The texts of the "
        "LGPLv3 and the GPLv3 it builds on are in THIRD_PARTY_LICENSES.md, shipped with the packaged app, "
        "and at https://www.gnu.org/licenses/."
    )


def about_html() -> str:
    """The About box's text in the current language; the LGPL notice stays in English, the language
    of the licence texts it points to (THIRD_PARTY_LICENSES.md carries the same notice)."""
    from PySide6.QtCore import QCoreApplication

    translate = QCoreApplication.translate
    rows = "".join(
        f"<tr><td><a href='{html.escape(c.url)}'>{html.escape(c.name)}</a></td>"
        f"<td>{html.escape(version_of(c))}</td><td>{html.escape(licence_of(c))}</td></tr>"
        for c in present_components()
    )
    where = licences_path()
    if where:
        link = f"<a href='{where.as_uri()}'>{html.escape(str(where))}</a>"
        full_texts = html.escape(translate("About", "The full licence texts: {path}.")).format(path=link)
    else:
        full_texts = html.escape(translate("About", "The packaged app carries the full licence texts in "
                                                    "THIRD_PARTY_LICENSES.md."))
    texts = [html.escape(t) for t in (
        translate("About", "An offline editor and checker for AI-agent evaluation datasets."),
        translate("About", "{app} is licensed under the {licence} licence.").format(app=APP_NAME, licence=APP_LICENCE),
        translate("About", "Third-party software"), translate("About", "Component"), translate("About", "Version"),
        translate("About", "Licence"), translate("About", "Qt and the LGPL"))]
    return (
        f"<h2>{APP_NAME} {html.escape(__version__)}</h2>"
        f"<p>{texts[0]}</p><p>{texts[1]}</p><h3>{texts[2]}</h3>"
        "<table cellspacing='0' cellpadding='3'>"
        f"<tr><th align='left'>{texts[3]}</th><th align='left'>{texts[4]}</th><th align='left'>{texts[5]}</th></tr>"
        f"{rows}</table>"
        f"<h3>{texts[6]}</h3><p>{html.escape(lgpl_notice())}</p>"
        f"<p>{full_texts}</p>"
    )


def icon_files() -> list[Path]:
    """The app icon's PNG sizes, smallest first (resources/icons/png)."""
    from importlib.resources import files

    folder = files("evaleditor.resources") / "icons" / "png"
    sizes = sorted(int(p.name.rsplit("-", 1)[1].split(".")[0]) for p in folder.iterdir()
                   if p.name.startswith("evaleditor-") and p.name.endswith(".png"))
    return [Path(str(folder / f"evaleditor-{s}.png")) for s in sizes]


def app_icon():
    """The app icon as a QIcon with every PNG size (no SVG plugin needed); for setWindowIcon."""
    from PySide6.QtGui import QIcon

    icon = QIcon()
    for path in icon_files():
        icon.addFile(str(path))
    return icon


def about_dialog(parent=None):
    """The About dialog, not yet shown (tests inspect it; show_about runs it)."""
    from PySide6.QtCore import QCoreApplication, Qt
    from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QTextBrowser, QVBoxLayout

    dialog = QDialog(parent)
    dialog.setWindowTitle(QCoreApplication.translate("About", "About {app}").format(app=APP_NAME))
    dialog.setWindowIcon(app_icon())
    logo = QLabel()
    logo.setPixmap(app_icon().pixmap(64, 64))
    logo.setAlignment(Qt.AlignmentFlag.AlignTop)
    text = QTextBrowser()
    text.setObjectName("aboutText")
    text.setOpenExternalLinks(True)
    text.setHtml(about_html())
    text.setAccessibleName(QCoreApplication.translate("About", "About {app}").format(app=APP_NAME))
    char, line = text.fontMetrics().averageCharWidth(), text.fontMetrics().lineSpacing()
    text.setMinimumSize(72 * char, 26 * line)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.reject)
    buttons.accepted.connect(dialog.accept)
    top = QHBoxLayout()
    top.addWidget(logo)
    top.addWidget(text, 1)
    layout = QVBoxLayout(dialog)
    layout.addLayout(top)
    layout.addWidget(buttons)
    return dialog


def show_about(parent=None) -> None:
    about_dialog(parent).exec()
