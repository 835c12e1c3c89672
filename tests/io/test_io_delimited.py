import codecs

import pytest

from evaleditor.core.errors import Cancelled, ReadError, WriteError
from evaleditor.io import read_table
from evaleditor.io.text.delimited import read_delimited, sniff_delimiter, write_csv

TRICKY = ["007", "NA", "N/A", "None", "null", "nan", "=1+1", "TRUE", "1e5", "3.0", " padded ", "-0"]


def write(path, text, encoding="utf-8"):
    path.write_bytes(text.encode(encoding))
    return path


def test_cells_stay_exact_text(tmp_path):
    line = ",".join(TRICKY)
    t = read_delimited(write(tmp_path / "a.csv", f"{','.join(f'h{i}' for i in range(len(TRICKY)))}\n{line}\n"))
    assert t.rows == [TRICKY]
    assert t.source_format == "csv"
    assert t.delimiter == ","
    assert t.encoding == "utf-8"


@pytest.mark.parametrize(
    ("encoding", "raw", "expected"),
    [
        ("utf-8", "问题,答案\n你好,世界\n".encode(), "utf-8"),
        ("utf-8-sig", codecs.BOM_UTF8 + "问题,答案\n你好,世界\n".encode(), "utf-8-sig"),
        ("utf-16", "问题\t答案\n你好\t世界\n".encode("utf-16"), "utf-16"),
        ("utf-16-be", codecs.BOM_UTF16_BE + "问题,答案\n你好,世界\n".encode("utf-16-be"), "utf-16"),
        ("gb18030", "问题,答案\n你好,世界\n".encode("gb18030"), "gb18030"),
    ],
)
def test_encodings(tmp_path, encoding, raw, expected):
    path = tmp_path / "zh.csv"
    path.write_bytes(raw)
    t = read_delimited(path)
    assert t.headers == ["问题", "答案"]
    assert t.rows == [["你好", "世界"]]
    assert t.encoding == expected


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom(tmp_path, encoding):
    path = tmp_path / "u.txt"
    path.write_bytes("question\tanswer\n你好\tworld\n".encode(encoding))
    t = read_delimited(path)
    assert t.encoding == encoding
    assert t.rows == [["你好", "world"]]


@pytest.mark.parametrize("text", [
    "question,answer,note\r\nWho is Herr Müller?,Señor naïve,Pâte brisée\r\nÜber alles?,Größe,Straße\r\n",
    "frage;antwort\nMüller kommt;Jürgen geht\nGrößere Brücken;Schöne Grüße\n",
])
def test_western_text_that_also_decodes_as_gb18030_reads_as_written(tmp_path, text):
    """These bytes decode as GB18030 too (Herr M黮ler, Se駉r), and did open so; saving then made it so."""
    raw = text.encode("cp1252")
    raw.decode("gb18030")  # the trap is real
    path = tmp_path / "w.csv"
    path.write_bytes(raw)
    t = read_delimited(path)
    assert t.encoding == "cp1252" and [t.headers, *t.rows] == [
        r.split(";" if ";" in text else ",") for r in text.replace("\r\n", "\n").splitlines()]


def test_chinese_text_with_rarer_characters_stays_gb18030(tmp_path):
    path = tmp_path / "zh.csv"
    path.write_bytes("问题,答案\n請問營業時間,週一至週五\n退款怎么办理,请提供订单号\n".encode("gb18030"))
    assert read_delimited(path).rows[0] == ["請問營業時間", "週一至週五"]


def test_western_excel_export_falls_back_to_cp1252(tmp_path):
    path = tmp_path / "w.csv"
    path.write_bytes("question,answer\ncafé au lait,crème brûlée\n".encode("cp1252"))
    t = read_delimited(path)
    assert t.rows == [["café au lait", "crème brûlée"]]
    assert t.encoding == "cp1252"


def test_semicolon_with_decimal_commas(tmp_path):
    t = read_delimited(write(tmp_path / "eu.csv", "frage;antwort\n1,5;2,5\nja, klar;nein\n"))
    assert t.delimiter == ";"
    assert t.rows == [["1,5", "2,5"], ["ja, klar", "nein"]]


def test_comma_inside_unquoted_text_of_comma_file(tmp_path):
    t = read_delimited(write(tmp_path / "a.csv", "question,answer\n\"hello, world\",yes; no\n"))
    assert t.delimiter == ","
    assert t.rows == [["hello, world", "yes; no"]]


