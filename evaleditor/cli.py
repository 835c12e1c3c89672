"""`evaleditor`: the editor, and headless validate | shape | convert | template (cli.md).

Exit status: 0 no errors; 1 the file has errors, or convert refused to write; 2 the file could
not be read or written, or the arguments are wrong (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from evaleditor import __version__
from evaleditor.core import i18n
from evaleditor.core.i18n import _, ngettext
from evaleditor.core.targets import TARGET_NAMES

COMMANDS = ("validate", "shape", "convert", "template")


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2 (argparse prints usage otherwise)
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="evaleditor", description=_("Edit and check AI-agent evaluation datasets."),
                epilog=_("Without a command: `evaleditor [FILE …]` opens the editor, `evaleditor --demo` opens "
                         "it on the bundled sample."))
    p.add_argument("--version", action="version", version=f"evaleditor {__version__}")
    sub = p.add_subparsers(dest="command")

    def common(sp: argparse.ArgumentParser, sheet: bool = True) -> None:
        sp.add_argument("--target", choices=TARGET_NAMES, help=_("check against this target (default: inferred)"))
        if sheet:
            sp.add_argument("--sheet", help=_("the workbook sheet to read (default: the first with a question header)"))

    v = sub.add_parser("validate", help=_("check a file and list every issue"))
    v.add_argument("file")
    common(v)
    v.add_argument("--format", choices=("text", "json"), default="text",
                   help=_("text (in your language) or json (English, for scripts)"))
    s = sub.add_parser("shape", help=_("print how the service will read the file"))
    s.add_argument("file")
    common(s)
    c = sub.add_parser("convert", help=_("write IN as OUT (.xlsx, .csv or .json)"))
    c.add_argument("input")
    c.add_argument("output")
    common(c)
    c.add_argument("--headers", choices=("en", "zh"), help=_("header language for the target"))
    t = sub.add_parser("template", help=_("write an empty dataset with a target's headers"))
    t.add_argument("output")
    t.add_argument("--target", choices=TARGET_NAMES, required=True)
    t.add_argument("--headers", choices=("en", "zh"), default="en", help=_("header language for the target"))
    return p


def _gui_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="evaleditor", description=_("Open the editor. Headless: evaleditor {commands} --help.").format(
        commands="{validate,shape,convert,template}"))
    p.add_argument("--version", action="version", version=f"evaleditor {__version__}")
    p.add_argument("--demo", action="store_true", help=_("open the bundled sample dataset"))
    p.add_argument("files", nargs="*", help=_("files to open"))
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    i18n.set_language(None)  # LANGUAGE, LC_ALL, LC_MESSAGES, LANG; the JSON report stays English
    try:
        if argv and argv[0] in COMMANDS or argv[:1] in (["-h"], ["--help"]):
            args = _parser().parse_args(argv)
            return {"validate": _validate, "shape": _shape, "convert": _convert, "template": _template}[
                args.command](args) if args.command else 0
        args = _gui_parser().parse_args(argv)
        return _gui(args.files, args.demo)
    except UsageError as exc:
        print(_("evaleditor: error: {reason}").format(reason=exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(_("evaleditor: interrupted"), file=sys.stderr)
        return 2


def gui_main() -> int:
    return main()


def _fail(reason: str) -> int:
    print(_("evaleditor: {reason}").format(reason=reason), file=sys.stderr)
    return 2


def _emit(text: str) -> None:
    """Print to stdout; a reader that stopped listening (`… | head -1`) is not an error of ours."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit


def _load(args, path: str):
    """(document, None), or (None, (the reason in the user's language, in English for the JSON report))."""
    from evaleditor.core.errors import EvalEditorError
    from evaleditor.io.load import load_document

    try:
        return load_document(path, sheet=getattr(args, "sheet", None), target=args.target,
                             sheet_target=getattr(args, "sheet_target", None)), None
    except EvalEditorError as exc:
        return None, (i18n.error_text(exc), str(exc))
    except Exception as exc:  # a reader bug must still be one line, never a traceback
        error = f"{type(exc).__name__}: {exc}"
        return None, (_("{path}: cannot read the file ({error})").format(path=path, error=error).splitlines()[0],
                      f"{path}: cannot read the file ({error})".splitlines()[0])


