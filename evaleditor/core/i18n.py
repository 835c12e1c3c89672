"""Translations for the headless layers (core, io, CLI): GNU gettext, domain "evaleditor".

Messages are English msgids, marked where they are written and translated only when shown:

- `N_("…")` marks a msgid and returns it unchanged (a rule message, a fix label, a command text).
- `NP_("… {n} row", "… {n} rows", "n")` marks a singular/plural pair chosen by the argument `n`.
- `Msg(template, args)` is a message not yet rendered: `args` are (name, value) pairs for
  `str.format` fields (`{n:,}`, `{header!r}`); a value may itself be a Msg (rendered in turn).
  `str(msg)` is the English text; `text(msg)` is the text in the current language.
- `_("…")` / `ngettext(…)` translate at once (CLI help, report words).

A template with no args is never formatted, so it may hold literal braces; one with args escapes
them (`{{`). Rule issues keep their template and args (core/rules.py `Issue`): building 100k issues
does no string work, the JSON report renders English, the GUI and the CLI's text render the current
language. `scripts/translations.py` extracts the marked strings into
resources/translations/zh_CN/LC_MESSAGES/evaleditor.po and compiles the .mo beside it.
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path
from typing import NamedTuple

DOMAIN = "evaleditor"
ENGLISH = "en"
LANGUAGES = (ENGLISH, "zh_CN")  # shipped: English (the msgids) and Simplified Chinese
_ZH_HANS = {"zh", "zh_cn", "zh_sg", "zh_hans", "zh_hans_cn", "zh_hans_sg", "chinese"}


def N_(text: str) -> str:
    """Mark `text` for translation; return it unchanged (it is translated when shown)."""
    return text


class Plural(NamedTuple):
    singular: str
    plural: str
    count: str  # the name of the argument that chooses the form


def NP_(singular: str, plural: str, count: str) -> Plural:  # noqa: N802 - gettext's marker style
    """Mark a singular/plural pair, chosen by the argument named `count` when rendered."""
    return Plural(singular, plural, count)


class Msg(NamedTuple):
    """A message and its arguments, rendered when shown. Hashable; str() is English."""

    template: str | Plural
    args: tuple = ()

    def __str__(self) -> str:
        return render(self.template, self.args, translate=False)


_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = ENGLISH


def locale_dir() -> Path:
    """resources/translations, shipped as evaleditor.resources (…/zh_CN/LC_MESSAGES/evaleditor.mo)."""
    from importlib.resources import files

    return Path(str(files("evaleditor.resources") / "translations"))


def normalize(tag: str | None) -> str | None:
    """The shipped language a locale name means (`zh_CN.UTF-8`, `zh-Hans`, `en_GB`, `C` …), or None."""
    if not tag:
        return None
    base = tag.split(".")[0].split("@")[0].replace("-", "_").strip().lower()
    if base in ("c", "posix") or base == "en" or base.startswith("en_"):
        return ENGLISH
    if base in _ZH_HANS or base.startswith(("zh_hans", "chinese (simplified)")):
        return "zh_CN"
    return None


def system_language() -> str:
    """The language from the environment as gettext reads it (LANGUAGE, LC_ALL, LC_MESSAGES, LANG;
    the first one set decides), else the OS locale; English when none is shipped."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            for part in value.split(":"):
                found = normalize(part)
                if found:
                    return found
            return ENGLISH
    import locale  # here: where a variable decides (most shells), every command starts 1-2 ms sooner

    try:
        return normalize(locale.getlocale()[0]) or ENGLISH
    except (ValueError, TypeError):
        return ENGLISH


def set_language(lang: str | None) -> str:
    """Use `lang` ("en", "zh_CN", a locale name; None: the environment's). Returns the language used."""
    global _translations, _language
    chosen = system_language() if lang is None else (normalize(lang) or ENGLISH)
    if chosen == ENGLISH:
        _translations = gettext.NullTranslations()
    else:
        try:
            _translations = gettext.translation(DOMAIN, str(locale_dir()), languages=[chosen])
        except OSError:  # a build without the catalogue: English
            _translations, chosen = gettext.NullTranslations(), ENGLISH
    _language = chosen
    return chosen


def language() -> str:
    return _language


def _(text: str) -> str:
    return _translations.gettext(text)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translations.ngettext(singular, plural, n)


def render(template: str | Plural, args: tuple = (), translate: bool = True) -> str:
    """The message in the current language (English when `translate` is false)."""
    if template.__class__ is Plural:
        n = dict(args).get(template.count, 0)
        english = template.singular if n == 1 else template.plural
        chosen = _translations.ngettext(template.singular, template.plural, n) if translate else english
    else:
        english = template
        chosen = _translations.gettext(template) if translate and template else template
    if not args:
        return chosen
    values = {k: render(v.template, v.args, translate) if v.__class__ is Msg else v for k, v in args}
    try:
        return chosen.format_map(values)
    except (KeyError, IndexError, ValueError, AttributeError):  # a broken translation: English
        return english.format_map(values)


def text(value: object) -> str:
    """A Msg, or a plain msgid, in the current language (anything else as str())."""
    if isinstance(value, Msg):
        return render(value.template, value.args)
    if isinstance(value, str):
        return _translations.gettext(value) if value else value
    return str(value)


def error_text(exc: BaseException) -> str:
    """An exception's one-line reason in the current language (a Msg argument is translated)."""
    if len(exc.args) == 1 and isinstance(exc.args[0], Msg):
        return text(exc.args[0])
    whole, reason = str(exc), getattr(exc, "reason", None)
    if isinstance(reason, str) and reason and whole.endswith(reason):  # "path: reason" (ReadError, WriteError)
        from evaleditor.core.errors import one_line

        msg = getattr(exc, "reason_msg", None)  # a reason with arguments (Msg), else a catalogued msgid
        return whole[:len(whole) - len(reason)] + (one_line(text(msg)) if isinstance(msg, Msg) else text(reason))
    return whole


def localized_message(issue) -> str:
    """An Issue's message in the current language (`issue.message` stays English)."""
    return render(issue.template, issue.args)
