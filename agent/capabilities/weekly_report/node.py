"""weekly_report: collect once → structured projection → verified figures → template → optional polish.

Each stage is a named node on the run's trace. The rows, the grouped counts and the recount are
read in one statement; the rows' three parts are then tool results (an artifact when large) and
the projection binds them from there. The figures are checked against the recount, made in SQL by
an independent path, before any text is written, and a disagreement ends the run with an alert.
"""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from agent.capabilities.common.fidelity import Allowed
from agent.capabilities.common.outcome import clarify, done, failed
from agent.capabilities.common.polish import ReportInput, polish
from agent.capabilities.common.scope import ScopeUnclear, request_project_id
from agent.context.words import quote_user_text
from agent.models import Alert
from agent.runtime import RunContext
from agent.tools.binding import Binding
from agent.tools.report_tools import report_scope
from agent.tools.runner import ToolRunner
from agent.words.language import Language, language_of
from pm_assistant.errors import ApplicationError
from reports.figures import WeeklyReport, report_project
from reports.narrative import REPORT_TEXTS, figures_words, report_headline, report_week_words
from reports.pipeline import FiguresDisagree, report_verify, windows_now

from .tools import REPORT_PARTS, report_part, report_size, weekly_report_read


def report_url(report: WeeklyReport) -> str:
    """The full report page for the same scope and week."""
    if report.project_id is None:
        return f"{reverse('weekly-report-all')}?week={report.current.week}"
    return f"{reverse('weekly-report', args=[report.project_id])}?week={report.current.week}"


def report_allowed(report: WeeklyReport) -> Allowed:
    """The numbers a polished report may state: both weeks' figures, their differences, the weeks' dates."""
    now, before = report.current.counts(), report.previous.counts()
    numbers: set[int] = {*now.values(), *before.values(), *(abs(now[k] - before[k]) for k in now)}
    numbers |= {n for a in report.current.per_assignee for n in (a.completed, a.open, a.overdue)}
    weeks = (report.current, report.previous)
    numbers |= {int(part) for f in weeks for part in f.week.split("-W")}
    numbers.add(report.later_deleted)
    dates = [d for f in weeks for d in (f.monday, f.sunday)] + [d for d in (report.later_deleted_on,) if d]
    return Allowed.of(numbers, dates)


def _rows(steps: ToolRunner, step: str, name: str) -> list[dict[str, Any]]:
    """A collection's rows, bound from its step (an artifact's stored lines when it was externalized)."""
    if steps.count(step) == 0:
        return []
    rows: list[dict[str, Any]] = steps.bind("report_project", {name: Binding(from_step=step, path="$.items[*]")})[name]
    return rows


def report_data(report: WeeklyReport, language: Language = "en") -> dict[str, Any]:
    """What the run hands the sidebar and the API: the figures of both weeks and where the full report is;
    which week it is in the language of the request."""
    f = report.current
    return {"headline": report_headline(report), "week": f.week, "monday": f.monday, "sunday": f.sunday,
            "week_words": report_week_words(report, language), "finished": report.finished,
            "later_deleted": report.later_deleted, "later_deleted_on": report.later_deleted_on,
            "scope": report.scope_label, "project_id": report.project_id, "counts": f.counts(),
            "previous": {"week": report.previous.week, "counts": report.previous.counts()},
            "url": report_url(report)}


# The stages a background run reports as progress: (stage, done when it starts).
STAGES = ("collect", "project", "verify", "write")


def weekly_report(state: ReportInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Build the week's report for the page's project (or all the user's projects) and say it in words.

    A scope with more than REPORT_SYNC_MAX_TASKS tasks pauses here; the service hands the run to a
    background job, which resumes it and reports each stage as the run's progress.
    """
    ctx, route = state["exec_ctx"], state["route"]
    recorder, steps = runtime.context.recorder, runtime.context.tools
    now = timezone.now()
    try:
        project_id = request_project_id(runtime, ctx, state["route"].slots, language_of(state.get("message")))
    except ScopeUnclear as exc:
        return clarify(str(exc))
    try:
        windows = windows_now(route.slots.week, now=now)
        scope = report_scope(steps.user, project_id)
    except ApplicationError as exc:
        return failed(f"The weekly report could not start: {exc.message}", exc.code)
    week = windows.current.week.label
    arguments: dict[str, Any] = {"project_id": project_id, "week": week, "now": now.isoformat()}
    size = report_size(scope)
    background = size > settings.REPORT_SYNC_MAX_TASKS
    if background:
        # Paused until the background job resumes the run; the request answers "running" at once.
        interrupt({"action": "background", "facts": {"tasks": size, "week": week, "stages": len(STAGES)}})

    def stage(name: str) -> None:
        if background:
            recorder.progress(name, STAGES.index(name), len(STAGES))

    stage("collect")
    recorder.node("report_collect", week=week, scope=scope.label, projects=len(scope.project_ids))
    # One statement reads the rows, the grouped counts and the recount; each part is then a step.
    read = weekly_report_read(scope=scope, windows=windows)
    for step, tool, part in REPORT_PARTS:
        steps.read(step, tool, report_part(read, part), scope=lambda _: list(scope.project_ids), **arguments)

    stage("project")
    recorder.node("report_project", week=week)
    report = report_project(scope_label=scope.label, project_id=scope.project_id,
                            tasks=_rows(steps, "s1", "tasks"), events=_rows(steps, "s2", "events"),
                            counted=_rows(steps, "s3", "counted"),
                            current=windows.current, previous=windows.previous, now=windows.now)

    stage("verify")
    recorder.node("report_verify", week=week, figures=report.current.counts())
    try:
        report_verify(report, scope=scope, windows=windows, recount=read.recount)
    except FiguresDisagree as exc:
        recorder.alert(Alert.Kind.FIGURES_MISMATCH, exc.message, key=week,
                       disagreements=[vars(d) for d in exc.disagreements])
        return failed(exc.message, exc.code)

    stage("write")
    recorder.node("report_template", week=week)
    language = language_of(state.get("message"))
    template = REPORT_TEXTS[language](report)
    recorder.node("report_polish", week=week)
    reply = polish(runtime, state, what="weekly report", template=template, allowed=report_allowed(report),
                   figures=[f"{report_week_words(report)} of {quote_user_text(report.scope_label, 80)}"
                            f"{'' if report.finished else ' (the week is not over: its states are as of now)'}.",
                            *figures_words(report.current),
                            f"the week before ({report.previous.week}):",
                            *figures_words(report.previous)],
                   capability="weekly_report", stored=steps.classified["s1"])
    if background:
        recorder.progress("done", len(STAGES), len(STAGES))
    return done(reply, report=report_data(report, language), polished=reply != template)
