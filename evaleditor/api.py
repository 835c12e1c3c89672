"""The public Python API (docs/api.md): open a dataset, read its shape and issues, move it to and from
pandas, save it. The same core as the window and the command line: `open` reads and infers the target
as `evaleditor validate` does, `Document.report()` is the object `validate --format json` prints, and
`Document.save` is `evaleditor convert`'s save (the window's SavePlan, core/saving.py, applied to a
copy, then the same writer). Nothing here imports Qt; pandas is imported only by
the methods that take or return a DataFrame.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Literal

from evaleditor.core.errors import WriteError
from evaleditor.core.schema import Issue, LeftOut, Report, Shape
from evaleditor.core.targets import TARGET_NAMES, get_target, infer_target

if TYPE_CHECKING:
    import pandas as pd

    from evaleditor.core.document import Document as CoreDocument

HeaderLanguage = Literal["en", "zh"]
HEADER_LANGUAGES = ("en", "zh")
FRAME_LABEL = "<DataFrame>"


class SaveRefused(WriteError):
    """`Document.save` wrote nothing: the output format cannot hold some cells (`issues` says which)."""

    def __init__(self, path: object, issues: list[Issue]):
        self.issues = issues
        n = len(issues)
        super().__init__(path, f"refused to write: {n} cell{'' if n == 1 else 's'} cannot be stored in a "
                               f"{os.path.splitext(str(path))[1]} file ({issues[0].rule}, row {issues[0].row})")


class Document:
    """A dataset and what its target's rules find in it; made by `open` or `from_pandas`.

    A Document is a snapshot: it is not edited in place. Change the DataFrame of `to_pandas()` and
    make a new Document with `from_pandas`."""

    def __init__(self, core: CoreDocument, file: str):
        self._core = core
        self._file = file
        self._report: Report | None = None

    @property
    def file(self) -> str:
        """The file as it was named (`<DataFrame>` for a Document made from one)."""
        return self._file

    @property
    def target(self) -> str:
        """The target checked against: ground-truth, evaluation-set or sdk."""
        return self._core.dataset.target.name

    @property
    def sheet(self) -> str | None:
        """The workbook sheet read; None for CSV, JSON and DataFrames."""
        return self._core.sheet

    @property
    def shape(self) -> Shape:
        """How the service will read it: `.line`, `.mode`, `.rows`, `.conversations`."""
        return self.report().shape  # type: ignore[return-value]  # a Document always has a shape

    @property
    def issues(self) -> list[Issue]:
        """Every issue, in the order `validate` lists them."""
        return self.report().issues

    def report(self) -> Report:
        """The report `evaleditor validate --format json` prints for this file (core/schema.Report)."""
        if self._report is None:
            from evaleditor.core.report import report_json

            self._report = Report.model_validate(report_json(self._core, self._file))
        return self._report

    def issues_frame(self) -> pd.DataFrame:
        """`issues` as a DataFrame: columns rule, severity, row (nullable integer), column, message."""
        import pandas as pd

        frame = pd.DataFrame([i.model_dump() for i in self.issues], columns=list(Issue.model_fields), dtype=object)
        frame["row"] = frame["row"].astype("Int64")
        return frame

    def to_pandas(self, headers: HeaderLanguage | None = "en") -> pd.DataFrame:
        """One row per case (entirely empty rows are not cases), every cell as text. Columns are spelt
        as the target spells them in `headers` (en or zh; None keeps the file's own spelling); columns
        the target does not use keep their header. The index, named `row`, is the row number issues
        name. Raises ValueError for another `headers`."""
        import pandas as pd

        from evaleditor.core.export import export_headers

        _check_headers(headers)
        ds = self._core.dataset
        names = export_headers(ds, ds.target.name, headers) if headers else ds.headers()
        kept = [(n, row.cells) for n, row in enumerate(ds.rows, 1) if not row.is_empty()]
        index = pd.Index([n for n, _ in kept], name="row", dtype="int64")
        return pd.DataFrame([cells for _, cells in kept], columns=names, index=index, dtype=object)

    def save(self, path: str | os.PathLike, *, target: str | None = None,
             headers: HeaderLanguage | None = None) -> Document:
        """Write the file, in the format of its suffix (.xlsx, .csv or .json), exactly as
        `evaleditor convert` writes it: atomically, read back before the old file is replaced.
        `target`/`headers` spell the recognised columns as that target does. Returns the Document
        as written, checked against the output's target and format. Raises SaveRefused (nothing
        written) when the format cannot hold a cell, WriteError when the file cannot be written,
        ValueError when `target` (else the Document's own) cannot be written in that format."""
        from evaleditor.io.convert import write_converted

        out, refused = write_converted(self._core, path, self._plan(path, target, headers))
        if refused:
            from evaleditor.core.report import issue_json

            raise SaveRefused(path, [Issue.model_validate(issue_json(out, i)) for i in refused])
        return Document(out, os.fspath(path))

    def left_out(self, path: str | os.PathLike, *, target: str | None = None,
                 headers: HeaderLanguage | None = None) -> LeftOut:
        """What `save(path, ...)` would leave out of this Document — the window asks about it before a
        save, `convert` warns of it: the other sheets of the workbook it replaces, the cases' data a
        table cannot show, the agent traces SDK JSON holds only in part, what another platform's file
        cannot hold (`format_limits`). Rows are numbered as the file written numbers its cases, as
        `convert` names them and as the Document `save` returns numbers its `issues`: a save as SDK JSON
        gathers each conversation and leaves out empty rows, so these are the numbers that find the rows
        in what was written. Writes nothing; raises as `save` does for a format or target it cannot write."""
        from evaleditor.core.report import left_out_json
        from evaleditor.io.convert import planned_rows

        plan = self._plan(path, target, headers)
        written = planned_rows(self._core, plan) if plan.replaced_traces else self._core.dataset
        return LeftOut.model_validate(left_out_json(plan, written))

    def _plan(self, path: str | os.PathLike, target: str | None, headers: HeaderLanguage | None):
        """The save plan (core/saving.py, io/save.plan_save) for `path`, as `convert` makes it."""
        from evaleditor.core.saving import output_target, target_problem
        from evaleditor.io.save import output_format, plan_save

        _check_target(target)
        _check_headers(headers)
        fmt = output_format(path)
        if problem := target_problem(output_target(self._core, fmt, target), fmt):  # without `target`: its own
            raise ValueError(problem)
        return plan_save(self._core, fmt, target, headers, path)

    def __repr__(self) -> str:
        c = self.report().counts
        return (f"<evaleditor.Document {self._file!r} ({self.target}): {self.shape.line}; "
                f"{c.error} errors, {c.warning} warnings, {c.info} info>")


def open(path: str | os.PathLike, *, target: str | None = None, sheet: str | None = None) -> Document:
    """Read and check a .xlsx, .xls, .ods, .csv, .tsv, SDK .json or .jsonl file, as `evaleditor
    validate` does: without `target` it is inferred (.json is sdk; another platform's own keys name it,
    any other .jsonl is sdk-flat; Chinese headers, `query` or `request_id` mean evaluation-set;
    otherwise ground-truth); a workbook opens on `sheet`, else on the first sheet whose
    question header the target recognises. Raises ReadError (one-line reason) when it cannot be read."""
    from evaleditor.io.load import load_document

    _check_target(target)
    return Document(load_document(path, sheet=sheet, target=target), os.fspath(path))


def from_pandas(frame: pd.DataFrame, target: str | None = None) -> Document:
    """A checked Document from a DataFrame: its columns are the headers, each row a case, each cell
    the text a reader would make of it (missing values empty, 3.0 as "3", dates ISO, lists and dicts
    as JSON), checked as a file of the target's first format would be (an .xlsx for ground-truth).
    Without `target` it is inferred from the headers as for a table file (never sdk). The index is
    not kept. A row whose cells are all empty (or missing) is not a case, as in a file (formats.md): it
    is not counted in the shape, and `to_pandas` and `save` leave it out."""
    import pandas as pd

    from evaleditor.core.document import document_from_table
    from evaleditor.core.table import RawTable

    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"from_pandas takes a pandas DataFrame, not {type(frame).__name__}")
    _check_target(target)
    headers = [_cell_text(h) for h in frame.columns]
    target = target or infer_target(headers, "")
    columns = [_column_texts(frame.iloc[:, j]) for j in range(frame.shape[1])]
    rows = [list(cells) for cells in zip(*columns, strict=True)] if columns else [[] for _ in range(len(frame))]
    raw = RawTable(headers, rows, get_target(target).formats[0])  # checked as the target's first file format
    return Document(document_from_table(raw, None, target), FRAME_LABEL)


