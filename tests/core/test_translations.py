"""The shipped gettext catalogue (core, io, CLI) is complete and compiled: every marked string of the
source has a translation keeping its {fields}, and the committed .mo is the .po compiled.
(The Qt side is tests/gui/test_translations_qt.py.)"""

import ast
import gettext
import importlib.util
import io
import string
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("translations_tool", ROOT / "scripts" / "translations.py")
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)
LANGS = tool.LANGUAGES


def fields(text: str) -> set[str]:
    """The replacement fields of a str.format template ({n:,} -> n, {header!r} -> header)."""
    return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}


def test_the_extractor_sees_the_rule_messages_and_the_cli():
    found = tool.extract_gettext()
    assert "The question is empty: every case needs one" in found
    assert ("{n} error", "{n} errors") in found
    assert "check files and list every issue" in found
    assert any("checks.py" in place for place in found["The question is empty: every case needs one"])


@pytest.mark.parametrize("lang", LANGS)
def test_every_marked_string_has_a_translation(lang):
    missing = tool.untranslated_gettext(lang)
    assert not missing, f"{len(missing)} strings lack a {lang} translation; run `python3 dev.py translations` " \
                        f"and translate them in {tool.po_path(lang).relative_to(ROOT)}: {missing[:5]}"


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_the_fields_of_their_msgid(lang):
    for message in tool.read_po(lang):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        want = set().union(*(fields(i) for i in ids))
        for text in strings:
            assert fields(text) <= want and (fields(text) == want or len(ids) > 1), (message.id, text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_committed_mo_is_the_po_compiled(lang):
    shipped = gettext.GNUTranslations(io.BytesIO(tool.po_path(lang).with_suffix(".mo").read_bytes()))
    compiled = gettext.GNUTranslations(io.BytesIO(tool.mo_bytes(lang)))
    assert shipped._catalog == compiled._catalog, "stale .mo: run `python3 dev.py translations`"


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalogue_loads_from_the_package(lang):
    from evaleditor.core import i18n

    try:
        assert i18n.set_language(lang) == lang
        assert i18n._("Paste") != "Paste"
        assert i18n.ngettext("{n} error", "{n} errors", 2).format(n=2) != "2 errors"
    finally:
        i18n.set_language("en")


def test_only_literals_are_marked_and_the_gui_does_not_use_gettext_for_its_own_strings():
    """A marker must hold a literal (or the extractor misses it); the GUI's strings go through Qt."""
    for path in sorted((ROOT / "evaleditor").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_gui = "gui" in path.relative_to(ROOT / "evaleditor").parts
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
                name = node.func.id
                if name in ("N_", "NP_") or (name in ("_", "ngettext") and not in_gui):
                    literal = [a for a in node.args[:2 if name in ("NP_", "ngettext") else 1]
                               if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                    assert len(literal) == (2 if name in ("NP_", "ngettext") else 1), \
                        f"{path.name}:{node.lineno}: {name}() needs literal text (i18n.text() looks up a variable)"
                    assert not in_gui, f"{path.name}:{node.lineno}: the GUI marks strings with translate()"
