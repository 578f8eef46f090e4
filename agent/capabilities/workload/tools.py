"""workload's reading tool: open and overdue tasks per assignee in the scope (reports.workload)."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from agent.tools.report_tools import report_scope
from reports.workload import workload_for


def workload_read(*, user: User, project_id: int | None) -> dict[str, Any]:
    """Every assignee's open and overdue tasks in the scope, most open first, the unassigned last."""
    load = workload_for(scope=report_scope(user, project_id), today=timezone.localdate())
    items = [{"id": p.id, "name": p.name, "open": p.open, "overdue": p.overdue, "overloaded": p.overloaded}
             for p in load.people]
    return {"count": len(items), "items": items, "open_tasks": load.open_tasks, "overdue_tasks": load.overdue_tasks,
            "today": load.today}
