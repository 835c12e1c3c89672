"""The shipped Qt translation is complete and compiled: pyside6-lupdate run on the GUI's sources
finds no string without a finished translation, nor one the shipped .ts lacks or no longer needs;
the committed .qm is the .ts compiled; translations keep their {fields} and mnemonics; and every GUI
string is written so that lupdate can find it."""

import ast
import importlib.util
import re
import string
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("translations_tool", ROOT / "scripts" / "translations.py")
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)
LANGS = tool.LANGUAGES
GUI = ROOT / "evaleditor" / "gui"
# setters whose string argument the user reads: a literal with letters here must be translated
TEXT_SETTERS = {"setText", "setToolTip", "setStatusTip", "setWindowTitle", "setPlaceholderText", "showMessage",
                "addAction", "addMenu", "setAccessibleName", "setAccessibleDescription", "addItem", "setTitle",
                "QLabel", "QPushButton", "QToolButton", "QCheckBox", "QAction", "QDockWidget", "show_error"}


def have_tools() -> bool:
    try:
        tool.qt_tool("lupdate"), tool.qt_tool("lrelease")
    except FileNotFoundError:
        return False
    return True


needs_tools = pytest.mark.skipif(not have_tools(), reason="pyside6-lupdate / pyside6-lrelease not installed")


@pytest.fixture(scope="module")
def fresh():
    """Per language: the shipped .ts merged with the strings lupdate finds in the sources now."""
    return {lang: tool.fresh_ts(lang) for lang in LANGS}


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}


@needs_tools
@pytest.mark.parametrize("lang", LANGS)
def test_every_gui_string_has_a_finished_translation(fresh, lang):
    missing = tool.unfinished_qt(fresh[lang])
    assert not missing, f"{len(missing)} GUI strings lack a {lang} translation; run `python3 dev.py translations` " \
                        f"and translate them in {tool.ts_path(lang).name} (pyside6-linguist): {missing[:5]}"


@needs_tools
@pytest.mark.parametrize("lang", LANGS)
def test_the_shipped_ts_has_exactly_the_sources_strings(fresh, lang):
    shipped = {(c, s) for c, s, _ in tool.ts_messages(tool.ts_path(lang))}
    current = {(c, s) for c, s, _ in tool.ts_messages(fresh[lang])}
    assert current - shipped == set(), "new strings: run `python3 dev.py translations`"
    assert shipped - current == set(), "strings no longer in the code: run `python3 dev.py translations`"


@needs_tools
@pytest.mark.parametrize("lang", LANGS)
def test_the_committed_qm_is_the_ts_compiled(tmp_path, lang):
    qm = tmp_path / "check.qm"
    tool.lrelease(tool.ts_path(lang), qm)
    assert qm.read_bytes() == tool.ts_path(lang).with_suffix(".qm").read_bytes(), \
        "stale .qm: run `python3 dev.py translations`"


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_fields_and_mnemonics(lang):
    for context, source, translation in tool.ts_messages(tool.ts_path(lang)):
        text = translation.text or ""
        assert fields(text) == fields(source), (context, source, text)
        if "&" in source.replace("&&", "") and context in ("Menus", "ContextMenu", "FindReplace", "Banner", "FilterBar"):
            letter = source[source.index("&") + 1].upper()
            assert f"(&{letter})" in text, f"{context}: {source!r} -> {text!r} lost its mnemonic"


def _calls(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield node, getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and getattr(inner.func, "id", None) in ("translate", "QT_TRANSLATE_NOOP"):
                    raise AssertionError(f"{path.name}:{inner.lineno}: lupdate cannot see a translate() inside an "
                                         "f-string; compute it first")


@pytest.mark.parametrize("path", sorted(GUI.rglob("*.py")), ids=lambda p: p.relative_to(GUI).as_posix())
def test_gui_strings_are_written_for_lupdate(path):
    """translate("Context", "literal") — no variable context, no f-string source — and no bare English
    literal handed to a widget (it would never be translated)."""
    for node, name in _calls(path):
        if name in ("translate", "QT_TRANSLATE_NOOP") and len(node.args) >= 2:
            context, source = node.args[:2]
            if isinstance(source, ast.Constant) or isinstance(source, ast.JoinedStr):
                assert isinstance(context, ast.Constant), f"{path.name}:{node.lineno}: literal context needed"
                assert isinstance(source, ast.Constant), f"{path.name}:{node.lineno}: no f-string source text"
        elif name in TEXT_SETTERS:
            for arg in list(node.args) + [k.value for k in node.keywords if k.arg == "text"]:
                literal = arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
                if isinstance(arg, ast.JoinedStr):
                    literal = "".join(v.value for v in arg.values if isinstance(v, ast.Constant))
                words = re.sub(r"<[^>]*>", "", literal or "")
                if any(c.isalpha() for c in words) and words != "evaleditor":
                    raise AssertionError(f"{path.name}:{node.lineno}: untranslated text {literal!r}")


def test_qt_own_strings_follow_too(qapp):
    """Standard buttons (QMessageBox Save / Cancel …) come from Qt's qtbase_zh_CN.qm, installed with ours."""
    from PySide6.QtCore import QCoreApplication

    from evaleditor.gui.window import language

    if not language.qm_files("zh_CN")[1].exists():
        pytest.skip("this Qt build ships no translations")
    try:
        language.apply("zh_CN")
        assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "\u53d6\u6d88"
    finally:
        language.apply("en")
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel"
