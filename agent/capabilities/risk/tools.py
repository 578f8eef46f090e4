"""The risk's tool: one page of the scope's open tasks ranked by delay risk, scored in the database."""
from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.models import User

from agent.tools.report_tools import report_scope
from reports.risk.assess import risk_ranking
from reports.risk.facts import RiskCursor, facts_row


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
