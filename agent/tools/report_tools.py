"""Report tools: the weekly report's one read and its three parts, and the risk facts, scoped to the user's projects.

The report is read in one statement (reports.collect.report_read); each of its three parts (the
tasks, the history, the grouped counts) is then handed to the step runner as a reading tool's
result, ``{"count", "items"}`` like every reading tool, so a large part is stored as an artifact
and later steps bind its rows instead of carrying them.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from django.contrib.auth.models import User

from reports.collect import ReportRead, report_read, scope_size
from reports.risk.assess import risk_ranking
from reports.risk.facts import RiskCursor, facts_row
from reports.scope import ReportScope, ReportWindows, scope_for_user


def report_scope(user: User, project_id: int | None) -> ReportScope:
    """The page's project, or all the user's projects when the page names none; membership is checked."""
    return scope_for_user(user=user, project_id=project_id)


def report_size(scope: ReportScope) -> int:
    """The number of tasks a report over the scope reads from."""
    return scope_size(scope)


def weekly_report_read(*, scope: ReportScope, windows: ReportWindows) -> ReportRead:
    """The week's rows, grouped counts and recount, in one statement (see reports.collect.report_read)."""
    return report_read(scope=scope, windows=windows)


# The reading steps a report's parts are handed to the runner as: (step, tool, part of the read).
REPORT_PARTS = (("s1", "weekly_report_tasks", "tasks"), ("s2", "weekly_report_events", "events"),
                ("s3", "weekly_report_counts", "counted"))


def report_part(read: ReportRead, part: str) -> Callable[..., dict[str, Any]]:
    """One part of a read as a reading tool's result: the tasks, the history or the grouped counts."""
    items: list[dict[str, Any]] = getattr(read, part)

    def tool(**_: Any) -> dict[str, Any]:
        return {"count": len(items), "items": items}

    return tool


def risk_tasks_for(*, user: User, project_id: int | None, today: date, after: str | None = None) -> dict[str, Any]:
    """One page of the scope's open tasks by delay risk (scored in the database), with the scope's totals.

    ``scope`` and ``project_ids`` name the projects read (the page's, or all the user's); ``count`` is
    every open task of the scope and ``levels`` the scored ones per level; ``items`` the page's tasks
    with their facts and score; ``next`` the keyset position of the page after it (pass it back as
    ``after``), or None when the page is the last with a score above 0.
    """
    scope = report_scope(user, project_id)
    page = risk_ranking(scope=scope, today=today, after=RiskCursor.decode(after) if after is not None else None)
    return {"scope": scope.label, "project_ids": list(scope.project_ids), "count": page.open_tasks,
            "levels": page.levels, "items": [facts_row(f, score) for f, score in page.rows],
            "next": str(page.next) if page.next else None}
