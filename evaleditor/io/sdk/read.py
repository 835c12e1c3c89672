"""Read SDK JSON (an `EvaluationDataset`) into a RawTable (formats.md, "Mapping …", Reading).

Columns, in this order: `eval_case_id` (only when some id differs from the one the writer would
generate, so a table without ids round-trips without gaining a column; or when a row would show
nothing else), `session_id` and `turn_id` (both, when some case carries `source_case_id`), `question`
(always), `answer`, `context`, `expected_tool_calls` (each when some row has text in it), then the
EvalCase extras holding a string, number or boolean (numbers and booleans in JSON spelling: `3`,
`true`; written back as they were unless edited), in order of first appearance, each after the
fields unless a field's key follows it in the first case holding it: then before that field's column (so
a table saved as SDK JSON reads back in its columns' order). Cases with `source_case_id` regroup into conversations
(session = source_case_id, turn = source_turn_index + 1), ordered by (first appearance, turn).

Everything else in a case stays in the row's `SdkCase` payload and is written back unchanged
(info rule sdk-not-shown). What the SDK would reject is reported (sdk-schema-error) and left out of the
case the table reads, but kept (`SdkCase.kept`): a save writes it back as read, unless an edit replaced
its field, which the save plan then lists; ReadError only when nothing sensible can be shown.

Speed and memory (bench/bench_core.py): a case the SDK takes as it is (`is_clean`, most cases) becomes
its row's payload uncopied, so the table holds the parsed file and little more; the file's text is
dropped once parsed. Parsing case by case (raw_decode) was measured: slower, and bigger, since json
then shares no key strings between cases. agent_data is checked last, mostly by comparing it with
the conversation data the writer makes, which the reader builds anyway.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from evaleditor.core.alloc import bulk_allocation
from evaleditor.core.errors import Cancelled, ReadError
from evaleditor.core.table import LoadNote, RawTable
from evaleditor.core.targets import ANSWER, CASE_ID, CONTEXT, QUESTION, SESSION, TOOL_CALLS, TURN
from evaleditor.io.sdk.case import ReadCase
from evaleditor.io.sdk.check import DROP, KEPT, Errors, clean, field_name, is_clean, join, kept_values
from evaleditor.io.sdk.conversations import iter_conversations
from evaleditor.io.sdk.mapping import (
    CONTEXT_KEY,
    CONVERSATION_KEYS,
    LOOSE_TURN_KEY,
    RAW_TOOL_CALLS_KEY,
    SHOWN_FIELDS,
    SOURCE_CASE_KEY,
    SOURCE_TURN_KEY,
    TRAJECTORY_KEY,
    Kept,
    SdkCase,
    default_case_id,
    extra_key,
    model_content,
    user_content,
)
from evaleditor.io.sdk.parse import (
    REPEATS_CHECKED_UP_TO,
    Repeats,
    decode_text,
    duplicate_key_messages,
    parse_json,
    repeated_key_message,
    repeated_keys,
    split_root,
)
from evaleditor.io.sdk.schema import MODELS, ROOT
from evaleditor.io.sdk.traces import SdkTrace, is_trace, trace_rows
from evaleditor.io.sdk.views import case_findings

RECORDS_KEY = "eval_dataset_df"
_load = parse_json  # verify.py parses a saved file as the reader does (and tests change it there)
Progress = Callable[[int, int], None]
Cancel = Callable[[], bool]
_EVERY = 500
_MAX_ERRORS = 10  # schema errors reported per case (then a count)
# agent_data, the bulk of a conversation case, is checked once the table is built: most often by
# comparing it with the conversation data the writer would make (then it is clean), a C-speed walk
AGENT_DATA = "agent_data"
_AGENT_DATA_MODEL = MODELS["EvalCase"][AGENT_DATA][1]


def _clean_case(value: Any, path: str, errors: Errors) -> tuple[Any, Kept | None]:
    """The checked case (a bare-string prompt and a bare reference wrapped, and reported) and what it
    leaves out of the case as read, which a save writes back."""
    raw = value
    if isinstance(value, dict):
        value = dict(value)
        for key, item in list(value.items()):
            name = field_name("EvalCase", key)
            where = join(path, name)
            if name == "prompt" and isinstance(item, str):
                errors.append((where, "a bare string; the SDK wants a Content "
                                      '{"role": "user", "parts": [{"text": ...}]} (it is saved so)'))
                value[key] = user_content(item)
            elif name == "reference" and isinstance(item, str):
                errors.append((where, 'a bare string; the SDK wants {"response": Content} (it is saved so)'))
                value[key] = {"response": model_content(item)}
            elif name == "reference" and isinstance(item, dict) and {"parts", "role"} & set(item) \
                    and "response" not in item:
                errors.append((where, 'a bare Content; the SDK wants {"response": Content} (it is saved so)'))
                value[key] = {"response": item}
    cleaned = clean(value, "EvalCase", path, errors)
    if cleaned is DROP:  # not an object: there is no case to write back
        errors[:] = [(p, m.removesuffix(KEPT) + "; not a case: a save leaves it out") for p, m in errors]
        return cleaned, None
    kept = kept_values(raw, "EvalCase", path, errors)
    return cleaned, Kept(path, kept) if kept else None


def read_sdk_json(path: str | os.PathLike[str], progress: Progress | None = None,
                  cancel: Cancel | None = None) -> RawTable:
    """Read an SDK JSON file; ReadError (one-line reason) when nothing sensible can be shown."""
    from evaleditor.io import budget, safety

    size = safety.check_file(path)
    budget.check_json_size(path, size)
    try:
        with open(path, "rb") as handle:
            text = decode_text(path, handle.read())  # the bytes are dropped at once: the text is as big
    except OSError as err:
        raise ReadError(path, safety.os_error_reason(err)) from None
    with bulk_allocation():
        repeats: Repeats | None = {} if size <= REPEATS_CHECKED_UP_TO else None
        data = _load(path, text, repeats)
        del text  # not kept while the table is built (the parsed cases become its payloads, uncopied)
        return _read(path, data, progress, cancel, repeated_keys(data, repeats or {}))


def _read(path: object, data: Any, progress: Progress | None, cancel: Cancel | None,
          repeated: list[tuple[str, str, list[Any]]]) -> RawTable:
    from evaleditor.io.budget import check_cases

    root_errors: Errors = []
    raw_cases, document = split_root(path, data, root_errors)
    cases_key = next((k for k in data if field_name(ROOT, k) == "eval_cases"), None) if isinstance(data, dict) else ""
    in_case, elsewhere = _repeats_by_case(repeated, cases_key and f"{cases_key}.")  # "": the root is the list
    repeats = [LoadNote("duplicate-json-key", m) for m in duplicate_key_messages(data)] + elsewhere
    if not raw_cases and records_form(document):
        check_cases(path, len(document[RECORDS_KEY]))
        table = _records_table(document, root_errors)
        table.notes[:0] = repeats  # (a record's: said without its row)
        return table
    check_cases(path, len(raw_cases))
    cases: list[ReadCase] = []
    for i, raw in enumerate(raw_cases):
        if i % _EVERY == 0:
            if cancel is not None and cancel():
                raise Cancelled()
            if progress is not None:
                progress(i, len(raw_cases))
        errors: Errors = []
        if is_clean(raw, "EvalCase", but=AGENT_DATA):  # the common case: nothing to report or copy
            cases.append(ReadCase(i, raw, errors, unchecked=AGENT_DATA in raw, repeats=in_case.get(i)))
            continue
        cleaned, kept = _clean_case(raw, f"eval_cases.{i}", errors)
        if cleaned is not raw:
            raw_cases[i] = None  # a copy was made: the case as parsed can go
        if cleaned is DROP:
            root_errors.extend(errors)
        else:
            cases.append(ReadCase(i, cleaned, errors, kept=kept, repeats=in_case.get(i)))
    table = _table(_regrouped(cases), root_errors)
    table.notes[:0] = repeats
    if document is not None and RECORDS_KEY in document:  # records beside the cases: a save writes the
        document = {"eval_cases": [], **document}  # rows as cases, the records as read (write.records_form)
    table.document = document
    if progress is not None:
        progress(len(raw_cases), len(raw_cases))
    return table


def _repeats_by_case(repeated: list[tuple[str, str, list[Any]]], prefix: str | None
                     ) -> tuple[dict[int, list[tuple[str, str]]], list[LoadNote]]:
    """The keys given twice inside each case, by the case's index, as (path of the key, message); and
    the notes of those given twice elsewhere (outside the cases: a note without a row). `prefix`: the
    path of the case list ("" when the root is that list; None when there is none, as in the records
    form, where a root key made of digits is no case)."""
    in_case: dict[int, list[tuple[str, str]]] = {}
    elsewhere: list[LoadNote] = []
    for at, key, values in repeated:
        where = join(at, key)
        message = repeated_key_message(key, values)
        head, _, rest = where.removeprefix(prefix or "").partition(".")
        if prefix is not None and where.startswith(prefix) and head.isdigit() and rest:
            in_case.setdefault(int(head), []).append((where, message))
        else:
            elsewhere.append(LoadNote("duplicate-json-key", f"{where}: {message}"))
    return in_case, elsewhere


def records_form(document: Any) -> bool:
    """The SDK's records form: `{"eval_dataset_df": [{"prompt": …, "reference": …}, …]}` with no
    eval_cases (EvaluationDataset turns the records into its DataFrame, the SDK's flat columns)."""
    records = document.get(RECORDS_KEY) if isinstance(document, dict) else None
    return isinstance(records, list) and bool(records) and all(isinstance(r, dict) for r in records) \
        and "eval_cases" not in document


def _records_table(document: dict[str, Any], root_errors: Errors) -> RawTable:
    """The records form as rows (io/records.py), each keeping its record; a save writes the same form."""
    from evaleditor.io.records import records_table

    table = records_table(document[RECORDS_KEY], "json")
    table.document = {**document, RECORDS_KEY: []}  # the records are the rows: not held twice
    table.notes[:0] = [LoadNote("sdk-schema-error", f"{p}: {m}" if p else m) for p, m in root_errors]
    return table


def _regrouped(cases: list[ReadCase]) -> list[ReadCase]:
    """Conversation cases gathered at their first case, in turn order; other cases stay in place."""
    sessions = [c.session for c in cases]
    if not any(sessions):
        return cases
    first: dict[str, int] = {}
    for n, session in enumerate(sessions):
        if session:
            first.setdefault(session, n)

    def key(item: tuple[int, ReadCase]) -> tuple[int, float, int]:
        n, c = item
        session = sessions[n]
        if not session:
            return (n, 0, n)
        turn = c.cells.get(TURN, "")
        return (first[session], int(turn) if turn else float("inf"), n)

    return [c for _, c in sorted(enumerate(cases), key=key)]


def _table(cases: list[ReadCase], root_errors: Errors) -> RawTable:
    convs, differs = _conversations(cases)
    for c in cases:
        if c.unchecked:
            _check_agent_data(c)
    traces = {n: trace_rows(c.case, c.cells.get(CASE_ID) or default_case_id(n, None))
              for n, c in enumerate(cases) if is_trace(c.case)}
    extras: dict[str, ReadCase] = {}  # each extra's name, in order of first appearance: its first case
    for c in cases:
        if c.extras and not extras.keys() >= c.extras.keys():
            extras.update((name, c) for name in c.extras if name not in extras)
    used = {f for f in SHOWN_FIELDS if any(c.cells.get(f) for c in cases)}
    used.update(f for turns in traces.values() for cells in turns for f, text in cells.items() if text)
    if SESSION in used:
        used.add(TURN)
    used.add(QUESTION)
    if CASE_ID in used and _ids_are_defaults(cases, convs, used, traces):
        used.discard(CASE_ID)
    fields = [f for f in SHOWN_FIELDS if f in used]
    order = _column_order(fields, extras)
    headers = [(fields + list(extras))[k] for k in order]
    column = {h: i for i, h in enumerate(headers) if h in fields}
    blank = dict.fromkeys(SHOWN_FIELDS, "")  # a field not in the table showed ""
    extra_keys = [extra_key(name) for name in extras]
    rows, payloads, notes = [], [], []
    for n, c in enumerate(cases):
        if n in traces:
            c.hidden.append(_trace(c.case["agent_data"]).replace("the agent trace", "the rest of the agent trace "
                                                                "(its turns are the rows)", 1))
            c.hidden += [f"the case's {name}" for f, name in ((ANSWER, "reference"), (CONTEXT, "context"),
                                                              (TOOL_CALLS, "reference_trajectory")) if c.cells.get(f)]
            notes += _notes(c, len(rows), column)
            texts = [c.extras.get(name, "") for name in extras]
            for k, turn in enumerate(traces[n]):
                shown = blank.copy()
                shown.update(turn)
                shown.update(zip(extra_keys, texts, strict=True))
                rows.append([turn.get(f, "") for f in fields] + texts)
                payloads.append(SdkTrace(c.case, c.index, k, shown, c.kept))
            continue
        get = c.cells.get
        cells = [get(f, "") for f in fields]
        shown = blank.copy()
        shown.update(zip(fields, cells, strict=True))
        if extras:
            texts = [c.extras.get(name, "") for name in extras]
            cells += texts
            shown.update(zip(extra_keys, texts, strict=True))
        conv = convs[n][2] if convs[n] else None
        if n in differs:
            c.hidden.append("conversation data (agent_data, source_*) not as this editor writes it, kept while "
                            "the conversation is unchanged")
        elif conv is None and "agent_data" in c.case:
            c.hidden.append(_trace(c.case["agent_data"]))
        notes += _notes(c, len(rows), column)
        rows.append(cells)
        payloads.append(SdkCase(c.case, shown, conv, c.index, c.kept))
    notes[:0] = [LoadNote("sdk-schema-error", f"{p}: {m}" if p else m) for p, m in root_errors]
    if order != sorted(order):
        rows = [[cells[k] for k in order] for cells in rows]
    return RawTable(headers, rows, "json", notes=notes, payloads=payloads)


def _column_order(fields: list[str], extras: dict[str, ReadCase]) -> list[int]:
    """The columns' order, as indexes into `fields + list(extras)`: the fields in their order, each
    extra before the first field whose key follows it in the first case holding it (a table saved as
    SDK JSON and read again has its columns in their order where the case's keys say it), else last."""
    before: dict[str | None, list[int]] = {}
    for n, (name, c) in enumerate(extras.items(), len(fields)):
        keys = list(c.case)
        after = (_FIELD_OF_KEY.get(key) for key in keys[keys.index(name) + 1:])
        before.setdefault(next((f for f in after if f in fields), None), []).append(n)
    if len(before) == 1 and None in before:
        return list(range(len(fields) + len(extras)))  # most files: the extras after the fields
    return [k for n, f in enumerate(fields) for k in (*before.get(f, ()), n)] + before.get(None, [])


def _conversations(cases: list[ReadCase]) -> tuple[list[tuple[str, int, Any] | None], set[int]]:
    """The writer's conversation data for each case (as `conversations`), and the cases whose own data
    differs. Where it does not, the case's own data stands for it (equal, and not held twice)."""
    out: list[tuple[str, int, Any] | None] = [None] * len(cases)
    differs: set[int] = set()
    for n, (sid, k, data) in iter_conversations([c.cells for c in cases]):
        c = cases[n]
        own = _own_conversation(c.case)
        same = data == own
        if not same and c.unchecked:
            _check_agent_data(c)
            own = _own_conversation(c.case)
            same = data == own
        if same:
            data = own
            c.unchecked = False  # equal to what the writer makes: clean
            c.as_written = all(type(t["turn_index"]) is int for t in own["agent_data"]["turns"])
        else:
            differs.add(n)
        out[n] = (sid, k, data)
    return out, differs


def _own_conversation(case: dict[str, Any]) -> dict[str, Any]:
    return {key: case[key] for key in CONVERSATION_KEYS if key in case}


def _check_agent_data(c: ReadCase) -> None:
    """The check of agent_data left out when the case was read: when it is not clean, the whole case
    is cleaned as any other case that is not (so the errors come in the same order)."""
    c.unchecked = False
    if not is_clean(c.case[AGENT_DATA], _AGENT_DATA_MODEL):
        c.errors = []
        c.case, c.kept = _clean_case(c.case, f"eval_cases.{c.index}", c.errors)


def _ids_are_defaults(cases: list[ReadCase], convs: list, used: set[str], traces: dict[int, Any]) -> bool:
    """Every id is the one the writer would generate (so the column is not needed), and no row would
    show nothing at all without its id. A recorded conversation's id is its rows' session."""
    others = used - {CASE_ID}
    for n, c in enumerate(cases):
        if n in traces:
            continue
        case_id = c.cells.get(CASE_ID, "")
        if case_id and case_id != default_case_id(n, convs[n]):
            return False
        if case_id and not c.cells.get(QUESTION) and not any(c.cells.get(f) for f in others) \
                and not any(c.extras.values()):  # (a question: the common case, and quick to see)
            return False
    return True


def _trace(agent_data: dict[str, Any]) -> str:
    turns = agent_data.get("turns") or []
    agents = agent_data.get("agents") or {}
    return (f"the agent trace ({len(turns)} turn{'s' if len(turns) != 1 else ''}"
            + (f", {len(agents)} agent{'s' if len(agents) != 1 else ''}" if agents else "") + ")")


# the column a case's key shows in (source_case_id and the loose turn_id: in the cases that use them)
_FIELD_OF_KEY = {"prompt": QUESTION, "reference": ANSWER, CONTEXT_KEY: CONTEXT, TRAJECTORY_KEY: TOOL_CALLS,
                 RAW_TOOL_CALLS_KEY: TOOL_CALLS, "eval_case_id": CASE_ID, SOURCE_CASE_KEY: SESSION,
                 SOURCE_TURN_KEY: TURN, LOOSE_TURN_KEY: TURN}


def _column_of(path: str, column: dict[str, int]) -> int | None:
    part = path.split(".")[2] if path.count(".") >= 2 else ""
    fld = _FIELD_OF_KEY.get(part)
    return column.get(fld) if fld else None


def _notes(c: ReadCase, row: int, column: dict[str, int]) -> list[LoadNote]:
    findings = case_findings(c.case, f"eval_cases.{c.index}", not c.as_written)
    if not (findings or c.errors or c.hidden or c.repeats):
        return []  # most cases
    # what the SDK rejects is not in the checked case, so no other entry names it: a table file loses it
    hidden = c.hidden + [f"what the SDK rejects in {', '.join(c.kept.values)}"] if c.kept else c.hidden
    notes = [LoadNote("duplicate-json-key", f"{p}: {m}", row, _column_of(p, column)) for p, m in c.repeats or ()]
    notes += [LoadNote("sdk-schema-error", f"{p}: {m}", row, _column_of(p, column)) for p, m in c.errors[:_MAX_ERRORS]]
    if len(c.errors) > _MAX_ERRORS:
        notes.append(LoadNote("sdk-schema-error", f"eval_cases.{c.index}: {len(c.errors) - _MAX_ERRORS} more "
                                                  "values the SDK would reject", row))
    for rule, path, message in findings:
        notes.append(LoadNote(rule, f"{path}: {message}", row, _column_of(path, column)))
    if hidden:
        notes.append(LoadNote("sdk-not-shown", f"eval_cases.{c.index}: kept but not shown (written back "
                                               f"unchanged): {'; '.join(hidden)}", row))
    return notes
