"""The task log's revision: the newest TaskActivity id, a counter that moves with every task change.

Every create, edit, status change, deletion and undo writes a TaskActivity row (tasks/services.py,
tasks/revert.py), so "an activity newer than revision R in these projects" is exactly "these
projects' tasks changed since R": the per-project revision counter that an artifact's index is
tied to (agent/artifacts/index.py). When that index is stale, ``tasks_live_search`` answers from the
tasks as they are now, bounded.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Max, Q

from .models import Task, TaskActivity


def task_revision() -> int:
    """The newest activity id (0 before any): one read of the primary key's end."""
    newest = TaskActivity.objects.aggregate(newest=Max("id"))["newest"]
    return int(newest or 0)


def tasks_changed_since(*, project_ids: Iterable[int], revision: int) -> bool:
    """Whether any task of these projects changed after `revision` (a range read from the key's end)."""
    return TaskActivity.objects.filter(id__gt=revision, project_id__in=list(project_ids)).exists()


def tasks_live_search(*, project_ids: Iterable[int], text: str, limit: int) -> tuple[list[dict[str, Any]], bool]:
    """The first `limit` current tasks of these projects whose title holds the text (or whose key or number
    it is); and whether there were more. The caller has checked the reader's membership of the projects."""
    text = text.strip()
    match = Q(title__icontains=text)
    number = text.rsplit("-", 1)[-1]
    if number.isdigit() and len(number) < 18:
        match |= Q(pk=int(number))
    rows = list(Task.objects.filter(match, project_id__in=list(project_ids)).select_related("project", "assignee")
                .order_by("pk")[:limit + 1])
    found = [{"key": t.key, "title": t.title, "status": t.status,
              "assignee": t.assignee.get_username() if t.assignee else None,
              "due_date": t.due_date.isoformat() if t.due_date else None} for t in rows[:limit]]
    return found, len(rows) > limit
