"""`convert` to .csv warns, in one line, about cells Excel would run as formulas; the exit status stays."""

from evaleditor.cli import main
from evaleditor.io import read_table, write_table


def test_convert_to_csv_warns_about_formula_cells(capsys, tmp_path):
    src = tmp_path / "in.xlsx"
    write_table(src, ["question", "answer"], [["=1+1", "-5"], ["@SUM(1)", "+A1"], ["fine", "ok"]])
    out = tmp_path / "out.csv"
    code = main(["convert", str(src), str(out)])
    _, err = capsys.readouterr()
    assert code == 0
    lines = err.splitlines()
    assert lines == ["evaleditor: warning: 3 cells start with =, +, - or @ and would run as formulas if the CSV "
                     "is opened in Excel; import it with Data > From Text/CSV, or convert to .xlsx, where they "
                     "stay text"]
    assert read_table(out).rows[0] == ["=1+1", "-5"]  # written as they are


def test_no_warning_for_plain_cells_or_workbooks(capsys, tmp_path):
    src = tmp_path / "in.csv"
    write_table(src, ["question", "answer"], [["=1+1", "x"]])
    assert main(["convert", str(src), str(tmp_path / "out.xlsx")]) == 0
    assert capsys.readouterr().err == ""
    write_table(src, ["question", "answer"], [["hello", "-5"]])
    assert main(["convert", str(src), str(tmp_path / "out.csv")]) == 0
    assert capsys.readouterr().err == ""