def _validate(args) -> int:
    from evaleditor.core.report import report_json, report_text, unreadable_json

    doc, error = _load(args, args.file)
    if doc is None:
        if args.format == "json":
            _emit(json.dumps(unreadable_json(args.file, args.target, error[1]), ensure_ascii=False, indent=2))
        return _fail(error[0])
    if args.format == "json":
        _emit(json.dumps(report_json(doc, args.file), ensure_ascii=False, indent=2))
    else:
        _emit(report_text(doc, args.file))
    return 1 if doc.validator.counts["error"] else 0


def _shape(args) -> int:
    doc, error = _load(args, args.file)
    if doc is None:
        return _fail(error[0])
    _emit(doc.shape.line)
    return 1 if doc.validator.counts["error"] else 0  # the exit status of every command that reads a file


def _convert(args) -> int:
    from evaleditor.core.errors import EvalEditorError
    from evaleditor.core.report import issue_line
    from evaleditor.io.convert import target_problem, write_converted
    from evaleditor.io.save import output_format

    try:
        fmt = output_format(args.output)
    except EvalEditorError as exc:
        return _fail(i18n.error_text(exc))
    if problem := target_problem(args.target, fmt):
        raise UsageError(problem)
    source, error = _load(argparse.Namespace(sheet=args.sheet, target=None, sheet_target=args.target), args.input)
    if source is None:
        return _fail(error[0])
    try:
        out, blocking = write_converted(source, args.output, fmt, args.target, args.headers)
    except EvalEditorError as exc:
        return _fail(i18n.error_text(exc))
    errors = [i for i in out.validator.all_issues() if i.severity == "error"]
    for i in (blocking or errors):
        print(issue_line(out, i), file=sys.stderr)
    if blocking:
        n = len(blocking)
        print(ngettext("evaleditor: refused to write {output}: {n} cell cannot be stored in a .{format} file",
                       "evaleditor: refused to write {output}: {n} cells cannot be stored in a .{format} file",
                       n).format(output=args.output, n=n, format=fmt), file=sys.stderr)
        return 1
    if fmt == "csv":  # formulas Excel would run: a warning, the exit status is unchanged
        from evaleditor.core.export import export_rows
        from evaleditor.io.text.csv_safety import formula_warning

        if warning := formula_warning(out.dataset.headers(), export_rows(out.dataset)):
            print(_("evaleditor: warning: {message}").format(message=i18n.text(warning)), file=sys.stderr)
    if fmt != "json" and (lost := source.validator.rows_noted("sdk-not-shown")):
        print(ngettext("evaleditor: warning: {n} case holds data a table cannot show (an agent trace, rubrics, "
                       "images …); {output} does not keep it: convert to .json to keep it",
                       "evaleditor: warning: {n} cases hold data a table cannot show (agent traces, rubrics, "
                       "images …); {output} does not keep it: convert to .json to keep it", lost).format(
                           n=lost, output=args.output), file=sys.stderr)
    _emit(_("{output}: {shape} (target {target})").format(output=args.output, shape=out.shape.line,
                                                         target=out.dataset.target.name))
    return 1 if errors else 0


def _template(args) -> int:
    from evaleditor.core.errors import EvalEditorError
    from evaleditor.io.convert import target_problem
    from evaleditor.io.save import output_format, save_document, template_document

    try:
        fmt = output_format(args.output)
        if problem := target_problem(args.target, fmt):
            raise UsageError(problem)
        save_document(template_document(args.target, args.headers), args.output)
    except EvalEditorError as exc:
        return _fail(i18n.error_text(exc))
    _emit(_("{output}: empty {target} dataset").format(output=args.output, target=args.target))
    return 0


def _gui(files: list[str], demo: bool) -> int:
    missing = [f for f in files if not Path(f).exists()]
    if missing:
        return _fail(_("{path}: no such file").format(path=missing[0]))
    try:
        from evaleditor.gui.window.app import run
    except ImportError as exc:
        return _fail(_("cannot start the window: {error} (install the Qt system libraries; see README)").format(
            error=exc))
    return run(files, demo=demo)
