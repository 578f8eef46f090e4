"""The report in words: the template text (always available) and the Markdown download.

Every number and date written here comes from the verified figures; the polish check
(``fidelity.allowed_numbers``) accepts exactly these.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from .figures import LISTS, WeekFigures, WeeklyReport

HEADINGS = {"completed": "Completed", "created": "Created", "reopened": "Reopened", "slipped": "Due dates slipped",
            "overdue": "Overdue at week end", "in_progress": "In progress at week end",
            "blocked": "Blocked at week end"}
# A week still going has no end yet: its states are as they are now.
HEADINGS_SO_FAR = {**HEADINGS, "overdue": "Overdue now", "in_progress": "In progress now", "blocked": "Blocked now"}


def report_headings(report: WeeklyReport) -> dict[str, str]:
    """The lists' headings: "at week end" for a finished week, "now" for the week still going."""
    return HEADINGS if report.finished else HEADINGS_SO_FAR


_MARKDOWN = re.compile(r"([\\`*_\[\]<>#|])")


def _md(text: str) -> str:
    """A user-written title as literal Markdown text: it cannot open a link, a heading or a table cell."""
    return _MARKDOWN.sub(r"\\\1", " ".join(text.split()))


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _versus(now: int, before: int) -> str:
    return f" ({before} the week before)" if now != before else " (as the week before)"


def report_week_words(report: WeeklyReport) -> str:
    """Which week, as a reader says it: "Last week, 2026-W48 (…)", "This week so far, 2026-W49 (from …)"."""
    f = report.current
    if not report.finished:
        return f"This week so far, {f.week} (from {f.monday})"
    days = f"{f.monday} to {f.sunday}"
    return f"Last week, {f.week} ({days})" if report.relation == "last week" else f"Week {f.week} ({days})"


def report_headline(report: WeeklyReport) -> str:
    return f"{report_week_words(report)}, {report.scope_label}"


def report_recomputed(report: WeeklyReport) -> str:
    """The sentence a finished week's report carries once tasks were deleted after it ended, else ""."""
    if not report.later_deleted:
        return ""
    return (f"Recomputed after later deletions: {_n(report.later_deleted, 'task was', 'tasks were')} deleted "
            f"after the week ended (the last on {report.later_deleted_on}); deleted tasks no longer count "
            "in this week's figures.")


def report_body(report: WeeklyReport) -> str:
    """The week's flow, then how it ended (or stands, while it goes on): the report without its headline."""
    f, p = report.current, report.previous
    flow = (f"{_n(len(f.completed), 'task')} completed{_versus(len(f.completed), len(p.completed))}, "
            f"{len(f.created)} created{_versus(len(f.created), len(p.created))}, "
            f"{len(f.reopened)} reopened, {_n(len(f.slipped), 'due date')} slipped and {f.deleted} deleted.")
    states = f"{len(f.in_progress)} in progress, {len(f.blocked)} blocked and {len(f.overdue)} overdue."
    if report.finished:
        return f"{flow} At the end of the week {_n(f.open, 'task was', 'tasks were')} open: {states}"
    return f"{flow} Now {_n(f.open, 'task is', 'tasks are')} open: {states}"


def report_text(report: WeeklyReport) -> str:
    """The report as a short paragraph: which week, its figures, and whether later deletions changed them."""
    recomputed = report_recomputed(report)
    return f"{report_headline(report)}: {report_body(report)}" + (f" {recomputed}" if recomputed else "")


def figures_words(f: WeekFigures) -> list[str]:
    """The figures of one week as lines of words, for the polish prompt (no ids, no rows)."""
    lines = [f"{name.replace('_', ' ')}: {count}" for name, count in f.counts().items()]
    lines += [f"{a.assignee}: {a.completed} completed, {a.open} open, {a.overdue} overdue" for a in f.per_assignee]
    return lines


def report_markdown(report: WeeklyReport, *, task_url: Callable[[int], str]) -> str:
    """The full report as Markdown: the paragraph, a table of figures, the lists and the assignees."""
    f, p = report.current, report.previous
    out = [f"# Weekly report: {_md(report_headline(report))}", "", _md(report_text(report)), "",
           f"| figure | {f.week} | {p.week} |", "|---|---:|---:|"]
    now, before = f.counts(), p.counts()
    out += [f"| {name.replace('_', ' ')} | {now[name]} | {before[name]} |" for name in now]
    headings = report_headings(report)
    for name in LISTS:
        lines = report.lines(name)
        out += ["", f"## {headings[name]} ({len(lines)})", ""]
        out += [f"- [{t.key}]({task_url(t.id)}) {_md(t.title)}" for t in lines] or ["- none"]
    out += ["", "## By assignee", "", "| assignee | completed | open | overdue |", "|---|---:|---:|---:|"]
    out += [f"| {_md(a.assignee)} | {a.completed} | {a.open} | {a.overdue} |" for a in f.per_assignee]
    return "\n".join(out) + "\n"
