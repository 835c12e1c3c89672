"""Cells that python-calamine reads as empty although they are not, found in a worksheet's XML.

- Formulas with no saved value: a workbook written by a script (openpyxl, many exporters) holds
  formulas but never their results. What an upload service reads from such a cell is unknown, so the
  reader shows the formula text instead and reports it (rule `formula-without-value`).
- Error values (`#N/A`, `#DIV/0!` ...): calamine's Python binding turns them into "", while Excel
  shows (and the reading policy keeps) the error text.
- Text calamine alters: it trims the whitespace around a `<t>` that lacks xml:space="preserve" (a " "
  or tab cell becomes empty; openpyxl writes them so) and reads a carriage return written as such as a
  line feed ("a\r\nb" becomes "a\nb"). Such inline-string and formula-result cells get their exact text.
Safe to parse: `safety.check_zip_workbook` has refused any part that declares a DTD or entities, and
parsing goes through defusedxml all the same.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from typing import NamedTuple

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_STRICT_MAIN = "http://purl.oclc.org/ooxml/spreadsheetml/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_STRICT_REL = "http://purl.oclc.org/ooxml/officeDocument/relationships"
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
# as text, compiled on first use (re's cache): an ordinary sheet needs none of them
_NEEDS_SCAN = rb"<(?:[A-Za-z_][\w.-]*:)?f[\s>/]|\st=[\"']e[\"']"
_HINTS = (b"<f", b":f", b"t=\"e\"", b"t='e'")
# text with whitespace first or last in a <t> without attributes (so without xml:space="preserve")
_TRIMMED = rb"<(?:[A-Za-z_][\w.-]*:)?t>(?:[ \t\r\n]|[^<]*+(?<=[ \t\r\n])<)"
_CR_IN_TEXT = rb"(<(?:[A-Za-z_][\w.-]*:)?[tvf](?:\s[^>]*)?>)([^<]*\r)"
_ESCAPED = r"_x([0-9A-Fa-f]{4})_"
_REF = r"([A-Za-z]{1,3})(\d+)$"
_CHUNK = 1 << 20


class MissedCell(NamedTuple):  # not a frozen dataclass: 0.8 ms of every workbook read's imports
    row: int  # 0-based, in the sheet
    column: int  # 0-based, in the sheet
    ref: str  # "B7"
    text: str  # "=SUM(A1:A3)" or "#N/A"
    formula: bool  # True: a formula with no saved value; False: a saved error value or text
    exact: bool = False  # True: text that calamine read altered, to put in place of what it read


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def sheet_parts(zf: zipfile.ZipFile) -> dict[str, str]:
    """Sheet name -> zip member holding its XML, from xl/workbook.xml and its relationships."""
    from defusedxml import ElementTree

    workbook = _workbook_part(zf)
    rels_name = posixpath.join(posixpath.dirname(workbook), "_rels", posixpath.basename(workbook) + ".rels")
    targets: dict[str, str] = {}
    rels = ElementTree.fromstring(zf.read(rels_name))
    for rel in rels:
        target = rel.get("Target", "")
        if target.startswith("/"):
            part = target.lstrip("/")
        else:
            part = posixpath.normpath(posixpath.join(posixpath.dirname(workbook), target))
        targets[rel.get("Id", "")] = part
    parts: dict[str, str] = {}
    root = ElementTree.fromstring(zf.read(workbook))
    for el in root.iter():
        if _local(el.tag) == "sheet":
            rid = el.get(f"{{{_REL}}}id") or el.get(f"{{{_STRICT_REL}}}id") or ""
            if rid in targets:
                parts[el.get("name", "")] = targets[rid]
    return parts


def _workbook_part(zf: zipfile.ZipFile) -> str:
    from defusedxml import ElementTree

    try:
        root = ElementTree.fromstring(zf.read("_rels/.rels"))
        for rel in root:
            if rel.get("Type", "").endswith("/officeDocument"):
                return rel.get("Target", "").lstrip("/")
    except KeyError:
        pass
    return "xl/workbook.xml"


def may_need_scan(xml: bytes) -> bool:
    """Whether this piece of sheet XML holds a formula, an error cell, or text that calamine alters
    (substring tests first: fast)."""
    return (any(hint in xml for hint in _HINTS) and re.search(_NEEDS_SCAN, xml) is not None) \
        or b"\r" in xml or (b"t>" in xml and re.search(_TRIMMED, xml) is not None)


def _needs_scan(zf: zipfile.ZipFile, part: str) -> bool:
    """Whether the sheet XML holds any formula or error cell."""
    tail = b""
    with zf.open(part) as member:
        while chunk := member.read(_CHUNK):
            if may_need_scan(tail + chunk):
                return True
            tail = chunk[-64:]
    return False


class _CarriageReturnsKept:
    """The part's XML with each carriage return inside a text written as `&#13;`, which an XML parser
    keeps (a raw one it reads as a line feed, as calamine does)."""

    def __init__(self, zf: zipfile.ZipFile, part: str):
        from evaleditor.io.excel.extent import _chunks

        self._pieces = _chunks(zf, part)  # pieces cut before a `<`: a text is never split

    def read(self, _size: int = -1) -> bytes:
        piece = next(self._pieces, b"")
        if b"\r" in piece:
            piece = re.sub(_CR_IN_TEXT, lambda m: m[1] + m[2].replace(b"\r", b"&#13;"), piece)
        return piece


def _exact_text(cell) -> str | None:
    """The text of an inline-string or formula-string cell when calamine would alter it, else None."""
    kind = cell.get("t")
    if kind == "inlineStr":
        parts = [t.text or "" for child in cell if _local(child.tag) == "is" for t in child.iter()
                 if _local(t.tag) == "t" and not _in_phonetic(child, t)]
    elif kind == "str":
        parts = [child.text or "" for child in cell if _local(child.tag) == "v"]
    else:
        return None
    if not any(p and ("\r" in p or p != p.strip()) for p in parts):
        return None
    return re.sub(_ESCAPED, lambda m: chr(int(m[1], 16)), "".join(parts))


def _in_phonetic(root, target) -> bool:
    """Whether `target` lies in a phonetic run (<rPh>) of `root`: calamine leaves those out."""
    return any(_local(run.tag) == "rPh" and any(t is target for t in run.iter()) for run in root)


def _position(ref: str | None, row: int, col: int) -> tuple[int, int]:
    if ref:
        m = re.match(_REF, ref)
        if m:
            letters, digits = m.groups()
            c = 0
            for ch in letters.upper():
                c = c * 26 + ord(ch) - 64
            return int(digits) - 1, c - 1
    return row, col


def missed_cells(zf: zipfile.ZipFile, part: str, needs_scan: bool | None = None) -> list[MissedCell]:
    """Cells of sheet `part` with a formula and no saved value (no <v>, or an empty non-text <v>),
    cells holding an error value, and text cells with their exact text where calamine alters it. `needs_scan`: the answer of `may_need_scan` if already known."""
    if not (_needs_scan(zf, part) if needs_scan is None else needs_scan):
        return []
    from defusedxml.ElementTree import iterparse

    from evaleditor.io.grid import column_letter

    found: list[MissedCell] = []
    shared: dict[str, tuple[str, str]] = {}  # si -> (master ref, formula text)
    row, col = -1, -1
    for event, el in iterparse(_CarriageReturnsKept(zf, part), events=("start", "end")):
        name = _local(el.tag)
        if event == "start":
            if name == "row":
                r = el.get("r")
                row = int(r) - 1 if r and r.isdigit() else row + 1
                col = -1
            continue
        if name != "c":
            if name in ("row", "sheetData"):
                el.clear()
            continue
        col += 1
        row_i, col = _position(el.get("r"), row, col)
        formula = value = None
        for child in el:
            child_name = _local(child.tag)
            if child_name == "f":
                formula = child
            elif child_name == "v":
                value = child
        ref = f"{column_letter(col)}{row_i + 1}"
        exact = _exact_text(el)
        if formula is None:
            if exact is not None:
                found.append(MissedCell(row_i, col, ref, exact, False, exact=True))
            elif el.get("t") == "e" and value is not None and value.text:
                found.append(MissedCell(row_i, col, ref, value.text, False))
        else:
            text = formula.text or ""
            si = formula.get("si")
            if formula.get("t") == "shared" and si is not None:
                if text:
                    shared[si] = (ref, text)
                elif si in shared:
                    text = _translate(*shared[si], ref)
            no_value = value is None or (not value.text and el.get("t") not in ("str", "inlineStr"))
            if no_value and text:
                found.append(MissedCell(row_i, col, ref, "=" + text, True))
            elif exact is not None:
                found.append(MissedCell(row_i, col, ref, exact, False, exact=True))
            elif el.get("t") == "e" and value is not None and value.text:
                found.append(MissedCell(row_i, col, ref, value.text, False))
        el.clear()
    return found


def _translate(origin: str, text: str, dest: str) -> str:
    """A shared formula as it reads in cell `dest` (relative references shifted)."""
    try:
        from openpyxl.formula.translate import Translator

        return Translator("=" + text, origin=origin).translate_formula(dest)[1:]
    except Exception:  # a formula openpyxl cannot tokenise: keep the master's text
        return text
