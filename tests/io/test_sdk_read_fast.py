"""The SDK JSON reader's fast paths give what the general path gives (sdk/read.py, sdk/check.is_clean).

Opening a big file checks a case with `is_clean` and keeps it uncopied, checks agent_data by comparing
it with the conversation data the writer makes, skips findings in such agent_data, and parses the
file's text without keeping its bytes. Each of these must change nothing but the time and memory taken:
the reference here is the reader with the fast paths turned off.
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaleditor.core.dataset import Dataset
from evaleditor.core.errors import ReadError
from evaleditor.io import safety
from evaleditor.io.sdk import dataset_to_sdk, read_sdk_json
from evaleditor.io.sdk import read as sdk_read
from evaleditor.io.sdk import views as sdk_views
from evaleditor.io.sdk.check import clean_model, is_clean
from tests.io.test_sdk_json import (
    CASE,
    HYPO,
    KEY,
    LOOSE,
    _flatten,
    camelise,
    canonical_tables,
    model,
    text,
    user,
)


# ----- is_clean -------------------------------------------------------------------------------------
@HYPO
@given(st.one_of(CASE.map(_flatten), st.dictionaries(KEY, LOOSE, max_size=6)), st.integers(0, 1 << 16))
def test_is_clean_says_whether_clean_changes_or_reports_anything(case, seed):
    case = camelise(case, "EvalCase", seed) if seed % 3 == 0 else case
    errors: list = []
    cleaned = clean_model(case, "EvalCase", "", errors)
    assert is_clean(case, "EvalCase") == (not errors and cleaned == case)


def test_is_clean_details():
    case = {"prompt": user(text("q")), "agent_data": {"turns": "not a list"}, "notes": "x"}
    assert not is_clean(case, "EvalCase")
    assert is_clean(case, "EvalCase", but="agent_data")  # not looked at …
    assert not is_clean({**case, "agent_data": None}, "EvalCase", but="agent_data")  # … but null is dropped
    assert not is_clean({"agentData": {}}, "EvalCase", but="agent_data")  # an alias is renamed
    assert not is_clean({"prompt": user(text("q")), "x": None}, "EvalCase")  # a null extra is dropped
    assert is_clean({"prompt": {"parts": [{"text": "q", "thought": "yes"}]}}, "EvalCase")  # as pydantic takes it
    assert not is_clean({"prompt": {"parts": [{"text": "q", "thought": "maybe"}]}}, "EvalCase")
    assert not is_clean([], "EvalCase")


# ----- the reader, fast and general -----------------------------------------------------------------
def _read_both(path):
    fast = read_sdk_json(path)
    findings = sdk_views.case_findings
    with ExitStack() as stack:  # no case is clean at a glance; every finding is looked for
        stack.enter_context(mock.patch.object(sdk_read, "is_clean", lambda *a, **k: False))
        stack.enter_context(mock.patch.object(sdk_read, "case_findings", lambda c, p, a=True: findings(c, p)))
        general = read_sdk_json(path)
    return fast, general


def _same(fast, general) -> None:
    assert fast.headers == general.headers
    assert fast.rows == general.rows
    assert fast.notes == general.notes
    assert fast.document == general.document
    for a, b in zip(fast.payloads, general.payloads, strict=True):
        assert type(a) is type(b)  # SdkCase, or SdkTrace for a turn of a conversation recorded in agent_data
        assert (a.case, a.shown, getattr(a, "conversation", None)) == (b.case, b.shown, getattr(b, "conversation", None))
        assert json.dumps(a.case) == json.dumps(b.case)  # same key order and spelling too


# ways a file's conversation data can differ from what the writer makes (case, turn) -> None
MUTATIONS = {
    "none": lambda c, t: None,
    "float turn": lambda c, t: t.update(turn_index=float(t["turn_index"])),
    "bool turn": lambda c, t: t.update(turn_index=True),
    "bad author": lambda c, t: t["events"][0].update(author=3),
    "unknown author": lambda c, t: t["events"][0].update(author="bot"),
    "alias": lambda c, t: t.update(turnIndex=t.pop("turn_index")),
    "unknown key": lambda c, t: t.update(speaker="x"),
    "null": lambda c, t: t.update(events=None),
    "camel agent_data": lambda c, t: c.update(agentData=c.pop("agent_data")),
    "null agent_data": lambda c, t: c.update(agent_data=None),
    "agent_data not an object": lambda c, t: c.update(agent_data=[1]),
    "other text": lambda c, t: t["events"][0]["content"]["parts"][0].update(text="changed"),
    "empty parts": lambda c, t: t["events"][0]["content"].update(parts=[]),
    "turn order": lambda c, t: c["agent_data"]["turns"].reverse(),
}


@HYPO
@given(canonical_tables(), st.lists(st.tuples(st.sampled_from(list(MUTATIONS)), st.integers(0, 99)), max_size=3))
def test_fast_reader_reads_as_the_general_one(tmp_path, table, mutations):
    headers, rows = table
    obj = dataset_to_sdk(Dataset(headers, rows, "sdk"))
    obj = json.loads(json.dumps(obj))  # nothing shared: a file's objects
    with_data = [c for c in obj["eval_cases"] if "agent_data" in c]
    for name, n in mutations:
        if with_data:
            case = with_data[n % len(with_data)]
            if isinstance(case.get("agent_data"), dict) and case["agent_data"].get("turns"):
                turns = case["agent_data"]["turns"]
                try:
                    MUTATIONS[name](case, turns[n % len(turns)])
                except (TypeError, KeyError, IndexError, AttributeError):
                    pass  # an earlier mutation took away what this one changes ("null" events)
    path = tmp_path / "f.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    _same(*_read_both(path))


@HYPO
@given(st.lists(st.one_of(CASE.map(_flatten), st.dictionaries(KEY, LOOSE, max_size=6)), max_size=4),
       st.integers(0, 1 << 16))
def test_fast_reader_reads_any_input_as_the_general_one(tmp_path, cases, seed):
    path = tmp_path / "f.json"
    path.write_text(json.dumps(camelise({"eval_cases": cases}, "EvaluationDataset", seed)), encoding="utf-8")
    _same(*_read_both(path))


def test_conversation_data_is_not_held_twice(tmp_path):
    obj = dataset_to_sdk(Dataset(["session_id", "turn_id", "question", "answer"],
                                 [["s", "1", "q1", "a1"], ["s", "2", "q2", "a2"], ["", "", "q3", ""]], "sdk"))
    obj["eval_cases"][1]["agent_data"]["turns"][0]["turn_index"] = 0.0  # SDK-valid, not as written
    path = tmp_path / "c.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    raw = read_sdk_json(path)
    first, second, single = raw.payloads
    assert first.conversation["agent_data"] is first.case["agent_data"]  # equal: the case's own stands
    assert second.conversation["agent_data"] is second.case["agent_data"]
    assert single.conversation is None
    assert [n.rule for n in raw.notes] == ["sdk-turn-index"]  # still looked for when not written so


# ----- parsing ----------------------------------------------------------------------------------------
def _json_module_reason(data: bytes) -> str | None:
    """What the reader said when it used json.loads on the file's bytes (None: it parses)."""
    def constant(name):
        raise ValueError(f"{name} is not a JSON value")

    try:
        json.loads(data, parse_constant=constant)
    except json.JSONDecodeError as err:
        return f"not valid JSON: {err.msg} at line {err.lineno} column {err.colno}"
    except UnicodeDecodeError:
        return "not valid JSON: the file is not UTF-8 text (binary data?)"
    except RecursionError:
        return "not valid JSON: nested too deeply"
    except ValueError as err:
        return f"not valid JSON: {' '.join(str(err).split())}"
    return None


