"""Verified figures: recount every figure in SQL, by a path independent of the collected rows.

The projection reads the collected rows and counts in Python; this module asks the database to
count over the Task table, each task's status and due date at each week's end taken from the first
change recorded at or after it. Both must agree, or the report is not shown.

The history since the week before ended is ranked once per task (window functions) and joined, not
looked up per task: a correlated subquery ran once per task row (~19 600 loops each at 20 000
tasks, 1.2-1.5 s per recount on PostgreSQL with statistics), while one pass over the history rows
costs the same whatever the number of tasks. Both weeks are counted in one pass over the tasks,
their deletions and slips in one pass over the history. The recount is a set of named subqueries
(RECOUNT_CTES) and two JSON columns (RECOUNT_COLUMNS): the report's one read (reports/collect.py)
runs them in the same statement as the collection; `weeks_recount` runs them alone.
"""
from __future__ import annotations

from dataclasses import dataclass

from .figures import UNASSIGNED, WeekFigures
from .scope import ReportScope, ReportWindows
from .sql import fetch_one, json_rows, names, parsed, report_params

PER_ASSIGNEE = ("completed", "open", "overdue")

# Per task in the scope, its status and due date at each week's end (0: the reported week, 1: the
# week before, which ends where the reported one starts) and whether it was finished or reopened
# within each, counted per current assignee (`recount`). `later` ranks the status and due-date
# changes at or after the earlier end, from it (nth1) and from the later end (nth0); `firsts` keeps
# each task's first change of each kind after each end; `week` flags each week's status changes.
# `slips` counts each week's deletions and slipped tasks (a due date moved later; ISO dates compare
# as text; a date set for the first time is not a slip) over the history alone.
RECOUNT_CTES = """
later AS (
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
), recount AS (
    SELECT u.username AS who,
           SUM(CASE WHEN e.created_at >= %(start0)s THEN 1 ELSE 0 END) AS n0,
           SUM(CASE WHEN e.status0 = %(done)s AND e.finished0 = 1 THEN 1 ELSE 0 END) AS n1,
           SUM(e.reopened0) AS n2,
           SUM(CASE WHEN e.status0 <> %(done)s THEN 1 ELSE 0 END) AS n3,
           SUM(CASE WHEN e.status0 = 'in_progress' THEN 1 ELSE 0 END) AS n4,
           SUM(CASE WHEN e.status0 = 'blocked' THEN 1 ELSE 0 END) AS n5,
           SUM(CASE WHEN e.status0 <> %(done)s AND e.due0 <> '' AND e.due0 < %(end_date0)s THEN 1 ELSE 0 END) AS n6,
           SUM(CASE WHEN e.alive1 = 1 AND e.created_at >= %(start1)s THEN 1 ELSE 0 END) AS n7,
           SUM(CASE WHEN e.alive1 = 1 AND e.status1 = %(done)s AND e.finished1 = 1 THEN 1 ELSE 0 END) AS n8,
           SUM(e.alive1 * e.reopened1) AS n9,
           SUM(CASE WHEN e.alive1 = 1 AND e.status1 <> %(done)s THEN 1 ELSE 0 END) AS n10,
           SUM(CASE WHEN e.alive1 = 1 AND e.status1 = 'in_progress' THEN 1 ELSE 0 END) AS n11,
           SUM(CASE WHEN e.alive1 = 1 AND e.status1 = 'blocked' THEN 1 ELSE 0 END) AS n12,
           SUM(CASE WHEN e.alive1 = 1 AND e.status1 <> %(done)s AND e.due1 <> '' AND e.due1 < %(end_date1)s
                    THEN 1 ELSE 0 END) AS n13
    FROM at_end e LEFT JOIN {user} u ON u.id = e.assignee_id
    GROUP BY u.username
), slips AS (
    SELECT COUNT(CASE WHEN a.created_at >= %(start0)s AND a.kind = 'deleted' THEN 1 END) AS deleted0,
           COUNT(DISTINCT CASE WHEN a.created_at >= %(start0)s AND a.kind = 'updated' AND a.field = 'due_date'
                 AND a.task_id IS NOT NULL AND a.from_value <> '' AND a.to_value <> ''
                 AND a.to_value > a.from_value THEN a.task_id END) AS slipped0,
           COUNT(CASE WHEN a.created_at < %(end1)s AND a.kind = 'deleted' THEN 1 END) AS deleted1,
           COUNT(DISTINCT CASE WHEN a.created_at < %(end1)s AND a.kind = 'updated' AND a.field = 'due_date'
                 AND a.task_id IS NOT NULL AND a.from_value <> '' AND a.to_value <> ''
                 AND a.to_value > a.from_value THEN a.task_id END) AS slipped1
    FROM {activity} a
    WHERE a.project_id IN ({projects}) AND a.created_at >= %(start1)s AND a.created_at < %(end0)s
)"""
# Two columns: the counts per assignee ([who, n0 … n13]) and the history's ([deleted0, slipped0, deleted1, slipped1]).
RECOUNT_COLUMNS = """
    (SELECT {json_recount} FROM recount r) AS recounted,
    (SELECT CAST({arr}(s.deleted0, s.slipped0, s.deleted1, s.slipped1) AS TEXT) FROM slips s) AS history"""
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


def recount_sql_names(projects: str) -> dict[str, str]:
    """What RECOUNT_CTES and RECOUNT_COLUMNS format in: tables, JSON functions, the scope's placeholders."""
    found = names()
    row = ", ".join(["r.who", *(f"r.n{i}" for i in range(2 * len(_COUNTED)))])
    return {**found, "projects": projects, "json_recount": json_rows(f"{found['arr']}({row})", "r.who")}


def recount_parse(recounted: str | None, history: str | None) -> tuple[Recount, Recount]:
    """Both weeks' recounts from the two JSON columns of RECOUNT_COLUMNS."""
    rows, slips = parsed(recounted), parsed(history)
    width = len(_COUNTED)
    recounts = []
    for n in range(2):
        grouped = {row[0]: dict(zip(_COUNTED, (int(v or 0) for v in row[1 + n * width:1 + (n + 1) * width]),
                                    strict=True)) for row in rows}
        totals = {name: sum(counts[name] for counts in grouped.values()) for name in _COUNTED}
        totals.update({"deleted": int(slips[2 * n]), "slipped": int(slips[2 * n + 1])})
        per_assignee = {}
        for username, counts in grouped.items():
            mine = {key: counts[key] for key in PER_ASSIGNEE}
            if any(mine.values()):
                per_assignee[username or UNASSIGNED] = mine
        recounts.append(Recount(totals=totals, per_assignee=per_assignee))
    return recounts[0], recounts[1]


def weeks_recount(scope: ReportScope, windows: ReportWindows) -> tuple[Recount, Recount]:
    """Every count of both weeks, in total and per assignee, in one statement whatever the scope's size."""
    projects, params = report_params(scope, windows)
    sql_names = recount_sql_names(projects)
    sql = "WITH " + RECOUNT_CTES.format(**sql_names) + "\nSELECT" + RECOUNT_COLUMNS.format(**sql_names)
    recounted, history = fetch_one(sql, params)
    return recount_parse(recounted, history)


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
