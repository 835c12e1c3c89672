"""Severity colours for light and dark palettes, and severity icons drawn with QPainter.

Each severity has its own colour *and* its own shape (error: octagon with a cross, warning:
triangle with "!", info: circle with "i"), so the marks read for colour-blind users and on dark
themes. No image files needed.

Under the system's high-contrast preference the severity colours come from the palette — text on
base, no tints — and severity is told by the icon and the words ("Error:"). `contrast_ratio` is the WCAG
formula the tests hold every scheme to (≥ 4.5:1 for text).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QGuiApplication,
    QIcon,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QPixmap,
)

ERROR, WARNING, INFO = "error", "warning", "info"
SEVERITY_RANK = {ERROR: 3, WARNING: 2, INFO: 1}
SEVERITY_LABEL = {ERROR: QT_TRANSLATE_NOOP("Severity", "Error"), WARNING: QT_TRANSLATE_NOOP("Severity", "Warning"),
                  INFO: QT_TRANSLATE_NOOP("Severity", "Info")}


def severity_label(severity: str) -> str:
    """"Error", "Warning", "Info" in the current language."""
    return QCoreApplication.translate("Severity", SEVERITY_LABEL[severity])


@dataclass(frozen=True)
class Scheme:
    background: dict[str, QBrush]
    foreground: dict[str, QBrush]
    band: tuple[QBrush | None, QBrush, QBrush]  # cells of conversations coloured 0 (the base), 1, 2 (table/bands.py)
    header_band: tuple[QBrush, QBrush, QBrush]  # the vertical-header gutter of conversations coloured 0, 1, 2
    strip: dict[str, tuple[str, str]]  # banner strips: (background, text) css colours
    muted: str  # css colour for secondary text


_LIGHT = {
    ERROR: ("#f9d3d3", "#6b0000"),
    WARNING: ("#ffe9a8", "#4a3000"),
    INFO: ("#dbe9f8", "#0b355e"),
}
_DARK = {
    ERROR: ("#6a2424", "#ffe1e1"),
    WARNING: ("#5e4a12", "#fff0c2"),
    INFO: ("#1f3d5e", "#dcecff"),
}
_ICON_COLOUR = {ERROR: "#d32f2f", WARNING: "#f2a900", INFO: "#1e6fc9"}

_scheme: Scheme | None = None
_scheme_dark: bool | None = None
_icons: dict[tuple[str, int], QIcon] = {}


def is_dark(palette: QPalette | None = None) -> bool:
    pal = palette or QGuiApplication.palette()
    return pal.color(QPalette.ColorRole.Base).lightness() < 128


def contrast_ratio(a: QColor | str, b: QColor | str) -> float:
    """WCAG 2 contrast ratio of two colours (1 … 21)."""
    def luminance(c: QColor) -> float:
        def channel(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())
    la, lb = sorted((luminance(QColor(a)), luminance(QColor(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def is_high_contrast() -> bool:
    """The system asks for high contrast (Windows contrast themes, macOS "Increase contrast", the
    desktop portal's preference on Linux). A dark palette alone gets the dark scheme instead."""
    hints = QGuiApplication.styleHints() if QGuiApplication.instance() is not None else None
    access = getattr(hints, "accessibility", None)  # Qt 6.10+
    return access is not None and access().contrastPreference() == Qt.ContrastPreference.HighContrast


def high_contrast_scheme(pal: QPalette) -> Scheme:
    """Severity from the palette: text on base everywhere (the icons and words tell the severity)."""
    base, text = pal.color(QPalette.ColorRole.Base), pal.color(QPalette.ColorRole.Text)
    return Scheme(
        background={k: QBrush(base) for k in (ERROR, WARNING, INFO)},
        foreground={k: QBrush(text) for k in (ERROR, WARNING, INFO)},
        band=(None, QBrush(base), QBrush(base)),
        header_band=(QBrush(pal.color(QPalette.ColorRole.Button)),) * 3,
        strip={k: (base.name(), text.name()) for k in (ERROR, WARNING, INFO)},
        muted=text.name(),
    )


def invalidate() -> None:
    """Forget the colours (call when the application palette changes, e.g. to a dark theme)."""
    global _scheme
    _scheme = None


def scheme() -> Scheme:
    """The colours for the current palette (cached; see invalidate)."""
    global _scheme, _scheme_dark
    if _scheme is not None:
        return _scheme
    if is_high_contrast():
        _scheme = high_contrast_scheme(QGuiApplication.palette())
        return _scheme
    dark = is_dark()
    if _scheme is None or _scheme_dark != dark:
        table = _DARK if dark else _LIGHT
        _scheme = Scheme(
            background={k: QBrush(QColor(bg)) for k, (bg, _) in table.items()},
            foreground={k: QBrush(QColor(fg)) for k, (_, fg) in table.items()},
            band=(None, QBrush(QColor("#262b33" if dark else "#f2f6fb")),
                  QBrush(QColor("#2b2a24" if dark else "#f9f6ec"))),
            header_band=(QBrush(QColor("#3a4a5e" if dark else "#d7e6f7")),
                         QBrush(QColor("#4a3e5e" if dark else "#e8dcf5")),
                         QBrush(QColor("#3a5e4a" if dark else "#d5eedc"))),
            strip={k: (bg, fg) for k, (bg, fg) in table.items()},
            muted="#a0a8b4" if dark else "#5a6472",
        )
        _scheme_dark = dark
    return _scheme


def severity_icon(severity: str, size: int = 16) -> QIcon:
    key = (severity, size)
    icon = _icons.get(key)
    if icon is None:
        icon = QIcon()
        for scale in (1, 2):
            icon.addPixmap(_draw(severity, size, scale))
        _icons[key] = icon
    return icon


def _draw(severity: str, size: int, scale: int) -> QPixmap:
    pm = QPixmap(size * scale, size * scale)
    pm.setDevicePixelRatio(scale)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    colour = QColor(_ICON_COLOUR[severity])
    s = float(size)
    m = s * 0.06
    outline = QPen(QColor(0, 0, 0, 90), max(1.0, s / 16))
    if severity == ERROR:
        path = QPainterPath()
        k = s * 0.29
        pts = [(k, m), (s - k, m), (s - m, k), (s - m, s - k), (s - k, s - m), (k, s - m), (m, s - k), (m, k)]
        path.moveTo(*pts[0])
        for pt in pts[1:]:
            path.lineTo(*pt)
        path.closeSubpath()
        p.setPen(outline)
        p.setBrush(colour)
        p.drawPath(path)
        pen = QPen(QColor("white"))
        pen.setWidthF(s * 0.14)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        p.setPen(pen)
        a, b = s * 0.34, s * 0.66
        p.drawLine(QPointF(a, a), QPointF(b, b))
        p.drawLine(QPointF(a, b), QPointF(b, a))
    elif severity == WARNING:
        path = QPainterPath()
        path.moveTo(s / 2, m)
        path.lineTo(s - m, s - m * 1.5)
        path.lineTo(m, s - m * 1.5)
        path.closeSubpath()
        p.setPen(outline)
        p.setBrush(colour)
        p.drawPath(path)
        _glyph(p, "!", QRectF(0, s * 0.22, s, s * 0.72), QColor("#1a1a1a"), s * 0.62)
    else:
        p.setPen(outline)
        p.setBrush(colour)
        p.drawEllipse(QRectF(m, m, s - 2 * m, s - 2 * m))
        _glyph(p, "i", QRectF(0, 0, s, s), QColor("white"), s * 0.66)
    p.end()
    return pm


def _glyph(p: QPainter, text: str, rect: QRectF, colour: QColor, pixel_size: float) -> None:
    font = QFont()
    font.setBold(True)
    font.setPixelSize(max(6, int(pixel_size)))
    p.setFont(font)
    p.setPen(colour)
    p.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