GOOD = {"candidate_name": "é", "eval_cases": [{"prompt": user(text("caf\u00e9 \U0001f600 \"q\"\n"))}], "x": [1.5]}
INPUTS = [
    json.dumps(GOOD).encode(),  # unicode escapes, surrogate pairs
    json.dumps(GOOD, ensure_ascii=False, indent=3).encode(),
    json.dumps(GOOD).encode("utf-16"), json.dumps(GOOD).encode("utf-16-le"), json.dumps(GOOD).encode("utf-32"),
    b"\xef\xbb\xbf" + json.dumps(GOOD).encode(),
    b"\xef\xbb\xbf\xef\xbb\xbf{}",  # a BOM left after decoding: json.loads(bytes) does not refuse it so
    b'{"eval_cases": [{"prompt": "\\ud800"}]}',  # a lone surrogate escape
    b'{"eval_cases": ["\xed\xa0\x80"]}',  # an encoded surrogate (surrogatepass)
    b'{"eval_cases": [{"prompt": {"role": "us',
    b'{"eval_cases": [', b"{", b"", b" \n\t", b"[1,]", b'{"a": 1}}', b'{"eval_cases": []} x',
    b'{"eval_cases": [Infinity]}', b'{"eval_cases": [-NaN]}', b"\xff\xfe\x00", b"caf\xe9",
    b'{"eval_cases": [' + b"[" * 5000 + b"]" * 5000 + b"]}",
]


@pytest.mark.parametrize("data", INPUTS, ids=range(len(INPUTS)))
def test_parsing_is_json_loads_on_the_bytes(tmp_path, data):
    reason = _json_module_reason(data)
    if reason is None:
        assert sdk_read._load("x.json", data) == json.loads(data)
        return
    with pytest.raises(ReadError) as err:
        sdk_read._load("x.json", data)
    assert reason in str(err.value)
    path = tmp_path / "x.json"
    path.write_bytes(data)
    try:
        safety.check_file(path)  # e.g. an empty file is refused before it is parsed
    except ReadError:
        return
    with pytest.raises(ReadError) as err:
        read_sdk_json(path)
    assert reason in str(err.value) and "\n" not in str(err.value)


def test_a_case_with_rejected_values_is_cleaned_and_the_rest_kept(tmp_path):
    obj = {"eval_cases": [{"prompt": user(text("q")), "reference": {"response": model(text("a"))}},
                          {"prompt": "bare", "agent_data": {"turns": [{"turn_index": "x"}]}}]}
    path = tmp_path / "b.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    raw = read_sdk_json(path)
    assert raw.payloads[0].case == obj["eval_cases"][0]
    assert raw.payloads[1].case == {"prompt": user(text("bare")), "agent_data": {"turns": [{}]}}
    assert [n.message.split(":")[0] for n in raw.notes if n.rule == "sdk-schema-error"] == [
        "eval_cases.1.prompt", "eval_cases.1.agent_data.turns.0.turn_index"]
