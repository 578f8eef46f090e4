"""Verified figures: recount every figure in SQL, by a path independent of the collected rows.

The projection reads the collected rows and counts in Python; this module asks the database to
count over the Task table, each task's status and due date at each week's end taken from the first
change recorded at or after it. Both must agree, or the report is not shown.

The history since the week before ended is ranked once per task (window functions) and joined, not
looked up per task: a correlated subquery ran once per task row (~19 600 loops each at 20 000
tasks, 1.2-1.5 s per recount on PostgreSQL with statistics), while one pass over the history rows
costs the same whatever the number of tasks. Both weeks are counted in the same pass over the
tasks (two passes, one a week, made the report at least twice its largest statement): two
statements at any size, one over the tasks and one over the history.
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
from .scope import ReportScope, ReportWindows

DONE = Task.Status.DONE
PER_ASSIGNEE = ("completed", "open", "overdue")

# Per task in the scope, its status and due date at each week's end (0: the reported week, 1: the
# week before, which ends where the reported one starts) and whether it was finished or reopened
# within each, counted per current assignee. `later` ranks the status and due-date changes at or
# after the earlier end, from it (nth1) and from the later end (nth0); `firsts` keeps each task's
# first change of each kind after each end; `week` flags each week's status changes.
_WEEKS_SQL = """
WITH later AS (
    SELECT a.task_id, a.kind, a.from_value, a.created_at >= %(end0)s AS after0,
           ROW_NUMBER() OVER (PARTITION BY a.task_id, a.kind ORDER BY a.created_at, a.id) AS nth1,
           ROW_NUMBER() OVER (PARTITION BY a.task_id, a.kind, a.created_at >= %(end0)s
                              ORDER BY a.created_at, a.id) AS nth0
    FROM {activity} a
    WHERE a.project_id IN ({projects}) AND a.task_id IS NOT NULL AND a.created_at >= %(end1)s
      AND (a.kind = 'status' OR (a.kind = 'updated' AND a.field = 'due_date'))
), firsts AS (
    SELECT task_id,
           MAX(CASE WHEN kind = 'status' AND after0 AND nth0 = 1 THEN from_value END) AS status0,
           MAX(CASE WHEN kind = 'updated' AND after0 AND nth0 = 1 THEN from_value END) AS due0,
           MAX(CASE WHEN kind = 'status' AND nth1 = 1 THEN from_value END) AS status1,
           MAX(CASE WHEN kind = 'updated' AND nth1 = 1 THEN from_value END) AS due1
    FROM later GROUP BY task_id
), week AS (
    SELECT a.task_id,
           MAX(CASE WHEN a.created_at >= %(start0)s AND a.to_value = %(done)s THEN 1 ELSE 0 END) AS finished0,
           MAX(CASE WHEN a.created_at >= %(start0)s AND a.from_value = %(done)s THEN 1 ELSE 0 END) AS reopened0,
           MAX(CASE WHEN a.created_at < %(end1)s AND a.to_value = %(done)s THEN 1 ELSE 0 END) AS finished1,
           MAX(CASE WHEN a.created_at < %(end1)s AND a.from_value = %(done)s THEN 1 ELSE 0 END) AS reopened1
    FROM {activity} a
    WHERE a.project_id IN ({projects}) AND a.task_id IS NOT NULL AND a.kind = 'status'
      AND a.created_at >= %(start1)s AND a.created_at < %(end0)s
    GROUP BY a.task_id
), at_end AS (
    SELECT t.assignee_id, t.created_at,
           CASE WHEN t.created_at < %(end1)s THEN 1 ELSE 0 END AS alive1,
           COALESCE(f.status0, t.status) AS status0,
           COALESCE(f.due0, CAST(t.due_date AS TEXT), '') AS due0,
           COALESCE(f.status1, t.status) AS status1,
           COALESCE(f.due1, CAST(t.due_date AS TEXT), '') AS due1,
           COALESCE(w.finished0, 0) AS finished0, COALESCE(w.reopened0, 0) AS reopened0,
           COALESCE(w.finished1, 0) AS finished1, COALESCE(w.reopened1, 0) AS reopened1
    FROM {task} t
    LEFT JOIN firsts f ON f.task_id = t.id
    LEFT JOIN week w ON w.task_id = t.id
    WHERE t.project_id IN ({projects}) AND t.created_at < %(end0)s
)
SELECT u.username,
       SUM(CASE WHEN e.created_at >= %(start0)s THEN 1 ELSE 0 END),
       SUM(CASE WHEN e.status0 = %(done)s AND e.finished0 = 1 THEN 1 ELSE 0 END),
       SUM(e.reopened0),
       SUM(CASE WHEN e.status0 <> %(done)s THEN 1 ELSE 0 END),
       SUM(CASE WHEN e.status0 = 'in_progress' THEN 1 ELSE 0 END),
       SUM(CASE WHEN e.status0 = 'blocked' THEN 1 ELSE 0 END),
       SUM(CASE WHEN e.status0 <> %(done)s AND e.due0 <> '' AND e.due0 < %(end_date0)s THEN 1 ELSE 0 END),
       SUM(CASE WHEN e.alive1 = 1 AND e.created_at >= %(start1)s THEN 1 ELSE 0 END),
       SUM(CASE WHEN e.alive1 = 1 AND e.status1 = %(done)s AND e.finished1 = 1 THEN 1 ELSE 0 END),
       SUM(e.alive1 * e.reopened1),
       SUM(CASE WHEN e.alive1 = 1 AND e.status1 <> %(done)s THEN 1 ELSE 0 END),
       SUM(CASE WHEN e.alive1 = 1 AND e.status1 = 'in_progress' THEN 1 ELSE 0 END),
       SUM(CASE WHEN e.alive1 = 1 AND e.status1 = 'blocked' THEN 1 ELSE 0 END),
       SUM(CASE WHEN e.alive1 = 1 AND e.status1 <> %(done)s AND e.due1 <> '' AND e.due1 < %(end_date1)s
                THEN 1 ELSE 0 END)
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


