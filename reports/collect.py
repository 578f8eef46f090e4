"""Collect once: the task and history rows a weekly report needs, in two queries whatever the size.

The rows are JSON-ready (ids, strings, ISO dates and instants), so they can be stored as an
artifact and projected from there exactly as from memory.
"""
from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q

from tasks.models import Task, TaskActivity

from .scope import ReportScope, ReportWindows

DONE = Task.Status.DONE
# The history a report reads: status changes, due-date changes and deletions.
EVENT_FILTER = Q(kind__in=[TaskActivity.Kind.STATUS, TaskActivity.Kind.DELETED]) | Q(
    kind=TaskActivity.Kind.UPDATED, field="due_date")


def scope_size(scope: ReportScope) -> int:
    """How many tasks the scope holds: what decides whether a report runs in the background."""
    return Task.objects.filter(project_id__in=scope.project_ids).count()


def events_since(scope: ReportScope, windows: ReportWindows) -> Any:
    """The history of the scope from the start of the previous week until now."""
    return TaskActivity.objects.filter(EVENT_FILTER, project_id__in=scope.project_ids,
                                       created_at__gte=windows.previous.start)


def report_events(*, scope: ReportScope, windows: ReportWindows) -> dict[str, Any]:
    """Every status change, due-date change and deletion since the previous week began, oldest first."""
    rows = events_since(scope, windows).order_by("created_at", "id").values(
        "id", "task_id", "task_title", "kind", "field", "from_value", "to_value", "created_at")
    items = [{**row, "created_at": row["created_at"].isoformat()} for row in rows]
    return {"count": len(items), "items": items}


def report_tasks(*, scope: ReportScope, windows: ReportWindows) -> dict[str, Any]:
    """The tasks that can count in either week: open ones, recently done ones, and any with history.

    A task done before the previous week began, with no history since, is done at both week
    ends and in neither week's flow, so it is left out: the row count follows the weeks' work,
    not the size of the project.
    """
    touched = events_since(scope, windows).filter(task_id=OuterRef("pk"))
    rows = (Task.objects.filter(project_id__in=scope.project_ids, created_at__lt=windows.current.end)
            .filter(~Q(status=DONE) | Q(completed_at__isnull=True) | Q(completed_at__gte=windows.previous.start)
                    | Exists(touched))
            .order_by("id")
            .values_list("id", "project_id", "project__key", "title", "status", "due_date", "assignee__username",
                         "created_at"))
    # Tuples, not the ORM's dicts: one dict per row is built here, not two.
    items = [{"id": pk, "project_id": project_id, "key": f"{key}-{pk}", "title": title, "status": status,
              "due_date": due.isoformat() if due else None, "assignee": assignee, "created_at": created.isoformat()}
             for pk, project_id, key, title, status, due, assignee, created in rows]
    return {"count": len(items), "items": items}
