"""Assess a scope's delay risk on the server: collect the facts, score them, keep the chart's data."""
from __future__ import annotations

from datetime import date
from typing import Any

from django.conf import settings

from reports.scope import ReportScope

from .facts import RiskCursor, RiskPage, risk_page
from .score import RiskReport, TaskRisk, policy_now, risk_explain
from .text import factor_words

# Each factor as the chart's legend names it, in each language of a request (agent.words.language), and its
# colour (each at least 3:1 against white).
FACTOR_LABELS: dict[str, dict[str, str]] = {
    "en": {"overdue": "Overdue", "due_soon_open_subtasks": "Due soon, subtasks open", "inactive": "No recent activity",
           "blocked": "Blocked", "parent_at_risk": "Parent task at risk", "assignee_load": "Assignee's load",
           "due_slips": "Due date slipped"},
    "zh": {"overdue": "已逾期", "due_soon_open_subtasks": "即将到期且有未完成的子任务", "inactive": "近期没有活动",
           "blocked": "受阻", "parent_at_risk": "父任务有风险", "assignee_load": "负责人的工作量",
           "due_slips": "截止日期被推迟"},
}
FACTOR_COLOURS = {"overdue": "#b42318", "due_soon_open_subtasks": "#b54708", "inactive": "#6941c6",
                  "blocked": "#c11574", "parent_at_risk": "#026aa2", "assignee_load": "#087443", "due_slips": "#475467"}
LABEL_CHARS = 60  # the page shortens it further to the room its chart has


def risk_ranking(*, scope: ReportScope, today: date, after: RiskCursor | None = None,
                 limit: int | None = None) -> RiskPage:
    """One page of the scope's open tasks by risk as of the server's date (the first RISK_TOP by default)."""
    return risk_page(scope=scope, today=today, policy=policy_now(), limit=limit or settings.RISK_TOP, after=after)


def risk_assess(*, scope: ReportScope, today: date) -> RiskReport:
    """Score every open task of the scope as of the server's date; explain the RISK_TOP riskiest."""
    page = risk_ranking(scope=scope, today=today)
    return risk_explain(page.rows, open_tasks=page.open_tasks, levels=page.levels, today=today,
                        scope_label=scope.label, project_id=scope.project_id)


def _label(t: TaskRisk) -> str:
    title = t.title if len(t.title) <= LABEL_CHARS else t.title[: LABEL_CHARS - 1] + "…"
    return f"{t.key} {title}"


def risk_chart(top: tuple[TaskRisk, ...], language: str = "en") -> dict[str, Any]:
    """The chart's data: what each task's score is made of, one stacked series per factor that occurs.

    The list above the chart names each task's reasons; the chart adds how many points each one
    weighs, so the reader sees which factor drives the risk across the tasks.
    """
    present = [name for name in FACTOR_COLOURS if any(f.name == name for t in top for f in t.factors)]
    points = [{f.name: f.points for f in t.factors} for t in top]
    return {"labels": [_label(t) for t in top], "scores": [t.score for t in top], "levels": [t.level for t in top],
            "factors": [{"label": FACTOR_LABELS[language][name], "colour": FACTOR_COLOURS[name],
                         "points": [p.get(name, 0) for p in points]} for name in present]}


def risk_made_of(t: TaskRisk, language: str = "en") -> str:
    """A task's score in words, factor by factor: the chart's table alternative."""
    join = "，" if language == "zh" else ", "
    return join.join(f"{FACTOR_LABELS[language][f.name]} +{f.points}" for f in t.factors)


def risk_data(report: RiskReport, language: str = "en") -> dict[str, Any]:
    """The report as plain data for the run, the sidebar, the project page and the chart; the factors' words
    in the language of the request."""
    top = report.top()
    return {
        "scope": report.scope_label, "project_id": report.project_id, "today": report.today,
        "open_tasks": report.open_tasks, "levels": report.levels(),
        "top": [{"id": t.id, "key": t.key, "title": t.title, "status": t.status, "due_date": t.due_date,
                 "assignee": t.assignee, "score": t.score, "level": t.level, "made_of": risk_made_of(t, language),
                 "factors": [{"name": f.name, "points": f.points, "value": f.value, "sources": list(f.sources),
                              "words": factor_words(f, language)} for f in t.factors]} for t in top],
        "chart": risk_chart(top, language),
        # Room for one bar per task, the legend (up to three lines) and the axis with its title.
        "chart_height": 120 + 30 * len(top),
    }
