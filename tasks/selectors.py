"""Read access to tasks, always scoped to the projects the user is a member of."""
from __future__ import annotations

from datetime import date, timedelta
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.db.models import F, Q, QuerySet, Sum
from django.utils import timezone

from pm_assistant.errors import NotFound
from pm_assistant.vocabulary import COUNT_SHOWN_MAX
from projects.selectors import AnyUser, project_list_for_user

from .filters import TaskFilters, scope_q
from .models import Task, TaskActivity, TaskCount
from .ordering import task_order


class TaskName(NamedTuple):
    """What a page's summary names a task by: its title and its project."""

    title: str
    project_id: int
    project_name: str
    project_key: str


def task_list_for_user(*, user: AnyUser, filters: TaskFilters | None = None) -> QuerySet[Task]:
    """Return the tasks of the user's projects that match the filters."""
    f = filters or TaskFilters()
    qs = Task.objects.filter(scope_q(f, user), project__in=project_list_for_user(user=user, include_archived=True))
    if f.priority:
        qs = qs.filter(priority__in=f.priority)
    if f.due_before:
        qs = qs.filter(due_date__lte=f.due_before)
    if f.due_after:
        qs = qs.filter(due_date__gte=f.due_after)
    if f.labels:
        qs = qs.filter(pk__in=Task.labels.through.objects.filter(label__name__in=f.labels).values("task_id"))
    if f.search:
        qs = qs.filter(Q(title__icontains=f.search) | Q(description__icontains=f.search))
    if f.ids:
        qs = qs.filter(pk__in=f.ids)
    # By due date, tasks without one last (on every database), then by id: tasks.ordering.
    return qs.select_related("project", "assignee").order_by(*task_order())


def task_get_for_user(*, user: AnyUser, task_id: int, **annotations: Any) -> Task:
    """Return one task, or NotFound when it does not exist or is outside the user's projects.

    ``annotations`` are read in the same query (e.g. whether the user may change it).
    """
    # One row by its key: the lists' order would only add a sort to the statement.
    task = task_list_for_user(user=user).filter(pk=task_id).annotate(**annotations).order_by().first()
    if task is None:
        raise NotFound(f"Task {task_id} was not found.", field="task")
    return task


def task_facts_row(*, user: AnyUser, task_id: int) -> dict[str, Any]:
    """One task's own facts with its project's name and key, its assignee's username and the user's role in
    its project: one statement, the membership joined (no subquery), so a card's facts cost one short read.

    Scoped like every read here: a task that is gone or outside the user's projects is NotFound.
    """
    found = None
    if user.is_authenticated:
        found = (Task.objects.filter(pk=task_id, project__memberships__user=user)
                 .values("pk", "project_id", "title", "status", "due_date", "updated_at", "project__name",
                         "project__key", "assignee__username", role=F("project__memberships__role"))
                 .order_by("pk").first())
    if found is None:
        raise NotFound(f"Task {task_id} was not found.", field="task")
    return dict(found)


def task_ids_visible_to_user(*, user: AnyUser, ids: list[int] | tuple[int, ...]) -> set[int]:
    """Return the subset of ids the user may see: one query."""
    if not ids:
        return set()
    return set(task_list_for_user(user=user).filter(pk__in=ids).values_list("pk", flat=True))


def task_names_visible_to_user(*, user: AnyUser, ids: list[int] | tuple[int, ...]) -> dict[int, TaskName]:
    """Of these ids, the tasks the user may see, each with its title and its project's id and name: one query."""
    if not ids:
        return {}
    rows = (task_list_for_user(user=user).filter(pk__in=ids).order_by()
            .values_list("pk", "title", "project_id", "project__name", "project__key"))
    return {pk: TaskName(title, project_id, name, key) for pk, title, project_id, name, key in rows}


def task_ids_visible_and_deleted(*, user: AnyUser, ids: list[int] | tuple[int, ...]
                                 ) -> tuple[dict[int, TaskName], set[int]]:
    """Of these ids: the tasks the user may see (with their names), and the tasks since deleted from one of the
    user's projects.

    Any other id (a task of a project the user is not in, deleted or not, or one that never named a
    task) is in neither, so a caller answers it alike whichever it is. The second query runs only
    when some id is not visible.
    """
    visible = task_names_visible_to_user(user=user, ids=ids)
    rest = [task_id for task_id in ids if task_id not in visible]
    if not rest or not user.is_authenticated:
        return visible, set()
    deleted = TaskActivity.objects.filter(kind=TaskActivity.Kind.DELETED, deleted_task_id__in=rest,
                                          project__memberships__user=user)
    return visible, {task_id for task_id in deleted.values_list("deleted_task_id", flat=True) if task_id is not None}


# Every task below one, with its depth: one statement however deep the tree (SQLite and PostgreSQL).
# The depth bound stops a cycle the database cannot see; repeats are dropped below.
_DESCENDANTS_SQL = """
WITH RECURSIVE below(id, depth) AS (
    SELECT id, 1 FROM {table} WHERE parent_id = %s
    UNION ALL
    SELECT t.id, b.depth + 1 FROM {table} t JOIN below b ON t.parent_id = b.id WHERE b.depth < %s
)
SELECT t.*, b.depth FROM {table} t JOIN below b ON t.id = b.id ORDER BY b.depth, t.id
"""
_MAX_DEPTH = 100


