"""Background jobs of the tasks app (run by the Celery worker, or in-process when eager)."""
from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db.models import Count

from pm_assistant.errors import NotFound
from projects.models import Project

from .models import Task


@shared_task(name="tasks.jobs.task_stats_compute")
def task_stats_compute(project_id: int) -> dict[str, Any]:
    """Count a project's tasks per status, every status present (zero when it has none)."""
    if not Project.objects.filter(pk=project_id).exists():
        raise NotFound(f"Project {project_id} was not found.", field="project")
    rows = Task.objects.filter(project_id=project_id).values("status").annotate(n=Count("id")).order_by()
    by_status = dict.fromkeys(Task.Status.values, 0)
    for row in rows:
        by_status[row["status"]] = row["n"]
    return {"project_id": project_id, "total": sum(by_status.values()), "by_status": by_status}
