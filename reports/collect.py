"""Collect once: every row and count a weekly report needs, and its recount, in one statement.

Only the tasks with history since the previous week began are read row by row (their states at
each week's end are replayed from that history). Every other task is as it ended both weeks, so it
is counted in SQL, grouped, and read only if it is among the first lines a list shows. The same
statement recounts every figure by its own path (reports/verify.py), so the projection of the rows
is checked against the database as it was when they were read. Each part comes back as one JSON
text: the rows are JSON-ready (ids, strings, ISO dates and instants), so they can be stored as an
artifact and projected from there exactly as from memory.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tasks.models import Task

from .figures import LIST_LINES, STATUS_LISTS
from .scope import ReportScope, ReportWindows
from .sql import fetch_one, instant, json_rows, parsed, postgres, report_params
from .verify import RECOUNT_COLUMNS, RECOUNT_CTES, Recount, recount_parse, recount_sql_names

# `hist`: the history a report reads (status changes, due-date changes and deletions) since the
# previous week began; `touched`: the tasks it names. OTHERS: the scope's tasks made before the
# reported week ended without that history (a hashed set of a few ids, so a list's scan by id
# stops at its LIST_LINES-th row); `counted` counts them per assignee and status, per week n how
# many existed at its end, were created within it and were due before its end; `listed` holds the
# first LIST_LINES ids of each list of either week among them; `task_rows` the tasks with history
# and the listed ones.
_OTHERS = "t.project_id IN ({projects}) AND t.created_at < %(end0)s AND t.id NOT IN (SELECT task_id FROM touched)"
_COLLECT_CTES = """
hist AS (
    SELECT a.id, a.task_id, a.task_title, a.kind, a.field, a.from_value, a.to_value, a.created_at,
           a.deleted_task_created_at
    FROM {activity} a
    WHERE a.project_id IN ({projects}) AND a.created_at >= %(start1)s
      AND (a.kind IN ('status', 'deleted') OR (a.kind = 'updated' AND a.field = 'due_date'))
), touched AS (
    SELECT DISTINCT task_id FROM hist WHERE task_id IS NOT NULL
), counted AS (
    SELECT u.username AS who, t.status,
           COUNT(*) AS alive0,
           SUM(CASE WHEN t.created_at < %(end1)s THEN 1 ELSE 0 END) AS alive1,
           SUM(CASE WHEN t.created_at >= %(start0)s THEN 1 ELSE 0 END) AS created0,
           SUM(CASE WHEN t.created_at >= %(start1)s AND t.created_at < %(end1)s THEN 1 ELSE 0 END) AS created1,
           SUM(CASE WHEN t.due_date < %(day0)s THEN 1 ELSE 0 END) AS due0,
           SUM(CASE WHEN t.created_at < %(end1)s AND t.due_date < %(day1)s THEN 1 ELSE 0 END) AS due1
    FROM {task} t LEFT JOIN {user} u ON u.id = t.assignee_id
    WHERE {others}
    GROUP BY u.username, t.status
), listed AS (
{listed}
), task_rows AS (
    SELECT t.id, t.project_id, p.key, t.title, t.status, t.due_date, u.username, t.created_at
    FROM {task} t JOIN {project} p ON p.id = t.project_id LEFT JOIN {user} u ON u.id = t.assignee_id
    WHERE t.project_id IN ({projects}) AND t.created_at < %(end0)s
      AND t.id IN (SELECT task_id FROM touched UNION SELECT id FROM listed)
)"""
_LIST = ("    SELECT id FROM (SELECT t.id FROM {task} t WHERE {others} AND {condition}"
         " ORDER BY t.id LIMIT {lines}) AS l{i}")
_COLLECT_COLUMNS = """
    (SELECT {json_tasks} FROM task_rows r) AS tasks,
    (SELECT {json_events} FROM hist h) AS events,
    (SELECT {json_counted} FROM counted c) AS counted,"""


def _list_conditions(n: int) -> list[str]:
    """Which lists of week n a task without history is on: its row is its state at the week's end."""
    alive = f"t.created_at < %(end{n})s"
    return [f"t.created_at >= %(start{n})s AND {alive}",
            f"{alive} AND t.status <> %(done)s AND t.due_date < %(day{n})s",
            *(f"{alive} AND t.status = %(list_{name})s" for name in STATUS_LISTS)]


def _listed(others: str) -> str:
    """Per list, its first ids (the primary key's order: a scan that stops at the LIST_LINES-th)."""
    conditions = [*_list_conditions(0), *_list_conditions(1)]
    return "\n    UNION\n".join(_LIST.format(others=others, condition=condition, lines=LIST_LINES, i=i, task="{task}")
                               for i, condition in enumerate(conditions))


def _columns(obj: str, arr: str) -> dict[str, str]:
    """Each collected part as one JSON array of objects, in the shape the projection reads."""
    task = (f"{obj}('id', r.id, 'project_id', r.project_id, 'key', r.key || '-' || CAST(r.id AS TEXT), "
            f"'title', r.title, 'status', r.status, 'due_date', r.due_date, 'assignee', r.username, "
            f"'created_at', {instant('r.created_at')})")
    event = (f"{obj}('id', h.id, 'task_id', h.task_id, 'task_title', h.task_title, 'kind', h.kind, "
             f"'field', h.field, 'from_value', h.from_value, 'to_value', h.to_value, "
             f"'created_at', {instant('h.created_at')}, "
             f"'task_created_at', {instant('h.deleted_task_created_at')})")
    group = (f"{obj}('assignee', c.who, 'status', c.status, 'alive', {arr}(c.alive0, c.alive1), "
             f"'created', {arr}(c.created0, c.created1), 'due', {arr}(c.due0, c.due1))")
    return {"json_tasks": json_rows(task, "r.id"), "json_events": json_rows(event, "h.created_at, h.id"),
            "json_counted": json_rows(group, "c.who, c.status")}


@dataclass(frozen=True)
class ReportRead:
    """What one read returns: the rows to project, the grouped counts, and both weeks' recounts."""

    tasks: list[dict[str, Any]]
    events: list[dict[str, Any]]
    counted: list[dict[str, Any]]
    recount: tuple[Recount, Recount]


def report_read(*, scope: ReportScope, windows: ReportWindows) -> ReportRead:
    """The report's rows, counts and recount, in one statement whatever the scope's size."""
    projects, params = report_params(scope, windows)
    params.update({f"list_{name}": name for name in STATUS_LISTS})
    sql_names = recount_sql_names(projects)
    others = _OTHERS.format(projects=projects)
    ctes = _COLLECT_CTES.format(**sql_names, others=others, listed=_listed(others).format(**sql_names))
    sql = (f"WITH {ctes},{RECOUNT_CTES.format(**sql_names)}\nSELECT"
           + _COLLECT_COLUMNS.format(**_columns(sql_names["obj"], sql_names["arr"]))
           + RECOUNT_COLUMNS.format(**sql_names))
    tasks, events, counted, recounted, history = fetch_one(sql, params)
    rows = parsed(events)
    if not postgres():  # PostgreSQL ordered the array; the history is read oldest first
        rows.sort(key=lambda e: (e["created_at"], e["id"]))
    return ReportRead(tasks=parsed(tasks), events=rows, counted=parsed(counted),
                      recount=recount_parse(recounted, history))


def scope_size(scope: ReportScope) -> int:
    """How many tasks the scope holds: what decides whether a report runs in the background."""
    return Task.objects.filter(project_id__in=scope.project_ids).count()
