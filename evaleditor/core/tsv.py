"""Tab-separated text as Excel and LibreOffice put it on the clipboard.

A cell holding a tab, a line break or a double quote is quoted ("…", with inner quotes doubled);
rows end with CRLF (Excel) or LF (LibreOffice). Pure functions: the GUI's clipboard adapter and the
tests use them without Qt.
"""

from __future__ import annotations

from collections.abc import Sequence

_NEEDS_QUOTES = ("\t", "\n", "\r", '"')


def quote_cell(text: str) -> str:
    if any(c in text for c in _NEEDS_QUOTES):
        return '"' + text.replace('"', '""') + '"'
    return text


def to_tsv(grid: Sequence[Sequence[str]]) -> str:
    """Rows of cells -> clipboard text (CRLF row ends, as Excel writes it, and a final one)."""
    return "".join("\t".join(quote_cell(c) for c in row) + "\r\n" for row in grid)


def parse_tsv(text: str) -> list[list[str]]:
    """Clipboard text -> rows of cells. A final line break does not make an empty row.

    A cell that starts with a double quote is quoted: it runs to the next lone quote, `""` inside it
    is one quote, and tabs and line breaks inside it belong to the cell. Text after the closing
    quote (malformed input) is kept, as is a quote in the middle of an unquoted cell.
    """
    rows: list[list[str]] = []
    row: list[str] = []
    cell: list[str] = []
    i, n = 0, len(text)
    at_cell_start = True
    while i < n:
        c = text[i]
        if at_cell_start and c == '"':
            end = i + 1
            while True:
                q = text.find('"', end)
                if q < 0:  # unterminated: the rest is the cell, as typed
                    cell.append(text[i:])
                    i = n
                    break
                if q + 1 < n and text[q + 1] == '"':
                    cell.append(text[end:q + 1])
                    end = q + 2
                    continue
                cell.append(text[end:q])
                i = q + 1
                break
            at_cell_start = False
            continue
        at_cell_start = False
        if c == "\t":
            row.append("".join(cell))
            cell = []
            at_cell_start = True
        elif c in "\r\n":
            row.append("".join(cell))
            rows.append(row)
            row, cell = [], []
            at_cell_start = True
            if c == "\r" and i + 1 < n and text[i + 1] == "\n":
                i += 1
        else:
            cell.append(c)
        i += 1
    if cell or row or not at_cell_start:
        row.append("".join(cell))
        rows.append(row)
    return rows
