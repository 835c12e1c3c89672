"""Each rule of rules.md fires on a minimal table, for the targets it names, and not otherwise."""

import pytest

from evaleditor.core.report import issue_row
from evaleditor.core.rules import RULES
from tests.core.conftest import make_doc

GT, ES, SDK = "ground-truth", "evaluation-set", "sdk"
BASE = ["question", "answer"]


def rules_of(doc):
    return {(i.rule, issue_row(doc, i)) for i in doc.validator.all_issues()}


def fired(doc, rule):
    return sorted((issue_row(doc, i) or 0) for i in doc.validator.all_issues() if i.rule == rule)


CASES = [
    # (rule, headers, rows, target, fmt, expected rows (0 = file level))
    ("empty-dataset", BASE, [], GT, "csv", [0]),
    ("missing-question-column", ["prompt", "answer"], [["q", "a"]], GT, "csv", [0]),
    ("duplicate-column", ["Question", "Query", "answer"], [["q", "q", "a"]], GT, "csv", [0]),
    ("misspelled-session-column", ["Session_ID", "question"], [["s", "q"]], GT, "csv", [0]),
    ("misspelled-session-column", ["session id", "question"], [["s", "q"]], GT, "csv", [0]),
    ("misspelled-session-column", ["会话id", "问题"], [["s", "q"]], ES, "xlsx", [0]),
    ("misspelled-turn-column", ["session_id", "Turn_ID", "question"], [["s", "1", "q"]], GT, "csv", [0]),
    ("misspelled-turn-column", ["session_id", "turn_id", "query"], [["s", "1", "q"]], ES, "xlsx", [0]),
    ("turn-column-without-session", ["turn_id", "question"], [["1", "q"]], GT, "csv", [0]),
    ("unknown-column", ["question", "notes"], [["q", "n"]], GT, "csv", [0]),
    ("missing-answer-column", ["question"], [["q"]], GT, "csv", [0]),
    ("unsupported-file-type", ["query"], [["q"]], ES, "csv", [0]),
    ("too-many-cases", ["query"], [[f"q{i}"] for i in range(2001)], ES, "xlsx", [0]),
    ("empty-question", BASE, [["q", "a"], ["  ", "a"]], GT, "csv", [2]),
    ("question-too-long", ["query"], [["x" * 2001], ["x" * 2000]], ES, "xlsx", [1]),
    ("answer-too-long", ["query", "answer"], [["q", "y" * 5001]], ES, "xlsx", [1]),
    ("cell-too-long-for-excel", BASE, [["q", "z" * 32768]], GT, "xlsx", [1]),
    ("control-character", BASE, [["q\x07", "a"]], GT, "xlsx", [1]),
    ("literal-null-text", BASE, [["q", "N/A"], ["q2", "none"]], GT, "csv", [1, 2]),
    ("invalid-tool-calls", ["question", "expected_tool_calls"],
     [["q", '[{"name": "f", "arguments": {}}]'], ["q2", "[{'name': 'f'}]"], ["q3", '{"name": "f", "arguments": {}}']],
     GT, "csv", [2, 3]),
    ("whitespace-in-session-id", ["session_id", "question"], [["s1 ", "q"], ["s1 ", "r"]], GT, "csv", [1, 2]),
    ("session-id-case-clash", ["session_id", "turn_id", "question"],
     [["A", "1", "q"], ["A", "2", "q"], ["a", "1", "r"], ["a", "2", "r"]], GT, "csv", [1, 3]),
    ("duplicate-question", BASE, [["Same?", "a"], ["other", "b"], ["Same?", "c"]], GT, "csv", [1, 3]),
    ("invalid-turn-id", ["session_id", "turn_id", "question"],
     [["s", "1", "a"], ["s", "two", "b"], ["s", "1.5", "c"], ["s", "-1", "d"], ["s", "2.0", "e"]], GT, "csv", [2, 3, 4]),
    ("duplicate-turn-id", ["session_id", "turn_id", "question"], [["s", "1", "a"], ["s", "1", "b"]], GT, "csv", [1, 2]),
    ("missing-turn-id", ["session_id", "turn_id", "question"], [["s", "1", "a"], ["s", "", "b"]], GT, "csv", [2]),
    ("turn-gap", ["session_id", "turn_id", "question"], [["s", "1", "a"], ["s", "2", "b"], ["s", "4", "c"]], GT,
     "csv", [3]),
    ("turn-not-starting-at-one", ["session_id", "turn_id", "question"], [["s", "0", "a"], ["s", "1", "b"]], GT,
     "csv", [1]),
    ("turns-out-of-file-order", ["session_id", "turn_id", "question"], [["s", "2", "a"], ["s", "1", "b"]], GT,
     "csv", [2]),
    ("session-rows-not-contiguous", ["session_id", "turn_id", "question"],
     [["s", "1", "a"], ["t", "1", "x"], ["s", "2", "b"], ["t", "2", "y"]], GT, "csv", [1, 2]),
    ("no-turn-column", ["session_id", "question"], [["s", "a"], ["s", "b"]], GT, "csv", [0]),
    ("too-many-turns", ["session_id", "request_id", "query"], [["s", str(i), "q"] for i in range(1, 12)], ES,
     "xlsx", [1]),
    ("single-turn-session", ["session_id", "turn_id", "question"], [["s", "1", "a"], ["u", "1", "b"], ["u", "2", "c"]],
     GT, "csv", [1]),
]


