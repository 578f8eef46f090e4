"""The report in words: the template text (always available) and the Markdown download.

Every number and date written here comes from the verified figures; the polish check
(``fidelity.allowed_numbers``) accepts exactly these.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from .figures import LISTS, WeekFigures, WeeklyReport
from .scope import ALL_PROJECTS

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


def report_week_words(report: WeeklyReport, language: str = "en") -> str:
    """Which week, as a reader says it: "Last week, 2026-W48 (…)", "This week so far, 2026-W49 (from …)";
    in Chinese for language "zh" ("上周，2026-W48（…）")."""
    f = report.current
    if language == "zh":
        if not report.finished:
            return f"本周截至目前，{f.week}（自 {f.monday} 起）"
        days = f"{f.week}（{f.monday} 至 {f.sunday}）"
        return f"上周，{days}" if report.relation == "last week" else f"{days} 这一周"
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
    f, p = report.current.counts(), report.previous.counts()
    flow = (f"{_n(f['completed'], 'task')} completed{_versus(f['completed'], p['completed'])}, "
            f"{f['created']} created{_versus(f['created'], p['created'])}, "
            f"{f['reopened']} reopened, {_n(f['slipped'], 'due date')} slipped and {f['deleted']} deleted.")
    states = f"{f['in_progress']} in progress, {f['blocked']} blocked and {f['overdue']} overdue."
    if report.finished:
        return f"{flow} At the end of the week {_n(f['open'], 'task was', 'tasks were')} open: {states}"
    return f"{flow} Now {_n(f['open'], 'task is', 'tasks are')} open: {states}"


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
    """The full report as Markdown: the paragraph, a table of figures, the lists and the assignees.

    A list shows its first LIST_LINES tasks and says how many more it counts.
    """
    f, p = report.current, report.previous
    out = [f"# Weekly report: {_md(report_headline(report))}", "", _md(report_text(report)), "",
           f"| figure | {f.week} | {p.week} |", "|---|---:|---:|"]
    now, before = f.counts(), p.counts()
    out += [f"| {name.replace('_', ' ')} | {now[name]} | {before[name]} |" for name in now]
    headings = report_headings(report)
    for name in LISTS:
        lines, more = report.lines(name), report.more(name)
        out += ["", f"## {headings[name]} ({now[name]})", ""]
        out += [f"- [{t.key}]({task_url(t.id)}) {_md(t.title)}" for t in lines] or ["- none"]
        out += [f"- … and {more} more"] if more else []
    out += ["", "## By assignee", "", "| assignee | completed | open | overdue |", "|---|---:|---:|---:|"]
    out += [f"| {_md(a.assignee)} | {a.completed} | {a.open} | {a.overdue} |" for a in f.per_assignee]
    return "\n".join(out) + "\n"


def report_text_zh(report: WeeklyReport) -> str:
    """The same paragraph in Chinese, for a request written in Chinese: the same figures in the same order,
    the same week words (a week still going says "so far") and the same note after later deletions."""
    f, p = report.current, report.previous
    scope = "我的全部项目" if report.scope_label == ALL_PROJECTS else report.scope_label
    week = report_week_words(report, "zh")

    def versus(now: int, before: int) -> str:
        return f"（上周 {before} 个）" if now != before else "（与上周相同）"

    n, b = f.counts(), p.counts()
    flow = (f"完成 {n['completed']} 个任务{versus(n['completed'], b['completed'])}，"
            f"新建 {n['created']} 个{versus(n['created'], b['created'])}，重新打开 {n['reopened']} 个，"
            f"截止日期推迟 {n['slipped']} 个，删除 {n['deleted']} 个。")
    when = "周末时" if report.finished else "目前"
    state = (f"{when}有 {n['open']} 个任务未完成：{n['in_progress']} 个进行中，{n['blocked']} 个受阻，"
             f"{n['overdue']} 个逾期。")
    recomputed = (f"这些数字在之后的删除后重新计算过：这一周结束后又删除了 {report.later_deleted} 个任务"
                  f"（最近一次在 {report.later_deleted_on}），被删除的任务不再计入本周的数字。"
                  if report.later_deleted else "")
    return f"{week}，{scope}：{flow}{state}{recomputed}"


# The paragraph by the language of the request (agent.words.language): one template per language, all here.
REPORT_TEXTS: dict[str, Callable[[WeeklyReport], str]] = {"en": report_text, "zh": report_text_zh}
