"""The report scope the report-like capabilities share: the page's project, or all the user's projects.

Each capability's own reads are in its folder (weekly_report/tools.py, risk/tools.py, what_next/tools.py, ...).
"""
from __future__ import annotations

from django.contrib.auth.models import User

from reports.scope import ReportScope, scope_for_user


def report_scope(user: User, project_id: int | None) -> ReportScope:
    """The page's project, or all the user's projects when the page names none; membership is checked."""
    return scope_for_user(user=user, project_id=project_id)
