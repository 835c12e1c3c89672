"""Quick fixes (rules.md): an issue -> an undoable command. "Fix all" is one Batch, one undo step.

Fixes that need a choice from the user (which column to rename to the question, saving as .xlsx)
are not commands; `fix_command` returns None for them and the window offers its own dialog.
"""

from __future__ import annotations

from evaleditor.core import toolcalls
from evaleditor.core.checks import CONTROL
from evaleditor.core.commands import Batch, Command, InsertColumn, RenameColumn, ReorderRows, SetCells
from evaleditor.core.i18n import N_, NP_, Msg
from evaleditor.core.rules import RULES, Issue
from evaleditor.core.sessions import sorted_order
from evaleditor.core.targets import SESSION, TURN
from evaleditor.core.validation import Validator

FIX_LABELS = {
    "rename-header": N_("Rename the header"),
    "remove-control-characters": N_("Remove control characters"),
    "repair-tool-calls": N_("Repair the tool calls"),
    "trim-session-id": N_("Trim the session id"),
    "renumber-session": N_("Renumber the session's turns"),
    "sort-sessions": N_("Sort rows by session and turn"),
    "add-turn-numbers": N_("Add turn numbers from file order"),
}


def fix_label(rule: str) -> str | None:
    """The quick fix's label in English (a msgid: `i18n.text(label)` shows it translated)."""
    fix = RULES[rule].fix
    return FIX_LABELS.get(fix) if fix else None


def fix_command(v: Validator, issue: Issue, guessed: list[int] | None = None) -> Command | None:
    """The command that fixes this one issue, or None when no automatic fix applies. `guessed` gains the
    row's id when the fix is a guess the user should check (a tool call given an empty "arguments")."""
    fix = RULES[issue.rule].fix
    ds = v.ds
    if fix == "rename-header" and issue.column_id is not None:
        fld = SESSION if issue.rule == "misspelled-session-column" else TURN
        return RenameColumn(issue.column_id, ds.target.header_in(fld, ds.headers()), FIX_LABELS[fix])
    if fix in ("remove-control-characters", "repair-tool-calls", "trim-session-id"):
        if issue.row_id is None or issue.column_id is None:
            return None
        text = ds.cell(issue.row_id, issue.column_id)
        new, added = _fixed_text(fix, text)
        if new is None or new == text:
            return None
        if added and guessed is not None:
            guessed.append(issue.row_id)
        label = Msg(NP_('Repair the tool calls (an empty "arguments" added to {n} call)',
                        'Repair the tool calls (an empty "arguments" added to {n} calls)', "n"),
                    (("n", added),)) if added else FIX_LABELS[fix]
        return SetCells([(issue.row_id, issue.column_id, new)], label)
    if fix == "renumber-session" and issue.row_id is not None:
        sid = v.sessions.session_of.get(issue.row_id)
        return renumber_sessions(v, [sid]) if sid else None
    if fix == "sort-sessions":
        order = sorted_order(ds, v.sessions)
        return None if order == [r.id for r in ds.rows] else ReorderRows(order, FIX_LABELS[fix])
    if fix == "add-turn-numbers":
        return _add_turn_numbers(v)
    return None


def fix_all_command(v: Validator, rule: str, guessed: list[int] | None = None) -> Command | None:
    """One command fixing every issue of `rule`, or None; `guessed` as fix_command's."""
    fix = RULES[rule].fix
    if fix in ("sort-sessions", "add-turn-numbers"):
        return fix_command(v, Issue(rule, "", ""))
    issues = [i for i in v.all_issues() if i.rule == rule]
    if fix == "renumber-session":
        sids = list(dict.fromkeys(v.sessions.session_of.get(i.row_id) for i in issues if i.row_id is not None))
        return renumber_sessions(v, [s for s in sids if s], _all(fix, rule))
    commands = [c for c in (fix_command(v, i, guessed) for i in issues) if c is not None]
    if not commands:
        return None
    if all(isinstance(c, SetCells) for c in commands):
        merged = [change for c in commands for change in c.changes]  # type: ignore[attr-defined]
        return SetCells(merged, _all(fix, rule))
    return Batch(commands, _all(fix, rule))


def _all(fix: str | None, rule: str) -> Msg:
    """"<label> (all <rule>)": the undo text of a fix-all."""
    return Msg(N_("{label} (all {rule})"), (("label", Msg(FIX_LABELS.get(fix or "", N_("Fix")))), ("rule", rule)))


def _fixed_text(fix: str, text: str) -> tuple[str | None, int]:
    """The fixed text (None: cannot be fixed), and how many tool calls the fix gave an empty "arguments"."""
    if fix == "remove-control-characters":
        return CONTROL.sub("", text), 0
    if fix == "repair-tool-calls":
        return toolcalls.repaired(text) or (None, 0)
    return text.strip(), 0


def renumber_sessions(v: Validator, sids: list[str], text: str = FIX_LABELS["renumber-session"]) -> Command | None:
    """Number each session's turns 1..n, in turn order where numbered (file order breaks ties)."""
    ds = v.ds
    turn_pos = ds.field_position(TURN)
    if turn_pos is None:
        return None
    col_id = ds.columns[turn_pos].id
    changes = []
    for sid in sids:
        if sid not in v.sessions.sessions:
            continue
        for n, rid in enumerate(v.sessions.in_turn_order(sid), 1):
            if ds.row(rid).cells[turn_pos] != str(n):
                changes.append((rid, col_id, str(n)))
    return SetCells(changes, text) if changes else None


def _add_turn_numbers(v: Validator) -> Command | None:
    """A turn column numbered in file order; not when a column is a near-miss of the turn header
    (`Turn_ID`): renaming that one keeps the file's own numbers (misspelled-turn-column's fix)."""
    ds = v.ds
    spos = ds.field_position(SESSION)
    if spos is None or ds.field_position(TURN) is not None or ds.misspelled(TURN):
        return None
    values = {}
    for members in v.sessions.sessions.values():
        for n, rid in enumerate(members, 1):
            values[rid] = str(n)
    column = ds.new_column(ds.target.header_in(TURN, ds.headers()))
    return InsertColumn(spos + 1, column, values, FIX_LABELS["add-turn-numbers"])