def task_descendants(*, task: Task) -> list[Task]:
    """Return every task below this one, level by level (subtasks may have subtasks), in one query."""
    sql = _DESCENDANTS_SQL.format(table=connection.ops.quote_name(Task._meta.db_table))
    found: list[Task] = []
    seen = {task.pk}
    for row in Task.objects.raw(sql, [task.pk, _MAX_DEPTH]):
        if row.pk not in seen:
            seen.add(row.pk)
            found.append(row)
    return found


def task_subtask_summary(*, task: Task) -> dict[str, Any]:
    """Return the direct subtasks of a task (count and titles) for its page."""
    subtasks = list(task.subtasks.order_by("id").values("id", "title", "status"))
    return {"count": len(subtasks), "items": subtasks}


def task_activity_for_task(*, task: Task, limit: int = 20) -> list[TaskActivity]:
    """Return the latest activity of a task, each assignee change with the people's names.

    The log keeps usernames (what an undo restores by); ``people`` maps them to the names the pages
    show everywhere else (full name, or the username), read in one query for the whole list.
    """
    rows = list(task.activities.select_related("actor").order_by("-created_at", "-id")[:limit])
    usernames = {value for row in rows if row.field == "assignee" for value in (row.from_value, row.to_value) if value}
    people = {user.get_username(): user.get_full_name() or user.get_username()
              for user in get_user_model().objects.filter(username__in=usernames)} if usernames else {}
    for row in rows:
        row.people = people
    return rows


def task_counts_for_project(*, user: AnyUser, project_id: int, today: date | None = None,
                            cap: int | None = None) -> dict[str, int]:
    """Return a project's task counts by status and in total (its counters), and overdue up to ``cap``.

    Two statements whatever the project's size: the counters the database keeps (tasks.models.TaskCount)
    and one bounded range of the (project, due_date) index for the overdue (count_up_to, shown "cap+").
    """
    cap = COUNT_SHOWN_MAX if cap is None else cap
    today = today or timezone.localdate()
    by_status = TaskCount.objects.filter(project__in=project_list_for_user(user=user, include_archived=True),
                                         project_id=project_id).order_by().values("status").annotate(n=Sum("tasks"))
    counts = dict.fromkeys(Task.Status.values, 0) | {row["status"]: row["n"] for row in by_status}
    overdue = task_list_for_user(user=user, filters=TaskFilters(project_id=project_id)).filter(
        due_date__lt=today).exclude(status=Task.Status.DONE)
    return {"total": sum(counts.values()), **counts, "overdue": count_up_to(overdue, cap), "cap": cap}


def count_up_to(tasks: QuerySet[Task], cap: int) -> int:
    """Count the tasks, stopping after cap + 1: more than cap reads as cap + 1 (shown "cap+")."""
    return counts_up_to({"tasks": tasks}, cap)["tasks"]


def counts_up_to(named: dict[str, QuerySet[Task]], cap: int) -> dict[str, int]:
    """Count each query up to cap + 1 (as count_up_to), all in one statement: one round trip, not one per count.

    Each query is compiled by the ORM with its parameters kept apart, then counted in a scalar subquery
    of one SELECT.
    """
    parts: list[str] = []
    params: list[Any] = []
    for tasks in named.values():
        sql, own = tasks.order_by().values("pk")[:cap + 1].query.sql_with_params()
        # The ORM's own SQL, its values passed as parameters: no outside text enters the statement.
        parts.append(f"(SELECT COUNT(*) FROM ({sql}) capped)")  # noqa: S608
        params.extend(own)
    with connections[next(iter(named.values())).db].cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(parts)}", params)
        return dict(zip(named, cursor.fetchone(), strict=True))


def workbench_for_user(*, user: AnyUser, today: date | None = None, cap: int | None = None) -> dict[str, Any]:
    """Return what the home workbench shows: my open, overdue and due-this-week tasks.

    The counts stop past ``cap`` (COUNT_SHOWN_MAX unless given; counts_up_to): each is one bounded
    range of the (assignee, status, due_date) index, so home costs the same however many tasks the
    user has, and the four are read in one statement.
    """
    cap = COUNT_SHOWN_MAX if cap is None else cap
    today = today or timezone.localdate()
    week_end = today + timedelta(days=6 - today.weekday())
    mine = task_list_for_user(user=user, filters=TaskFilters(assignee="me")).exclude(status=Task.Status.DONE)
    counts = counts_up_to({
        "open": mine,
        "overdue": mine.filter(due_date__lt=today),
        "due_week": mine.filter(due_date__gte=today, due_date__lte=week_end),
        "blocked": mine.filter(status=Task.Status.BLOCKED),
    }, cap) | {"cap": cap}
    return {
        "today": today,
        "week_end": week_end,
        "counts": counts,
        # Each list is the first rows of one index range (task_assignee_due_id, task_assignee_priority_due),
        # not a sort of every open task of the user's. Both date lists hold dated tasks only.
        "overdue": list(mine.filter(due_date__lt=today).order_by("due_date", "id")[:10]),
        "due_week": list(mine.filter(due_date__gte=today, due_date__lte=week_end).order_by("due_date", "id")[:10]),
        "open": list(mine.order_by("priority", "due_date", "id")[:10]),
    }
