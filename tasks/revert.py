"""Undo one batch of task changes (an assistant run's) from the activity log, if nothing changed them since.

The log holds each change's before and after values. A batch is restored only as a whole: every
field it changed must still hold the value the batch left (by the task itself and by the log), so
a later edit by anyone is reported and nothing is restored. The statements do not grow with the
number of tasks: the batch's rows, the later rows, the locked tasks, the assignees by name, one
UPDATE and one INSERT.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from pm_assistant.errors import Conflict
from projects.selectors import project_require_writer_of

from .models import Task, TaskActivity
from .services import lock_projects_of

# The fields a batch may change and still be undone (a create or a delete cannot).
REVERTIBLE = ("title", "status", "priority", "due_date", "assignee", "progress")
_KINDS = (TaskActivity.Kind.STATUS, TaskActivity.Kind.UPDATED, TaskActivity.Kind.ASSIGNED,
          TaskActivity.Kind.PROGRESS)


@dataclass(frozen=True)
class ChangedSince:
    """A field of a task the batch changed that holds another value now."""

    task: str
    field: str
    by: str
    now: str

    def words(self) -> str:
        who = f" by {self.by}" if self.by else ""
        return f"{self.task} {self.field.replace('_', ' ')} was changed{who} (now “{self.now or 'none'}”)"


class RevertRefused(Conflict):
    """The batch cannot be undone; ``changed`` names what changed since, ``deleted`` the title of a task
    deleted since, when that is the reason."""

    code = "changed_since"

    def __init__(self, message: str, *, changed: tuple[ChangedSince, ...] = (), deleted: str = "",
                 code: str | None = None, creates_or_deletes: bool = False) -> None:
        super().__init__(message, field="run_id", code=code)
        self.changed = changed
        self.deleted = deleted
        self.creates_or_deletes = creates_or_deletes


def _display(task: Task, field: str) -> str:
    """A task's current value as the log writes it."""
    if field == "assignee":
        return task.assignee.get_username() if task.assignee else ""
    value = getattr(task, field)
    return "" if value is None else str(value)


def _typed(field: str, text: str, users: Mapping[str, User]) -> Any:
    """A logged value back as the task's field holds it."""
    if field == "due_date":
        return date.fromisoformat(text) if text else None
    if field == "progress":
        return int(text)
    if field == "assignee":
        return users.get(text) if text else None
    return text


def _batch(run_id: UUID) -> list[TaskActivity]:
    rows = list(TaskActivity.objects.filter(run_id=run_id).order_by("id"))
    if not rows:
        raise RevertRefused("There is nothing to undo: this run changed no task.", code="not_undoable")
    if any(r.kind not in _KINDS or r.field not in REVERTIBLE for r in rows):
        raise RevertRefused("This run created or deleted tasks, which cannot be undone.", code="not_undoable",
                            creates_or_deletes=True)
    gone = next((r for r in rows if r.task_id is None), None)  # a deleted task's rows lose their task
    if gone is not None:
        raise RevertRefused(f"Nothing was restored: “{gone.task_title}” was deleted since.", deleted=gone.task_title)
    return rows


def _changed_since(rows: list[TaskActivity], tasks: Mapping[int, Task]) -> list[ChangedSince]:
    """Every field of the batch whose value moved on since: by a later log row, or without one."""
    after: dict[tuple[int, str], str] = {}
    for row in rows:
        assert row.task_id is not None
        after[(row.task_id, row.field)] = row.to_value
    later = TaskActivity.objects.filter(task_id__in={t for t, _ in after}, id__gt=rows[-1].id) \
        .filter(Q(run_id__isnull=True) | ~Q(run_id=rows[0].run_id)).select_related("actor").order_by("id")
    by: dict[tuple[int, str], str] = {}
    for row in later:
        if (row.task_id, row.field) in after and row.task_id is not None:
            by[(row.task_id, row.field)] = row.actor.get_username() if row.actor else ""
    found = []
    for (task_id, field), value in after.items():
        task = tasks[task_id]
        now = _display(task, field)
        if (task_id, field) in by or now != value:
            found.append(ChangedSince(task=task.key, field=field, by=by.get((task_id, field), ""), now=now))
    return found


@transaction.atomic
def task_changes_revert(*, actor: User, run_id: UUID) -> list[Task]:
    """Restore what the run's log rows changed to their earlier values, all or nothing.

    Raises RevertRefused naming the first changes made since (or why the batch cannot be undone).
    """
    rows = _batch(run_id)
    ids = sorted({r.task_id for r in rows if r.task_id is not None})
    lock_projects_of(ids)
    tasks = {t.pk: t for t in Task.objects.select_for_update(of=("self",))
             .select_related("project", "assignee").filter(pk__in=ids).order_by("pk")}
    if len(tasks) != len(ids):
        missing = next(r for r in rows if r.task_id not in tasks)
        raise RevertRefused(f"Nothing was restored: “{missing.task_title}” was deleted since.",
                            deleted=missing.task_title)
    project_require_writer_of(user=actor, project_ids={t.project_id for t in tasks.values()})
    changed = _changed_since(rows, tasks)
    if changed:
        more = f" and {len(changed) - 3} more changes" if len(changed) > 3 else ""
        raise RevertRefused("Nothing was restored: " + "; ".join(c.words() for c in changed[:3]) + more + ".",
                            changed=tuple(changed))
    # The value before the batch is the first row's for each field (a batch may touch one twice).
    before: dict[tuple[int, str], TaskActivity] = {}
    for row in rows:
        before.setdefault((row.task_id or 0, row.field), row)
    last = {(row.task_id or 0, row.field): row.to_value for row in rows}
    names = {r.from_value for r in before.values() if r.field == "assignee" and r.from_value}
    users = {u.get_username(): u for u in User.objects.filter(username__in=names)} if names else {}
    now = timezone.now()
    undo_rows = []
    for (task_id, field), row in before.items():
        task = tasks[task_id]
        setattr(task, field, _typed(field, row.from_value, users))
        if field == "status":
            task.completed_at = now if row.from_value == Task.Status.DONE else None
        undo_rows.append(TaskActivity(project_id=task.project_id, task=task, task_title=task.title, actor=actor,
                                      kind=row.kind, field=field, from_value=last[(task_id, field)],
                                      to_value=row.from_value, created_at=now))
    for task in tasks.values():
        task.updated_at = now  # bulk_update skips auto_now
    Task.objects.bulk_update(tasks.values(), ["title", "status", "priority", "due_date", "assignee", "progress",
                                              "completed_at", "updated_at"])
    TaskActivity.objects.bulk_create(undo_rows)
    return [tasks[pk] for pk in ids]

