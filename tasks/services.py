"""Writes to tasks: each runs in a transaction, checks the actor's role and records activity."""
from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from pm_assistant.errors import InvalidInput, NotFound
from pm_assistant.one_line import one_line
from pm_assistant.vocabulary import DATE_MAX, DATE_MIN
from projects.models import Membership, Project
from projects.selectors import project_require_writer, project_require_writer_of

from .models import Label, Task, TaskActivity
from .selectors import task_descendants

UNSET: Any = object()
_TRACKED = ("title", "description", "priority", "start_date", "due_date", "estimate_hours", "parent_id")
# What task_update reports in changed_fields (the labels are compared apart).
_COMPARED = (*_TRACKED, "status", "assignee_id", "progress")


@dataclass(frozen=True)
class DeletedTask:
    id: int
    title: str
    subtasks_deleted: int


def lock_projects_of(task_ids: Collection[int]) -> None:
    """Lock the projects of these tasks, in id order, before any task row is read for writing.

    Every task write takes its project's lock first, so writes to one project's tasks run one after
    another and always lock in the same order (the project, then its tasks and its counters, which
    the database's triggers move): no two of them deadlock, and a parent check reads
    the tree as the writes before it left it (two opposite parent changes cannot make a loop; a
    parent being deleted is gone by the time a child is attached). FOR NO KEY UPDATE: rows that only
    point at the project (activities, runs) are still written freely.
    """
    owning = Task.objects.filter(pk__in=task_ids).values("project_id")
    list(Project.objects.select_for_update(no_key=True).filter(pk__in=owning).order_by("pk").values_list("pk"))


def lock_projects(project_ids: Collection[int]) -> None:
    """Lock these projects in id order: what lock_projects_of does for the projects of tasks, for a
    write that knows its projects (a new task, a task moved to another project in the admin)."""
    list(Project.objects.select_for_update(no_key=True).filter(pk__in=project_ids).order_by("pk").values_list("pk"))


def _lock_project(project: Project) -> None:
    lock_projects([project.pk])


def _task_gone(task_id: int) -> NotFound:
    return NotFound(f"Task {task_id} was not found.", field="task")


def _parent_locked(parent: Task | None) -> Task | None:
    """The parent as it is now, read under the project's lock; gone since it was read is a 400 naming it."""
    if parent is None:
        return None
    found = Task.objects.filter(pk=parent.pk).first()
    if found is None:
        raise InvalidInput(f"parent: task {parent.pk} was deleted.", field="parent")
    return found


def _display(value: Any) -> str:
    return "" if value is None else str(value)


def _validate(*, project: Project, assignee: User | None, parent: Task | None,
              title: str, progress: int, start_date: date | None, due_date: date | None,
              task: Task | None = None, status: str | None = None, priority: str | None = None) -> None:
    # Checked here so a bad value is a 400 naming the field, not an IntegrityError from the database.
    if status is not None and status not in Task.Status.values:
        raise InvalidInput(f"status: {status!r} is not one of {', '.join(Task.Status.values)}.", field="status")
    if priority is not None and priority not in Task.Priority.values:
        raise InvalidInput(f"priority: {priority!r} is not one of {', '.join(Task.Priority.values)}.",
                           field="priority")
    if not title or not title.strip():
        raise InvalidInput("title: must not be blank.", field="title")
    if len(title) > 300:
        raise InvalidInput("title: at most 300 characters.", field="title")
    if not 0 <= progress <= 100:
        raise InvalidInput("progress: must be between 0 and 100.", field="progress")
    if start_date and due_date and due_date < start_date:
        raise InvalidInput("due_date: must not be before the start date.", field="due_date")
    if assignee is not None and not Membership.objects.filter(user=assignee, project=project).exists():
        raise InvalidInput("assignee: is not a member of this project.", field="assignee")
    if parent is not None:
        if parent.project_id != project.pk:
            raise InvalidInput("parent: must be a task of the same project.", field="parent")
        if task is not None and parent.pk == task.pk:
            raise InvalidInput("parent: a task cannot be its own parent.", field="parent")
        if task is not None and _is_descendant(candidate=parent, of=task):
            raise InvalidInput("parent: must not be one of the task's own subtasks.", field="parent")


def _is_descendant(*, candidate: Task, of: Task) -> bool:
    """Walk up from candidate; the database cannot see cycles longer than one step."""
    seen: set[int] = set()
    parent_id = candidate.parent_id
    while parent_id is not None and parent_id not in seen:
        if parent_id == of.pk:
            return True
        seen.add(parent_id)
        parent_id = Task.objects.filter(pk=parent_id).values_list("parent_id", flat=True).first()
    return False


def _record(*, task: Task, actor: User | None, kind: str, field: str = "",
            old: Any = "", new: Any = "", run_id: UUID | None = None) -> TaskActivity:
    activity = _activity(task=task, actor=actor, kind=kind, field=field, old=old, new=new, at=timezone.now(),
                         run_id=run_id)
    if kind == TaskActivity.Kind.DELETED:
        activity.deleted_task_id, activity.deleted_task_created_at = task.pk, task.created_at
    activity.save()
    return activity


