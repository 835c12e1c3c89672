"""What reading a file may cost: a budget by work (rows, columns, cells, bytes), not by file size.

A small file can expand into far more Python objects than the machine holds: 40 MB of `q,a` lines are
10 million rows, 15 MB of `{}` are 5 million cases. So the readers count what costs nothing to count
while they read (rows so far, the header's width, the longest line, the cases parsed) and refuse with
one line the moment the count passes either
- what the editor is for: Excel's own limits (1,048,576 rows, 16,384 columns) and 10 million cells,
  100,000 rows x 100 columns; or
- what this machine can hold: a share of the memory available to this process, which inside a
  container is the container's limit (cgroup), not the host's.

The per-row and per-cell costs are the whole of opening (reader, dataset, validation), measured on
bench/bench_core.py's files; they are estimates, kept on the generous side of what was measured.
"""

from __future__ import annotations

import os

from evaleditor.core.errors import ReadError

MAX_ROWS = 1_048_576  # Excel's limit
MAX_COLUMNS = 16_384  # Excel's limit (XFD)
MAX_CELLS = 10_000_000  # 100,000 rows x 100 columns (extent.py refuses a sheet's area beyond it too)
MAX_LINE_BYTES = 16 << 20  # one physical line of a text file; a quoted cell may span many lines
MAX_CELL_CHARS = 64 << 20  # one cell of a text file (the csv module's field limit)
MEMORY_SHARE = 0.5  # of the memory available, what one file may take
ROW_BYTES = 600  # a row's own objects once opened (row record, list, ids, checks)
CELL_BYTES = 80  # a cell's text object and its slot, besides its characters
JSON_BYTES_FACTOR = 4  # memory per byte of SDK JSON text: the text, the parsed objects, the table

TOO_MANY_ROWS = "the file has more than {limit:,} rows, too many to open (Excel's limit); split it into smaller files"
TOO_MANY_COLUMNS = ("the file has {columns:,} columns, too many to open (Excel's limit is {limit:,}); "
                    "is it a table at all?")
TOO_MANY_CELLS = ("the file holds more than {limit:,} cells ({rows:,} rows x {columns:,} columns so far), "
                  "too many to open on this computer; split it into smaller files")
TOO_MANY_CASES = ("the file holds {cases:,} cases, more than {limit:,} can be opened on this computer; "
                  "split it into smaller files")
LINE_TOO_LONG = ("line {line:,} is longer than {limit} (the file is not a table of text, or a cell holds "
                 "a whole document); refusing to read it")
CELL_TOO_LONG = ("a cell that starts on line {line:,} is longer than {limit:,} characters (a quote opened "
                 "there and never closed?); refusing to read it")
JSON_TOO_LARGE = ("the file is too large to open ({size} of JSON takes about {need} of memory to open; "
                  "this computer can give one file {budget})")


def _read_int(path: str) -> int | None:
    try:
        with open(path, encoding="ascii") as f:
            text = f.read().strip()
    except (OSError, ValueError):
        return None
    return int(text) if text.isdigit() else None  # "max": no limit


def _cgroup_dirs() -> list[str]:
    """This process's cgroup v2 folder and its parents (a limit may be set on any of them)."""
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return ["/sys/fs/cgroup"]
    rel = next((line.split(":", 2)[2] for line in lines if line.startswith("0::")), "/")
    dirs = []
    parts = [p for p in rel.split("/") if p]
    for n in range(len(parts), -1, -1):
        dirs.append(os.path.join("/sys/fs/cgroup", *parts[:n]))
    return dirs


def cgroup_room() -> int | None:
    """Bytes this process's cgroup may still allocate (its memory limit less what is in use, not
    counting the page cache, which the kernel gives back), or None when there is no limit."""
    best = None
    for folder in _cgroup_dirs():  # v2
        limit = _read_int(os.path.join(folder, "memory.max"))
        if limit is None:
            continue
        room = limit - _anon_usage(folder)
        best = room if best is None else min(best, room)
    limit = _read_int("/sys/fs/cgroup/memory/memory.limit_in_bytes")  # v1; "no limit" is a huge number
    if limit is not None and limit < 1 << 60:
        usage = _read_int("/sys/fs/cgroup/memory/memory.usage_in_bytes") or 0
        room = limit - min(usage, limit)
        best = room if best is None else min(best, room)
    return None if best is None else max(best, 0)


