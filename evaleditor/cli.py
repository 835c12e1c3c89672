"""`evaleditor`: the editor, and headless validate | shape | convert | template (cli.md).

Exit status: 0 no errors; 1 the file has errors, or convert refused to write; 2 the file could
not be read or written, or the arguments are wrong (one line on stderr, never a traceback).
"""

from __future__ import annotations

import os
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import NoReturn

from evaleditor.cli_args import COMMANDS, UsageError, command_parser, gui_parser
from evaleditor.cli_files import STREAM, STREAM_FORMATS
from evaleditor.core import i18n
from evaleditor.core.alloc import process_ends_after
from evaleditor.core.errors import one_line as escape_for_terminal
from evaleditor.core.i18n import _, ngettext

FORMAT_CHOICES = "|".join(STREAM_FORMATS)


def main(argv: list[str] | None = None) -> int:
    """`argv` None: the process's own arguments; a command that writes nothing then ends the process
    (_end_process)."""
    as_process = argv is None
    if as_process:
        _one_blas_thread()
    argv = sys.argv[1:] if argv is None else argv
    i18n.set_language(None)  # LANGUAGE, LC_ALL, LC_MESSAGES, LANG; the JSON report stays English
    try:
        if argv and argv[0] in COMMANDS or argv[:1] in (["-h"], ["--help"]):
            args = command_parser().parse_args(argv)
            if args.command in WRITING_NOTHING:
                with process_ends_after() if as_process else nullcontext():
                    code, _last_read = WRITING_NOTHING[args.command](args)
                if as_process:
                    _end_process(code)  # _last_read still alive: the operating system frees it
                return code
            return {"convert": _convert, "template": _template}[args.command](args) if args.command else 0
        args = gui_parser().parse_args(argv)
        return _gui(args.files, args.demo)
    except UsageError as exc:
        print(_("evaleditor: error: {reason}").format(reason=escape_for_terminal(str(exc))), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(_("evaleditor: interrupted"), file=sys.stderr)
        return 2


def _one_blas_thread() -> None:
    """numpy (under pandas and pyarrow) starts one OpenBLAS thread per core at import, which evaleditor
    never uses (no linear algebra): on 2 cores they cost ~0.1 s of CPU of a 100k-row `validate`.
    A value the user set stays."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _end_process(code: int) -> NoReturn:
    """End the process now, what it printed flushed: the document read is left to the operating system
    (a 100k-row file is a million objects, 0.1 s to free one by one on the way out, for nothing)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader that stopped listening, a stream closed
            pass
    os._exit(code)


def gui_main() -> int:
    return main()


def _fail(reason: str) -> int:
    print(_("evaleditor: {reason}").format(reason=escape_for_terminal(reason)), file=sys.stderr)
    return 2


def _emit(text: str) -> None:
    """Print to stdout; a reader that stopped listening (`… | head -1`) is not an error of ours."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        _emit_nowhere()


def _emit_nowhere() -> int:
    """Standard output's reader has gone: send the rest nowhere, so that exiting raises no second error."""
    import os

    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _json_line(report: dict) -> None:
    """One report as one line of JSON (JSON Lines: one per file). C1 control characters (U+0080-U+009F,
    which some terminals obey) are escaped too, as JSON escapes C0 ones."""
    import json  # here: validate imports it with the core (core/toolcalls.py), while calamine opens a workbook
    import re

    _emit(re.sub("[\x80-\x9f]", lambda m: f"\\u{ord(m.group()):04x}", json.dumps(report, ensure_ascii=False)))


def _load(args, name: str, target: str | None, sheet_target: str | None = None, report_only: bool = False):
    """(document, None), or (None, (the reason in the user's language, in English for the JSON report)).
    `name` is a file, an unmatched glob pattern, `-` (standard input, in the format --from or its first bytes
    say), or a pipe or device, read as standard input is (cli_files.stream_copy). `report_only`: see
    load_document (validate and shape)."""
    from evaleditor.cli_files import is_pattern, is_pipe, stream_copy
    from evaleditor.core.errors import EvalEditorError, ReadError
    from evaleditor.core.i18n import N_
    from evaleditor.io.load import load_document

    try:
        if is_pattern(name):
            raise ReadError(name, N_("no file matches this pattern"))
        if name != STREAM and not is_pipe(name):
            return load_document(name, sheet=args.sheet, target=target, sheet_target=sheet_target,
                                 report_only=report_only), None
        with stream_copy(name, args.source_format) as path:
            try:
                return load_document(path, sheet=args.sheet, target=target, sheet_target=sheet_target,
                                     report_only=report_only), None
            except ReadError as exc:  # said of "-", not of the temporary copy
                raise ReadError(name, exc.reason) from None
    except EvalEditorError as exc:
        return None, (i18n.error_text(exc), str(exc))
    except Exception as exc:  # a reader bug must still be one line, never a traceback
        error = f"{type(exc).__name__}: {exc}"
        return None, (_("{path}: cannot read the file ({error})").format(path=name, error=error).splitlines()[0],
                      f"{name}: cannot read the file ({error})".splitlines()[0])


def _files(args) -> list[str]:
    """The files named, patterns expanded; `-` at most once (its format --from's, else its first bytes')."""
    from evaleditor.cli_files import expand

    names = expand(args.files)
    if names.count(STREAM) > 1:
        raise UsageError(_("standard input (-) can be read only once"))
    return names


def _validate(args):
    """Each file's report (text, or one JSON line each); with several files a summary line. Returns the
    exit status (the worst file's) and the last document read (main ends the process with it alive)."""
    from collections import Counter

    names = _files(args)
    worst, with_errors, unreadable, totals = 0, 0, 0, Counter()
    doc = None
    for n, name in enumerate(names):
        if n and args.format == "text":
            _emit("")
        doc = None  # the one before, freed before the next is read
        doc, error = _load(args, name, args.target, report_only=True)
        # imported after the first read, which imports the core while calamine opens a workbook (io/load.py)
        from evaleditor.core.report import count_line, report_json, report_text, unreadable_json

        if doc is None:
            if args.format == "json":
                _json_line(unreadable_json(name, args.target, error[1]))
            worst, unreadable = max(worst, _fail(error[0])), unreadable + 1
            continue
        if args.format == "json":
            _json_line(report_json(doc, name))
        else:
            _emit(report_text(doc, name))
        counts = doc.validator.counts
        totals.update({k: counts[k] for k in ("error", "warning", "info")})
        with_errors += bool(counts["error"])
        worst = max(worst, 1 if counts["error"] else 0)
    if len(names) > 1 and args.format == "text":
        _emit(_("{files}: {with_errors}, {unreadable}; {counts}").format(
            files=ngettext("{n} file", "{n} files", len(names)).format(n=len(names)),
            with_errors=ngettext("{n} with errors", "{n} with errors", with_errors).format(n=with_errors),
            unreadable=ngettext("{n} unreadable", "{n} unreadable", unreadable).format(n=unreadable),
            counts=count_line({k: totals[k] for k in ("error", "warning", "info")})))
    return worst, doc


def _shape(args):
    """Each file's shape line (`FILE: line` when there are several), or one JSON object per line. Returns
    the exit status and the last document read, as _validate."""
    from evaleditor.core.report import shape_report_json, unreadable_shape_json

    names = _files(args)
    worst, doc = 0, None
    for name in names:
        doc = None  # the one before, freed before the next is read
        doc, error = _load(args, name, args.target, report_only=True)
        if doc is None:
            if args.format == "json":
                _json_line(unreadable_shape_json(name, args.target))
            worst = max(worst, _fail(error[0]))
            continue
        if args.format == "json":
            _json_line(shape_report_json(doc, name))
        else:
            _emit(escape_for_terminal(f"{name}: {doc.shape.line}" if len(names) > 1 else doc.shape.line))
        worst = max(worst, 1 if doc.validator.counts["error"] else 0)  # the exit status of every command that reads
    return worst, doc


# the commands that write no file: they return (exit status, the last document read), and run as the
# process they end it with that document alive
WRITING_NOTHING = {"validate": _validate, "shape": _shape}


def _convert(args) -> int:
    """Write the input as the output (`-`: standard input / output, in the format --from / --to or
    the other file's suffix says); with --format json, the output's report as one JSON line."""
    from evaleditor.cli_files import output_path, stream_format
    from evaleditor.core.errors import EvalEditorError, UnstorableCell
    from evaleditor.core.report import issue_line, left_out_json, report_json, unreadable_json
    from evaleditor.core.saving import shape_change_text, target_problem
    from evaleditor.io.convert import write_converted
    from evaleditor.io.save import output_format, plan_save

    if args.output == STREAM:
        if args.format == "json":
            raise UsageError(_("--format json and the converted file cannot both go to standard output"))
        if not (fmt := args.output_format or stream_format(args.input, args.source_format)):
            raise UsageError(_("say the format of standard output: --to {formats}").format(formats=FORMAT_CHOICES))
    else:
        try:
            fmt = output_format(args.output)
        except EvalEditorError as exc:
            return _fail(i18n.error_text(exc))
    if problem := target_problem(args.target, fmt):
        raise UsageError(problem)
    source, error = _load(args, args.input, None, sheet_target=args.target)
    if source is None:
        if args.format == "json":
            _convert_json(args, unreadable_json(args.output, args.target, error[1]), None, False, left_out_json(None))
        return _fail(error[0])
    # what the file will hold and leave out: the window's Save As plan (core/saving.py)
    plan = plan_save(source, fmt, args.target, args.headers, None if args.output == STREAM else args.output)
    try:
        with output_path(args.output, fmt) as path:
            out, blocking = write_converted(source, path, plan, replace_read_only=args.force)
    except UnstorableCell as exc:  # the data's fault, as a blocking finding is: exit 1, nothing written
        _unwritten_report(args, source, plan)
        print(_("evaleditor: refused to write {output}: {reason}").format(
            output=escape_for_terminal(args.output), reason=escape_for_terminal(exc.reason)), file=sys.stderr)
        return 1
    except EvalEditorError as exc:
        _unwritten_report(args, source, plan)
        return _fail(i18n.error_text(exc))
    except BrokenPipeError:
        return _emit_nowhere()
    if args.format == "json":
        _convert_json(args, report_json(out, args.output), source, not blocking, left_out_json(plan, out.dataset))
    errors = [i for i in out.validator.all_issues() if i.severity == "error"]
    for i in (blocking or errors):
        print(issue_line(out, i), file=sys.stderr)
    if blocking:
        n = len(blocking)
        print(ngettext("evaleditor: refused to write {output}: {n} cell cannot be stored in a .{format} file",
                       "evaleditor: refused to write {output}: {n} cells cannot be stored in a .{format} file",
                       n).format(output=escape_for_terminal(args.output), n=n, format=fmt), file=sys.stderr)
        return 1
    if fmt == "csv":  # formulas Excel would run: a warning, the exit status is unchanged
        from evaleditor.core.export import export_rows
        from evaleditor.io.text.csv_safety import formula_warning

        if warning := formula_warning(out.dataset.headers(), export_rows(out.dataset)):
            print(_("evaleditor: warning: {message}").format(message=i18n.text(warning)), file=sys.stderr)
    for warning in _left_out_warnings(plan, out, escape_for_terminal(args.output)):
        print(warning, file=sys.stderr)
    if change := shape_change_text(plan, source.dataset.target.name):  # the file no longer means what it did
        print(_("evaleditor: warning: {message}").format(message=escape_for_terminal(
            f"{args.output}: {i18n.text(change)}")), file=sys.stderr)
    _warn_headers_unavailable(args.headers, out.dataset.target, kept=out.dataset.headers() == source.dataset.headers())
    done = escape_for_terminal(_("{output}: {shape} (target {target})").format(
        output=args.output, shape=out.shape.line, target=out.dataset.target.name))
    if args.output == STREAM:  # standard output holds the file
        print(done, file=sys.stderr)
    elif args.format == "text":
        _emit(done)
    return 1 if errors else 0


def _warn_headers_unavailable(headers: str | None, target, kept: bool = False) -> None:
    """--headers zh for a target that has no Chinese spelling: said, exit status unchanged. The headers are
    then `kept` as the file has them, unless another target (given, or the output's) spells them in English."""
    if headers == "zh" and not target.headers_zh:
        print((_("evaleditor: warning: {target} has no Chinese header spelling: the headers are kept as the file "
                 "has them") if kept else
               _("evaleditor: warning: {target} has no Chinese header spelling: the headers are written in "
                 "English")).format(target=target.name), file=sys.stderr)


def _left_out_warnings(plan, out, output: str) -> list[str]:
    """What the written file does not hold of the input (the save plan's list, as the window asks it);
    `out`: the document as written."""
    from evaleditor.core.report import replaced_rows, some_of

    said = []
    if plan.other_sheets:
        said.append(_("evaleditor: warning: {output} now holds one sheet: its other sheets ({names}) are not "
                      "kept").format(output=output, names=", ".join(plan.other_sheets)))
    if n := plan.hidden_cases:
        said.append(ngettext("evaleditor: warning: {n} case holds data a table cannot show (an agent trace, rubrics, "
                             "images …); {output} does not keep it: convert to .json to keep it",
                             "evaleditor: warning: {n} cases hold data a table cannot show (agent traces, rubrics, "
                             "images …); {output} does not keep it: convert to .json to keep it", n).format(
                                 n=n, output=output))
    if n := len(plan.replaced_traces):
        rows = some_of(replaced_rows(plan, out.dataset))
        said.append(ngettext("evaleditor: warning: {n} row is now a later turn of a conversation, whose history "
                             "replaces the earlier turns of its own agent trace in {output} (row {rows})",
                             "evaleditor: warning: {n} rows are now a later turn of a conversation, whose history "
                             "replaces the earlier turns of their own agent traces in {output} (rows {rows})",
                             n).format(n=n, output=output, rows=rows))
    said += [_("evaleditor: warning: {output} leaves out {what}").format(  # another platform's file cannot hold it
        output=output, what=escape_for_terminal(i18n.text(what))) for what in plan.format_limits]
    return said


def _unwritten_report(args, source, plan) -> None:
    """With --format json, the report of an output that could not be written (`written` false)."""
    if args.format == "json":
        from evaleditor.core.report import left_out_json, report_json
        from evaleditor.io.convert import as_planned

        out = as_planned(source, plan)
        _convert_json(args, report_json(out, args.output), source, False, left_out_json(plan, out.dataset))


def _convert_json(args, report: dict, source, written: bool, left_out: dict) -> None:
    """convert's JSON report (core/schema.ConvertReport): the output's report, the input and its shape
    (None: unread), whether the output was written and what it leaves out."""
    _json_line({**report, "input": args.input, "input_shape": source.shape.as_json() if source is not None else None,
                "written": written, "left_out": left_out})


def _template(args) -> int:
    from evaleditor.core.errors import EvalEditorError
    from evaleditor.core.saving import target_problem
    from evaleditor.io.save import output_format, save_document, template_document

    try:
        fmt = output_format(args.output)
        if problem := target_problem(args.target, fmt):
            raise UsageError(problem)
        save_document(template_document(args.target, args.headers), args.output, replace_read_only=args.force)
    except EvalEditorError as exc:
        return _fail(i18n.error_text(exc))
    from evaleditor.core.targets import get_target

    _warn_headers_unavailable(args.headers, get_target(args.target))
    _emit(escape_for_terminal(_("{output}: empty {target} dataset").format(output=args.output, target=args.target)))
    return 0


def _gui(files: list[str], demo: bool) -> int:
    missing = [f for f in files if not Path(f).exists()]
    if missing:
        return _fail(_missing_file(missing[0], first=missing[0] == files[0]))
    if (why := no_display(os.environ, sys.platform)) is not None:
        return _fail(why)
    preloaded = read_ahead(files)
    try:
        from evaleditor.gui.window.app import run
    except ImportError as exc:
        return _fail(_("cannot start the window: {error} (install the Qt system libraries; see README)").format(
            error=exc))
    return run(files, demo=demo, preloaded=preloaded)


def read_ahead(files: list[str]):
    """The first file's read, started before Qt is imported and the window built (io.load.Preload),
    when the window would read it in the background anyway: with a 100k-row workbook the window is up
    while calamine is still parsing."""
    from evaleditor.io.load import BACKGROUND_BYTES, Preload

    path = Path(files[0]) if files else None
    return Preload(path) if path is not None and path.is_file() and path.stat().st_size > BACKGROUND_BYTES else None


def _missing_file(name: str, first: bool) -> str:
    """`name: no such file`; for the first argument, named as a command is (no suffix, no folder), with
    the command it is close to (`valdiate`) or the commands."""
    if not first or Path(name).suffix or Path(name).name != name:
        return _("{path}: no such file").format(path=name)
    from difflib import get_close_matches

    if close := get_close_matches(name.lower(), COMMANDS, n=1):
        return _("{path}: no such file (did you mean {command}?)").format(path=name, command=close[0])
    return _("{path}: no such file, nor a command ({commands})").format(path=name, commands=", ".join(COMMANDS))


# Unix systems whose window needs an X11 or Wayland display (macOS and Windows have their own, always there)
DISPLAY_SYSTEMS = ("linux", "freebsd", "openbsd", "netbsd", "dragonfly", "sunos")


def no_display(env, platform: str) -> str | None:
    """Why the window cannot open here, said before Qt is started (whose xcb plugin aborts the process
    with six lines when there is no display, e.g. over SSH), or None. A QT_QPA_PLATFORM other than xcb
    (offscreen, a Wayland one, vnc …) is left to Qt, as is every system without X11/Wayland."""
    if not platform.startswith(DISPLAY_SYSTEMS):
        return None
    chosen = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if chosen not in ("", "xcb") or env.get("DISPLAY"):
        return None
    if chosen == "xcb":
        reason = _("no display (QT_QPA_PLATFORM is xcb and DISPLAY is unset)")
    elif env.get("WAYLAND_DISPLAY"):
        return None
    else:
        reason = _("no display (DISPLAY and WAYLAND_DISPLAY are unset)")
    return _("{reason}; for headless use run `evaleditor validate FILE`").format(reason=reason)
