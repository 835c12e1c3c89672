"""A CSV whose bytes fit several encodings opens in the one a second opinion picks, the window says
which, and File ▸ Reopen with Encoding reads it in another."""

from __future__ import annotations


def test_shift_jis_csv_says_its_encoding_and_reopens_in_another(qtbot, tmp_path):
    from evaleditor.gui import MainWindow

    path = tmp_path / "ja.csv"
    path.write_bytes("質問,回答\n東京はどこですか,日本の首都です\n".encode("cp932"))
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path)
    assert w.doc.dataset.headers() == ["質問", "回答"] and w.doc.encoding == "cp932"
    said = w.statusBar().currentMessage()
    assert "Shift-JIS" in said and "Reopen with Encoding" in said
    assert "encoding-guessed" in {i.rule for i in w.doc.validator.all_issues()}
    w.actions.encodings["gb18030"].trigger()
    assert w.doc.encoding == "gb18030" and w.doc.dataset.headers()[0] == "質問".encode("cp932").decode("gb18030")
    w.actions.encodings["cp932"].trigger()
    assert w.doc.dataset.headers() == ["質問", "回答"]


def test_reopen_with_encoding_of_a_workbook_says_it_has_none(qtbot, tmp_path):
    from evaleditor.gui import MainWindow
    from tests.io.io_builders import table_xlsx

    path = table_xlsx(tmp_path / "a.xlsx", [["question"], ["Q1"]])
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.documents.open_file(path)
    assert not w.documents.reopen_with_encoding("cp932")
    assert "Only a text file" in w.statusBar().currentMessage() and w.doc.path == path
