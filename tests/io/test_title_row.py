"""A title row above the headers (common in hand-made sheets): no header is read as the question, and the
message says on which row the headers seem to be, looking at the first few rows only."""

from __future__ import annotations

import openpyxl

from evaleditor.core.file_checks import HEADER_SEARCH_ROWS
from evaleditor.io.load import load_document

HINT = "the headers look like they are on row {row}: delete the rows above it"


def question_issue(path):
    doc = load_document(path)
    [issue] = [i for i in doc.validator.all_issues() if i.rule == "missing-question-column"]
    return issue.message


def test_a_merged_title_and_an_empty_row_above_the_headers_of_a_workbook(tmp_path):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cases"
    sheet["A1"] = "Eval set v3"
    sheet.merge_cells("A1:D1")
    for col, header in enumerate(["question", "answer", "session_id", "turn_id"], 1):
        sheet.cell(3, col, header)
    sheet.append(["hi", "x", "", ""])
    path = tmp_path / "titled.xlsx"
    book.save(path)
    message = question_issue(path)
    assert HINT.format(row=3) in message
    assert len(message.splitlines()) == 1


def test_title_lines_above_the_headers_of_a_csv(tmp_path):
    path = tmp_path / "titled.csv"
    path.write_text("My eval set\nexported 2026-11-30\nquery,answer\nhi,x\n")
    assert HINT.format(row=3) in question_issue(path)


def test_without_a_header_row_below_the_message_says_to_rename(tmp_path):
    path = tmp_path / "plain.csv"
    path.write_text("prompt,answer\nhi,x\n")
    message = question_issue(path)
    assert "rename the question column to 'question'" in message and "row" not in message


def test_only_the_first_rows_are_looked_at(tmp_path):
    path = tmp_path / "deep.csv"
    titles = "".join(f"title line {i}\n" for i in range(HEADER_SEARCH_ROWS + 1))
    path.write_text(titles + "question,answer\nhi,x\n")
    assert "rename the question column" in question_issue(path)



def titled_workbook(tmp_path):
    """A title on row 1, an empty row 2 (not read), a note on row 3, the headers on row 4."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"] = "Eval set v3"
    sheet["A3"] = "exported 2026-11-30"
    for col, header in enumerate(["question", "answer"], 1):
        sheet.cell(4, col, header)
    sheet.append(["hi", "x"])
    path = tmp_path / "titled.xlsx"
    book.save(path)
    return path


def test_after_the_rows_above_are_deleted_the_hint_names_the_row_the_headers_are_on_now(tmp_path):
    doc = load_document(titled_workbook(tmp_path))
    assert HINT.format(row=4) in question_message(doc)
    doc.dataset.remove_block(0, 0)  # the note: a save now writes the headers on row 2
    assert HINT.format(row=2) in question_message(doc)


def test_after_save_as_the_hint_names_the_row_of_the_file_written(tmp_path):
    from evaleditor.io.save import save_document

    doc = load_document(titled_workbook(tmp_path))
    out = tmp_path / "copy.xlsx"
    save_document(doc, out)  # no empty row: the note on row 2, the headers on row 3
    doc.saved_as(out, "xlsx")
    assert HINT.format(row=3) in question_message(doc)
    assert HINT.format(row=3) in question_issue(out)  # what reopening it says


def question_message(doc) -> str:
    [issue] = [i for i in doc.validator.all_issues() if i.rule == "missing-question-column"]
    return issue.message
