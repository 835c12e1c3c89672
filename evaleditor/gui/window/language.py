"""The editor's language: Qt translators for the window's own strings (`evaleditor_<lang>.qm` from
resources/translations, and Qt's `qtbase_<lang>.qm` for standard buttons and dialogs) and the core's
gettext catalogue for rule messages, switched together.

The language follows the system (QLocale.system().uiLanguages()) unless View ▸ Language chose one;
the choice is kept in QSettings. Installing the translators sends every widget a LanguageChange
event: the window re-sets its texts (MainWindow.retranslate), so the switch is live.

GUI strings are written `translate("Context", "text")` with literal arguments (pyside6-lupdate
extracts them; see docs/i18n.md); `translate` is QCoreApplication.translate.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from evaleditor.core import i18n
from evaleditor.gui.window import settings

translate = QCoreApplication.translate
SYSTEM = "system"
CHOICES = (SYSTEM, i18n.ENGLISH, "zh_CN")
NATIVE_NAMES = {i18n.ENGLISH: "English", "zh_CN": "\u7b80\u4f53\u4e2d\u6587"}  # each names itself
_installed: list[QTranslator] = []
_current = i18n.ENGLISH


def system_language() -> str:
    """The first shipped language among the system's UI languages (e.g. zh-Hans-CN), else English."""
    for tag in QLocale.system().uiLanguages():
        found = i18n.normalize(tag)
        if found:
            return found
    return i18n.ENGLISH


def resolve(choice: str | None) -> str:
    if choice in (None, "", SYSTEM):
        return system_language()
    return i18n.normalize(choice) or i18n.ENGLISH


def current() -> str:
    return _current


def qm_files(lang: str) -> list[Path]:
    """The translation files for `lang`: the editor's, then Qt's own."""
    qt_dir = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
    return [i18n.locale_dir() / f"evaleditor_{lang}.qm", qt_dir / f"qtbase_{lang}.qm"]


def apply(choice: str | None = None) -> str:
    """Install the translators for `choice` (None: the saved setting; "system": the system's
    language) and set the core's language to match. Returns the language now in use."""
    global _current
    app = QCoreApplication.instance()
    lang = resolve(settings.ui_language() if choice is None else choice)
    if app is not None:
        for old in _installed:
            app.removeTranslator(old)
        _installed.clear()
        if lang != i18n.ENGLISH:
            for path in qm_files(lang):
                translator = QTranslator(app)
                if path.is_file() and translator.load(str(path)):
                    app.installTranslator(translator)
                    _installed.append(translator)
    i18n.set_language(lang)
    _current = lang
    return lang


def choose(choice: str) -> str:
    """View ▸ Language: keep the choice and apply it now."""
    settings.set_ui_language(choice)
    return apply(choice)