def _per_assignee_counts(scope: ReportScope, windows: ReportWindows) -> list[dict[str | None, dict[str, int]]]:
    """Each week's counts grouped by the tasks' current assignee (None: unassigned), in one statement."""
    if not scope.project_ids:
        return [{}, {}]
    quote = connection.ops.quote_name
    # Only table names and a run of placeholders are formatted in; every value is a parameter.
    sql = _WEEKS_SQL.format(activity=quote(TaskActivity._meta.db_table), task=quote(Task._meta.db_table),
                            user=quote(get_user_model()._meta.db_table),
                            projects=", ".join(f"%(p{i})s" for i in range(len(scope.project_ids))))
    params: dict[str, Any] = {"done": str(DONE), **{f"p{i}": pk for i, pk in enumerate(scope.project_ids)}}
    for n, window in enumerate((windows.current, windows.previous)):
        params.update({f"start{n}": _instant(window.start), f"end{n}": _instant(window.end),
                       f"end_date{n}": window.end_date.isoformat()})
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    width = len(_COUNTED)
    return [{row[0]: dict(zip(_COUNTED, (int(v or 0) for v in row[1 + n * width:1 + (n + 1) * width]), strict=True))
             for row in rows} for n in range(2)]


def _history_counts(scope: ReportScope, windows: ReportWindows) -> list[dict[str, int]]:
    """Each week's deletions and slipped tasks, from their history rows in one statement."""
    # A slip: the due date moved later (ISO dates compare as text); a date set for the first time is not one.
    slip = (Q(kind=TaskActivity.Kind.UPDATED, field="due_date", task__isnull=False, to_value__gt=F("from_value"))
            & ~Q(from_value="") & ~Q(to_value=""))
    counted: dict[str, Any] = {}
    for n, window in enumerate((windows.current, windows.previous)):
        within = Q(created_at__gte=window.start, created_at__lt=window.end)
        counted[f"deleted{n}"] = Count("id", filter=within & Q(kind=TaskActivity.Kind.DELETED))
        counted[f"slipped{n}"] = Count("task_id", filter=within & slip, distinct=True)
    row = TaskActivity.objects.filter(project_id__in=scope.project_ids, created_at__gte=windows.previous.start,
                                      created_at__lt=windows.current.end).aggregate(**counted)
    return [{"deleted": row[f"deleted{n}"], "slipped": row[f"slipped{n}"]} for n in range(2)]


def weeks_recount(scope: ReportScope, windows: ReportWindows) -> tuple[Recount, Recount]:
    """Every count of both weeks, in total and per assignee, in two statements whatever the scope's size."""
    recounts = []
    for grouped, history in zip(_per_assignee_counts(scope, windows), _history_counts(scope, windows), strict=True):
        totals = {name: sum(counts[name] for counts in grouped.values()) for name in _COUNTED}
        totals.update(history)
        per_assignee = {}
        for username, counts in grouped.items():
            mine = {key: counts[key] for key in PER_ASSIGNEE}
            if any(mine.values()):
                per_assignee[username or UNASSIGNED] = mine
        recounts.append(Recount(totals=totals, per_assignee=per_assignee))
    return recounts[0], recounts[1]


def figures_disagreements(figures: WeekFigures, recount: Recount, *, with_assignees: bool) -> list[Disagreement]:
    """Compare a week's projected figures with the database's own count; empty when they agree."""
    projected = figures.counts()
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
