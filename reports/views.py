"""The report pages: the weekly report (one project or all the user's projects) and a project's risk panel."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from pm_assistant.errors import InvalidInput
from pm_assistant.markdown import markdown_html
from pm_assistant.web import PageRequest
from projects.shortcuts import project_or_404
from tasks.page_context import page_context_for

from .figures import LISTS
from .narrative import report_body, report_headings, report_markdown, report_recomputed, report_week_words
from .pipeline import FiguresDisagree, weekly_report_build
from .risk.assess import risk_assess, risk_data
from .risk.text import risk_text
from .scope import ReportWindows, scope_for_user
from .week import IsoWeek, week_resolve


def _week(request: PageRequest) -> tuple[IsoWeek, str]:
    """The week asked for in ?week=, else the last full week, with a problem to show when it was unreadable."""
    now = timezone.now()
    try:
        return week_resolve(request.GET.get("week", "").strip() or None, now=now), ""
    except InvalidInput as exc:
        return week_resolve(None, now=now), f"{exc.message} Showing the last full week."


# ?format= values the report page answers: the page itself, or its Markdown download.
FORMATS = ("html", "md")


def _format(request: PageRequest) -> tuple[str, str]:
    """The format asked for in ?format= (the page by default), with a problem to show when it is unknown."""
    asked = request.GET.get("format", "html").strip() or "html"
    if asked in FORMATS:
        return asked, ""
    return "html", f"format: {asked[:20]!r} is not a report format; use {' or '.join(FORMATS)}. Showing the page."


def _page(request: PageRequest, project_id: int | None) -> HttpResponse:
    project = project_or_404(user=request.user, project_id=project_id) if project_id is not None else None
    week, problem = _week(request)
    output, format_problem = _format(request)
    problem = " ".join(filter(None, (problem, format_problem)))
    here = reverse("weekly-report", args=[project_id]) if project_id is not None else reverse("weekly-report-all")
    scope = scope_for_user(user=request.user, project_id=project_id)
    this_week = IsoWeek.containing(timezone.localdate())
    context: dict[str, Any] = {
        "nav": "projects" if project else "home", "project": project, "week": week, "here": here,
        # A week that has not begun has no report (reports.week.week_resolve): no link to one.
        "next_week": week.next if week.next <= this_week else None, "this_week": this_week,
        "problems": [problem] if problem else [],
        "page_context": page_context_for(page="project_detail", selected_entity=("project", project.pk),
                                         project_id=project.pk) if project else page_context_for(page="home"),
    }
    try:
        report = weekly_report_build(scope=scope, windows=ReportWindows.for_week(week, now=timezone.now()))
    except FiguresDisagree as exc:
        context["problems"].append(exc.message)
        return render(request, "reports/weekly.html", context, status=500)
    # A download names its week in the file: never one the user did not ask for.
    if output == "md" and not problem:
        def task_url(pk: int) -> str:
            return request.build_absolute_uri(reverse("task-detail", args=[pk]))

        body = report_markdown(report, task_url=task_url)
        response = HttpResponse(body, content_type="text/markdown; charset=utf-8")
        slug = project.key if project else "all"
        response["Content-Disposition"] = f'attachment; filename="weekly-report-{slug}-{week.label}.md"'
        return response
    now, before = report.current.counts(), report.previous.counts()
    context.update({
        "report": report, "text": report_body(report),
        "figures": [(name.replace("_", " "), now[name], before[name]) for name in now],
        "lists": [(name, report_headings(report)[name], report.lines(name), now[name], report.more(name))
                  for name in LISTS],
        "week_words": report_week_words(report), "recomputed": report_recomputed(report),
    })
    return render(request, "reports/weekly.html", context, status=400 if problem else 200)


@login_required
@require_GET
def weekly_report_project(request: PageRequest, pk: int) -> HttpResponse:
    """A project's weekly report; ?week=2026-W48 picks the week, ?format=md downloads it as Markdown."""
    return _page(request, pk)


@login_required
@require_GET
def weekly_report_all(request: PageRequest) -> HttpResponse:
    """The weekly report over all the user's projects."""
    return _page(request, None)


@login_required
@require_GET
def risk_panel(request: PageRequest, pk: int) -> HttpResponse:
    """The project's delay risk as a panel (chart, top tasks and the table), loaded into the project page."""
    project = project_or_404(user=request.user, project_id=pk)
    if not request.htmx:  # the panel is a piece of the project page: opened on its own, show it there
        return redirect(f"{reverse('project-detail', args=[project.pk])}#risk-panel")
    report = risk_assess(scope=scope_for_user(user=request.user, project_id=project.pk), today=timezone.localdate())
    # The paragraph is Markdown, as the sidebar shows it (a quoted title is escaped in it); nh3 cleaned it.
    text = mark_safe(markdown_html(risk_text(report)))  # noqa: S308
    context = {"project": project, "r": risk_data(report), "text": text, "chart_id": "risk-project"}
    return render(request, "reports/_risk_panel.html", context)
