"""The first-start tip: shown once with a document, pointing at the banner, the Issues panel, F8 and
Preview Upload; dismissed for good."""

from evaleditor.gui import MainWindow
from tests.gui.conftest import make_doc


def test_the_tip_shows_once_and_is_remembered_when_dismissed(qtbot, dialogs_log):
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    assert not w.first_tip.isVisible()  # no document yet: nothing to point at
    w.set_document(make_doc())
    tip = w.first_tip
    assert tip.isVisible()
    text = tip.text.text()
    assert all(part in text for part in ("banner", "Issues panel", "F8", "Preview Upload"))
    tip.help_button.click()
    assert w.help_window.isVisible()
    tip.dismiss_button.click()
    assert not tip.isVisible()
    again = MainWindow()
    qtbot.addWidget(again)
    again.show()
    again.set_document(make_doc())
    assert not again.first_tip.isVisible()


def test_the_tip_stays_until_dismissed(qtbot, dialogs_log):
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    w.set_document(make_doc())
    other = MainWindow()
    qtbot.addWidget(other)
    other.show()
    other.set_document(make_doc())
    assert other.first_tip.isVisible()
