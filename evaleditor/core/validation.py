"""Full and incremental validation.

After an edit of one row, the validator re-checks that row, the rows of the sessions it left and
joined, and the rows whose dataset-wide status (duplicate question, session id case clash) may have
flipped — never the whole dataset. Listeners hear which rows' issues changed, so a view repaints
exactly those.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, compress, filterfalse
from operator import attrgetter, itemgetter

from evaleditor.core import bulk, checks, file_checks, wide
from evaleditor.core.alloc import bulk_allocation
from evaleditor.core.check_pass import CheckPass
from evaleditor.core.dataset import Change, Dataset
from evaleditor.core.i18n import N_, NP_
from evaleditor.core.rules import Issue, make_issue
from evaleditor.core.sessions import SessionIndex
from evaleditor.core.targets import QUESTION, SESSION

IssuesListener = Callable[[set[int], bool], None]
BULK_ROWS = 2000  # an edit of more rows than this, and of half of them, is checked by a full pass
WINDOW_BULK_ROWS = 10_000  # in a window, more rows than this (~0.2 s row by row) already: the pass is in slices
_NONE: tuple[Issue, ...] = ()
_SEVERITY, _RULE = attrgetter("severity"), attrgetter("rule")
_FIRST, _SECOND = itemgetter(0), itemgetter(1)


class Validator:
    def __init__(self, ds: Dataset, sessions: SessionIndex, source_format: str | None = None,
                 file_size: int | None = None, static: Iterable[Issue] = (), deferred: bool = False,
                 scans: list[bulk.ColumnScan] | None = None):
        """`sessions`: the dataset's conversations, kept current by the index itself (it listens to the
        dataset before this validator does). `deferred`: check nothing but the file level and the
        conversations yet; `checking` (a CheckPass) then finds the rest in slices (a window paints first).
        Otherwise everything is checked now, taking what the reader learnt of each column (`scans`:
        core/table.RawTable.scans)."""
        self.ds = ds
        self.source_format = source_format
        self.save_format = source_format
        self.file_size = file_size
        self.static_file = [i for i in static if i.row_id is None]
        self.static_rows: dict[int, list[Issue]] = {}
        for i in static:
            if i.row_id is not None:
                self.static_rows.setdefault(i.row_id, []).append(i)
        self.sessions = sessions
        self.listeners: list[IssuesListener] = []
        self.counts: Counter[str] = Counter()
        self.rule_counts: Counter[str] = Counter()
        self.checking: CheckPass | None = None
        self.changes = 0  # counts the changes of the dataset and of the issues (the cache of all_issues)
        self._all: tuple[int, list[Issue]] | None = None
        self.defer_big_changes = False  # a window sets it: it runs `checking` in slices
        self.awaiting_first_case = False  # see await_first_case
        ds.subscribe(self)
        if deferred:
            self.checking = CheckPass(self)
        else:
            self.full(scans)

    # ----- queries ------------------------------------------------------------------------------
    def row_issues(self, row_id: int) -> tuple[Issue, ...]:
        return self._composed.get(row_id, _NONE)

    def file_issues(self) -> list[Issue]:
        return self._file

    def all_issues(self) -> list[Issue]:
        """File-level issues, then row issues in file order (a list of its own). Listed once per change:
        at 100k rows that takes ~50 ms, and the end of a check has the Issues panel and the banner ask."""
        if self._all is None or self._all[0] != self.changes:
            self._all = self.changes, self._issues_in_order()
        return list(self._all[1])

    def _issues_in_order(self) -> list[Issue]:
        composed = self._composed  # the rows with issues: a fifth of a big file's, or fewer
        return [*self._file, *chain.from_iterable(map(composed.__getitem__, self.ds.in_file_order(composed)))]

    def static_findings(self) -> Iterator[tuple[str, str, int | None, int | None]]:
        """What the reader found and no check re-derives (SDK schema findings …), still attached:
        (rule, message, row id or None, column id or None)."""
        for issue in chain(self.static_file, chain.from_iterable(self.static_rows.values())):
            if isinstance(issue.template, str) and not issue.args:
                yield issue.rule, issue.template, issue.row_id, issue.column_id

    def rows_noted(self, rule: str) -> int:
        """Rows with a reader finding of `rule` (sdk-not-shown: cases holding what the table cannot show)."""
        return sum(1 for issues in self.static_rows.values() if any(i.rule == rule for i in issues))

    def empty_rows(self) -> set[int]:
        """Ids of the rows that are entirely empty (not cases); kept up to date edit by edit. Read only."""
        return self._empty

    def data_row_count(self) -> int:
        return len(self.ds.rows) - len(self._empty)

    def single_row_count(self) -> int:
        return self.data_row_count() - len(self.sessions.session_of)

    def is_workbook(self) -> bool:
        return self.ds.target.workbook_only or self.save_format in ("xlsx", "xls")

    def set_save_format(self, fmt: str | None) -> None:
        """The format the document will be saved as: the workbook rules apply to .xlsx/.xls only, so
        everything is checked again only when that changes (2.5 s at 100k rows), not for csv -> json; in
        a window, a big dataset in slices (the next save finishes them first: checking.finish_now)."""
        was = self.is_workbook()
        self.save_format = fmt
        if self.is_workbook() != was:
            self._revalidate_all()

    def await_first_case(self, waiting: bool = True) -> None:
        """A new document the user has not saved yet (the window's File ▸ New): having no case yet is not
        a fault, so empty-dataset is not reported — in the Issues panel, the counts, the banner — until
        it is saved (Document.saved_as). The command line never sets it: an empty file is an error there."""
        self.awaiting_first_case = waiting
        if self._refresh_file_issues():
            self._notify(set(), True)

    def saved_as(self, fmt: str) -> None:
        """The document is now a `fmt` file: the rules about its file type follow (an evaluation set
        saved as .xlsx is no longer a .csv it cannot import)."""
        self.source_format = fmt
        self.set_save_format(fmt)
        if self._refresh_file_issues():
            self._notify(set(), True)

    def refresh_file_issues(self) -> None:
        """Check the file-level rules again (what they read of the dataset changed without an edit)."""
        if self._refresh_file_issues():
            self._notify(set(), True)

    def forget_file_findings(self, rules: Iterable[str]) -> None:
        """The reader's file-level findings of `rules` no longer describe the file (a save rewrote it)."""
        rules = set(rules)
        kept = [i for i in self.static_file if i.rule not in rules]
        if len(kept) != len(self.static_file):
            self.static_file = kept
            if self._refresh_file_issues():
                self._notify(set(), True)

    # ----- full ---------------------------------------------------------------------------------
    def full(self, scans: list[bulk.ColumnScan] | None = None) -> None:
        """Validate everything from scratch (on open, and when columns or the target change); a pass in
        slices that was under way is over. `scans`: see __init__ (true of the cells as read only)."""
        self.checking = None
        self.changes += 1
        with bulk_allocation():
            self._full(scans)

    def finish_checking(self) -> None:
        """Run the rest of a pass in slices now (before a save, a fix-all: they need every issue)."""
        while self.checking is not None:
            self.checking.step(rows=1 << 62)

    def bulk_rows(self) -> int:
        """An edit of more rows than this is checked by a full pass, not row by row: past half the rows,
        where the pass costs what checking them one by one does; in a window, whose pass runs in slices
        while the window answers, past WINDOW_BULK_ROWS (filling 50k cells of 100k rows froze it for 1 s)."""
        half = max(BULK_ROWS, len(self.ds.rows) // 2)
        return min(half, WINDOW_BULK_ROWS) if self.defer_big_changes else half

    def _revalidate_all(self, keep: bool = False, now: bool = False) -> None:
        """Validate from scratch and tell listeners every row that had or has an issue; in slices when
        `defer_big_changes` and the dataset is big, unless `now` (a window runs them: see CheckPass for
        `keep`)."""
        if self.defer_big_changes and not now and len(self.ds.rows) > BULK_ROWS:
            before = set(self._composed)
            self.checking = CheckPass(self, keep)
            self._notify(before ^ set(self._composed) if keep else before | set(self._composed), True)
            return
        before = set(self._composed)
        self.full()
        self._notify(before | set(self._composed), True)

    def _full(self, scans: list[bulk.ColumnScan] | None = None) -> None:
        """A CheckPass runs the same pieces in slices: _index_spanning, _index_questions, _check_session,
        _compose_all."""
        ctx = self._ctx = checks.RowContext(self.ds, self.is_workbook(), scans)
        rows = self.ds.rows
        columns = [scan.texts for scan in scans or ()]  # the reader's: no pass over the rows
        if scans:  # in place: the callers' list too holds no texts now, so that _index_spanning frees them
            scans[:] = [scan._replace(texts=None) for scan in scans]
        if len(columns) != len(ctx.col_ids) or not all(texts is not None and len(texts) == len(rows) for texts in columns):
            columns = bulk.columns_of(rows, len(ctx.col_ids))
        self._empty: set[int] = bulk.empty_rows(rows, columns)
        self._row_local: dict[int, tuple[Issue, ...]] = ctx.check_all(rows, columns, self._empty)
        irregular, questions = self._index_spanning(columns)
        self._index_questions(questions)
        del questions
        for sid in irregular:
            self._check_session(sid)
        self._compose_all()

    def _index_spanning(self, columns: list) -> tuple[list[str], list | None]:
        """From the cells column by column, which are let go: return the conversations that need
        `_check_session` (the others have no issue, or only what a one-row conversation turned '1' has)
        and the questions for `_index_questions`."""
        ctx = self._ctx
        sessions = self.sessions.sessions
        regular, single = bulk.plain_sessions(columns[ctx.turn] if ctx.turn is not None else None, sessions,
                                              self.ds.positions(map(itemgetter(0), sessions.values())),
                                              self.ds.positions(map(itemgetter(-1), sessions.values())),
                                              ctx.target.max_turns)
        self._contiguous: dict[str, bool] = dict.fromkeys(chain(regular, single), True)
        ones = list(compress(sessions.items(), map(single.__contains__, sessions)))  # (id, [row id]) in file order
        # what check_session finds in one row turned "1", without its work
        found = file_checks.single_turn_sessions(ctx.t, map(_FIRST, map(_SECOND, ones)), ctx.column_id(SESSION))
        self._session_issues: dict[str, Sequence[Issue]] = dict(zip(map(_FIRST, ones), zip(found), strict=True))
        irregular = list(filterfalse(self._contiguous.__contains__, sessions))
        questions = columns[ctx.question] if ctx.question is not None else None
        columns.clear()  # 8 bytes a cell: let it go before the indexes are built
        return irregular, questions

    def _index_questions(self, questions: list | None) -> None:
        """The single-turn rows by their question (rule duplicate-question). `questions`: the question
        column's texts, by position."""
        self._questions = wide.Questions()
        if questions is not None:
            single = list(filterfalse(self.sessions.session_of.__contains__, self.ds.row_ids()))
            if self._empty:
                single = list(filterfalse(self._empty.__contains__, single))
            self._questions.build(single, map(questions.__getitem__, self.ds.positions(single)))

    def _compose_all(self) -> None:
        """Case groups, file-level issues, then every row's issues and the counts: a row's own, its
        conversation's that point at it, then what the reader found and the dataset-wide ones (as
        `_compose`, which only the rows that have one of the last two need)."""
        self._case_groups = wide.CaseGroups()
        self._case_groups.build(self.sessions.sessions)
        self._file = self._file_level()
        composed = self._composed = dict(self._row_local)
        others = self._rows_with_static_or_wide_issues()
        session_of = self.sessions.session_of
        for sid, found in self._session_issues.items():  # most: the one issue of a one-row conversation
            for issue in found:
                rid = issue.row_id
                if rid not in others and session_of.get(rid) == sid:
                    composed[rid] = composed.get(rid, _NONE) + (issue,)
        for rid in others:
            found = self._compose(rid)
            if found:
                composed[rid] = found
        self._recount()

    def _recount(self) -> None:
        everything = [*chain.from_iterable(self._composed.values()), *self._file]
        self.counts.clear()
        self.counts.update(map(_SEVERITY, everything))
        self.rule_counts.clear()
        self.rule_counts.update(map(_RULE, everything))

    def _rows_with_static_or_wide_issues(self) -> set[int]:
        """Every row that may have a static or dataset-wide issue (a superset)."""
        rows = set(self.static_rows)
        rows.update(self._questions.duplicated())
        rows.update(self.sessions.sessions[s][0] for s in self._case_groups.clashing())
        return rows

    # ----- incremental -----------------------------------------------------------------------------
    def before_change(self, change: Change) -> None:
        self.changes += 1  # (and after: nothing listed while the dataset changes is kept)
        if change.kind == "remove_rows":
            self._removed = list(change.row_ids)

    def after_change(self, change: Change) -> None:
        self.changes += 1  # rows moved, came or went: the issues' order changes too
        if self.checking is not None:
            self.checking.changed(change)
        elif change.kind == "cells":
            touched = {rid for rid, _ in change.cells}
            if len(touched) > self.bulk_rows():  # most rows (a replace-all): one pass, 0.8 s at 100k rows against 2 s
                self._revalidate_all(keep=True)
            else:
                self._update_rows(touched)
        elif change.kind == "insert_rows":
            self._update_rows(set(change.row_ids), seam=(change.first - 1, change.last + 1))
        elif change.kind == "remove_rows":
            self._update_rows(set(self._removed), removed=True, seam=(change.first - 1, change.first))
        elif change.kind == "reorder":  # a sort, its undo: only conversations can change (CheckPass._rows_moved)
            self.checking = CheckPass(self, moved=self.sessions.reordered)
            if self.defer_big_changes and len(self.ds.rows) > BULK_ROWS:
                self._refresh_file_issues()
                self._notify(set(), True)  # a window hears that checking goes on and runs it in slices
            else:
                self.finish_checking()
        else:  # columns or target: every check may change
            self._revalidate_all()

    def _update_rows(self, touched: set[int], removed: bool = False, seam: tuple[int, int] | None = None) -> None:
        """Re-check `touched` rows (edited, inserted or removed) and what depends on them.

        `seam` is the pair of positions that became neighbours (around an inserted or removed block):
        the only session whose rows can become, or stop being, contiguous is one on both sides of it.
        """
        candidates = set(touched)
        ctx = self._ctx
        index = self.sessions  # current already: it heard of the change first
        old_sids = {rid: index.session_before(rid) for rid in touched}
        for rid in touched:
            self._row_local.pop(rid, None)
            self._empty.discard(rid)
            if not removed:
                row = self.ds.row(rid)
                if not row.is_empty():
                    found = ctx.check(row)
                    if found:
                        self._row_local[rid] = tuple(found)
                else:
                    self._empty.add(rid)
        sessions_to_check: set[str] = set()
        for rid in touched:
            old_sid = old_sids[rid]
            new_sid = index.session_of.get(rid, "")
            if old_sid != new_sid:
                self._case_groups.move(old_sid, new_sid, self.sessions.sessions.__contains__)
                for sid in (old_sid, new_sid):
                    if sid:
                        candidates |= self._case_group_rows(sid)
            sessions_to_check.update(s for s in (old_sid, new_sid) if s)
            candidates |= self._questions.move(rid, None if removed else self._question_key(rid))
        if seam is not None:
            sessions_to_check |= self._session_across(*seam)
        for sid in sessions_to_check:
            self._session_issues.pop(sid, None)
            self._contiguous.pop(sid, None)
            if sid in self.sessions.sessions:
                self._check_session(sid)
                candidates.update(self.sessions.sessions[sid])
        file_changed = self._refresh_file_issues()
        changed = set()
        for rid in candidates:
            if removed and rid in touched:
                old_issues = self._composed.pop(rid, _NONE)
                self._count(old_issues, -1)
                self.static_rows.pop(rid, None)
            elif self._recompose(rid):
                changed.add(rid)
        self._notify(changed, file_changed)

    # ----- pieces ---------------------------------------------------------------------------------
    def _check_session(self, sid: str) -> None:
        members = self.sessions.sessions[sid]
        found = file_checks.check_session(self.ds, self._ctx, members, self.sessions.is_contiguous(sid))
        self._contiguous[sid] = self.sessions.is_contiguous(sid)
        if found:
            self._session_issues[sid] = found

    def _session_across(self, before: int, after: int) -> set[str]:
        rows = self.ds.rows
        if before < 0 or after >= len(rows):
            return set()
        sid = self.sessions.session_of.get(rows[before].id)
        return {sid} if sid is not None and sid == self.sessions.session_of.get(rows[after].id) else set()

    def _contiguity_changed(self, sid: str) -> bool:
        return self._contiguous.get(sid) != self.sessions.is_contiguous(sid)

    def _question_key(self, rid: int) -> str | None:
        """What the duplicate-question index files the row under: single-turn, non-empty rows only."""
        if self._ctx.question is None or rid in self._empty or rid in self.sessions.session_of:
            return None
        return self.ds.row(rid).cells[self._ctx.question].strip()

    def _case_group_rows(self, sid: str) -> set[int]:
        """First rows of the sessions whose ids fold to the same case as `sid`."""
        return {self.sessions.sessions[s][0] for s in self._case_groups.of(sid) if s in self.sessions.sessions}

    def _derived(self, rid: int) -> list[Issue]:
        out = []
        target = self.ds.target.name
        n = self._questions.others(rid)
        if n:
            out.append(make_issue(
                "duplicate-question", target,
                NP_("The same question appears in {n} other single-turn row; duplicates weigh twice in the scores",
                    "The same question appears in {n} other single-turn rows; duplicates weigh twice in the scores",
                    "n"), rid, self._ctx.column_id(QUESTION), args=(("n", n),)))
        sid = self.sessions.session_of.get(rid)
        if sid is not None and self.sessions.sessions[sid][0] == rid:
            group = self._case_groups.of(sid)
            if len(group) > 1:
                others = ", ".join(repr(s) for s in sorted(group) if s != sid)
                out.append(make_issue(
                    "session-id-case-clash", target,
                    N_("Session id {sid!r} differs only in letter case from {others}: the service treats them as "
                       "different conversations"), rid, self._ctx.column_id(SESSION),
                    args=(("sid", sid), ("others", others))))
        return out

    def _compose(self, rid: int) -> tuple[Issue, ...]:
        """The row's issues: its own, its session's that point at it, static, then dataset-wide."""
        parts = list(self._row_local.get(rid, ()))
        sid = self.sessions.session_of.get(rid)
        if sid is not None and sid in self._session_issues:
            parts = parts + [i for i in self._session_issues[sid] if i.row_id == rid]
        static = self.static_rows.get(rid)
        if static:
            parts = parts + static
        if self._questions.others(rid) or (sid is not None and len(self._case_groups.of(sid)) > 1):
            parts = parts + self._derived(rid)
        return tuple(parts)

    def _recompose(self, rid: int) -> bool:
        """Rebuild the row's issue list; return True when it changed."""
        new = self._compose(rid)
        old = self._composed.get(rid, _NONE)
        if new == old:
            return False
        self._count(old, -1)
        self._count(new, 1)
        if new:
            self._composed[rid] = new
        else:
            self._composed.pop(rid, None)
        return True

    def _count(self, issues: Iterable[Issue], sign: int) -> None:
        for i in issues:
            self.counts[i.severity] += sign
            self.rule_counts[i.rule] += sign

    def _refresh_file_issues(self) -> bool:
        """Check the file-level rules again; True when their issues changed."""
        file_issues = self._file_level()
        if file_issues == self._file:
            return False
        self._count(self._file, -1)
        self._file = file_issues
        self._count(file_issues, 1)
        return True

    def _file_level(self) -> list[Issue]:
        found = file_checks.file_issues(self.ds, self.static_file, self.data_row_count(), bool(self.sessions.sessions),
                                        self.source_format, self.file_size)
        return [i for i in found if i.rule != "empty-dataset"] if self.awaiting_first_case else found

    def _notify(self, rows: set[int], file_changed: bool) -> None:
        self.changes += 1
        for listener in self.listeners:
            listener(rows, file_changed)
