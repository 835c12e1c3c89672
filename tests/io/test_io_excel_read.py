import datetime as dt

import pytest

from evaleditor.core.errors import Cancelled, ReadError
from evaleditor.io import read_table, write_table
from evaleditor.io.excel.read import FORMULA_RULE, read_xlsx
from evaleditor.io.grid import cell_text, number_text
from tests.io.io_builders import make_xlsx, raw_xlsx, table_xlsx


def test_values_read_as_the_text_a_user_sees(tmp_path):
    path = table_xlsx(tmp_path / "v.xlsx", [
        ["question", "n", "f", "b", "d", "dt", "t", "s"],
        ["q1", 3.0, 0.1, True, dt.date(2026, 11, 30), dt.datetime(2026, 11, 30, 12, 34, 56),
         dt.time(12, 34, 56), "007"],
        ["q2", 42, -2.5, False, dt.datetime(2026, 11, 30), dt.datetime(2026, 1, 2, 0, 0, 1),
         dt.time(0, 0), "=1+1 is text? no"],
        ["NA", "None", "1e5", "TRUE", "N/A", "null", " x ", ""],
    ])
    t = read_xlsx(path)
    assert t.headers == ["question", "n", "f", "b", "d", "dt", "t", "s"]
    assert t.rows[0] == ["q1", "3", "0.1", "TRUE", "2026-11-30", "2026-11-30 12:34:56", "12:34:56", "007"]
    assert t.rows[1][:7] == ["q2", "42", "-2.5", "FALSE", "2026-11-30", "2026-01-02 00:00:01", "00:00:00"]
    assert t.rows[2] == ["NA", "None", "1e5", "TRUE", "N/A", "null", " x ", ""]
    assert t.source_format == "xlsx"
    assert t.sheet == "Sheet1" and t.sheets == ["Sheet1"]


def test_meanwhile_runs_once_on_the_reading_thread_for_a_workbook_only(tmp_path):
    """read_table's `meanwhile` (load_document's imports) runs once, on the caller's thread, while calamine
    opens an .xlsx, also one this process has just written; a text file leaves it to the caller."""
    import threading

    path = table_xlsx(tmp_path / "m.xlsx", [["question"], ["q1"]])
    ran: list[int] = []
    for written in (False, True):
        table = read_table(path, meanwhile=lambda: ran.append(threading.get_ident()), written=written)
        assert table.rows == [["q1"]]
    assert ran == [threading.get_ident()] * 2
    text = tmp_path / "m.csv"
    text.write_text("question\nq1\n", encoding="utf-8")
    assert read_table(text, meanwhile=lambda: ran.append(0)).rows == [["q1"]] and len(ran) == 2


@pytest.mark.parametrize(
    ("value", "text"),
    [(3.0, "3"), (-0.0, "0"), (0.1, "0.1"), (0.1 + 0.2, "0.3"), (1 / 3, "0.333333333333333"),
     (1e20, "1e+20"), (123456789012.5, "123456789012.5"), (2.5e-7, "2.5e-07"),
     (1234567890123456.0, "1234567890123456"), (9007199254740992.0, "9007199254740992"),
     (-123456789012345.0, "-123456789012345"), (123456789012345678.0, "1.23456789012346e+17")],
)
def test_number_text(value, text):
    assert number_text(value) == text


def test_cell_text_kinds():
    assert cell_text(None) == ""
    assert cell_text(7) == "7"
    assert cell_text(dt.timedelta(hours=26, minutes=3, seconds=4)) == "26:03:04"
    assert cell_text(dt.datetime(2026, 1, 1, 1, 2, 3, 500000)) == "2026-01-01 01:02:03.500"


def test_leading_empty_rows_and_columns(tmp_path):
    path = make_xlsx(tmp_path / "o.xlsx", {"S": {
        "C4": "question", "D4": "answer", "C5": "q1", "D5": "a1", "D7": "a3", "C9": "q5",
    }})
    t = read_xlsx(path)
    assert t.headers == ["question", "answer"]
    assert t.rows == [["q1", "a1"], ["", "a3"], ["q5", ""]]


