"""Assess a scope's delay risk on the server: collect the facts, score them, keep the chart's data."""
from __future__ import annotations

from datetime import date
from typing import Any

from reports.scope import ReportScope

from .facts import risk_fact_rows
from .score import RiskReport, TaskRisk, risk_rank

# Each factor as the chart's legend names it and its colour (each at least 3:1 against white).
FACTOR_LEGEND = {
    "overdue": ("Overdue", "#b42318"),
    "due_soon_open_subtasks": ("Due soon, subtasks open", "#b54708"),
    "inactive": ("No recent activity", "#6941c6"),
    "blocked": ("Blocked", "#c11574"),
    "parent_at_risk": ("Parent task at risk", "#026aa2"),
    "assignee_load": ("Assignee's load", "#087443"),
    "due_slips": ("Due date slipped", "#475467"),
}
LABEL_CHARS = 60  # the page shortens it further to the room its chart has


def risk_assess(*, scope: ReportScope, today: date) -> RiskReport:
    """Score every open task of the scope as of the server's date."""
    return risk_rank(risk_fact_rows(scope=scope), today=today, scope_label=scope.label, project_id=scope.project_id)


def _label(t: TaskRisk) -> str:
    title = t.title if len(t.title) <= LABEL_CHARS else t.title[: LABEL_CHARS - 1] + "…"
    return f"{t.key} {title}"


def risk_chart(top: tuple[TaskRisk, ...]) -> dict[str, Any]:
    """The chart's data: what each task's score is made of, one stacked series per factor that occurs.

    The list above the chart names each task's reasons; the chart adds how many points each one
    weighs, so the reader sees which factor drives the risk across the tasks.
    """
    present = [name for name in FACTOR_LEGEND if any(f.name == name for t in top for f in t.factors)]
    points = [{f.name: f.points for f in t.factors} for t in top]
    return {"labels": [_label(t) for t in top], "scores": [t.score for t in top], "levels": [t.level for t in top],
            "factors": [{"label": FACTOR_LEGEND[name][0], "colour": FACTOR_LEGEND[name][1],
                         "points": [p.get(name, 0) for p in points]} for name in present]}


def risk_made_of(t: TaskRisk) -> str:
    """A task's score in words, factor by factor: the chart's table alternative."""
    return ", ".join(f"{FACTOR_LEGEND[f.name][0]} +{f.points}" for f in t.factors)


def risk_data(report: RiskReport) -> dict[str, Any]:
    """The report as plain data for the run, the sidebar, the project page and the chart."""
    top = report.top()
    return {
        "scope": report.scope_label, "project_id": report.project_id, "today": report.today,
        "open_tasks": report.open_tasks, "levels": report.levels(),
        "top": [{"id": t.id, "key": t.key, "title": t.title, "status": t.status, "due_date": t.due_date,
                 "assignee": t.assignee, "score": t.score, "level": t.level, "made_of": risk_made_of(t),
                 "factors": [{"name": f.name, "points": f.points, "value": f.value, "sources": list(f.sources),
                              "words": f.words} for f in t.factors]} for t in top],
        "chart": risk_chart(top),
        # Room for one bar per task, the legend (up to three lines) and the axis with its title.
        "chart_height": 120 + 30 * len(top),
    }
