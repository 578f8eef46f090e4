"""crud's tools: create, update and delete tasks, and the tasks "the visible ones" means, through the services.

Called only through the run's ToolRunner (`runtime.context.tools.write(...)`), which hands in the acting user
and traces each call with the facts it relied on. The reads several capabilities share (a task's facts, a
query, the page's filters) are agent/tools/task_tools.py's.
"""
from __future__ import annotations

from datetime import date, timedelta
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.db.models import OuterRef
from django.utils import timezone

from agent.context.three_views import ExecCtx
from agent.tools.task_tools import filters_from_ctx, task_row
from pm_assistant.errors import InvalidInput, NotFound
from projects.selectors import project_get_for_user, project_writable_by
from tasks.filters import TaskFilters
from tasks.models import Task
from tasks.selectors import task_get_for_user, task_list_for_user
from tasks.services import task_bulk_set_status, task_create, task_delete, task_update


def create_task(*, user: User, project_id: int, title: str, priority: str | None = None,
                due_date: date | None = None, status: str | None = None) -> dict[str, Any]:
    """Create a task in a project the user can write to."""
    project = project_get_for_user(user=user, project_id=project_id)
    if due_date is not None and due_date < timezone.localdate() - timedelta(days=365):
        raise InvalidInput("due_date: is more than a year in the past.", field="due_date")
    task = task_create(actor=user, project=project, title=title, priority=priority or Task.Priority.P2,
                       status=status or Task.Status.TODO, due_date=due_date, assignee=None)
    return task_row(task)


def update_task(*, user: User, task_id: int, run_id: UUID, status: str | None = None, priority: str | None = None,
                due_date: date | None = None) -> dict[str, Any]:
    """Change status, priority or due date of one task; the run's id goes on the activity, for undo."""
    changes: dict[str, Any] = {}
    if status is not None:
        changes["status"] = status
    if priority is not None:
        changes["priority"] = priority
    if due_date is not None:
        changes["due_date"] = due_date
    if not changes:
        raise InvalidInput("update: name what to change (status, priority or due date).", field="slots")
    # The service reads the row once, under its lock, and checks the user's role with it: a task that
    # is gone or in a project the user is not in is the same "not found".
    try:
        task = task_update(actor=user, task=Task(pk=task_id), run_id=run_id, **changes)
    except (Task.DoesNotExist, NotFound):
        raise NotFound(f"Task {task_id} was not found.", field="task") from None
    # Only a changed value puts rows for this run in the log, and gives Undo something to undo.
    return {**task_row(task), "changed": bool(task.changed_fields)}


def assign_task(*, user: User, task_id: int, run_id: UUID, assignee_id: int | None) -> dict[str, Any]:
    """Give one task to a member of its project (None: to nobody); the run's id goes on the activity, for undo.

    The service checks the user's role and that the assignee is a member of the task's project
    (``assignee: is not a member of this project``), under the task's lock.
    """
    person = None
    if assignee_id is not None:
        person = User.objects.filter(pk=assignee_id).first()
        if person is None:
            raise InvalidInput("assignee: no such person.", field="assignee")
    try:
        task = task_update(actor=user, task=Task(pk=task_id), run_id=run_id, assignee=person)
    except (Task.DoesNotExist, NotFound):
        raise NotFound(f"Task {task_id} was not found.", field="task") from None
    return {**task_row(task), "changed": bool(task.changed_fields)}


def rename_task(*, user: User, task_id: int, run_id: UUID, title: str) -> dict[str, Any]:
    """Give one task a new title (the service refuses a blank or too long one, naming the field)."""
    try:
        task = task_update(actor=user, task=Task(pk=task_id), run_id=run_id, title=title)
    except (Task.DoesNotExist, NotFound):
        raise NotFound(f"Task {task_id} was not found.", field="task") from None
    return {**task_row(task), "changed": bool(task.changed_fields)}


def delete_task(*, user: User, task_id: int) -> dict[str, Any]:
    """Delete one task and its subtasks."""
    task = task_get_for_user(user=user, task_id=task_id)
    deleted = task_delete(actor=user, task=task)
    return {"id": deleted.id, "title": deleted.title, "subtasks_deleted": deleted.subtasks_deleted}


def tasks_for_bulk(*, user: User, ctx: ExecCtx) -> list[Task]:
    """Return the tasks 'the visible ones' means: the page's ids when few, else the same query again;
    each with ``can_write``, whether the user may change it (in the same query)."""
    can_write = project_writable_by(user=user, project_id=OuterRef("project_id"))
    if ctx.visible_entity_ids is not None:
        if not ctx.visible_entity_ids:
            return []
        return list(task_list_for_user(user=user, filters=TaskFilters(ids=ctx.visible_entity_ids))
                    .annotate(can_write=can_write))
    page = ctx.pagination
    qs = task_list_for_user(user=user, filters=filters_from_ctx(ctx)).annotate(can_write=can_write)
    start = (page.page - 1) * page.page_size
    return list(qs[start:start + page.page_size])


def bulk_set_status(*, user: User, task_ids: list[int], status: str, run_id: UUID) -> dict[str, Any]:
    """Set the status of several tasks in one transaction: all change or none (undoable by the run's id)."""
    tasks = list(task_list_for_user(user=user, filters=TaskFilters(ids=tuple(task_ids)))) if task_ids else []
    if len(tasks) != len(set(task_ids)):
        raise InvalidInput("task_ids: some tasks are no longer visible to you.", field="task_ids")
    changed = task_bulk_set_status(actor=user, tasks=tasks, status=status, run_id=run_id)
    return {"count": len(changed), "items": [task_row(t) for t in changed]}


def select_for_bulk(*, user: User, ctx: ExecCtx, exclude_status: str | None = None) -> dict[str, Any]:
    """Return the tasks 'the visible ones' means as rows: those the user may change, not yet in exclude_status."""
    shown = [t for t in tasks_for_bulk(user=user, ctx=ctx) if t.status != exclude_status]
    tasks = [t for t in shown if t.can_write]  # type: ignore[attr-defined]  # annotated by tasks_for_bulk
    source = "page ids" if ctx.visible_entity_ids is not None else "the page's filters, queried again"
    return {"count": len(tasks), "items": [task_row(t) for t in tasks], "source": source,
            "skipped_read_only": len(shown) - len(tasks)}
