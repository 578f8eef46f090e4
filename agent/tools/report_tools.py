"""Report tools: the weekly report's three collections and the risk facts, scoped to the user's projects.

Each returns ``{"count", "items"}`` like every reading tool, so the step runner stores a large
collection as an artifact and later steps bind its rows instead of carrying them.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User

from reports.collect import report_counts, report_events, report_tasks, scope_size
from reports.risk.facts import risk_facts
from reports.scope import ReportScope, ReportWindows, scope_for_user
from reports.week import IsoWeek


def report_scope(user: User, project_id: int | None) -> ReportScope:
    """The page's project, or all the user's projects when the page names none; membership is checked."""
    return scope_for_user(user=user, project_id=project_id)


def report_size(scope: ReportScope) -> int:
    """The number of tasks a report over the scope reads from."""
    return scope_size(scope)


def _windows(week: str, now: str) -> ReportWindows:
    return ReportWindows.for_week(IsoWeek.parse(week), now=datetime.fromisoformat(now))


def weekly_report_tasks(*, user: User, project_id: int | None, week: str, now: str) -> dict[str, Any]:
    """The tasks that can count in the week or the week before (see reports.collect.report_tasks)."""
    scope = report_scope(user, project_id)
    return report_tasks(scope=scope, windows=_windows(week, now))


def weekly_report_counts(*, user: User, project_id: int | None, week: str, now: str) -> dict[str, Any]:
    """The tasks without recent history, counted per assignee and status (see reports.collect.report_counts)."""
    scope = report_scope(user, project_id)
    return report_counts(scope=scope, windows=_windows(week, now))


def weekly_report_events(*, user: User, project_id: int | None, week: str, now: str) -> dict[str, Any]:
    """Status changes, due-date changes and deletions since the week before began."""
    scope = report_scope(user, project_id)
    return report_events(scope=scope, windows=_windows(week, now))


def risk_facts_for(*, user: User, project_id: int | None) -> dict[str, Any]:
    """Every open task of the scope with the facts its delay risk is scored on."""
    return risk_facts(scope=report_scope(user, project_id))
