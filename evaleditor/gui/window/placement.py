"""Where the window sits and how it is laid out between runs: its size, position and dock layout and
whether the filter bar shows are saved when it closes and restored when one opens; the first one is
sized to the screen. Handed the window and its filter bar (and the View ▸ Filter Bar action)."""

from __future__ import annotations

from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QMainWindow, QWidget

from evaleditor.gui.window import settings

FRAME_ROOM = (40, 60)  # pixels of the screen left for the window frame and title bar (width, height)


def restore(window: QMainWindow, filter_bar: QWidget, filter_action: QAction) -> None:
    s = settings.settings()
    geometry, state = s.value("window/geometry"), s.value("window/state")
    if geometry is not None:
        window.restoreGeometry(geometry)
    if state is not None:
        window.restoreState(state)
    filter_bar.setVisible(s.value("window/filter_bar", "true") in (True, "true"))
    filter_action.setChecked(filter_bar.isVisibleTo(window) or not window.isVisible())


def fit_screen(window: QMainWindow) -> None:
    """On first start 1400x900 where the screen has room, else what fits it (room left for the frame
    and title bar), centred; a saved size that no longer fits (a smaller screen now) is cut to fit."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return
    room = screen.availableGeometry()
    first = not window.isVisible() and settings.settings().value("window/geometry") is None
    width = min(1400 if first else window.width(), room.width() - FRAME_ROOM[0])
    height = min(900 if first else window.height(), room.height() - FRAME_ROOM[1])
    if first or (width, height) != (window.width(), window.height()):
        window.resize(width, height)
        window.move(room.x() + (room.width() - width - FRAME_ROOM[0] // 2) // 2,
                    room.y() + (room.height() - height - FRAME_ROOM[1]) // 2)


def save(window: QMainWindow, filter_bar: QWidget) -> None:
    s = settings.settings()
    s.setValue("window/geometry", window.saveGeometry())
    s.setValue("window/state", window.saveState())
    s.setValue("window/filter_bar", "true" if filter_bar.isVisibleTo(window) else "false")
