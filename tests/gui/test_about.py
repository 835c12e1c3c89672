"""Help ▸ About: version, third-party licences, the Qt/LGPL notice; and the app icon."""

from evaleditor import __version__
from evaleditor.gui.dialogs import about


def test_about_html_names_the_version_and_every_present_component():
    text = about.about_html()
    assert f"evaleditor {__version__}" in text
    for component in about.present_components():
        assert component.name.split(" ")[0] in text
    assert "LGPL" in text and "dynamically" in text and about.QT_SOURCE in text


def test_licences_come_from_metadata_with_a_fallback():
    by_name = {c.name: c for c in about.COMPONENTS}
    assert about.licence_of(by_name["openpyxl"]) == "MIT"
    assert about.licence_of(by_name["Python"]) == "PSF-2.0"
    missing = about.Component("nothing", "no-such-distribution", "no_such_module", "MIT", "https://example.org")
    assert about.licence_of(missing) == "MIT" and about.version_of(missing) == "" and not about.is_present(missing)


def test_about_dialog_shows_the_text_and_the_icon(qtbot):
    from PySide6.QtWidgets import QTextBrowser

    dialog = about.about_dialog()
    qtbot.addWidget(dialog)
    browser = dialog.findChild(QTextBrowser, "aboutText")
    assert __version__ in browser.toPlainText()
    assert "openpyxl" in browser.toPlainText()
    assert not dialog.windowIcon().isNull()


def test_app_icon_has_every_png_size(qapp):
    sizes = {s.width() for s in about.app_icon().availableSizes()}
    assert {16, 32, 48, 256} <= sizes