def test_blank_middle_column_is_kept_trailing_styled_rows_dropped(tmp_path):
    import openpyxl
    from openpyxl.styles import Font

    book = openpyxl.Workbook()
    ws = book.active
    ws.append(["question", None, "answer"])
    ws.append(["q", None, "a"])
    for r in range(3, 40):  # formatted but empty: Excel's trailing rows
        ws.cell(row=r, column=5).font = Font(bold=True)
    book.save(tmp_path / "s.xlsx")
    t = read_xlsx(tmp_path / "s.xlsx")
    assert t.headers == ["question", "", "answer"]
    assert t.rows == [["q", "", "a"]]


def test_first_sheet_with_question_header_is_chosen(tmp_path):
    path = make_xlsx(tmp_path / "m.xlsx", {
        "Readme": {"A1": "How to use", "A2": "..."},
        "Empty": {},
        "Cases": {"A1": "id", "B1": "Query", "A2": "1", "B2": "q"},
        "More": {"A1": "question", "A2": "other"},
    })
    t = read_xlsx(path)
    assert t.sheet == "Cases"
    assert t.sheets == ["Readme", "Empty", "Cases", "More"]
    assert t.rows == [["1", "q"]]


def test_chinese_header_recognised_for_sheet_choice(tmp_path):
    path = make_xlsx(tmp_path / "zh.xlsx", {"说明": {"A1": "说明"}, "评测集": {"A1": "问题", "A2": "你好"}})
    assert read_xlsx(path).sheet == "评测集"


def test_no_question_header_falls_back_to_first_sheet_with_data(tmp_path):
    path = make_xlsx(tmp_path / "n.xlsx", {"Blank": {}, "A": {"A1": "x"}, "B": {"A1": "y"}})
    assert read_xlsx(path).sheet == "A"


def test_explicit_sheet(tmp_path):
    path = make_xlsx(tmp_path / "e.xlsx", {"Cases": {"A1": "question", "A2": "q"}, "Other": {"A1": "z"}})
    assert read_xlsx(path, sheet="Other").headers == ["z"]
    assert read_table(path, sheet="other").sheet == "Other"  # case-insensitive when unambiguous
    with pytest.raises(ReadError) as info:
        read_xlsx(path, sheet="Nope")
    assert "'Cases'" in info.value.reason and "'Other'" in info.value.reason


def test_empty_workbook_and_empty_sheet(tmp_path):
    path = make_xlsx(tmp_path / "e.xlsx", {"A": {}, "B": {"A1": "question"}})
    with pytest.raises(ReadError, match="empty"):
        read_xlsx(path, sheet="A")
    empty = make_xlsx(tmp_path / "e2.xlsx", {"A": {}})
    with pytest.raises(ReadError, match="empty"):
        read_xlsx(empty)


def test_header_only_sheet(tmp_path):
    t = read_xlsx(make_xlsx(tmp_path / "h.xlsx", {"S": {"A1": "question", "B1": "answer"}}))
    assert t.headers == ["question", "answer"] and t.rows == []


def test_formula_without_value(tmp_path):
    path = make_xlsx(tmp_path / "f.xlsx", {"S": {
        "B2": "question", "C2": "answer", "B3": "q1", "C3": 5,
        "B5": "q2", "C5": "=C3*2", "B6": "=UPPER(B3)", "C20": "=SUM(C3:C5)",
    }})
    t = read_xlsx(path)
    assert t.rows == [["q1", "5"], ["q2", "=C3*2"], ["=UPPER(B3)", ""], ["", "=SUM(C3:C5)"]]
    notes = [(n.rule, n.row, n.column) for n in t.notes]
    assert notes == [(FORMULA_RULE, 1, 1), (FORMULA_RULE, 2, 0), (FORMULA_RULE, 3, 1)]
    assert t.notes[0].message.startswith("C5: the formula =C3*2 has no saved value")


def test_formula_with_saved_value_reads_value(tmp_path):
    path = raw_xlsx(tmp_path / "v.xlsx", (
        '<row r="1"><c r="A1" t="inlineStr"><is><t>question</t></is></c></row>'
        '<row r="2"><c r="A2"><f>1+1</f><v>2</v></c></row>'
        '<row r="3"><c r="A3" t="str"><f>""</f><v></v></c><c r="B3" t="inlineStr"><is><t>x</t></is></c></row>'
        '<row r="4"><c r="A4" t="e"><f>1/0</f><v>#DIV/0!</v></c></row>'
    ))
    t = read_xlsx(path)
    assert t.notes == []
    assert t.rows == [["2", ""], ["", "x"], ["#DIV/0!", ""]]


