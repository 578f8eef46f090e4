"""Task tools: the run's user, ExecCtx and validated arguments in, services and selectors underneath.

Every tool is called through the ToolRunner (agent.tools.runner), which hands in the acting user
resolved once per run. Tools never see the origin of a request and never take facts from the model: status, titles,
subtasks and the clock are read from the database and the server.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.db.models import OuterRef, QuerySet
from django.utils import timezone

from agent.assembler.views import ExecCtx
from agent.tools.facts import values_digest
from pm_assistant.errors import InvalidInput, NotFound
from pm_assistant.vocabulary import OPEN_STATUSES
from projects.selectors import project_get_for_user, project_writable_by
from tasks.counts import task_list_count
from tasks.filters import TaskFilters
from tasks.models import Task
from tasks.paging import task_page
from tasks.selectors import task_descendants, task_get_for_user, task_list_for_user
from tasks.services import task_bulk_set_status, task_create, task_delete, task_update

QUERY_MAX_ROWS = 10_000


@dataclass(frozen=True)
class Mismatch:
    field: str
    stated: str
    actual: str


def task_row(task: Task) -> dict[str, Any]:
    return {
        "id": task.pk,
        "key": task.key,
        "title": task.title,
        "status": task.status,
        "priority": task.priority,
        "due_date": task.due_date.isoformat() if task.due_date else None,
        "assignee": task.assignee.get_username() if task.assignee else None,
        "progress": task.progress,
        "project": task.project.name,
        "project_id": task.project_id,
    }


def rows_project_ids(result: dict[str, Any]) -> list[int]:
    """The projects a result of task rows touches: the permission scope of its artifact."""
    return sorted({row["project_id"] for row in result.get("items", [])})


def filters_from_ctx(ctx: ExecCtx, **overrides: Any) -> TaskFilters:
    """Translate the page's full filters (ExecCtx) into the selector's TaskFilters."""
    f = ctx.filters
    values: dict[str, Any] = {
        "project_id": ctx.route_params.project_id,
        "status": f.status, "assignee": f.assignee, "priority": f.priority,
        "due_before": f.due_before, "due_after": f.due_after, "labels": f.labels,
        "search": ctx.search_keyword,
    }
    values.update(overrides)
    return TaskFilters(**values)


def query_tasks(*, user: User, filters: TaskFilters, limit: int = QUERY_MAX_ROWS) -> dict[str, Any]:
    """Return the first page of matching tasks (at most `limit`, at most QUERY_MAX_ROWS) with the total count.

    The page is the task list's own first page (tasks.paging, one bounded read in the lists' order)
    and the count comes from the counters where they can say; ``next`` is the keyset cursor of the
    rows after it (the task list's ``cursor`` parameter), or None when the page holds them all.
    """
    qs: QuerySet[Task] = task_list_for_user(user=user, filters=filters)
    total = task_list_count(user=user, filters=filters, tasks=qs)  # the counters, where they can say
    page = task_page(qs, page_size=min(limit, QUERY_MAX_ROWS), count=total)
    rows = [task_row(t) for t in page.items]
    return {"count": total, "items": rows, "truncated": total > len(rows),
            "next": str(page.next) if page.next else None}


def my_overdue_filters(*, today: date | None = None) -> TaskFilters:
    """Filters for the user's open tasks whose due date has passed, by the server's clock."""
    today = today or timezone.localdate()
    return TaskFilters(assignee="me", status=OPEN_STATUSES,
                       due_before=today - timedelta(days=1))


def task_facts(*, user: User, task_id: int, subtasks: bool = True) -> dict[str, Any]:
    """Read what a confirmation card shows about a task, all from the database.

    The subtasks are every task below it (they all go with it), and ``subtasks_digest`` changes
    when any of them is added, removed or edited, so a re-check after approval sees it. A caller
    that does not act on the subtasks (an update of the task alone) asks for ``subtasks=False``
    and gets the task's own facts without reading the tree.
    """
    # Whether the user may change it is read with the task itself.
    task = task_get_for_user(user=user, task_id=task_id,
                             can_write=project_writable_by(user=user, project_id=OuterRef("project_id")))
    facts: dict[str, Any] = {
        "task_id": task.pk,
        "key": task.key,
        "project_id": task.project_id,
        "title": task.title,
        "status": task.status,
        "project": task.project.name,
        "assignee": task.assignee.get_username() if task.assignee else None,
        "due_date": task.due_date.isoformat() if task.due_date else None,
    }
    if subtasks:
        below = task_descendants(task=task)
        facts |= {
            "subtask_count": len(below),
            "subtask_titles": [t.title for t in below[:10]],
            "subtasks_digest": values_digest([[t.pk, t.updated_at.isoformat()] for t in below]),
        }
    return facts | {
        "updated_at": task.updated_at.isoformat(),
        "can_write": bool(task.can_write),  # type: ignore[attr-defined]  # annotated by the read above
    }


def compare_expected(*, facts: dict[str, Any], expected_title: str | None,
                     expected_status: str | None) -> list[Mismatch]:
    """Compare what the model said about the target with the database."""
    found = []
    if expected_title is not None and expected_title.strip().casefold() != facts["title"].strip().casefold():
        found.append(Mismatch("title", expected_title, facts["title"]))
    if expected_status is not None and expected_status != facts["status"]:
        found.append(Mismatch("status", expected_status, facts["status"]))
    return found


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