def _anon_usage(folder: str) -> int:
    try:
        with open(os.path.join(folder, "memory.stat"), encoding="ascii") as f:
            for line in f:
                if line.startswith("anon "):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _meminfo_available() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def address_space_room() -> int | None:
    """Bytes this process may still map under its address-space limit (`ulimit -v`, prlimit --as), or
    None when there is none."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    except (ImportError, OSError, ValueError):
        return None
    if soft == resource.RLIM_INFINITY or soft < 0:
        return None
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            mapped = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        mapped = 0
    return max(soft - mapped, 0)


def available_memory() -> int | None:
    """Bytes of memory this process may use now: the host's available memory, or less inside a
    container with a memory limit or under an address-space limit. None when unknown."""
    known = [n for n in (_meminfo_available(), cgroup_room(), address_space_room()) if n is not None]
    return min(known) if known else None


def memory_budget() -> int | None:
    avail = available_memory()
    return None if avail is None else int(avail * MEMORY_SHARE)


def max_cells(columns: int = 1) -> int:
    """The most cells a table `columns` wide may hold: MAX_CELLS, or fewer on a small machine."""
    budget = memory_budget()
    if budget is None:
        return MAX_CELLS
    per_cell = CELL_BYTES + ROW_BYTES // max(columns, 1)
    return max(100_000, min(MAX_CELLS, budget // per_cell))


def check_table(path: object, rows: int, columns: int, limit: int | None = None) -> None:
    """ReadError when a table of `rows` x `columns` (so far) is more than can be opened. `limit`:
    max_cells(columns) when already known."""
    if columns > MAX_COLUMNS:
        raise ReadError(path, TOO_MANY_COLUMNS.format(columns=columns, limit=MAX_COLUMNS))
    if rows > MAX_ROWS:
        raise ReadError(path, TOO_MANY_ROWS.format(limit=MAX_ROWS))
    limit = max_cells(columns) if limit is None else limit
    if rows * max(columns, 1) > limit:
        raise ReadError(path, TOO_MANY_CELLS.format(limit=limit, rows=rows, columns=columns))


class TableBudget:
    """Counts rows as a reader makes them; `check(rows, columns)` refuses once they are too many."""

    def __init__(self, path: object):
        self.path = path
        self._limits: dict[int, int] = {}

    def check(self, rows: int, columns: int) -> None:
        limit = self._limits.get(columns)
        if limit is None:
            limit = self._limits[columns] = max_cells(columns)
        check_table(self.path, rows, columns, limit)


def check_line_lengths(path: str | os.PathLike[str], limit: int | None = None) -> None:
    """ReadError when a line of the file is longer than `limit` bytes: a file of one enormous line would
    otherwise be read whole as one string before any parser sees it.

    A line longer than `limit` covers a whole window of limit/2 bytes starting at a multiple of limit/2;
    so each such window is probed for a line break, which an ordinary file has in its first bytes: a
    100k-row file costs a few small reads. Only a window without one is followed by the exact scan."""
    limit = MAX_LINE_BYTES if limit is None else limit
    half = max(limit // 2, 1)
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        for start in range(0, size, half):
            f.seek(start)
            left = min(half, size - start)
            while left > 0:
                chunk = f.read(min(1 << 16, left))
                if not chunk or b"\n" in chunk:
                    break
                left -= len(chunk)
            else:
                _check_every_line(path, limit)
                return


def _check_every_line(path: str | os.PathLike[str], limit: int) -> None:
    """check_line_lengths, exactly, reading the whole file at C speed, 1 MB at a time."""
    run = 0  # bytes since the last line break
    line = 1
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            first = chunk.find(b"\n")
            if first < 0:
                run += len(chunk)
                if run > limit:
                    raise ReadError(path, LINE_TOO_LONG.format(line=line, limit=_size(limit)))
                continue
            if run + first > limit:
                raise ReadError(path, LINE_TOO_LONG.format(line=line, limit=_size(limit)))
            if limit < 1 << 20:  # lines inside a chunk can only pass limits under the chunk size
                _check_inside(path, chunk, first, line, limit)
            line += chunk.count(b"\n")
            run = len(chunk) - chunk.rfind(b"\n") - 1


def _check_inside(path: object, chunk: bytes, start: int, line: int, limit: int) -> None:
    while True:
        end = chunk.find(b"\n", start + 1)
        if end < 0:
            return
        line += 1
        if end - start - 1 > limit:
            raise ReadError(path, LINE_TOO_LONG.format(line=line, limit=_size(limit)))
        start = end


SHEET_SAMPLE = 1 << 20  # bytes of a sheet's XML that tell how densely it holds cells
SHEET_TOO_MANY_CELLS = ("the sheet {name!r} holds about {cells:,} cells ({size} of XML), more than {limit:,} "
                        "can be opened on this computer; split it into smaller files")


def check_sheet_cells(path: object, zf, part: str, name: str, limit: int) -> None:
    """ReadError when sheet `name` (zip member `part`) holds far more cells than `limit`, judged from the
    cells in its first megabyte and its size in the zip's directory: a 1 GiB part of one repeated cell is
    refused after inflating 1 MB, not 1 GiB. Only cells with a value count (calamine leaves out empty
    ones), and only a part over twice the limit is refused: the sample is an estimate."""
    size = zf.getinfo(part).file_size
    if size <= 4 * SHEET_SAMPLE:  # small: the exact scan that follows is quick
        return
    with zf.open(part) as member:
        head = member.read(SHEET_SAMPLE)
    cells = head.count(b"</c>") + head.count(b":c>")  # closing tags: a cell with a value
    estimate = cells * size // max(len(head), 1)
    if estimate > 2 * limit:
        raise ReadError(path, SHEET_TOO_MANY_CELLS.format(name=name, cells=estimate, size=_size(size), limit=limit))


def check_json_size(path: object, size: int) -> None:
    """ReadError when SDK JSON of `size` bytes would take more memory to open than is available."""
    budget = memory_budget()
    if budget is not None and size * JSON_BYTES_FACTOR > budget:
        raise ReadError(path, JSON_TOO_LARGE.format(size=_size(size), need=_size(size * JSON_BYTES_FACTOR),
                                                    budget=_size(budget)))


def check_cases(path: object, cases: int) -> None:
    """ReadError when a file holds more cases than can be opened (each becomes a row)."""
    limit = min(MAX_ROWS, max_cells(8) // 8)
    if cases > limit:
        raise ReadError(path, TOO_MANY_CASES.format(cases=cases, limit=limit))


def _size(n: float) -> str:
    from evaleditor.io.safety import human_size

    return human_size(n)