def _check_headers(headers: str | None) -> None:
    if headers is not None and headers not in HEADER_LANGUAGES:
        raise ValueError(f"unknown headers {headers!r}: choose {', '.join(map(repr, HEADER_LANGUAGES))} or None")


def _check_target(target: str | None) -> None:
    if target is not None and target not in TARGET_NAMES:
        raise ValueError(f"unknown target {target!r}: choose {', '.join(TARGET_NAMES)}")


def _column_texts(column: pd.Series) -> list[str]:
    """A column's values as cell text; a column of text is taken as it is."""
    values = column.tolist()  # Python scalars: int, float, bool, Timestamp, NaT …
    if all(type(v) is str for v in values):
        return values
    return [_cell_text(v) for v in values]


def _cell_text(value: object) -> str:
    """A DataFrame value as the text a reader makes of a cell (io/grid.cell_text)."""
    from evaleditor.io.grid import cell_text

    kind = type(value)
    if kind is str:
        return value  # type: ignore[return-value]
    if kind is int or kind is bool:
        return cell_text(value)
    if kind is float:
        return "" if value != value else cell_text(value)  # NaN: a missing value, an empty cell
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, ensure_ascii=False, default=str)
    import numpy as np
    import pandas as pd

    if pd.api.types.is_scalar(value) and pd.isna(value):  # None, NaT, pd.NA: an empty cell
        return ""
    if isinstance(value, np.datetime64):
        value = pd.Timestamp(value)
    elif isinstance(value, np.timedelta64):
        value = pd.Timedelta(value)
    elif isinstance(value, np.generic):
        value = value.item()
    return cell_text(value)