def test_shared_formula_and_cells_without_refs(tmp_path):
    path = raw_xlsx(tmp_path / "s.xlsx", (
        '<row r="1"><c t="inlineStr"><is><t>question</t></is></c><c t="inlineStr"><is><t>n</t></is></c></row>'
        '<row r="2"><c t="inlineStr"><is><t>a</t></is></c><c><f t="shared" ref="B2:B3" si="0">A2&amp;"!"</f></c></row>'
        '<row r="3"><c t="inlineStr"><is><t>b</t></is></c><c><f t="shared" si="0"/></c></row>'
    ))
    t = read_xlsx(path)
    assert t.rows == [["a", '=A2&"!"'], ["b", '=A3&"!"']]
    assert [(n.row, n.column) for n in t.notes] == [(0, 1), (1, 1)]


def test_formula_in_header_row(tmp_path):
    path = make_xlsx(tmp_path / "h.xlsx", {"S": {"A1": "question", "B1": '="ans"&"wer"', "A2": "q"}})
    t = read_xlsx(path)
    assert t.headers == ["question", '="ans"&"wer"']
    assert [(n.row, n.column) for n in t.notes] == [(None, 1)]


def test_progress_and_cancel(tmp_path):
    path = table_xlsx(tmp_path / "big.xlsx", [["question"]] + [[f"q{i}"] for i in range(2500)])
    calls = []
    t = read_xlsx(path, progress=lambda d, tot: calls.append((d, tot)))
    assert len(t.rows) == 2500
    assert calls[-1] == (2501, 2501)
    with pytest.raises(Cancelled):
        read_xlsx(path, cancel=lambda: True)


def test_xlsm_dispatch(tmp_path):
    path = table_xlsx(tmp_path / "m.xlsx", [["question"], ["q"]])
    macro = tmp_path / "m.xlsm"
    macro.write_bytes(path.read_bytes())
    assert read_table(macro).rows == [["q"]]


def test_unsupported_suffix(tmp_path):
    path = tmp_path / "a.docx"
    path.write_bytes(b"x")
    with pytest.raises(ReadError, match="unsupported file type"):
        read_table(path)


@pytest.mark.parametrize("quote", ['"', "'"])
def test_saved_error_values_read_as_excel_shows_them(tmp_path, quote):
    """calamine reads an error cell as empty; the sheet scan finds it by its type (t="e" or t='e')."""
    path = raw_xlsx(tmp_path / "e.xlsx", (
        '<row r="1"><c r="A1" t="inlineStr"><is><t>question</t></is></c></row>'
        f'<row r="2"><c r="A2" t={quote}e{quote}><v>#N/A</v></c></row>'
    ))
    assert read_xlsx(path).rows == [["#N/A"]]


def test_a_folder_without_a_suffix_is_called_a_folder(tmp_path):
    (tmp_path / "afolder").mkdir()
    with pytest.raises(ReadError, match="this is a folder, not a file"):
        read_table(tmp_path / "afolder")
    with pytest.raises(ReadError, match="the file does not exist"):
        read_table(tmp_path / "missing")


def test_a_long_sheet_hands_calamines_freed_memory_back(tmp_path, monkeypatch):
    """calamine's cells are freed once they are Python text, but glibc keeps the pages unless asked
    (malloc_trim): a long sheet asks, once; a short one does not bother."""
    from evaleditor.io.excel import read as excel_read

    calls = []
    monkeypatch.setattr(excel_read, "release_freed_memory", lambda: calls.append(1))
    monkeypatch.setattr(excel_read, "RELEASE_ROWS", 50)
    write_table(tmp_path / "long.xlsx", ["question"], [[f"q{i}"] for i in range(60)])
    write_table(tmp_path / "short.xlsx", ["question"], [[f"q{i}"] for i in range(10)])
    assert len(read_xlsx(tmp_path / "long.xlsx").rows) == 60 and calls == [1]
    assert len(read_xlsx(tmp_path / "short.xlsx").rows) == 10 and calls == [1]


def test_releasing_freed_memory_is_harmless():
    from evaleditor.core.alloc import release_freed_memory

    release_freed_memory()
    release_freed_memory()


KEPT = [" ", "\t", "a\r\nb", "  lead", "trail  ", "\n", "x\ry", " \r\n "]


