"""Render the app icon's master SVG into the sizes each platform wants.

    .venv/bin/python packaging/make_icons.py

reads  resources/icons/evaleditor.svg
writes resources/icons/png/evaleditor-{16,24,32,48,64,128,256,512}.png  (Linux hicolor, the window icon)
       resources/icons/evaleditor.ico   (Windows: 16-256 px, PNG-compressed frames)
       resources/icons/evaleditor.icns  (macOS: 32-1024 px)

The SVG is rendered with Qt's own SVG renderer (QtSvg ships in PySide6-Essentials), each size
from the vector so small sizes are not blurred downscales. Pillow packs the .ico and .icns; it is a
packaging-only tool (packaging/requirements.txt), never imported by the app. The outputs are
committed, so users and the spec need neither tool; run this again only after editing the SVG.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "resources" / "icons"
SVG = ICONS / "evaleditor.svg"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICNS_SIZES = (32, 64, 128, 256, 512, 1024)


def render(size: int):
    """The SVG at size x size pixels as a Pillow RGBA image."""
    from PIL import Image
    from PySide6.QtCore import QBuffer, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        sys.exit(f"make_icons: {SVG} is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return Image.open(io.BytesIO(bytes(buffer.data()))).convert("RGBA")


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 - QtSvg wants one
    images = {size: render(size) for size in sorted({*PNG_SIZES, *ICO_SIZES, *ICNS_SIZES})}
    (ICONS / "png").mkdir(parents=True, exist_ok=True)
    for size in PNG_SIZES:
        images[size].save(ICONS / "png" / f"evaleditor-{size}.png", optimize=True)
    biggest = images[max(ICO_SIZES)]
    biggest.save(ICONS / "evaleditor.ico", sizes=[(s, s) for s in ICO_SIZES],
                 append_images=[images[s] for s in ICO_SIZES if s != max(ICO_SIZES)])
    base = images[max(ICNS_SIZES)]
    base.save(ICONS / "evaleditor.icns", append_images=[images[s] for s in ICNS_SIZES if s != max(ICNS_SIZES)])
    total = sum(p.stat().st_size for p in ICONS.rglob("*") if p.is_file())
    print(f"make_icons: wrote {len(PNG_SIZES)} PNGs, evaleditor.ico and evaleditor.icns "
          f"({total // 1024} KiB in resources/icons)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
