"""How many tasks a list holds, read from the counters the database keeps (tasks.models.TaskCount).

A list filtered by project, status and assignee only (the task list as it opens, a project's list,
"my tasks") adds up a few counter rows: its "of N" and its last page's number cost the same at any
size. Any other filter (priority, dates, labels, search, ids) is counted over the tasks themselves.
"""
from __future__ import annotations

from dataclasses import replace

from django.db import connection
from django.db.models import QuerySet, Sum

from projects.selectors import AnyUser, project_list_for_user

from .count_triggers import counters_install
from .filters import TaskFilters, scope_q
from .models import Task, TaskCount


def task_count_from_counters(*, user: AnyUser, filters: TaskFilters | None = None) -> int | None:
    """The number of the user's tasks these filters select, or None when a filter is not one the counters keep."""
    f = filters or TaskFilters()
    if replace(f, project_id=None, status=(), assignee=None) != TaskFilters():
        return None
    rows = TaskCount.objects.filter(scope_q(f, user, assignee="assignee_key"),
                                    project__in=project_list_for_user(user=user, include_archived=True))
    return rows.aggregate(n=Sum("tasks"))["n"] or 0


def task_list_count(*, user: AnyUser, filters: TaskFilters | None, tasks: QuerySet[Task]) -> int:
    """The length of ``tasks`` (task_list_for_user with these filters): from the counters where they can say."""
    counted = task_count_from_counters(user=user, filters=filters)
    return tasks.count() if counted is None else counted


def task_counts_rebuild() -> int:
    """Install the counters' triggers again and count every task (writers wait); return the counter rows."""
    counters_install(connection)
    return TaskCount.objects.count()