@pytest.mark.parametrize("suffix", [".tsv", ".txt"])
def test_tab_files(tmp_path, suffix):
    t = read_delimited(write(tmp_path / f"a{suffix}", "question\tanswer\nq, with comma\ta\n"))
    assert t.delimiter == "\t"
    assert t.source_format == "tsv"
    assert t.rows == [["q, with comma", "a"]]


def test_tab_separated_file_named_csv(tmp_path):
    t = read_delimited(write(tmp_path / "a.csv", "question\tanswer\nq\ta\n"))
    assert t.delimiter == "\t"
    assert t.headers == ["question", "answer"]


def test_single_column(tmp_path):
    t = read_delimited(write(tmp_path / "a.csv", "question\nwhat is 1; 2?\n"))
    assert t.headers == ["question"]
    assert t.rows == [["what is 1; 2?"]]


def test_quoted_newlines_quotes_and_delimiters(tmp_path):
    text = 'question,answer\r\n"line 1\nline 2","say ""hi"", ok"\r\n"a\r\nb",c\r\n'
    t = read_delimited(write(tmp_path / "a.csv", text))
    assert t.rows == [["line 1\nline 2", 'say "hi", ok'], ["a\r\nb", "c"]]


def test_blank_rows_skipped_and_header_is_first_non_empty(tmp_path):
    t = read_delimited(write(tmp_path / "a.csv", "\n\n,,\nquestion,answer\n\nq1,a1\n,,\n \n\nq2,\n"))
    assert t.headers == ["question", "answer"]
    assert t.rows == [["q1", "a1"], [" ", ""], ["q2", ""]]


def test_short_rows_padded_long_rows_add_columns(tmp_path):
    t = read_delimited(write(tmp_path / "a.csv", "question,answer\nq1\nq2,a2,extra\n"))
    assert t.headers == ["question", "answer", ""]
    assert t.rows == [["q1", "", ""], ["q2", "a2", "extra"]]
    assert all(len(r) == len(t.headers) for r in t.rows)


def test_trailing_delimiters_do_not_add_columns(tmp_path):
    t = read_delimited(write(tmp_path / "a.csv", "question,answer,\nq,a,\n"))
    assert t.headers == ["question", "answer"]
    assert t.rows == [["q", "a"]]


def test_whitespace_survives(tmp_path):
    t = read_delimited(write(tmp_path / "a.csv", "question,answer\n  lead,trail  \n"))
    assert t.rows == [["  lead", "trail  "]]


@pytest.mark.parametrize("content", [b"", b"   \n\n", codecs.BOM_UTF8, codecs.BOM_UTF8 + b"\r\n", b"\n,,\n,\n"])
def test_empty_files(tmp_path, content):
    path = tmp_path / "e.csv"
    path.write_bytes(content)
    with pytest.raises(ReadError) as info:
        read_delimited(path)
    assert "empty" in info.value.reason


@pytest.mark.parametrize("bom", [b"", codecs.BOM_UTF8])
def test_text_that_stops_being_utf8_far_into_the_file(tmp_path, bom):
    """UTF-8 is taken from the file's start and checked by the parse itself; a GB18030 row far down
    makes the parse start again with the encoding that fits (a BOM file has no other)."""
    path = tmp_path / "late.csv"
    ascii_rows = "".join(f"q{i},a{i}\n" for i in range(10000))  # past the 64K sniffed
    path.write_bytes(bom + ("question,answer\n" + ascii_rows).encode() + "你好,世界\n".encode("gb18030"))
    if bom:
        with pytest.raises(ReadError, match="no known text encoding"):
            read_delimited(path)
        return
    t = read_delimited(path)
    assert t.encoding == "gb18030" and t.rows[-1] == ["你好", "世界"] and len(t.rows) == 10001


def test_nul_far_into_a_utf8_file_is_binary(tmp_path):
    path = tmp_path / "nul.csv"
    path.write_bytes(b"question,answer\n" + b"q,a\n" * 5000 + b"q,\x00\n")
    with pytest.raises(ReadError, match="binary data"):
        read_delimited(path)


def test_binary_junk_named_csv(tmp_path):
    path = tmp_path / "junk.csv"
    path.write_bytes(bytes(range(256)) * 40)
    with pytest.raises(ReadError) as info:
        read_table(path)
    assert "not a text file" in info.value.reason
    assert "\n" not in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(ReadError) as info:
        read_delimited(tmp_path / "nope.csv")
    assert info.value.reason == "the file does not exist"


