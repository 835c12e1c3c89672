"""The status bar's issue counts: an icon and "3 errors", "1 warning", "2 info" for the document shown.
StatusCounts is handed the status bar it adds its labels to and touches nothing else."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel, QStatusBar

from evaleditor.core.rules import ERROR, INFO, WARNING
from evaleditor.gui.window import theme

translate = QCoreApplication.translate


class StatusCounts:
    def __init__(self, bar: QStatusBar, icon_size: int):
        self.labels: dict[str, QLabel] = {}
        self.icons: dict[str, QLabel] = {}
        for sev in (ERROR, WARNING, INFO):
            icon, text = QLabel(), QLabel("0")
            icon.setPixmap(theme.severity_icon(sev, icon_size).pixmap(icon_size, icon_size))
            bar.addPermanentWidget(icon)
            bar.addPermanentWidget(text)
            self.labels[sev], self.icons[sev] = text, icon

    def show(self, counts) -> None:
        """`counts`: severity -> number of issues (a Validator's counts; empty without a document)."""
        for sev, label in self.labels.items():
            label.setText(count_text(sev, counts.get(sev, 0)))
            label.setAccessibleName(label.text())

    def retranslate(self) -> None:
        names = {ERROR: translate("MainWindow", "Errors"), WARNING: translate("MainWindow", "Warnings"),
                 INFO: translate("MainWindow", "Info")}
        for sev, icon in self.icons.items():
            icon.setToolTip(names[sev])
            icon.setAccessibleName(names[sev])


def count_text(severity: str, n: int) -> str:
    """"1 error", "3 warnings", "2 info" in the current language."""
    if severity == ERROR:
        text = translate("MainWindow", "{n} error") if n == 1 else translate("MainWindow", "{n} errors")
    elif severity == WARNING:
        text = translate("MainWindow", "{n} warning") if n == 1 else translate("MainWindow", "{n} warnings")
    else:
        text = translate("MainWindow", "{n} info")
    return text.format(n=f"{n:,}")
