from tests.core.conftest import make_doc


def test_single_turn_without_session_column():
    assert make_doc(["question"], [["a"], ["b"]]).shape.line == "SINGLE-TURN \u2014 2 rows"


def test_singular_row():
    assert make_doc(["question"], [["a"]]).shape.line == "SINGLE-TURN \u2014 1 row"


def test_all_session_cells_empty_is_single_turn():
    assert make_doc(["session_id", "question"], [["", "a"]]).shape.line == "SINGLE-TURN \u2014 1 row"


def test_multi_turn_counts_sessions_and_rows_without_session():
    rows = [["s1", "1", "a"], ["s1", "2", "b"], ["s2", "1", "c"], ["", "", "d"], ["", "", "e"]]
    doc = make_doc(["session_id", "turn_id", "question"], rows)
    assert doc.shape.line == "MULTI-TURN \u2014 5 rows, 4 conversations (grouped by session_id)"


def test_one_conversation_singular():
    doc = make_doc(["session_id", "question"], [["s", "a"], ["s", "b"]])
    assert doc.shape.line == "MULTI-TURN \u2014 2 rows, 1 conversation (grouped by session_id)"


def test_misspelled_session_header_reads_single_turn():
    doc = make_doc(["Session_ID", "question"], [["s", "a"], ["s", "b"]])
    assert doc.shape.line == "SINGLE-TURN \u2014 2 rows"


def test_chinese_session_header_is_named_in_the_shape():
    doc = make_doc(["会话ID", "请求顺序", "问题"], [["s", "1", "a"], ["s", "2", "b"]], "evaluation-set", "xlsx")
    assert doc.shape.line == "MULTI-TURN \u2014 2 rows, 1 conversation (grouped by 会话ID)"
