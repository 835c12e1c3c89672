"""Extract, update and compile the translations (docs/i18n.md).

    .venv/bin/python scripts/translations.py update    refresh the .po and .ts from the sources
    .venv/bin/python scripts/translations.py compile   .po -> .mo and .ts -> .qm (committed files)
    .venv/bin/python scripts/translations.py check     list untranslated or stale entries; exit 1 if any
    (`python3 dev.py translations` runs update, then compile.)

Two layers, two mechanisms:
- core, io and the CLI: GNU gettext. Marked strings are the literal arguments of `N_`, `_`,
  `NP_` and `ngettext` (core/i18n.py), found by an AST scan of evaleditor/ outside gui/;
  catalogue resources/translations/<lang>/LC_MESSAGES/evaleditor.po, compiled with Babel.
- gui: Qt Linguist. `translate("Context", "…")` and `QT_TRANSLATE_NOOP("Context", "…")` with
  literal arguments, extracted by pyside6-lupdate into resources/translations/evaleditor_<lang>.ts,
  compiled by pyside6-lrelease.
"""

from __future__ import annotations

import ast
import io
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "evaleditor"
TRANSLATIONS = ROOT / "resources" / "translations"
DOMAIN = "evaleditor"
LANGUAGES = ("zh_CN",)
SINGULAR_MARKERS = {"_", "N_"}
PLURAL_MARKERS = {"ngettext", "NP_"}


# ----- gettext (core, io, CLI) ----------------------------------------------------------------------------
def gettext_sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "gui" not in p.relative_to(PACKAGE).parts)


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def extract_gettext(paths: list[Path] | None = None) -> dict[str | tuple[str, str], list[str]]:
    """msgid (or (singular, plural)) -> "file:line" places, for every marked literal."""
    found: dict[str | tuple[str, str], list[str]] = {}
    for path in paths or gettext_sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or not node.args:
                continue
            name = node.func.id
            where = f"{path.relative_to(ROOT).as_posix()}:{node.lineno}"
            if name in SINGULAR_MARKERS:
                msgid = _literal(node.args[0])
                if msgid:
                    found.setdefault(msgid, []).append(where)
            elif name in PLURAL_MARKERS and len(node.args) >= 2:
                singular, plural = _literal(node.args[0]), _literal(node.args[1])
                if singular and plural:
                    found.setdefault((singular, plural), []).append(where)
    return found


def po_path(lang: str) -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_po(lang: str):
    from babel.messages.pofile import read_po as babel_read_po

    with open(po_path(lang), "rb") as f:
        return babel_read_po(f, locale=lang, domain=DOMAIN)


def _template():
    from babel.messages.catalog import Catalog

    template = Catalog(domain=DOMAIN, project="evaleditor", charset="utf-8")
    for msgid, places in extract_gettext().items():
        locations = [(p.rsplit(":", 1)[0], int(p.rsplit(":", 1)[1])) for p in places]
        template.add(msgid, locations=locations, flags=("python-brace-format",) if "{" in str(msgid) else ())
    return template


def update_po(lang: str) -> None:
    from babel.messages.catalog import Catalog

    template = _template()
    if po_path(lang).exists():
        catalog = read_po(lang)
    else:
        catalog = Catalog(locale=lang, domain=DOMAIN, project="evaleditor", charset="utf-8")
    catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
    write_catalog(lang, catalog)


def write_catalog(lang: str, catalog) -> None:
    """Write the .po the same way every time (sorted, unwrapped, file names without line numbers)."""
    from babel.messages.pofile import write_po

    catalog.fuzzy = False
    catalog.header_comment = (f"# {lang} translation of evaleditor's core and command-line messages.\n"
                              "# Update with: python3 dev.py translations (docs/i18n.md).\n#")
    catalog.project, catalog.version = "evaleditor", ""
    catalog.copyright_holder = "evaleditor contributors"
    catalog.msgid_bugs_address = ""
    catalog.last_translator = "evaleditor contributors"
    catalog.language_team = f"{lang} <none>"
    catalog.revision_date = catalog.creation_date
    po_path(lang).parent.mkdir(parents=True, exist_ok=True)
    with open(po_path(lang), "wb") as f:
        write_po(f, catalog, width=0, sort_output=True, ignore_obsolete=True, include_lineno=False,
                 omit_header=False)