def test_workbook_saved_as_csv_is_read_as_workbook(tmp_path):
    from tests.io.io_builders import table_xlsx

    path = table_xlsx(tmp_path / "book.xlsx", [["question"], ["q1"]])
    disguised = tmp_path / "book.csv"
    disguised.write_bytes(path.read_bytes())
    t = read_table(disguised)
    assert t.source_format == "xlsx"
    assert t.rows == [["q1"]]


def test_sniff_prefers_default_on_ties():
    assert sniff_delimiter("a;b,c\nd;e,f\n", ",") == ","
    assert sniff_delimiter("a;b,c\nd;e,f\n", "\t") == ","  # a tab gives one field: not a table
    assert sniff_delimiter("a;b\nc;d\n", ",") == ";"


def test_progress_and_cancel(tmp_path):
    path = write(tmp_path / "big.csv", "question,answer\n" + "q,a\n" * 3500)
    calls = []
    t = read_delimited(path, progress=lambda done, total: calls.append((done, total)))
    assert len(t.rows) == 3500
    assert calls[-1][0] == calls[-1][1]
    assert len(calls) >= 3
    with pytest.raises(Cancelled):
        read_delimited(path, cancel=lambda: True)


def test_write_csv_format(tmp_path):
    path = tmp_path / "out.csv"
    write_csv(path, ["question", "answer"], [["a,b", 'say "hi"'], ["line1\nline2", ""], ["=1+1", "007"]])
    raw = path.read_bytes()
    assert raw.startswith(codecs.BOM_UTF8)
    assert raw[3:].decode() == (
        'question,answer\r\n"a,b","say ""hi"""\r\n"line1\nline2",\r\n=1+1,007\r\n'
    )
    t = read_delimited(path)
    assert t.rows == [["a,b", 'say "hi"'], ["line1\nline2", ""], ["=1+1", "007"]]
    assert t.encoding == "utf-8-sig"


def test_write_csv_pads_short_rows_and_refuses_long_ones(tmp_path):
    path = tmp_path / "out.csv"
    path.write_bytes(b"old")
    write_csv(path, ["a", "b"], [["1"]])
    assert read_delimited(path).rows == [["1", ""]]
    before = path.read_bytes()
    with pytest.raises(WriteError):
        write_csv(path, ["a", "b"], [["1", "2", "3"]])
    assert path.read_bytes() == before


def test_write_csv_progress(tmp_path):
    calls = []
    write_csv(tmp_path / "o.csv", ["a"], [["x"]] * 2500, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1000, 2500), (2000, 2500), (2500, 2500)]


# ----- encodings: a second opinion when the bytes fit several --------------------------------------
def _write(path, text, encoding):
    path.write_bytes(text.encode(encoding))
    return path


def test_shift_jis_csv_is_read_as_shift_jis_not_gb18030_and_the_choice_is_said(tmp_path):
    from evaleditor.io import read_table

    path = _write(tmp_path / "ja.csv", "質問,回答\n東京はどこですか,日本の首都です\n", "cp932")
    assert path.read_bytes().decode("gb18030")  # the bytes fit GB18030 too: the order alone chose it
    table = read_table(path)
    assert table.headers == ["質問", "回答"] and table.rows == [["東京はどこですか", "日本の首都です"]]
    assert table.encoding == "cp932"
    note, = [n for n in table.notes if n.rule == "encoding-guessed"]
    assert "Shift-JIS" in note.message and "GB18030" in note.message and "Reopen with Encoding" in note.message


@pytest.mark.parametrize("text, encoding", [
    ("问题,答案\n你好吗,很好\n", "gb18030"),  # short Chinese: Korean reads it as well; the order keeps GB18030
    ("Name,Stadt\nHerr Müller,Köln\n", "cp1252"),
    ("question,answer\nplain ascii,yes\n", "utf-8"),
])
def test_other_encodings_keep_their_choice(tmp_path, text, encoding):
    from evaleditor.io import read_table

    table = read_table(_write(tmp_path / "t.csv", text, encoding))
    assert table.encoding == encoding and table.headers == text.splitlines()[0].split(",")
    assert not [n for n in table.notes if n.rule == "encoding-guessed"] or encoding != "utf-8"


def test_a_chosen_encoding_is_used_and_one_that_does_not_fit_is_one_line(tmp_path):
    from evaleditor.core.errors import ReadError
    from evaleditor.io import read_table

    path = _write(tmp_path / "ja.csv", "質問,回答\n東京,首都\n", "cp932")
    assert read_table(path, encoding="gb18030").headers == ["質問".encode("cp932").decode("gb18030"),
                                                            "回答".encode("cp932").decode("gb18030")]
    with pytest.raises(ReadError, match="not UTF-8 text"):
        read_table(path, encoding="utf-8")
