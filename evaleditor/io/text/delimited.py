"""CSV and tab-separated text (.csv, .tsv, .txt): every cell read as the exact text in the file.

Encoding is chosen by strict decoding in this order: a BOM (UTF-8, UTF-16 LE/BE), UTF-16 without BOM
(many NUL bytes), then UTF-8, then GB18030 (Chinese Excel exports), then Windows-1252 (Western Excel
exports) — which also wins over GB18030 when what GB18030 reads is mostly characters real Chinese text
does not use (`_latin_read_as_chinese`). The delimiter (`,` `;` or tab) is the one that splits the first
records most consistently; ties go to the suffix's usual one.
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import re
from collections.abc import Callable
from itertools import chain, islice
from pathlib import Path
from typing import NamedTuple

from evaleditor.core.errors import ReadError, UnstorableCell, WriteError
from evaleditor.core.i18n import N_
from evaleditor.core.table import LoadNote, RawTable
from evaleditor.io import budget
from evaleditor.io.atomic import atomic_write
from evaleditor.io.grid import EVERY, Cancel, Progress, build_grid, collect
from evaleditor.io.safety import check_file
from evaleditor.io.text.arrow_csv import MIN_BYTES, ColumnsRead, Refused, arrow_records
from evaleditor.io.text.long_cells import END, LongCellWatch, failing_record_line, long_cell_notes

DELIMITERS = (",", ";", "\t")
SNIFF_CHARS = 64 * 1024
SNIFF_RECORDS = 50

csv.field_size_limit(budget.MAX_CELL_CHARS)  # a longer cell is refused, with the line it starts at


_CONTROL = {chr(c) for c in range(32)} - {"\t", "\n", "\r", "\f", "\v"}


def looks_binary(text: str) -> bool:
    """A NUL anywhere, or many control characters near the start: bytes that were never text."""
    if "\x00" in text:
        return True
    head = text[:SNIFF_CHARS]
    controls = sum(1 for ch in head if ch in _CONTROL)
    return controls > max(8, len(head) // 100)


def sniff_delimiter(text: str, default: str) -> str:
    """The delimiter that splits the first records most consistently into 2+ fields.

    The suffix's usual delimiter wins ties, so another one is chosen only when it is clearly better
    (`frage;antwort` / `1,5;2,5` reads as semicolon-separated, a comma in a question does not).
    """
    sample = text[:SNIFF_CHARS]
    truncated = len(text) > SNIFF_CHARS
    best, best_score = default, 0.0
    for delim in (default, *(d for d in DELIMITERS if d != default)):
        reader = csv.reader(io.StringIO(sample, newline=""), delimiter=delim, strict=False)
        try:
            widths = [len(r) for r in islice(reader, SNIFF_RECORDS) if any(r)]
        except csv.Error:
            continue
        if truncated and len(widths) > 2:
            widths.pop()  # the last record may be cut in the middle
        if not widths or widths[0] < 2:
            continue
        score = sum(1 for w in widths if w == widths[0]) / len(widths)
        if score > best_score:
            best, best_score = delim, score
    return best


# legacy encodings tried, in this order, when a file is not UTF-8 (nor UTF-16): Chinese (GB18030),
# Japanese (Shift-JIS as Windows writes it), Traditional Chinese, Korean, Western (Windows-1252)
LEGACY = ("gb18030", "cp932", "big5", "cp949", "cp1252")
ENCODING_NAMES = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8", "utf-16": "UTF-16", "utf-16-le": "UTF-16",
                  "utf-16-be": "UTF-16", "gb18030": "GB18030", "cp932": "Shift-JIS", "big5": "Big5",
                  "cp949": "EUC-KR", "cp1252": "Windows-1252"}


def detect_encoding(path: str | os.PathLike[str]) -> str:
    """The encoding of a text file (guess_encoding)."""
    return guess_encoding(path)[0]


def guess_encoding(path: str | os.PathLike[str]) -> tuple[str, list[str]]:
    """The encoding of a text file and the others its bytes also fit, by strict decoding (streamed in
    chunks, so that no decoded copy of the file is kept): a BOM, UTF-16 without one, UTF-8; else the
    LEGACY encodings that decode the whole file. When several do (Shift-JIS bytes are valid GB18030,
    Western text often is too), charset-normalizer gives a second opinion on the first 64 KB, among
    those only; without one, GB18030 unless what it reads is mostly characters Chinese text does not
    use (`_latin_read_as_chinese`). Raises UnicodeDecodeError when none fits and ValueError when the
    text holds NUL characters (binary data)."""
    with open(path, "rb") as f:
        head = f.read(4096)
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig", []
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        if _decodes(path, "utf-16"):
            return "utf-16", []
        raise UnicodeDecodeError("utf-16", b"", 0, 1, "no encoding fits")
    if head.count(0) * 4 > len(head):  # UTF-16 without a BOM: every other byte of ASCII is NUL
        utf16 = "utf-16-le" if head[1::2].count(0) > head[0::2].count(0) else "utf-16-be"
        if _decodes(path, utf16):
            return utf16, []
    if _decodes(path, "utf-8"):
        return "utf-8", []
    fits = [e for e in LEGACY if _decodes(path, e)]
    if not fits:
        raise UnicodeDecodeError(LEGACY[-1], b"", 0, 1, "no encoding fits")
    if len(fits) == 1:
        return fits[0], []
    first = "cp1252" if fits[0] == "gb18030" and "cp1252" in fits and _latin_read_as_chinese(path) else fits[0]
    chosen = _second_opinion(path, fits, first)
    return chosen, [e for e in fits if e != chosen]


def _second_opinion(path: str | os.PathLike[str], fits: list[str], first: str) -> str:
    """charset-normalizer's best match among `fits` for 64 KB of the file from the line where its first
    non-ASCII byte is (cut at a line end, so that no character is split); `first` (the order's pick)
    when it is among the equally best, or when charset-normalizer finds none (a short Chinese file reads
    as Korean just as well, for instance)."""
    import charset_normalizer

    sample = _non_ascii_sample(path)
    if sample is None:
        return first
    matches = list(charset_normalizer.from_bytes(sample, cp_isolation=fits))
    if not matches:
        return first
    score = min((m.chaos, -m.coherence) for m in matches)
    best = [codecs.lookup(m.encoding).name for m in matches if (m.chaos, -m.coherence) == score]
    if codecs.lookup(first).name in best:
        return first
    return next((e for e in fits if codecs.lookup(e).name == best[0]), first)


_NON_ASCII = re.compile(rb"[\x80-\xff]")


def _non_ascii_sample(path: str | os.PathLike[str]) -> bytes | None:
    """SNIFF_CHARS bytes from the start of the line holding the file's first non-ASCII byte."""
    with open(path, "rb") as f:
        offset = 0
        while chunk := f.read(1 << 20):
            found = _NON_ASCII.search(chunk)
            if found:
                start = offset + chunk.rfind(b"\n", 0, found.start()) + 1
                f.seek(start)
                sample = f.read(SNIFF_CHARS)
                if len(sample) == SNIFF_CHARS and b"\n" in sample:
                    sample = sample[:sample.rindex(b"\n") + 1]
                return sample
            offset += len(chunk)
    return None


def _decodes(path: str | os.PathLike[str], encoding: str) -> bool:
    """Whether the whole file decodes strictly (streamed); ValueError when the text holds NUL."""
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    try:
        with open(path, "rb") as f:
            while chunk := f.read(1 << 20):
                if "\x00" in decoder.decode(chunk):
                    raise ValueError("NUL in text")
            decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _latin_read_as_chinese(path: str | os.PathLike[str]) -> bool:
    """Western text (Müller, Señor) often decodes as GB18030 too: an accented letter and the ASCII
    letter after it make one "character" (黮, 駉). Those are never in GB2312, which holds nearly every
    character of real Chinese text, whose two bytes are both 0xA1 or above: most Chinese characters
    outside it means the bytes were Windows-1252."""
    with open(path, "rb") as f:
        head = codecs.getincrementaldecoder("gb18030")("replace").decode(f.read(SNIFF_CHARS))
    chinese = [ch for ch in head if "\u4e00" <= ch <= "\u9fff"]
    if not chinese:
        return False
    outside = sum(1 for ch in chinese if not _in_gb2312(ch))
    return outside * 2 > len(chinese)


def _in_gb2312(ch: str) -> bool:
    try:
        ch.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def _head(path: str | os.PathLike[str], encoding: str) -> str:
    with open(path, encoding=encoding, newline="") as f:
        return f.read(SNIFF_CHARS + 1)


def _utf8_guess(path: str | os.PathLike[str]) -> str | None:
    """"utf-8-sig" or "utf-8" when the file starts as UTF-8 and holds no NUL byte, else None.

    Most files are UTF-8: reading them needs no first pass that decodes the whole file (a tenth of
    the parse), because the parse decodes strictly itself; a decoding error there falls back to
    `detect_encoding`. A NUL byte (binary data, or UTF-16) is found at memchr speed."""
    with open(path, "rb") as f:
        head = f.read(4096)
        if head.startswith(codecs.BOM_UTF8):
            guess = "utf-8-sig"
        elif head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            return None
        else:
            try:
                codecs.getincrementaldecoder("utf-8")("strict").decode(head)
            except UnicodeDecodeError:
                return None
            guess = "utf-8"
        f.seek(0)
        while chunk := f.read(1 << 20):
            if b"\x00" in chunk:
                return None
    return guess


class CsvStyle(NamedTuple):
    """How a CSV file is written: its encoding (utf-8-sig has a BOM), delimiter and line end."""

    encoding: str
    delimiter: str
    line_end: str


UTF8_CSV = CsvStyle("utf-8-sig", ",", "\r\n")  # what a new .csv is (formats.md)


def kept_style(doc) -> CsvStyle:
    """The style of the CSV a Document was read from, which a save onto that file keeps (the window's
    Save, convert and the Python API onto the file read): its encoding, delimiter and line end; a new
    .csv's (UTF8_CSV) where it has none."""
    return CsvStyle(doc.encoding or UTF8_CSV.encoding, doc.delimiter or UTF8_CSV.delimiter,
                    doc.line_end or UTF8_CSV.line_end)


def cannot_hold(headers: list[str], rows: list[list[str]], encoding: str) -> str | None:
    """The first character of the table `encoding` cannot store, or None when it holds it all."""
    for line in (headers, *rows):
        try:
            "".join(line).encode(encoding)
        except UnicodeEncodeError as err:
            return err.object[err.start]
    return None


def line_end_of(head: str) -> str:
    """The line end of the first line that has one ("\r\n" when none does: RFC 4180's)."""
    cr, lf = head.find("\r"), head.find("\n")
    if lf >= 0 and (cr < 0 or lf < cr):
        return "\n"
    if cr >= 0:
        return "\r\n" if head[cr + 1:cr + 2] == "\n" else "\r"
    return "\r\n"


def _first_record(head: str, delimiter: str) -> list[str] | None:
    """The first record that is not a blank line, read from the start of the file; None when there is none."""
    try:
        return next(filter(None, csv.reader(io.StringIO(head[:SNIFF_CHARS], newline=""), delimiter=delimiter,
                                            strict=False)), None)
    except csv.Error:
        return None


def read_delimited(
    path: str | os.PathLike[str], progress: Progress | None = None, cancel: Cancel | None = None,
    suffix: str | None = None, encoding: str | None = None, keep_texts: bool = True,
    report_only: bool = False, target: str | None = None,
) -> RawTable:
    """`suffix` (".csv", ".tsv" …) stands for the file's own when it has another (a temporary file).
    `encoding`: read in that encoding (File ▸ Reopen with Encoding), not the one guess_encoding finds.
    `keep_texts`, `report_only`: see read_table; `target`: the one it is checked against (None: its headers').

    The file is parsed as a stream (never held whole as text) so that memory stays close to the
    cells themselves."""
    if check_file(path) > budget.MAX_LINE_BYTES:  # a smaller file cannot hold a longer line
        budget.check_line_lengths(path)
    forced, others = encoding, []
    try:
        encoding = forced or _utf8_guess(path)
        if encoding is None:
            encoding, others = guess_encoding(path)
        size = os.path.getsize(path)
        try:
            head = _head(path, encoding)
        except UnicodeDecodeError:  # not UTF-8 after all, past the first 4 KB
            if forced:
                raise
            encoding, others = guess_encoding(path)
            head = _head(path, encoding)
    except UnicodeDecodeError:
        if forced:
            raise ReadError(path, f"the file is not {ENCODING_NAMES.get(forced, forced)} text (its bytes do not "
                                  "fit that encoding): choose another") from None
        raise ReadError(path, N_("not a text file (no known text encoding fits its bytes)")) from None
    except ValueError:
        raise ReadError(path, N_("not a text file (it holds binary data)")) from None
    except OSError as err:
        from evaleditor.io.atomic import os_error_reason

        raise ReadError(path, os_error_reason(err)) from None
    if looks_binary(head):
        raise ReadError(path, N_("not a text file (it holds binary data)"))
    suffix = (suffix or Path(path).suffix).lower()
    default = "," if suffix == ".csv" else "\t"
    delimiter = sniff_delimiter(head, default)
    line_end = line_end_of(head)
    # big UTF-8 files go to pyarrow first (arrow_csv.py), which skips a BOM: "utf-8" must not start with one
    utf8 = encoding == "utf-8-sig" or (encoding == "utf-8" and not head.startswith("\ufeff"))
    first = _first_record(head, delimiter) if utf8 and size >= MIN_BYTES else None
    del head
    limits = budget.TableBudget(path)
    hollow = None
    if report_only and first:
        try:
            hollow = _hollow_read(path, first, delimiter, target, limits, progress, cancel)
        except Refused:  # a ragged row, bytes not UTF-8: arrow_records' reader would refuse the file too
            first = None  # the csv module reads it

    def table(**read) -> RawTable:  # with what Save keeps: the encoding read in (a guess may change it below)
        return RawTable(source_format="csv" if delimiter != "\t" else "tsv", encoding=encoding, delimiter=delimiter,
                        line_end=line_end, **read)

    if hollow is not None:
        return table(headers=first, rows=hollow.rows, notes=_encoding_notes(encoding, others),
                     source_rows=hollow.source_rows, scans=hollow.scans)
    watch = LongCellWatch()

    def records(f) -> list[list[str]]:
        # END after the last line lands in a cell only when a quote is still open there (long_cells.py)
        reader = csv.reader(chain(f, [END]), delimiter=delimiter, strict=False)
        first = next(reader, None)
        if first is None:
            return []
        width = len(first)
        limits.check(1, width)
        watch.start()

        def told(rows: int) -> None:
            limits.check(rows, width)
            watch.batch(rows, reader.line_num)
            if progress is not None:
                progress(min(f.buffer.tell(), size), size)

        try:
            rows = collect(chain([first], reader), cancel, told)
        except csv.Error as err:
            if "field larger than field limit" not in str(err):
                raise
            raise ReadError(path, budget.CELL_TOO_LONG.format(
                line=failing_record_line(path, encoding, delimiter), limit=budget.MAX_CELL_CHARS)) from None
        watch.batch(len(rows), reader.line_num)
        if progress is not None:
            progress(size, size)
        return rows

    lengths = ColumnsRead(len(first), keep_texts) if first else None
    try:
        try:
            rows = arrow_records(path, delimiter, len(first), limits, progress, cancel, lengths) if first else None
            if rows is None:
                lengths = None
                with open(path, encoding=encoding, newline="") as f:
                    rows = records(f)
        except UnicodeDecodeError:  # not UTF-8 after all, past the head
            if forced:
                raise ReadError(path, f"the file is not {ENCODING_NAMES.get(forced, forced)} text (its bytes do "
                                      "not fit that encoding): choose another") from None
            encoding, others = guess_encoding(path)
            lengths = None
            with open(path, encoding=encoding, newline="") as f:
                rows = records(f)
        long_cells = watch.suspects(rows, delimiter)
        grid = build_grid(rows)
        del rows
    except UnicodeDecodeError:
        raise ReadError(path, N_("not a text file (no known text encoding fits its bytes)")) from None
    except ValueError:
        raise ReadError(path, N_("not a text file (it holds binary data)")) from None
    except csv.Error as err:
        raise ReadError(path, f"the file is not valid CSV ({err})") from None
    except OSError as err:
        from evaleditor.io.atomic import os_error_reason

        raise ReadError(path, os_error_reason(err)) from None
    if grid is None:
        raise ReadError(path, N_("the file is empty (it has no rows)"))
    limits.check(len(grid.rows), len(grid.headers))  # rows wider than the header count too
    return table(
        headers=grid.headers,
        rows=grid.rows,
        notes=long_cell_notes(long_cells, grid, path, encoding, delimiter) + _encoding_notes(encoding, others),
        source_rows=grid.source_rows(),
        scans=lengths.scans(grid) if lengths is not None else None,
    )


def _hollow_read(path: str | os.PathLike[str], headers: list[str], delimiter: str, target: str | None,
                 limits: budget.TableBudget, progress: Progress | None, cancel: Cancel | None):
    """arrow_report.hollow_read's table, where the file and `target` allow it; else None (Refused raised)."""
    from evaleditor.core.targets import SDK_HISTORY, TARGETS, infer_target
    from evaleditor.io.text import arrow_report

    checked = TARGETS.get(target or infer_target(headers, Path(path).suffix))
    if checked is None or SDK_HISTORY in headers:  # an unknown target is refused as the document is built; the
        return None  # history's cells are read again (io/load.document_of_read folds them)
    roles = arrow_report.column_roles(headers, checked)
    return None if roles is None else arrow_report.hollow_read(path, delimiter, headers, roles, limits, progress, cancel)


def _encoding_notes(encoding: str, others: list[str]) -> list[LoadNote]:
    """Said when the bytes fit several encodings (rule encoding-guessed), with the way to choose another."""
    if not others:
        return []
    name = ENCODING_NAMES.get(encoding, encoding)
    also = ", ".join(ENCODING_NAMES.get(e, e) for e in others)
    return [LoadNote("encoding-guessed", f"read as {name}; its bytes also read as {also}: if the text looks wrong, "
                                         "reopen it in another encoding (File ▸ Reopen with Encoding)")]


def write_csv(
    path: str | os.PathLike[str],
    headers: list[str],
    rows: list[list[str]],
    progress: Progress | None = None,
    *,
    neutralise_formulas: bool = False,
    verify: Callable[[Path], None] | None = None,
    style: CsvStyle = UTF8_CSV,
) -> None:
    """RFC 4180 quoting in `style`: UTF-8 with BOM, comma-separated, CRLF line ends unless a file's
    own are kept (Save); saved atomically.

    Cells are quoted only when needed, except a header row holding another delimiter (`;`, a tab, a
    comma), which is quoted whole so that reading it back cannot mistake the delimiter.
    `neutralise_formulas`: cells that Excel would run as formulas get a leading `'` (text/csv_safety.py).
    `verify`: see atomic_write. A character `style.encoding` cannot hold raises UnstorableCell."""
    width = len(headers)
    total = len(rows)
    change: Callable[[list[str]], list[str]] | None = None
    if neutralise_formulas:
        from evaleditor.io.text.csv_safety import neutralise_row

        change = neutralise_row
        headers = change(headers)
    encoding, delimiter, line_end = style
    others = [d for d in ",;\t" if d != delimiter]
    with atomic_write(path, "w", encoding=encoding, newline="", verify=verify) as handle:
        writer = csv.writer(handle, delimiter=delimiter, quoting=csv.QUOTE_MINIMAL, lineterminator=line_end)
        try:
            if any(d in h for h in headers for d in others):
                # quoted, a one-column header `a;b` cannot be taken for two semicolon-separated ones
                csv.writer(handle, delimiter=delimiter, quoting=csv.QUOTE_ALL, lineterminator=line_end).writerow(headers)
            else:
                writer.writerow(headers)
            for i, row in enumerate(rows):
                if change is not None:
                    row = change(row)
                if len(row) > width:
                    raise WriteError(path, f"row {i + 1} has {len(row)} cells but there are {width} columns")
                writer.writerow(row if len(row) == width else [*row, *[""] * (width - len(row))])
                if progress is not None and (i + 1) % EVERY == 0:
                    progress(i + 1, total)
        except UnicodeEncodeError as err:
            bad = err.object[err.start] if isinstance(err.object, str) and err.start < len(err.object) else "?"
            if "\ud800" <= bad <= "\udfff" or encoding.startswith("utf"):
                raise UnstorableCell(path, f"a cell holds U+{ord(bad):04X}, half of a character (a lone surrogate: "
                                           "the text is damaged), which a UTF-8 file cannot store") from None
            raise UnstorableCell(path, f"a cell holds {bad!r} (U+{ord(bad):04X}), which {encoding} cannot "
                                       "store") from None
        except csv.Error as err:
            reason = str(err).splitlines()[0] if str(err) else type(err).__name__
            raise WriteError(path, f"cannot write the CSV: {reason}") from None
    if progress is not None:
        progress(total, total)