@pytest.mark.parametrize(("rule", "headers", "rows", "target", "fmt", "expected"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_rule_fires_where_expected(rule, headers, rows, target, fmt, expected):
    doc = make_doc(headers, rows, target, fmt)
    assert fired(doc, rule) == expected


@pytest.mark.parametrize("rule", ["question-too-long", "too-many-turns", "unsupported-file-type"])
def test_evaluation_set_rules_do_not_fire_for_ground_truth(rule):
    case = next(c for c in CASES if c[0] == rule)
    doc = make_doc(case[1], case[2], GT, case[4])
    assert fired(doc, rule) == []


def test_workbook_rules_only_for_workbooks():
    doc = make_doc(BASE, [["q\x07", "z" * 40000]], GT, "csv")
    assert fired(doc, "control-character") == [] and fired(doc, "cell-too-long-for-excel") == []
    doc.validator.set_save_format("xlsx")
    assert fired(doc, "control-character") == [1] and fired(doc, "cell-too-long-for-excel") == [1]


def test_turn_severity_is_error_for_evaluation_set():
    rows = [["s", "1", "a"], ["s", "3", "b"]]
    gt = make_doc(["session_id", "turn_id", "question"], rows, GT)
    es = make_doc(["session_id", "request_id", "query"], rows, ES, "xlsx")
    assert {i.severity for i in gt.validator.all_issues() if i.rule == "turn-gap"} == {"warning"}
    assert {i.severity for i in es.validator.all_issues() if i.rule == "turn-gap"} == {"error"}


def test_zero_based_session_is_called_out():
    doc = make_doc(["session_id", "turn_id", "question"], [["s", "0", "a"], ["s", "1", "b"]], GT)
    (issue,) = [i for i in doc.validator.all_issues() if i.rule == "turn-not-starting-at-one"]
    assert "0-based" in issue.message


def test_duplicate_question_ignores_conversation_rows():
    doc = make_doc(["session_id", "turn_id", "question"], [["s", "1", "hi"], ["t", "1", "hi"], ["", "", "hi"]], GT)
    assert fired(doc, "duplicate-question") == []


def test_entirely_empty_rows_are_not_cases():
    doc = make_doc(BASE, [["q", "a"], ["", ""]], GT)
    assert doc.shape.rows == 1
    assert fired(doc, "empty-question") == []


def test_formula_without_value_note_becomes_an_issue_until_edited():
    from evaleditor.core.commands import SetCells
    from evaleditor.core.document import document_from_table
    from evaleditor.core.table import LoadNote, RawTable

    raw = RawTable(BASE, [["=A1&B1", "a"]], "xlsx", notes=[LoadNote("formula-without-value", "m", 0, 0)])
    doc = document_from_table(raw, None, GT)
    assert fired(doc, "formula-without-value") == [1]
    ds = doc.dataset
    SetCells([(ds.rows[0].id, ds.columns[0].id, "typed")]).apply(ds)
    assert fired(doc, "formula-without-value") == []


@pytest.mark.parametrize(("text", "problem"), [
    (' \n[{"name": "f", "arguments": {}}]\t', None),
    ('[{"name": "f", "arguments": {}}] x', "not valid JSON (Extra data at line 1, column 34)"),
    ("\ufeff[]", "not valid JSON (Unexpected UTF-8 BOM (decode using utf-8-sig) at line 1, column 1)"),
    ("[" * 100_000, "nested too deeply to read"),
    ('{"name": "f"}', "must be a JSON array of calls, not an object"),
])
def test_tool_call_cells_get_a_reason_never_a_crash(text, problem):
    doc = make_doc(["question", "expected_tool_calls"], [["q", text]], GT, "csv")
    found = [i.message for i in doc.validator.all_issues() if i.rule == "invalid-tool-calls"]
    if problem is None:
        assert found == []
    else:
        assert len(found) == 1 and problem in found[0]


def test_the_rules_reference_in_docs_is_the_catalogue():
    """docs/rules.md is what a clone of the repository has to look a rule id up: it must list every rule
    as the code defines it (regenerate: python3 scripts/rules_doc.py)."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("rules_doc", root / "scripts" / "rules_doc.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    doc = (root / "docs" / "rules.md").read_text(encoding="utf-8")
    assert doc == module.text(), "docs/rules.md is out of date: run python3 scripts/rules_doc.py"
    assert all(f"| `{rule}` |" in doc for rule in RULES)


def test_every_rule_has_an_explanation_beyond_its_title():
    """The Help's rules reference and docs/rules.md say when each rule fires and why it matters: a rule
    added to the catalogue without an explanation (or with its title copied) fails here."""
    from evaleditor.core.rules import EXPLANATIONS
    from evaleditor.core.rules_reference import reference

    assert set(EXPLANATIONS) == set(RULES), "explanations without a rule, or rules without one"
    for entry in reference():
        assert entry.explanation.strip(), entry.id
        assert entry.explanation.strip().rstrip(".").lower() != entry.title.strip().rstrip(".").lower(), entry.id
        assert len(entry.explanation) > len(entry.title), entry.id
