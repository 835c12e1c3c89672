"""SDK JSON saved a chunk of cases at a time (io/sdk/stream.py): the file holds the bytes the writer of
the whole document made (encode_sdk_json, json.dumps's text) whatever the chunk size, no text of the
whole file is made, every byte is read back once, and what orjson does not write as json.dumps does
is written whole."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import pytest

from evaleditor.core.dataset import Dataset
from evaleditor.core.document import Document
from evaleditor.core.errors import Cancelled, VerifyError
from evaleditor.io.load import load_document
from evaleditor.io.save import save_document
from evaleditor.io.sdk import stream
from evaleditor.io.sdk.write import encode_sdk_json, write_sdk_json

SAMPLES = sorted(Path(str(files("evaleditor.resources") / "samples")).iterdir())
CALLS = '[{"name": "search_flights", "arguments": {"to": "Paris", "adults": 2, "max": 1e16}}]'


def conversations(n: int = 40) -> Dataset:
    """Conversations of 1-5 turns (their rows out of turn order, between single rows), Chinese and
    emoji, context, tool calls, an extra column, a turn cell on a single row."""
    headers = ["session_id", "turn_id", "question", "answer", "context", "expected_tool_calls", "备注"]
    rows = []
    for i in range(n):
        turns = 1 + i % 5
        for t in reversed(range(turns)) if i % 2 else range(turns):
            rows.append([f"s{i}", str(t + 1), f"问题 {i}.{t} ✓ \"quoted\"\n", f"answer {i}.{t} 🙂" * (t % 3),
                         "ctx" if t == 1 else "", CALLS if t == 2 else "", "note" if i % 3 else ""])
        rows.append(["", "7" if i % 4 == 0 else "", f"single {i}", "", "", "", ""])
    return Dataset(headers, rows, "sdk")


def sdk_file(tmp_path: Path, obj: dict) -> Document:
    path = tmp_path / "in.json"
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return load_document(path)


def documents(tmp_path: Path) -> dict[str, Dataset]:
    turn = {"turn_index": 0, "events": [{"author": "user", "content": {"role": "user", "parts": [{"text": "hi"}]}},
                                        {"author": "bot", "content": {"role": "model", "parts": [{"text": "yo"}]}}]}
    cases = [{"eval_case_id": "a", "prompt": {"role": "user", "parts": [{"text": "q ✓"}]}, "score": 2.5e300,
              "agent_data": {"agents": {"bot": {"agent_id": "bot"}}, "turns": [turn]}},
             {"prompt": {"role": "user", "parts": [{"text": "q2"}]}, "flag": True, "n": 12345678901234567}]
    out = {f"sample {p.name}": load_document(p).dataset for p in SAMPLES}
    out["conversations"] = conversations()
    out["no cases"] = Dataset(["question", "answer"], [["", ""]], "sdk")
    out["root keys and a trace"] = sdk_file(tmp_path, {"name": "set ✓", "eval_cases": cases,
                                                       "meta": {"v": [1, 2.0, None]}}).dataset
    edited = sdk_file(tmp_path, {"eval_cases": cases}).dataset
    edited.rows[1].cells[edited.headers().index("question")] = "edited 中文"
    out["edited"] = edited
    return out


def whole_writer(ds: Dataset) -> bytes:
    """The bytes the writer of the whole document made before the save streamed (and still makes)."""
    return encode_sdk_json("x.json", ds)[1]


@pytest.mark.parametrize("chunk", [1, 3, stream.CHUNK])
def test_saved_bytes_are_the_whole_writers_for_any_chunk_size(tmp_path, monkeypatch, chunk):
    monkeypatch.setattr(stream, "CHUNK", chunk)
    streamed = []
    real = stream.stream_sdk_json
    monkeypatch.setattr(stream, "stream_sdk_json", lambda *args: streamed.append(real(*args)))
    for name, ds in documents(tmp_path).items():
        out = tmp_path / f"{chunk}.json"
        save_document(Document.of(ds, "json"), out)
        data = out.read_bytes()
        assert data == whole_writer(ds), name
        assert data == (json.dumps(json.loads(data), ensure_ascii=False, indent=2) + "\n").encode(), name
    assert len(streamed) == len(documents(tmp_path))  # none written whole


def test_no_text_of_the_whole_file_is_made_and_every_byte_is_read_back_once(tmp_path, monkeypatch):
    """Work and memory bounded by a chunk: the largest part written is one chunk's cases; the read-back
    reads each byte of the file once (where the whole text was made, then read again whole)."""
    monkeypatch.setattr(stream, "CHUNK", 4)
    parts, read = [], []
    real_write, real_read = stream._Written.write, stream._read_at
    monkeypatch.setattr(stream._Written, "write", lambda self, *p: parts.extend(p) or real_write(self, *p))
    monkeypatch.setattr(stream, "_read_at", lambda fd, size, at: read.append((at, size)) or real_read(fd, size, at))
    ds = conversations(60)
    save_document(Document.of(ds, "json"), tmp_path / "out.json")
    size = (tmp_path / "out.json").stat().st_size
    assert sum(map(len, parts)) == size
    assert max(map(len, parts)) < size / 20
    assert read == sorted(read) and sum(n for _, n in read) == size
    assert all(a + n == b for (a, n), (b, _) in zip(read, read[1:], strict=False))


@pytest.mark.parametrize("value", ["lone \ud800 surrogate", "tiny 1e-05"])
def test_what_orjson_writes_otherwise_is_written_whole_as_json_dumps_writes_it(tmp_path, value):
    ds = conversations(3)
    if value.startswith("tiny"):  # a float under 1e-4 (orjson: 0.00001) in a tool call's arguments
        ds.rows[0].cells[5] = '[{"name": "f", "arguments": {"x": 1e-05}}]'
    else:
        ds.rows[0].cells[2] = value
    out = tmp_path / "out.json"
    save_document(Document.of(ds, "json"), out)
    assert out.read_bytes() == whole_writer(ds)
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]  # the streamed attempt's file is gone
    if value.startswith("lone"):
        assert out.read_bytes().isascii() and b"\\ud800" in out.read_bytes()
    else:
        assert b'"x": 1e-05' in out.read_bytes()


def test_a_part_that_reads_back_otherwise_fails_the_save(tmp_path, monkeypatch):
    """The read-back compares what the file gives back with the bytes meant: a disk that returns other
    bytes fails the save, saying where they start to differ, and the old file stays."""
    out = tmp_path / "out.json"
    out.write_bytes(b"old")
    ds = conversations(8)
    real = stream._read_at
    monkeypatch.setattr(stream, "_read_at", lambda fd, size, at: real(fd, size, at).replace(b"single 5", b"single X"))
    with pytest.raises(VerifyError) as info:
        save_document(Document.of(ds, "json"), out)
    assert out.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["out.json"]
    [found] = info.value.mismatches  # the file parses to what was meant: only its bytes differ
    at = whole_writer(ds).index(b"single 5") + len("single ")
    assert found.row is None and found.found.endswith(f"different from byte {at:,}")


def test_cancel_while_streaming_leaves_the_old_file(tmp_path):
    out = tmp_path / "out.json"
    out.write_bytes(b"old")
    calls = []

    def progress(done, total):
        calls.append(done)
        if done > 0:
            raise Cancelled()

    with pytest.raises(Cancelled):
        write_sdk_json(out, conversations(400), progress)
    assert out.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["out.json"]
    assert calls == [0, 1000]


class CountedConversation(dict):
    """A row's conversation data as read, counting the comparisons a save makes with it."""

    compared = 0

    def __ne__(self, other):
        CountedConversation.compared += 1
        return dict.__ne__(self, other)

    __hash__ = None


def test_a_row_read_from_a_file_compares_its_conversation_once(tmp_path):
    """The history of a late turn is most of a file's text: a save compares it with the conversation
    the row is in now once per row, not once per use."""
    path = tmp_path / "in.json"
    save_document(Document.of(conversations(6), "json"), path)
    ds = load_document(path).dataset
    want = whole_writer(ds)
    read = [r.payload for r in ds.rows if r.payload is not None and r.payload.conversation is not None]
    for payload in read:
        object.__setattr__(payload, "conversation", CountedConversation(payload.conversation))
    CountedConversation.compared = 0
    save_document(Document.of(ds, "json"), tmp_path / "out.json")
    assert (tmp_path / "out.json").read_bytes() == want
    assert CountedConversation.compared == len(read) > 10
