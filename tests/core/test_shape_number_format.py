"""One number format: the shape line groups thousands as the messages do (`20,000 rows`, `2,001`)."""

from evaleditor.core.shape import Shape


def test_the_shape_line_groups_thousands_like_the_messages():
    assert Shape("single-turn", 20_000, None, None).line == "SINGLE-TURN \u2014 20,000 rows"
    assert Shape("multi-turn", 1_234_567, 2_001, "session_id").line == \
        "MULTI-TURN \u2014 1,234,567 rows, 2,001 conversations (grouped by session_id)"
    assert Shape("multi-turn", 999, 1, "会话ID").line == "MULTI-TURN \u2014 999 rows, 1 conversation (grouped by 会话ID)"
