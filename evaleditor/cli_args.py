"""What the command line accepts: the headless commands' arguments and the editor's (cli.md). Argument
errors are one line and exit 2 (UsageError), never argparse's usage text."""

from __future__ import annotations

import argparse

from evaleditor import __version__
from evaleditor.cli_files import STREAM_FORMATS
from evaleditor.core.i18n import _
from evaleditor.core.targets import TARGET_NAMES

COMMANDS = ("validate", "shape", "convert", "template")


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2 (argparse prints usage otherwise)
        raise UsageError(message)


def command_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="evaleditor", description=_("Edit and check AI-agent evaluation datasets."),
                epilog=_("Without a command: `evaleditor [FILE …]` opens the editor, `evaleditor --demo` opens "
                         "it on the bundled sample."))
    p.add_argument("--version", action="version", version=f"evaleditor {__version__}")
    sub = p.add_subparsers(dest="command")

    def common(sp: argparse.ArgumentParser, sheet: bool = True) -> None:
        sp.add_argument("--target", choices=TARGET_NAMES, help=_("check against this target (default: inferred)"))
        if sheet:
            sp.add_argument("--sheet", help=_("the workbook sheet to read (default: the first with a question header)"))

    def reading(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--from", dest="source_format", choices=STREAM_FORMATS,
                        help=_("the format of standard input, read with -"))
        sp.add_argument("--format", choices=("text", "json"), default="text",
                        help=_("text (in your language) or json (English, for scripts)"))

    files_help = _("files or glob patterns (data/*.xlsx); - reads standard input")
    v = sub.add_parser("validate", help=_("check files and list every issue"))
    v.add_argument("files", nargs="+", metavar="FILE", help=files_help)
    common(v)
    reading(v)
    s = sub.add_parser("shape", help=_("print how the service will read each file"))
    s.add_argument("files", nargs="+", metavar="FILE", help=files_help)
    common(s)
    reading(s)
    c = sub.add_parser("convert", help=_("write IN as OUT (.xlsx, .csv or .json)"))
    c.add_argument("input", help=_("the file to read; - reads standard input"))
    c.add_argument("output", help=_("the file to write; - writes standard output"))
    common(c)
    c.add_argument("--headers", choices=("en", "zh"), help=_("header language for the target"))
    c.add_argument("--force", action="store_true", help=_("replace OUT even when it is read-only"))
    reading(c)
    c.add_argument("--to", dest="output_format", choices=STREAM_FORMATS,
                   help=_("the format written to standard output with - (default: the input's)"))
    t = sub.add_parser("template", help=_("write an empty dataset with a target's headers"))
    t.add_argument("output")
    t.add_argument("--target", choices=TARGET_NAMES, required=True)
    t.add_argument("--headers", choices=("en", "zh"), default="en", help=_("header language for the target"))
    t.add_argument("--force", action="store_true", help=_("replace OUT even when it is read-only"))
    return p


def gui_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="evaleditor", description=_("Open the editor. Headless: evaleditor {commands} --help.").format(
        commands="{validate,shape,convert,template}"))
    p.add_argument("--version", action="version", version=f"evaleditor {__version__}")
    p.add_argument("--demo", action="store_true", help=_("open the bundled sample dataset"))
    p.add_argument("files", nargs="*", help=_("files to open"))
    return p
