"""Verified figures: recount every figure in SQL, by a path independent of the collected rows.

The projection reads two row lists and counts in Python; this module asks the database to count
over the Task table, each task's status and due date at the week's end taken from the first change
recorded at or after it. Both must agree, or the report is not shown.

The history since the week's end is ranked once per task (a window function) and joined, not
looked up per task: a correlated subquery ran once per task row (~19 600 loops each at 20 000
tasks, 1.2-1.5 s per recount on PostgreSQL with statistics), while one pass over the history
rows costs the same whatever the number of tasks. Each week is two statements at any size.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count, F, Q

from tasks.models import Task, TaskActivity

from .figures import UNASSIGNED, WeekFigures
from .scope import ReportScope, Window

DONE = Task.Status.DONE
PER_ASSIGNEE = ("completed", "open", "overdue")

# Per task in the scope, its status and due date at the week's end and whether it was finished or
# reopened within the week, counted per current assignee. `later` keeps the first status change and
# the first due-date change at or after the end; `week` flags the week's status changes.
_WEEK_SQL = """
WITH later AS (
    SELECT a.task_id, a.kind, a.from_value,
           ROW_NUMBER() OVER (PARTITION BY a.task_id, a.kind ORDER BY a.created_at, a.id) AS nth
    FROM {activity} a
    WHERE a.project_id IN ({projects}) AND a.task_id IS NOT NULL AND a.created_at >= %(end)s
      AND (a.kind = 'status' OR (a.kind = 'updated' AND a.field = 'due_date'))
), week AS (
    SELECT a.task_id,
           MAX(CASE WHEN a.to_value = %(done)s THEN 1 ELSE 0 END) AS finished,
           MAX(CASE WHEN a.from_value = %(done)s THEN 1 ELSE 0 END) AS reopened
    FROM {activity} a
    WHERE a.project_id IN ({projects}) AND a.task_id IS NOT NULL AND a.kind = 'status'
      AND a.created_at >= %(start)s AND a.created_at < %(end)s
    GROUP BY a.task_id
), at_end AS (
    SELECT t.assignee_id, t.created_at,
           COALESCE(s.from_value, t.status) AS status,
           COALESCE(d.from_value, CAST(t.due_date AS TEXT), '') AS due,
           COALESCE(w.finished, 0) AS finished, COALESCE(w.reopened, 0) AS reopened
    FROM {task} t
    LEFT JOIN later s ON s.task_id = t.id AND s.kind = 'status' AND s.nth = 1
    LEFT JOIN later d ON d.task_id = t.id AND d.kind = 'updated' AND d.nth = 1
    LEFT JOIN week w ON w.task_id = t.id
    WHERE t.project_id IN ({projects}) AND t.created_at < %(end)s
)
SELECT u.username,
       SUM(CASE WHEN e.created_at >= %(start)s THEN 1 ELSE 0 END),
       SUM(CASE WHEN e.status = %(done)s AND e.finished = 1 THEN 1 ELSE 0 END),
       SUM(e.reopened),
       SUM(CASE WHEN e.status <> %(done)s THEN 1 ELSE 0 END),
       SUM(CASE WHEN e.status = 'in_progress' THEN 1 ELSE 0 END),
       SUM(CASE WHEN e.status = 'blocked' THEN 1 ELSE 0 END),
       SUM(CASE WHEN e.status <> %(done)s AND e.due <> '' AND e.due < %(end_date)s THEN 1 ELSE 0 END)
FROM at_end e LEFT JOIN {user} u ON u.id = e.assignee_id
GROUP BY u.username
"""
_COUNTED = ("created", "completed", "reopened", "open", "in_progress", "blocked", "overdue")


@dataclass(frozen=True)
class Disagreement:
    figure: str
    projected: int
    recounted: int


@dataclass(frozen=True)
class Recount:
    """A week's figures as the database counts them: in total and per current assignee."""

    totals: dict[str, int]
    per_assignee: dict[str, dict[str, int]]


def _instant(value: datetime) -> Any:
    """An instant as the ORM would pass it to this database (SQLite keeps naive UTC text)."""
    return connection.ops.adapt_datetimefield_value(value)


def _per_assignee_counts(scope: ReportScope, window: Window) -> dict[str | None, dict[str, int]]:
    """The week's counts grouped by the tasks' current assignee (None: unassigned), in one statement."""
    if not scope.project_ids:
        return {}
    quote = connection.ops.quote_name
    # Only table names and a run of placeholders are formatted in; every value is a parameter.
    sql = _WEEK_SQL.format(activity=quote(TaskActivity._meta.db_table), task=quote(Task._meta.db_table),
                           user=quote(get_user_model()._meta.db_table),
                           projects=", ".join(f"%(p{i})s" for i in range(len(scope.project_ids))))
    params = {"start": _instant(window.start), "end": _instant(window.end), "done": str(DONE),
              "end_date": window.end_date.isoformat(), **{f"p{i}": pk for i, pk in enumerate(scope.project_ids)}}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {row[0]: dict(zip(_COUNTED, (int(n or 0) for n in row[1:]), strict=True))
                for row in cursor.fetchall()}


def _history_counts(scope: ReportScope, window: Window) -> dict[str, int]:
    """Deletions and slipped tasks within the week, from its history rows in one statement."""
    # A slip: the due date moved later (ISO dates compare as text); a date set for the first time is not one.
    slip = (Q(kind=TaskActivity.Kind.UPDATED, field="due_date", task__isnull=False, to_value__gt=F("from_value"))
            & ~Q(from_value="") & ~Q(to_value=""))
    return TaskActivity.objects.filter(project_id__in=scope.project_ids, created_at__gte=window.start,
                                       created_at__lt=window.end).aggregate(
        deleted=Count("id", filter=Q(kind=TaskActivity.Kind.DELETED)),
        slipped=Count("task_id", filter=slip, distinct=True))


def week_recount(scope: ReportScope, window: Window) -> Recount:
    """Every count of a week, in total and per assignee, in two statements whatever the scope's size."""
    grouped = _per_assignee_counts(scope, window)
    totals = {name: sum(counts[name] for counts in grouped.values()) for name in _COUNTED}
    totals.update(_history_counts(scope, window))
    per_assignee = {}
    for username, counts in grouped.items():
        mine = {key: counts[key] for key in PER_ASSIGNEE}
        if any(mine.values()):
            per_assignee[username or UNASSIGNED] = mine
    return Recount(totals=totals, per_assignee=per_assignee)


def figures_disagreements(figures: WeekFigures, *, scope: ReportScope, window: Window,
                          with_assignees: bool) -> list[Disagreement]:
    """Compare a week's projected figures with the database's own count; empty when they agree."""
    projected = figures.counts()
    recount = week_recount(scope, window)
    found = [Disagreement(name, projected[name], recount.totals[name])
             for name in projected if projected[name] != recount.totals[name]]
    if with_assignees:
        mine = {a.assignee: {"completed": a.completed, "open": a.open, "overdue": a.overdue}
                for a in figures.per_assignee if a.completed or a.open or a.overdue}
        theirs = recount.per_assignee
        for who in sorted(set(mine) | set(theirs)):
            for key in PER_ASSIGNEE:
                a, b = mine.get(who, {}).get(key, 0), theirs.get(who, {}).get(key, 0)
                if a != b:
                    found.append(Disagreement(f"{who}.{key}", a, b))
    return found