def _dates_in_range(**dates: date | None) -> None:
    """Refuse a date being set outside DATE_MIN..DATE_MAX (one stored before that bound may stay as it is)."""
    for name, day in dates.items():
        if day is not None and not DATE_MIN <= day <= DATE_MAX:
            raise InvalidInput(f"{name}: must be between {DATE_MIN.isoformat()} and {DATE_MAX.isoformat()}.",
                               field=name)


def _labels_for(*, project: Project, names: Iterable[str]) -> list[Label]:
    labels = []
    for name in sorted({n.strip() for n in names if n and n.strip()}):
        if len(name) > 40:
            raise InvalidInput("labels: each label is at most 40 characters.", field="labels")
        labels.append(Label.objects.get_or_create(project=project, name=one_line(name))[0])
    return labels


@transaction.atomic
def task_create(*, actor: User, project: Project, title: str, description: str = "",
                status: str = Task.Status.TODO, priority: str = Task.Priority.P2,
                assignee: User | None = None, labels: Sequence[str] = (),
                start_date: date | None = None, due_date: date | None = None,
                estimate_hours: Decimal | None = None, progress: int = 0, parent: Task | None = None) -> Task:
    """Create a task in a project the actor may write to."""
    project_require_writer(user=actor, project=project)
    _dates_in_range(start_date=start_date, due_date=due_date)
    title = one_line(title)
    # The project's lock first, as every task write takes it: the parent is read as the writes before
    # left it, and the project's counters (tasks.models.TaskCount) are always reached after its lock.
    _lock_project(project)
    parent = _parent_locked(parent)
    _validate(project=project, assignee=assignee, parent=parent, title=title, progress=progress,
              start_date=start_date, due_date=due_date, status=status, priority=priority)
    task = Task.objects.create(
        project=project, title=title, description=description, status=status, priority=priority,
        assignee=assignee, start_date=start_date, due_date=due_date, estimate_hours=estimate_hours,
        progress=100 if status == Task.Status.DONE else progress, parent=parent, created_by=actor,
        completed_at=timezone.now() if status == Task.Status.DONE else None,
    )
    if labels:
        task.labels.set(_labels_for(project=project, names=labels))
    _record(task=task, actor=actor, kind=TaskActivity.Kind.CREATED, field="status", new=status)
    return task


@transaction.atomic
def task_update(*, actor: User, task: Task, title: str = UNSET, description: str = UNSET,
                status: str = UNSET, priority: str = UNSET, assignee: User | None = UNSET,
                labels: Sequence[str] = UNSET, start_date: date | None = UNSET, due_date: date | None = UNSET,
                estimate_hours: Decimal | None = UNSET, progress: int = UNSET,
                parent: Task | None = UNSET, run_id: UUID | None = None) -> Task:
    """Change the given fields of a task and record one activity per changed field.

    Only ``task.pk`` is used: the row is read again under a lock. The returned task's
    ``changed_fields`` names what changed. ``run_id`` names the assistant run making the change;
    its activities carry it, so it can be undone.
    """
    lock_projects_of([task.pk])
    # The task's row is locked too; its project and assignee come along for the caller's answer.
    found = Task.objects.select_for_update(of=("self",)).select_related("project", "assignee").filter(
        pk=task.pk).first()
    if found is None:  # deleted by a write that held the lock before this one
        raise _task_gone(task.pk)
    task = found
    project_require_writer(user=actor, project=task.project)
    if parent is not UNSET:
        parent = _parent_locked(parent)
    before = {name: getattr(task, name) for name in _COMPARED}
    log: list[TaskActivity] = []
    now = timezone.now()
    changes: dict[str, Any] = {
        k: v for k, v in {
            "title": one_line(title) if isinstance(title, str) else title, "description": description,
            "priority": priority, "start_date": start_date, "due_date": due_date, "estimate_hours": estimate_hours,
        }.items() if v is not UNSET
    }
    if parent is not UNSET:
        changes["parent_id"] = parent.pk if parent else None
    new_progress = task.progress if progress is UNSET else progress
    _dates_in_range(**{name: changes[name] for name in ("start_date", "due_date") if name in changes})
    _validate(project=task.project, assignee=None if assignee is UNSET else assignee,
              parent=parent if parent is not UNSET else None, title=changes.get("title", task.title),
              progress=new_progress, start_date=changes.get("start_date", task.start_date),
              due_date=changes.get("due_date", task.due_date), task=task,
              status=None if status is UNSET else status, priority=None if priority is UNSET else priority)
    for name in _TRACKED:
        if name in changes and getattr(task, name) != changes[name]:
            log.append(_activity(task=task, actor=actor, kind=TaskActivity.Kind.UPDATED, field=name,
                                 old=getattr(task, name), new=changes[name], at=now, run_id=run_id))
            setattr(task, name, changes[name])
    if assignee is not UNSET and task.assignee_id != (assignee.pk if assignee else None):
        log.append(_activity(task=task, actor=actor, kind=TaskActivity.Kind.ASSIGNED, field="assignee",
                             old=task.assignee.get_username() if task.assignee else "",
                             new=assignee.get_username() if assignee else "", at=now, run_id=run_id))
        task.assignee = assignee
    if status is not UNSET and status != task.status:
        log.append(_activity(task=task, actor=actor, kind=TaskActivity.Kind.STATUS, field="status",
                             old=task.status, new=status, at=now, run_id=run_id))
        task.status = status
        task.completed_at = now if status == Task.Status.DONE else None
        if status == Task.Status.DONE and progress is UNSET:
            new_progress = 100
    if new_progress != task.progress:
        log.append(_activity(task=task, actor=actor, kind=TaskActivity.Kind.PROGRESS, field="progress",
                             old=task.progress, new=new_progress, at=now, run_id=run_id))
        task.progress = new_progress
    task.save()
    changed = [name for name in _COMPARED if before[name] != getattr(task, name)]
    if labels is not UNSET:
        new_labels = _labels_for(project=task.project, names=labels)
        old_names = sorted(task.labels.values_list("name", flat=True))
        new_names = [label.name for label in new_labels]
        if old_names != new_names:
            log.append(_activity(task=task, actor=actor, kind=TaskActivity.Kind.UPDATED, field="labels",
                                 old=", ".join(old_names), new=", ".join(new_names), at=now, run_id=run_id))
            task.labels.set(new_labels)
            changed.append("labels")
    # The log in one statement, in the order the changes were found.
    TaskActivity.objects.bulk_create(log)
    task.changed_fields = tuple(changed)
    return task


