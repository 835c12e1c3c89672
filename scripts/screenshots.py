"""Screenshots of the editor on a messy multi-turn dataset, for the README and for review.

    xvfb-run -s '-screen 0 1600x1000x24' .venv/bin/python scripts/screenshots.py [OUT_DIR]

Writes screenshot-editor.png (issues, bands, conversation), screenshot-near-miss.png (Session_ID
banner), screenshot-tool-calls.png (the tool-calls editor), screenshot-dark.png and screenshot-zh.png
(the interface in Simplified Chinese, its Go menu open; taken from the screen, so run it under a
display such as Xvfb with a CJK font installed), screenshot-preview-<target>.png (File ▸ Preview
Upload… for each target) and screenshot-wrap-text.png (View ▸ Wrap Text) to OUT_DIR (default: docs/).
Settings go to a temporary folder; the first-start tip is shown only in screenshot-wrap-text.png.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from openpyxl import Workbook
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QPalette

LONG = ("Please summarise the attached quarterly report, focusing on revenue by region, the change in "
        "operating margin and any risks the CFO mentions in the outlook section. ") * 4
ROWS = [
    ["s1", "1", "What's the weather in Paris tomorrow?", "Sunny, 24\u00b0C.",
     '[{"name": "weather", "arguments": {"city": "Paris"}}]', ""],
    ["s1", "2", "And in Lyon?", "Cloudy, 19\u00b0C.", "[{'name': 'weather', 'arguments': {'city': 'Lyon'}}]",
     "python literal"],
    ["s1", "4", "Which one is warmer?", "Paris.", "", "turn 3 missing"],
    ["s2", "1", "\u5e2e\u6211\u8ba2\u4e00\u5f20\u660e\u5929\u53bb\u4e0a\u6d77\u7684\u9ad8\u94c1\u7968",
     "\u597d\u7684\uff0c\u5df2\u4e3a\u60a8\u67e5\u8be2\u660e\u5929\u53bb\u4e0a\u6d77\u7684\u8f66\u6b21\u3002",
     '[{"name": "search_trains", "arguments": {"to": "\u4e0a\u6d77"}}]', "\u4e2d\u6587"],
    ["s2", "2", "", "\u8bf7\u95ee\u60a8\u60f3\u51e0\u70b9\u51fa\u53d1\uff1f", "", "empty question"],
    ["s2", "3", "\u4e0a\u5348\u4e5d\u70b9\u5de6\u53f3", "\u5df2\u4e3a\u60a8\u9884\u8ba2 G7 \u6b21\u3002",
     '[{"name": "book", "args": {"train": "G7"}}]', ""],
    ["", "", LONG, "Revenue grew 12%\u2026\nEMEA led.\nMargin fell 1.2 pts.", "", "long, multi-line"],
    ["s3 ", "1", "Reset my password", "I've sent a reset link.", '{"name": "send_reset"}', "space in id"],
    ["s3 ", "2", "Thanks!", "You're welcome.", "", ""],
    ["S1", "1", "What's the weather in Rome?", "Rainy.", "", "case clash with s1"],
    ["s4", "0", "Count to three", "1, 2, 3", "", "0-based"],
    ["s4", "1", "Now backwards", "3, 2, 1", "", ""],
    ["", "", "What is 2+2?", "4", "", ""],
    ["", "", "What is 2+2?", "4", "", "duplicate"],
    ["s5", "2", "second turn first", "b", "", ""],
    ["s5", "1", "first turn second", "a", "", "out of order"],
    ["", "", "NA", "N/A", "", "literal null text"],
]


def messy(path: Path, session_header: str) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = "cases"
    ws.append([session_header, "turn_id", "Query", "answer", "expected_tool_calls", "notes"])
    for row in ROWS:
        ws.append(row)
    wb.save(path)
    return path


def preview(target: str, case: int):
    """File ▸ Preview Upload… for `target`, case number `case` selected."""
    def show(w):
        from evaleditor.gui.panels import upload_preview

        w.documents.set_target(target)
        p = upload_preview.show(w)
        p.resize(1400, 820)
        p.list.selectRow(case)
        return p
    return show


def wrap_text(w):
    w.actions.wrap_text.trigger()
    w.view.setColumnWidth(2, 360)
    w.view.setColumnWidth(3, 260)
    return w


def dark_palette() -> QPalette:
    p = QPalette()
    roles = QPalette.ColorRole
    for role, colour in [(roles.Window, "#2b2b2b"), (roles.WindowText, "#e6e6e6"), (roles.Base, "#1e1e1e"),
                         (roles.AlternateBase, "#2a2a2a"), (roles.Text, "#e6e6e6"), (roles.Button, "#333333"),
                         (roles.ButtonText, "#e6e6e6"), (roles.Highlight, "#2f65ca"),
                         (roles.HighlightedText, "#ffffff"), (roles.Link, "#7fb4ff")]:
        p.setColor(role, QColor(colour))
    return p


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "docs")
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.gettempdir()) / "evaleditor-screenshots"
    tmp.mkdir(exist_ok=True)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    from evaleditor.gui import MainWindow
    from evaleditor.gui.window import language, theme
    from evaleditor.gui.window.app import application

    app = application()
    good = messy(tmp / "support_conversations.xlsx", "session_id")
    typo = messy(tmp / "support_conversations_v1.xlsx", "Session_ID")
    shots = [  # file, current cell, cell to edit, name, dark, interface language
        (good, (3, 2), None, "screenshot-editor.png", False, "en"),
        (typo, (3, 2), None, "screenshot-near-miss.png", False, "en"),
        (good, (1, 4), (1, 4), "screenshot-tool-calls.png", False, "en"),
        (good, (4, 2), None, "screenshot-dark.png", True, "en"),
        (typo, (4, 2), None, "screenshot-zh.png", False, "zh_CN"),
        (good, (0, 2), None, "screenshot-preview-ground-truth.png", False, "en", preview("ground-truth", 0)),
        (good, (0, 2), None, "screenshot-preview-evaluation-set.png", False, "en", preview("evaluation-set", 1)),
        (good, (0, 2), None, "screenshot-preview-sdk.png", False, "en", preview("sdk", 1)),
        (good, (6, 2), None, "screenshot-wrap-text.png", False, "en", wrap_text),
    ]
    windows = []

    def take(i: int) -> None:
        if i == len(shots):
            app.quit()
            return
        path, (row, col), edit, name, dark, lang, *setup = shots[i]
        from evaleditor.gui.panels.first_tip import SEEN_KEY
        QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "evaleditor", "evaleditor").setValue(
            SEEN_KEY, "false" if name == "screenshot-wrap-text.png" else "true")
        app.setPalette(dark_palette() if dark else app.style().standardPalette())
        theme.invalidate()
        language.apply(lang)
        w = MainWindow()
        windows.append(w)
        w.resize(1560, 940)
        w.show()
        w.documents.open_file(path)
        w.view.go_to(w.model.index(row, col))
        if edit:
            w.view.edit(w.model.index(*edit))
        shown = setup[0](w) if setup else w

        menu = None
        if lang != "en":  # show a menu too: its items, mnemonics and shortcuts in Chinese
            w.move(0, 0)
            menu = next(m for m in w.menuBar().findChildren(type(w.actions.fix_menu))
                        if m.menuAction() in w.menuBar().actions() and m.property("title") and "G" in m.title())
            QTimer.singleShot(300, lambda: w.menuBar().setActiveAction(menu.menuAction()))

        def grab() -> None:
            if menu is not None:
                frame = w.frameGeometry()
                QGuiApplication.primaryScreen().grabWindow(0, frame.x(), frame.y(), frame.width(),
                                                           frame.height()).save(str(out / name))
                menu.hide()
            else:
                shown.grab().save(str(out / name))
            print(out / name)
            if shown is not w:
                shown.close()
            w.undo_stack.setClean()
            w.close()
            take(i + 1)
        QTimer.singleShot(600, grab)

    QTimer.singleShot(100, lambda: take(0))
    app.exec()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