def mo_bytes(lang: str) -> bytes:
    from babel.messages.mofile import write_mo

    out = io.BytesIO()
    write_mo(out, read_po(lang), use_fuzzy=False)
    return out.getvalue()


def compile_mo(lang: str) -> None:
    po_path(lang).with_suffix(".mo").write_bytes(mo_bytes(lang))


def untranslated_gettext(lang: str) -> list[str]:
    """Marked strings with no (or an empty, or a fuzzy) translation in the .po."""
    catalog = read_po(lang)
    missing = []
    for msgid in extract_gettext():
        message = catalog.get(msgid if isinstance(msgid, str) else msgid[0])
        strings = [] if message is None else (
            list(message.string) if isinstance(message.string, (tuple, list)) else [message.string])
        if message is None or message.fuzzy or not strings or not all(s.strip() for s in strings):
            missing.append(msgid if isinstance(msgid, str) else msgid[0])
    return missing


# ----- Qt (gui) ------------------------------------------------------------------------------------------------
def qt_sources() -> list[Path]:
    return sorted((PACKAGE / "gui").rglob("*.py"))


def ts_path(lang: str) -> Path:
    return TRANSLATIONS / f"{DOMAIN}_{lang}.ts"


def qt_tool(name: str) -> str:
    """pyside6-lupdate / pyside6-lrelease beside this Python (the venv), else on PATH."""
    suffix = ".exe" if os.name == "nt" else ""
    beside = Path(sys.executable).with_name(f"pyside6-{name}{suffix}")
    found = str(beside) if beside.exists() else shutil.which(f"pyside6-{name}")
    if not found:
        raise FileNotFoundError(f"pyside6-{name} not found (it comes with PySide6)")
    return found


def lupdate(ts: Path, lang: str) -> None:
    """Merge the GUI's strings into `ts` (created when missing), dropping the obsolete ones."""
    files = [str(p.relative_to(ROOT)) for p in qt_sources()]
    subprocess.run([qt_tool("lupdate"), "-silent", "-no-obsolete", "-locations", "none", "-target-language", lang,
                    *files, "-ts", str(ts)], cwd=ROOT, check=True)


def lrelease(ts: Path, qm: Path) -> None:
    subprocess.run([qt_tool("lrelease"), "-silent", str(ts), "-qm", str(qm)], cwd=ROOT, check=True)


def ts_messages(ts: Path) -> Iterator[tuple[str, str, ElementTree.Element]]:
    """(context, source, <translation>) for every message of a .ts file."""
    for context in ElementTree.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            yield name, message.findtext("source") or "", message.find("translation")


def unfinished_qt(ts: Path) -> list[tuple[str, str]]:
    """Messages of `ts` without a finished, non-empty translation."""
    out = []
    for context, source, translation in ts_messages(ts):
        forms = translation.findall("numerusform") if translation is not None else []
        texts = [f.text or "" for f in forms] if forms else [translation.text or "" if translation is not None else ""]
        if translation is None or translation.get("type") in ("unfinished", "vanished", "obsolete") \
                or not all(t.strip() for t in texts):
            out.append((context, source))
    return out


def fresh_ts(lang: str) -> Path:
    """A copy of the shipped .ts updated from the current sources, in a temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="evaleditor-ts-"))
    copy = folder / ts_path(lang).name
    if ts_path(lang).exists():
        shutil.copyfile(ts_path(lang), copy)
    lupdate(copy, lang)
    return copy


# ----- commands ------------------------------------------------------------------------------------------------
def update() -> None:
    for lang in LANGUAGES:
        update_po(lang)
        lupdate(ts_path(lang), lang)


def compile_all() -> None:
    for lang in LANGUAGES:
        compile_mo(lang)
        lrelease(ts_path(lang), ts_path(lang).with_suffix(".qm"))


def check() -> list[str]:
    problems = []
    for lang in LANGUAGES:
        problems += [f"{lang} gettext: untranslated {m!r}" for m in untranslated_gettext(lang)]
        problems += [f"{lang} Qt: untranslated [{c}] {s!r}" for c, s in unfinished_qt(fresh_ts(lang))]
    return problems


def main(argv: list[str]) -> int:
    what = argv[0] if argv else ""
    if what == "update":
        update()
    elif what == "compile":
        compile_all()
    elif what == "check":
        problems = check()
        print("\n".join(problems) or "translations complete")
        return 1 if problems else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
