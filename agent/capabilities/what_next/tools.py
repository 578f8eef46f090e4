"""what_next's reading tool: the user's open tasks in the scope, ranked on the server (reports.next_up)."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from agent.tools.report_tools import report_scope
from reports.next_up import next_up_for


def next_up_read(*, user: User, project_id: int | None) -> dict[str, Any]:
    """The first tasks of the user's ranking, each with its score's parts, and how many open tasks were ranked."""
    today = timezone.localdate()
    ranked = next_up_for(scope=report_scope(user, project_id), user_id=user.pk, today=today)
    items = [{"id": t.id, "project_id": t.project_id, "key": t.key, "title": t.title, "status": t.status,
              "priority": t.priority, "due_date": t.due_date, "score": t.score,
              "parts": [{"name": p.name, "points": p.points, "value": p.value} for p in t.parts]}
             for t in ranked.tasks]
    return {"count": len(items), "items": items, "open_tasks": ranked.open_tasks, "today": ranked.today}
