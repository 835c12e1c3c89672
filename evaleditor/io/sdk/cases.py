"""The cases a save as SDK JSON writes (sdk/write.py), settled across rows before any is made: the
columns written, renamed extras, the units (a row, or the rows of a recorded conversation), the
conversations and their turn order, the case ids.

Speed (bench/bench_peers.py, 100k rows): the cells are read as columns, once; a row is an index into
them (`_RowCells` makes its cells by field only when asked, for the rows read from a file), and the
cases of new rows are made straight from the columns (write_case.new_case).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from evaleditor.core.dataset import Dataset
from evaleditor.core.errors import EvalEditorError
from evaleditor.core.targets import ANSWER, CASE_ID, CONTEXT, QUESTION, SESSION, TOOL_CALLS, TURN
from evaleditor.io.sdk.conversations import conversation_data, conversation_layout, layout_conversations
from evaleditor.io.sdk.extras import renamed_columns
from evaleditor.io.sdk.mapping import SdkCase, default_case_id, extra_key, header_field, reserved_name
from evaleditor.io.sdk.order import file_order
from evaleditor.io.sdk.traces import SdkTrace, TraceRow, trace_order, write_trace
from evaleditor.io.sdk.write_case import edited_case, new_case

Progress = Callable[[int, int], None]
_EVERY = 1000


class SdkColumnError(EvalEditorError):
    """A column cannot be written as SDK JSON (its name clashes with the SDK's own keys)."""


class _Table:
    """The written rows' cells as columns: `fields[f]` and `extras[name]` hold one text per row."""

    def __init__(self, ds: Dataset, kinds: tuple[type, ...], with_extras: bool = True):
        positions, extras = _columns(ds)
        self.present = {name for _, name in extras}
        rows = [r for r in ds.rows if not r.is_empty()]
        width = len(ds.columns)
        cells = [r.cells if len(r.cells) >= width else [*r.cells, *[""] * (width - len(r.cells))] for r in rows]
        self.row_ids = [r.id for r in rows]
        self.payloads = [r.payload if isinstance(r.payload, kinds) else None for r in rows]
        self.fields = {f: [c[p] for c in cells] for f, p in positions.items()}
        named = [(p, name, [c[p] for c in cells]) for p, name in extras] if with_extras else []
        named = [(p, name, column) for p, name, column in named if any(column)]  # empty: nothing to write
        _check_extras([name for _, name, _ in named])
        self.extras = {name: column for _, name, column in named}
        # a loose turn number (sdk/write_case.py) is written among the extras at its column's place
        self.turn_at = sum(p < positions[TURN] for p, _, _ in named) if TURN in positions else None
        self._blank = [""] * len(rows)

    def column(self, fld: str) -> list[str]:
        """The field's cells, one per row ("" each when no column is read as that field)."""
        return self.fields.get(fld, self._blank)

    def row(self, i: int) -> _RowCells:
        return _RowCells(self, i)


class _RowCells:
    """Row i of a _Table, with its cells by field and its extras by name made when asked."""

    __slots__ = ("table", "i", "row_id", "payload")

    def __init__(self, table: _Table, i: int):
        self.table, self.i = table, i
        self.row_id, self.payload = table.row_ids[i], table.payloads[i]

    @property
    def fields(self) -> dict[str, str]:
        return {f: column[self.i] for f, column in self.table.fields.items()}

    @property
    def extras(self) -> dict[str, str]:
        return {name: column[self.i] for name, column in self.table.extras.items()}


def _columns(ds: Dataset) -> tuple[dict[str, int], list[tuple[int, str]]]:
    """Position of the first column of each field, and the other columns (position, header)."""
    positions: dict[str, int] = {}
    extras: list[tuple[int, str]] = []
    recognised = ds.fields()
    for i, column in enumerate(ds.columns):
        fld = recognised[i] if i < len(recognised) else None
        if fld is None:
            # a column the dataset's target does not read (eval_case_id under ground-truth …)
            fld = header_field(column.header)
            if fld is not None and fld in recognised:
                fld = None
        if fld is not None and fld not in positions:
            positions[fld] = i
        else:
            extras.append((i, column.header))
    return positions, extras


def _check_extras(names: list[str]) -> None:
    seen: set[str] = set()
    for name in names:
        problem = reserved_name(name)
        if problem:
            fld = header_field(name)
            raise SdkColumnError(f"there are two {fld} columns: remove or rename {name!r}" if fld else
                                 f"column {name!r} cannot be saved as SDK JSON: {problem}; rename it")
        if name in seen:
            raise SdkColumnError(f"two columns are named {name!r}: rename one before saving as SDK JSON")
        seen.add(name)


def table_rows(ds: Dataset) -> list[_RowCells]:
    """The written rows of `ds` (their SDK JSON payloads; cells by field), without the extra columns."""
    table = _Table(ds, (SdkCase,), with_extras=False)
    return [table.row(i) for i in range(len(table.row_ids))]


class SdkCases:
    """The cases a save of `ds` as SDK JSON writes, in row order, each made only when asked: what is
    decided across rows is settled here once; `case(n)` makes case n as `dataset_to_sdk` writes it, so
    that the Upload Preview of a big file builds the one case it shows with the very code that saves."""

    def __init__(self, ds: Dataset):
        self.table = table = _Table(ds, (SdkCase, SdkTrace))
        self.present = table.present
        # a case's own recorded conversation (sdk/traces.py) is one unit of its rows; every other row one case
        self.units = _units([table.row(i) for i in range(len(table.row_ids))])
        self._case_of = plain = [n for n, u in enumerate(self.units) if isinstance(u, _RowCells)]  # plain row k's
        self.rows = [self.units[n] for n in plain]
        self._at = [r.i for r in self.rows]  # plain row k: its row in the table
        self.renamed = renamed_columns(self.rows, list(table.extras), self.present)
        self._rows_layout = conversation_layout(self._plain(SESSION), self._plain(TURN))  # plain rows
        self.layout = self._rows_layout if len(plain) == len(self.units) else \
            {sid: [plain[k] for k in members] for sid, members in self._rows_layout.items()}  # case numbers
        self.place: dict[int, tuple[str, int]] = {i: (sid, k) for sid, members in self.layout.items()
                                                  for k, i in enumerate(members)}
        self.generated: dict[int, str] = {}  # row id -> the id made for its case (Dataset.case_ids after a save)
        self.ids = self._case_ids(ds.case_ids)
        self.document = ds.document
        # the order the cases are written in (sdk/order.py): None, the table's (most saves)
        self.order = file_order([_place(u) for u in self.units], lambda n: self.place[n][0] if n in self.place else n)

    def __len__(self) -> int:
        return len(self.units)

    def _plain(self, fld: str, column: list[str] | None = None) -> list[str]:
        """A field's column (or `column`) over the plain rows (those not in a recorded conversation)."""
        column = self.table.column(fld) if column is None else column
        return column if len(self._at) == len(column) else [column[i] for i in self._at]

    def case_rows(self, numbers: list[int]) -> list[int]:
        """Given each written row's number (`numbers`, in table order), the number of the first row of
        each case in the order the file holds them (a save's read-back names rows by them)."""
        first = [u.i if isinstance(u, _RowCells) else u[0].i for u in self.units]
        return [numbers[first[n]] for n in self.order] if self.order is not None else \
            [numbers[i] for i in first]

    def row_id(self, n: int) -> int:
        return self.row_ids(n)[0]

    def row_ids(self, n: int) -> tuple[int, ...]:
        """The rows case n is written from: one, or the turns of a recorded conversation in turn order."""
        unit = self.units[n]
        if isinstance(unit, _RowCells):
            return (unit.row_id,)
        return tuple(r.row_id for r in trace_order(unit))

    def _case_ids(self, given: dict[int, str]) -> list[str | None]:
        """Each case's id: the table's or the file's (`_explicit_id`); for a row read without one, none;
        for a new row the id an earlier save gave it (`given`, Dataset.case_ids) unless another case has
        it now, else `default_case_id` made unique. The generated ones are kept in `self.generated`."""
        cells = self._plain(CASE_ID)
        explicit = [_explicit_id(cell, r.payload) for cell, r in zip(cells, self.rows, strict=True)]
        used = {i for i in explicit if i is not None}
        wanted: list[int] = []  # the plain rows whose id is generated
        for k, (row, case_id) in enumerate(zip(self.rows, explicit, strict=True)):
            if case_id is None and (row.payload is None or not _keeps_id(cells[k], row.payload)):
                wanted.append(k)
        for k in wanted if given else ():  # kept first, so that no id made below takes one
            case_id = given.get(self.rows[k].row_id)
            if case_id is not None and case_id not in used:
                explicit[k] = case_id
                used.add(case_id)
                self.generated[self.rows[k].row_id] = case_id
        for k in wanted:
            if explicit[k] is not None:
                continue
            n = self._case_of[k]
            place = self.place.get(n)
            base = case_id = default_case_id(n, (*place, None) if place else None)
            suffix = 2
            while case_id in used:
                case_id = f"{base}-{suffix}"
                suffix += 1
            used.add(case_id)
            explicit[k] = self.generated[self.rows[k].row_id] = case_id
        ids: list[str | None] = []
        for n, k in enumerate(self._plain_number()):
            if k is None:  # the rows of a case's own recorded conversation: the case's id
                first = next(r.payload for r in self.units[n] if r.payload is not None)
                ids.append(first.case.get("eval_case_id"))
            else:
                ids.append(explicit[k])
        return ids

    def conversation(self, n: int) -> dict[str, Any] | None:
        """The conversation data (agent_data, source_*) of case n, None when its row is in none."""
        place = self.place.get(n)
        if place is None:
            return None
        sid, k = place
        questions, answers = self.table.column(QUESTION), self.table.column(ANSWER)
        rows = [self.units[i].i for i in self.layout[sid][:k + 1]]
        history = [(questions[i], answers[i]) for i in rows[:k]]
        return conversation_data(sid, history, questions[rows[k]], k)

    def case(self, n: int, conversation: dict[str, Any] | None | bool = False) -> dict[str, Any]:
        """Case n as saved (`conversation`: its conversation data when already made): what it held as
        read that the SDK rejects is written back as read, where no edit replaced it (mapping.Kept)."""
        case, p = self._made(n, conversation)
        return case if p is None or p.kept is None else p.kept.written(case, p.case)[0]

    def replaced(self, n: int) -> list[str]:
        """The paths (`eval_cases.3.prompt`) of the fields of case n as read that hold what the SDK
        rejects, which an edit replaced: the save cannot hold them."""
        case, p = self._made(n)
        return [] if p is None or p.kept is None else [f"{p.kept.where}.{key}" for key in p.kept.written(case, p.case)[1]]

    def _made(self, n: int, conversation: dict[str, Any] | None | bool = False
              ) -> tuple[dict[str, Any], SdkCase | SdkTrace | None]:
        """Case n as its cells make it, and the payload it was made from (None: a new row)."""
        unit = self.units[n]
        if not isinstance(unit, _RowCells):  # the rows of a case's own recorded conversation
            first = next(r.payload for r in unit if r.payload is not None)
            return write_trace(first.case, [TraceRow(r.fields, r.extras, r.payload) for r in unit], extra_key), first
        conv = self.conversation(n) if conversation is False else conversation
        if unit.payload is None:
            return self._new_case(unit.i, self.ids[n], conv), None
        return edited_case(unit.fields, unit.extras, unit.payload, conv, self.ids[n], self.renamed,
                           self.present), unit.payload

    def _new_case(self, i: int, case_id: str | None, conv: dict[str, Any] | None) -> dict[str, Any]:
        t = self.table
        return new_case(case_id, *(t.column(f)[i] for f in (QUESTION, ANSWER, CONTEXT, TOOL_CALLS, TURN)), conv,
                        [(name, column[i]) for name, column in t.extras.items()], t.turn_at)

    def all(self, progress: Progress | None = None) -> list[dict[str, Any]]:
        """Every case; the conversations made together, sharing what repeats (sdk_conversations)."""
        return list(self.each(progress))

    def each(self, progress: Progress | None = None) -> Iterator[dict[str, Any]]:
        """`all`, a case at a time, in the order the file holds them (a save writes them as they come:
        sdk/stream.py)."""
        questions, answers = self._plain(QUESTION), self._plain(ANSWER)
        convs: list[dict[str, Any] | None] = [None] * len(self.rows)
        for k, (_, _, data) in layout_conversations(self._rows_layout, questions, answers):
            convs[k] = data
        names, turn_at = list(self.table.extras), self.table.turn_at
        extras = [self._plain("", c) for c in self.table.extras.values()]
        contexts, calls, turns = (self._plain(f) for f in (CONTEXT, TOOL_CALLS, TURN))
        plain = self._plain_number()
        total = len(self.units)
        for done, n in enumerate(range(total) if self.order is None else self.order):
            unit = self.units[n]
            k = plain[n]
            if k is None:  # the rows of a case's own recorded conversation
                yield self.case(n)
            elif unit.payload is None:  # most rows of most files: made straight from the columns
                yield new_case(self.ids[n], questions[k], answers[k], contexts[k], calls[k], turns[k], convs[k],
                               [(name, column[k]) for name, column in zip(names, extras, strict=True)], turn_at)
            else:
                yield self.case(n, convs[k])
            if progress is not None and done % _EVERY == 0:
                progress(done, total)
        if progress is not None:
            progress(total, total)

    def _plain_number(self) -> list[int | None]:
        """For each case, its plain row (an index into the `_plain` columns); None for a recorded conversation."""
        if len(self.rows) == len(self.units):
            return list(range(len(self.units)))  # most files
        out: list[int | None] = [None] * len(self.units)
        for k, n in enumerate(self._case_of):
            out[n] = k
        return out


def _units(rows: list[_RowCells]) -> list[_RowCells | list[_RowCells]]:
    """The rows in order, those of one recorded conversation (sdk/traces.py) gathered as one unit at
    the place of its first row: rows read from it, and new rows given its session id."""
    traces = [r for r in rows if isinstance(r.payload, SdkTrace)]
    if not traces:
        return list(rows)  # most files
    sessions = {r.payload.shown.get(SESSION): r.payload.key for r in traces if r.payload.shown.get(SESSION)}
    session_column = rows[0].table.column(SESSION)
    groups: dict[int, list[_RowCells]] = {}
    units: list[_RowCells | list[_RowCells]] = []
    for r in rows:
        sid = session_column[r.i]
        key = r.payload.key if isinstance(r.payload, SdkTrace) else \
            sessions.get(sid) if r.payload is None and sid else None
        if key is None:
            units.append(r)
        elif key in groups:
            groups[key].append(r)
        else:
            groups[key] = [r]
            units.append(groups[key])
    return [u for u in units if not isinstance(u, list) or any(r.payload is not None for r in u)]


def _place(unit: _RowCells | list[_RowCells]) -> int | None:
    """The place in the file read of a unit's case (SdkCase.at, SdkTrace.key); None for a new case."""
    if isinstance(unit, _RowCells):
        return unit.payload.at if isinstance(unit.payload, SdkCase) else None
    return next(r.payload.key for r in unit if r.payload is not None)


def _explicit_id(cell: str, p: SdkCase | None) -> str | None:
    """The id of a row when the table or the file gives one (None: to be generated or absent)."""
    if p is None:
        return cell or None
    if cell == p.shown.get(CASE_ID, ""):
        original = p.case.get("eval_case_id")
        return original if isinstance(original, str) else None
    return cell or None


def _keeps_id(cell: str, p: SdkCase) -> bool:
    """A row read from a file without an id, whose id cell is untouched: it stays without one."""
    return cell == p.shown.get(CASE_ID, "") and "eval_case_id" not in p.case
