"""Assess a scope's delay risk on the server: collect the facts, score them, keep the chart's data."""
from __future__ import annotations

from datetime import date
from typing import Any

from reports.scope import ReportScope

from .facts import risk_fact_rows
from .score import RiskReport, risk_rank

LEVEL_COLOURS = {"high": "#d92d20", "medium": "#f79009", "low": "#98a2b3"}


def risk_assess(*, scope: ReportScope, today: date) -> RiskReport:
    """Score every open task of the scope as of the server's date."""
    return risk_rank(risk_fact_rows(scope=scope), today=today, scope_label=scope.label, project_id=scope.project_id)


def risk_data(report: RiskReport) -> dict[str, Any]:
    """The report as plain data for the run, the sidebar, the project page and the chart."""
    top = report.top()
    return {
        "scope": report.scope_label, "project_id": report.project_id, "today": report.today,
        "open_tasks": report.open_tasks, "levels": report.levels(),
        "top": [{"id": t.id, "key": t.key, "title": t.title, "status": t.status, "due_date": t.due_date,
                 "assignee": t.assignee, "score": t.score, "level": t.level,
                 "factors": [{"name": f.name, "points": f.points, "value": f.value, "sources": list(f.sources),
                              "words": f.words} for f in t.factors]} for t in top],
        "chart": {"labels": [t.key for t in top], "scores": [t.score for t in top],
                  "colours": [LEVEL_COLOURS[t.level] for t in top]},
        # Room for one bar per task plus the axis, so a short list is not squashed.
        "chart_height": 48 + 30 * len(top),
    }
