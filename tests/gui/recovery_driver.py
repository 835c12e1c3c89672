"""Run by tests/gui/test_recovery.py in a subprocess: the editor, offscreen, on SOURCE; make edits the
way the window makes them, wait for the crash journal (the real debounce), write what the window holds
to EXPECTED, print READY and run until killed.

    python -m tests.gui.recovery_driver SOURCE EXPECTED
"""

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main(source: str, expected: str) -> int:
    from PySide6.QtCore import QTimer

    from evaleditor.gui.window.app import application
    from evaleditor.gui.window.main_window import MainWindow
    from evaleditor.gui.window.recovery import recovery_dir

    app = application()
    w = MainWindow()
    w.show()
    assert w.documents.open_file(source, background=False)
    m = w.model
    m.setData(m.index(0, 0), "edited \u4e2d\u6587\nsecond line")
    m.setData(m.index(1, m.columnCount() - 1), "=1+1")
    w.ops.rename_column_to(w.doc.dataset.columns[-1].id, "renamed column")
    w.ops.select_rows([w.doc.dataset.rows[2].id])
    w.ops.delete_rows()
    w.ops.insert_row(below=True)
    m.setData(m.index(w.view.currentIndex().row(), 0), "a new row")
    last_edit = time.monotonic()

    def poll() -> None:
        if not any(recovery_dir().glob("*.json")):
            return
        waited = time.monotonic() - last_edit
        ds = w.doc.dataset
        state = {"headers": ds.headers(), "rows": [r.cells for r in ds.rows], "waited": waited,
                 "target": ds.target.name, "path": str(w.doc.path), "stamp": list(w.documents.file_stamp)}
        if w.doc.source_format == "json":
            from evaleditor.io.sdk.write import encode_sdk_json

            state["sdk"] = encode_sdk_json(w.doc.path, ds)[1].decode("utf-8")
        tmp = Path(expected + ".tmp")
        tmp.write_text(json.dumps(state), encoding="utf-8")
        tmp.replace(expected)
        timer.stop()
        print("READY", flush=True)

    timer = QTimer(interval=50, timeout=poll)
    timer.start()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