@transaction.atomic
def task_delete(*, actor: User, task: Task) -> DeletedTask:
    """Delete a task and its subtasks, keeping a 'deleted' activity for history."""
    lock_projects_of([task.pk])
    locked = Task.objects.select_for_update(of=("self",)).filter(pk=task.pk).select_related("project").first()
    if locked is None:
        raise _task_gone(task.pk)
    project_require_writer(user=actor, project=locked.project)
    subtasks = task_descendants(task=locked)
    # Subtasks go with their parent (cascade); each keeps its own trace in the history.
    for subtask in subtasks:
        _record(task=subtask, actor=actor, kind=TaskActivity.Kind.DELETED)
    _record(task=locked, actor=actor, kind=TaskActivity.Kind.DELETED)
    result = DeletedTask(id=locked.pk, title=locked.title, subtasks_deleted=len(subtasks))
    locked.delete()
    return result


@transaction.atomic
def task_bulk_set_status(*, actor: User, tasks: Sequence[Task], status: str,
                         run_id: UUID | None = None) -> list[Task]:
    """Set the status of several tasks at once; all must be writable or nothing changes.

    The statements do not grow with the number of tasks: one locked read, one role check, one
    UPDATE and one INSERT of the activities (task_update's records, status then progress per task).
    """
    if status not in Task.Status.values:
        raise InvalidInput(f"status: {status!r} is not one of {', '.join(Task.Status.values)}.", field="status")
    ids = [task.pk for task in tasks]
    lock_projects_of(ids)
    # of=self: PostgreSQL cannot lock the nullable side of the assignee join, and only tasks change.
    locked = {task.pk: task for task in Task.objects.select_for_update(of=("self",))
              .select_related("project", "assignee").filter(pk__in=ids).order_by("pk")}
    missing = [pk for pk in ids if pk not in locked]
    if missing:
        raise _task_gone(missing[0])
    project_require_writer_of(user=actor, project_ids={task.project_id for task in locked.values()})
    now = timezone.now()
    activities: list[TaskActivity] = []
    for task in locked.values():
        if task.status != status:
            activities.append(_activity(task=task, actor=actor, kind=TaskActivity.Kind.STATUS, field="status",
                                        old=task.status, new=status, at=now, run_id=run_id))
            task.status, task.completed_at = status, now if status == Task.Status.DONE else None
            if status == Task.Status.DONE and task.progress != 100:
                activities.append(_activity(task=task, actor=actor, kind=TaskActivity.Kind.PROGRESS,
                                            field="progress", old=task.progress, new=100, at=now,
                                            run_id=run_id))
                task.progress = 100
        task.updated_at = now  # bulk_update skips auto_now, and task_update's save always moved it
    Task.objects.bulk_update(locked.values(), ["status", "completed_at", "progress", "updated_at"])
    TaskActivity.objects.bulk_create(activities)
    return [locked[pk] for pk in ids]


def _activity(*, task: Task, actor: User | None, kind: str, field: str, old: Any, new: Any, at: Any,
              run_id: UUID | None = None) -> TaskActivity:
    """An unsaved line of the task's log (with the task's title as it is now)."""
    return TaskActivity(project_id=task.project_id, task=task, task_title=task.title, actor=actor, kind=kind,
                        field=field, from_value=_display(old), to_value=_display(new), created_at=at, run_id=run_id)
