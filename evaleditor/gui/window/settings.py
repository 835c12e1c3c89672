"""Persistent preferences (QSettings, organisation and application "evaleditor", INI format so tests
can point QSettings.setPath at a temporary folder): recent files, last target, header language,
the interface language."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from evaleditor.core.targets import GROUND_TRUTH, TARGET_NAMES

MAX_RECENT = 10


def settings() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "evaleditor", "evaleditor")


def _list(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value else []
    return [str(v) for v in value]


def recent_files() -> list[str]:
    return _list(settings().value("recent_files"))


def add_recent(path: str | Path) -> list[str]:
    path = str(Path(path).resolve())
    files = [path] + [p for p in recent_files() if p != path]
    files = files[:MAX_RECENT]
    settings().setValue("recent_files", files)
    return files


def clear_recent() -> None:
    settings().setValue("recent_files", [])


def last_target() -> str:
    value = settings().value("last_target", GROUND_TRUTH)
    return value if value in TARGET_NAMES else GROUND_TRUTH


def set_last_target(name: str) -> None:
    settings().setValue("last_target", name)


def header_language() -> str | None:
    """Data ▸ Headers When Saving As: None keeps the headers as they are, as `evaleditor convert` does
    without --headers (the default); "en" or "zh" spells the target's headers in that language. Only a
    choice in that menu stores a value, so one made when English was the default is kept."""
    value = settings().value("header_language", "keep")
    return value if value in ("en", "zh") else None


def set_header_language(lang: str | None) -> None:
    settings().setValue("header_language", lang or "keep")


def ui_language() -> str:
    """"system" (follow the system locale), "en" or "zh_CN" (View ▸ Language)."""
    value = settings().value("ui_language", "system")
    return value if value in ("system", "en", "zh_CN") else "system"


def set_ui_language(choice: str) -> None:
    settings().setValue("ui_language", choice)


def zoom() -> int:
    """The cases table's zoom in percent (View ▸ Zoom, Ctrl+wheel)."""
    try:
        return int(settings().value("view/zoom", 100))
    except (TypeError, ValueError):
        return 100


def set_zoom(percent: int) -> None:
    settings().setValue("view/zoom", int(percent))
