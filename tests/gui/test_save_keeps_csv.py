"""Save keeps a CSV as it was — encoding, BOM or none, delimiter, line ends — whenever that encoding
can hold the text, and asks only when it cannot; Save As .csv writes UTF-8 with a BOM and commas.
A semicolon-separated Windows-1252 file is what Excel writes in much of Europe: it stays one."""

import pytest

EUROPE = "question;answer;notes\nQuelle est la météo ?;Il fait beau;\nWie geht's, Herr Müller?;Gut, danke;a,b\n"


@pytest.fixture
def opened(qtbot, tmp_path, dialogs_log):
    from evaleditor.gui import MainWindow

    def open_(data: bytes, name="cases.csv"):
        path = tmp_path / name
        path.write_bytes(data)
        w = MainWindow()
        qtbot.addWidget(w)
        assert w.documents.open_file(path)
        return w, path
    return open_


def test_save_keeps_a_windows_1252_semicolon_file_without_bom_and_its_lf_line_ends(opened, dialogs_log):
    w, path = opened(EUROPE.encode("cp1252"))
    w.model.setData(w.model.index(0, 1), "Il fait très beau")
    assert w.documents.save()
    assert path.read_bytes() == EUROPE.replace("Il fait beau", "Il fait très beau").encode("cp1252")
    assert "UTF-8" not in w.statusBar().currentMessage() and "ask_csv_encoding" not in dialogs_log.names()
    assert not w.is_modified()


@pytest.mark.parametrize("encoding, bom", [("utf-8", b""), ("utf-8", b"\xef\xbb\xbf"), ("gb18030", b"")])
@pytest.mark.parametrize("line_end", ["\r\n", "\n"])
@pytest.mark.parametrize("delimiter", [";", ","])
def test_save_keeps_encoding_bom_delimiter_and_line_ends(opened, encoding, bom, line_end, delimiter):
    text = "问题;答案\n你好吗;很好\n第二;行\n".replace("\n", line_end).replace(";", delimiter)
    w, path = opened(bom + text.encode(encoding), "zh.csv")
    w.model.setData(w.model.index(1, 1), "改")
    assert w.documents.save()
    assert path.read_bytes() == bom + text.replace(delimiter + "行", delimiter + "改").encode(encoding)


def test_a_character_the_encoding_cannot_hold_asks_and_then_writes_utf8_keeping_the_rest(opened, dialogs_log):
    w, path = opened(EUROPE.encode("cp1252"))
    before = path.read_bytes()
    w.model.setData(w.model.index(0, 1), "晴")
    dialogs_log.answers["ask_csv_encoding"] = False
    assert not w.documents.save()
    assert path.read_bytes() == before and w.is_modified()
    (name, encoding, char), = [args for n, args in dialogs_log.calls if n == "ask_csv_encoding"]
    assert (encoding, char) == ("cp1252", "晴")
    dialogs_log.answers["ask_csv_encoding"] = True
    assert w.documents.save()
    assert path.read_bytes() == b"\xef\xbb\xbf" + EUROPE.replace("Il fait beau", "晴").encode("utf-8")
    assert "UTF-8" in w.statusBar().currentMessage()
    w.model.setData(w.model.index(0, 1), "晴天")
    assert w.documents.save() and len([n for n in dialogs_log.names() if n == "ask_csv_encoding"]) == 2  # now UTF-8: not asked


def test_save_as_csv_is_utf8_with_bom_and_commas(opened, tmp_path):
    w, path = opened(EUROPE.encode("cp1252"))
    assert w.documents.save_as(tmp_path / "copy.csv", "csv")
    data = (tmp_path / "copy.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and data.decode("utf-8-sig").splitlines()[0] == "question,answer,notes"
    assert b"\r\n" in data and "UTF-8 with commas" in w.statusBar().currentMessage()
    w.model.setData(w.model.index(0, 1), "x")
    assert w.documents.save()  # the copy is now UTF-8 with commas, and Save keeps that
    assert (tmp_path / "copy.csv").read_bytes().decode("utf-8-sig").splitlines()[1] == "Quelle est la météo ?,x,"


def test_save_keeps_a_promptfoo_csv_its_columns_in_order_and_its_assertions(opened):
    """A promptfoo test-case CSV is written by its platform's writer: Save keeps it as it was too."""
    text = "topic;question;__expected;note\nmath;What is 2+2?;4;\nsocial;Say hi;contains:hi;x\n"
    w, path = opened(text.encode("utf-8"), "tests.csv")
    assert w.doc.dataset.target.name == "promptfoo"
    w.model.setData(w.model.index(0, 3), "n")
    assert w.documents.save()
    assert path.read_bytes() == text.replace("4;\n", "4;n\n").encode("utf-8")
