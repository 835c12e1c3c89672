"""Opening a big file leaves a document the garbage collector no longer walks, yet frees when dropped."""

import csv
import gc
import weakref

from evaleditor.core.alloc import KEEP_ROWS
from evaleditor.io.load import load_document


def test_a_big_document_is_frozen_out_of_collections_and_still_freed(tmp_path):
    path = tmp_path / "big.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["session_id", "turn_id", "question", "answer"])
        w.writerows([f"s{i // 2}", str(i % 2 + 1), f"q{i}", "a"] for i in range(KEEP_ROWS))
    frozen_before = gc.get_freeze_count()
    try:
        doc = load_document(path)
        assert gc.get_freeze_count() > frozen_before + KEEP_ROWS  # rows and their cells at least
        assert doc.shape.line.startswith("MULTI-TURN")
        ds, validator = weakref.ref(doc.dataset), weakref.ref(doc.validator)
        del doc
        assert ds() is None and validator() is None  # reference counting alone: no cycle
    finally:
        gc.unfreeze()


def test_a_small_document_is_left_to_the_collector(tmp_path):
    path = tmp_path / "small.csv"
    path.write_text("question,answer\nq,a\n", encoding="utf-8")
    frozen_before = gc.get_freeze_count()
    load_document(path)
    assert gc.get_freeze_count() == frozen_before
