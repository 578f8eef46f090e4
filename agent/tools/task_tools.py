"""Task tools: the run's user, ExecCtx and validated arguments in, services and selectors underneath.

Every tool is called through the ToolRunner (agent.tools.runner), which hands in the acting user
resolved once per run. Tools never see the origin of a request and never take facts from the model: status, titles,
subtasks and the clock are read from the database and the server.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet

from agent.context.three_views import ExecCtx
from agent.tools.facts import one_record, values_digest
from pm_assistant.vocabulary import task_key
from projects.selectors import role_can_write
from tasks.counts import task_list_count
from tasks.filters import TaskFilters
from tasks.models import Task
from tasks.paging import task_page
from tasks.selectors import task_descendants, task_facts_row, task_list_for_user

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


@one_record
def task_facts(*, user: User, task_id: int, subtasks: bool = True) -> dict[str, Any]:
    """Read what a confirmation card shows about a task, all from the database.

    The subtasks are every task below it (they all go with it), and ``subtasks_digest`` changes
    when any of them is added, removed or edited, so a re-check after approval sees it. A caller
    that does not act on the subtasks (an update of the task alone) asks for ``subtasks=False``
    and gets the task's own facts without reading the tree.
    """
    # Whether the user may change it is read with the task itself: its project's membership, joined.
    row = task_facts_row(user=user, task_id=task_id)
    facts: dict[str, Any] = {
        "task_id": row["pk"],
        "key": task_key(row["project__key"], row["pk"]),
        "project_id": row["project_id"],
        "title": row["title"],
        "status": row["status"],
        "project": row["project__name"],
        "assignee": row["assignee__username"],
        "due_date": row["due_date"].isoformat() if row["due_date"] else None,
    }
    if subtasks:
        below = task_descendants(task=Task(pk=row["pk"]))
        facts |= {
            "subtask_count": len(below),
            "subtask_titles": [t.title for t in below[:10]],
            "subtasks_digest": values_digest([[t.pk, t.updated_at.isoformat()] for t in below]),
        }
    return facts | {"updated_at": row["updated_at"].isoformat(), "can_write": role_can_write(row["role"])}


def compare_expected(*, facts: dict[str, Any], expected_title: str | None,
                     expected_status: str | None) -> list[Mismatch]:
    """Compare what the model said about the target with the database."""
    found = []
    if expected_title is not None and expected_title.strip().casefold() != facts["title"].strip().casefold():
        found.append(Mismatch("title", expected_title, facts["title"]))
    if expected_status is not None and expected_status != facts["status"]:
        found.append(Mismatch("status", expected_status, facts["status"]))
    return found