@pytest.mark.parametrize("writer", ["openpyxl", "evaleditor"])
def test_whitespace_and_carriage_returns_read_and_save_exactly(tmp_path, writer):
    """openpyxl writes a whitespace-only cell without xml:space="preserve" and a carriage return raw:
    calamine read " " and a tab as empty and "a\\r\\nb" as "a\\nb"."""
    headers = [f"c{i}" for i in range(len(KEPT))]
    path = tmp_path / "kept.xlsx"
    if writer == "openpyxl":
        table_xlsx(path, [headers, KEPT])
    else:
        write_table(path, headers, [KEPT])
    assert read_table(path).rows == [KEPT]
    write_table(tmp_path / "again.xlsx", headers, read_table(path).rows)
    assert read_table(tmp_path / "again.xlsx").rows == [KEPT]


def test_rich_inline_text_and_formula_strings_keep_their_text(tmp_path):
    path = raw_xlsx(tmp_path / "rich.xlsx",
                    '<row r="1"><c r="A1" t="inlineStr"><is><t>q</t></is></c><c r="B1" t="inlineStr"><is><t>f</t>'
                    '</is></c></row><row r="2"><c r="A2" t="inlineStr"><is><r><t>Hello</t></r><r><t> </t></r>'
                    '<r><t>world_x0021_</t></r><rPh><t> ph </t></rPh></is></c>'
                    '<c r="B2" t="str"><f>A1</f><v>a\r\nb</v></c></row>')
    assert read_table(path).rows == [["Hello world!", "a\r\nb"]]


def test_text_calamine_reads_exactly_costs_no_second_pass(tmp_path, monkeypatch):
    """Leading and trailing spaces marked xml:space="preserve" (as openpyxl and Excel write them), line
    feeds, and shared strings: the sheet is not parsed again."""
    from evaleditor.io.excel import formulas

    def parsed(*_args, **_kwargs):
        raise AssertionError("the sheet was parsed a second time")

    monkeypatch.setattr(formulas, "_CarriageReturnsKept", parsed)
    rows = [["  lead", "trail  ", "a\nb", " mid dle "]]
    table_xlsx(tmp_path / "a.xlsx", [["q", "a", "b", "c"], *rows])
    write_table(tmp_path / "b.xlsx", ["q", "a", "b", "c"], rows)
    assert read_table(tmp_path / "a.xlsx").rows == rows and read_table(tmp_path / "b.xlsx").rows == rows


def test_a_sheet_of_text_only_is_not_converted_row_by_row(tmp_path, monkeypatch):
    """calamine gives text cells as str: a block of rows of them needs no pass row by row (numbers do)."""
    from evaleditor.io.excel import read as excel_read

    converted = []
    real = excel_read._convert_rows
    monkeypatch.setattr(excel_read, "_convert_rows", lambda rows, start, stop: converted.append(stop - start)
                        or real(rows, start, stop))
    text = table_xlsx(tmp_path / "text.xlsx", [["question", "n"], ["q", "1"], ["", ""], ["r", "2"]])
    assert read_xlsx(text).rows == [["q", "1"], ["r", "2"]] and converted == []
    numbers = make_xlsx(tmp_path / "n.xlsx", {"S": {"A1": "question", "B1": "n", "A2": "q", "B2": 3, "A4": "r"}})
    assert read_xlsx(numbers).rows == [["q", "3"], ["r", ""]] and converted == [4]


def test_a_saves_read_back_reads_what_opening_reads(tmp_path):
    """A save's read-back in the window (written=True, with progress) takes the sheet's rows from
    calamine a slice at a time, so that the window's thread runs between them: the table is the one
    opening the file reads, numbers, dates, an area away from A1 and a sheet longer than a slice
    included."""
    values = table_xlsx(tmp_path / "v.xlsx", [
        ["question", "n", "d", "b"], ["q1", 3.0, dt.date(2026, 11, 30), True], ["", "", "", ""], ["q3", 0.1, "", False]])
    away = make_xlsx(tmp_path / "o.xlsx", {"S": {"C4": "question", "D4": "answer", "C5": "q1", "D7": "a3", "E9": 2}})
    long = table_xlsx(tmp_path / "long.xlsx", [["question", "n"]] + [[f"q{i}", i] for i in range(2500)])
    for path in (values, away, long):
        opened, read_back = read_xlsx(path), read_xlsx(path, progress=lambda _done, _total: None, written=True)
        assert (read_back.headers, read_back.rows) == (opened.headers, opened.rows)
    assert read_back.rows[2499] == ["q2499", "2499"]
