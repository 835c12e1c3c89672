"""The tip a new user sees once, under the banner: where the shape line, the Issues panel, F8 and
Preview Upload are. "Got it" dismisses it for good (remembered in the settings); "Open Help" opens
the help's first steps."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton

from evaleditor.gui.window import settings

translate = QCoreApplication.translate
SEEN_KEY = "tips/first_start_seen"


def seen() -> bool:
    return settings.settings().value(SEEN_KEY, "false") in (True, "true")


class FirstStartTip(QFrame):
    helpRequested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("first_tip")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.help_button = QPushButton()
        self.help_button.clicked.connect(self.helpRequested)
        self.dismiss_button = QPushButton()
        self.dismiss_button.clicked.connect(self.dismiss)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.help_button)
        layout.addWidget(self.dismiss_button)
        self.retranslate()
        self.setVisible(False)

    def offer(self) -> None:
        """Show the tip unless it was dismissed once."""
        self.setVisible(not seen())

    def dismiss(self) -> None:
        settings.settings().setValue(SEEN_KEY, "true")
        self.hide()

    def retranslate(self) -> None:
        title = translate("FirstTip", "New here?")
        body = translate("FirstTip", "The banner above says how the target will read this file. The Issues panel "
                                     "below lists every problem (each rule id links to its explanation); F8 jumps "
                                     "to the next one. File \u25b8 Preview Upload\u2026 shows exactly what the "
                                     "target will receive. F1 opens the help.")
        self.text.setText(f"<b>{title}</b> {body}")
        self.help_button.setText(translate("FirstTip", "&Open Help"))
        self.dismiss_button.setText(translate("FirstTip", "Got &It"))
        self.dismiss_button.setToolTip(translate("FirstTip", "Do not show this tip again"))
        self.setAccessibleName(translate("FirstTip", "Tip for new users"))

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
