"""What next where the data is: one statement reads, scores and ranks one assignee's open tasks; the first leave.

Set-based, as the risk ranking's statement (reports.risk.facts) is, and built from its parts: `mine` (the
assignee's open tasks, a condition on alias o) is joined, not kept as a named part, so the planner reads
the task table's statistics for it; `subtasks` counts the open subtasks of those of them that have any,
and `history` their last activity and due-date slips (TASK_HISTORY), each grouped once; `loads` and
`medians` are the scope's loads per assignee (LOAD_CTES), which the load factor compares. `facts` joins
them to the assignee's open tasks, `risk` adds the delay-risk score (RISK_POINTS), `scored` what next's score
(reports.next_up's parts under NEXT_UP_WEIGHTS, passed in as `next_*`). Only the first `limit` rows by score
(then earliest due date, none last, then highest priority, then id) leave the database, with the count of
every open task ranked. No subquery runs per task: one statement whatever the number of tasks.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import connection

from .risk.facts import RiskFacts, facts_params, facts_read, facts_sql_names
from .risk.score import policy_now
from .scope import ReportScope

_NEXT_UP_SQL = """
WITH subtasks AS (
    SELECT s.parent_id AS task_id, COUNT(*) AS n FROM {task} s JOIN {task} o ON o.id = s.parent_id
    WHERE {mine} AND s.status <> %(done)s GROUP BY s.parent_id
), history AS (
{task_history}
    JOIN {task} o ON o.id = a.task_id
    WHERE {mine}
    GROUP BY a.task_id
), {load_ctes}, facts AS (
    SELECT o.id, o.project_id, o.status, o.due_date, o.assignee_id, o.priority,
           par.status AS parent_status, par.due_date AS parent_due_date,
           COALESCE(s.n, 0) AS open_subtasks, COALESCE(hi.slips, 0) AS due_slips,
           COALESCE(hi.last_at, o.created_at) AS last_activity, COALESCE(lo.n, 0) AS assignee_open,
           COALESCE(md.median, 0) AS median
    FROM {task} o
    LEFT JOIN {task} par ON par.id = o.parent_id
    LEFT JOIN subtasks s ON s.task_id = o.id
    LEFT JOIN history hi ON hi.task_id = o.id
    LEFT JOIN loads lo ON lo.project_id = o.project_id AND lo.assignee_id = o.assignee_id
    LEFT JOIN medians md ON md.project_id = o.project_id
    WHERE {mine}
), risk AS (
    SELECT f.*, {risk_points} AS risk FROM facts f
), scored AS (
    SELECT f.*,
        CASE WHEN f.due_date < %(today)s
             THEN {least}(%(next_overdue_max)s, %(next_overdue)s + %(next_overdue_per_day)s * {overdue_days})
             WHEN f.due_date IS NOT NULL AND {due_in} <= %(due_soon_days)s
             THEN CASE WHEN {due_in} = 0 THEN %(next_due_today)s ELSE %(next_due_soon)s END
             ELSE 0 END
      + CASE f.priority WHEN 'P0' THEN %(next_P0)s WHEN 'P1' THEN %(next_P1)s WHEN 'P2' THEN %(next_P2)s
                        WHEN 'P3' THEN %(next_P3)s ELSE 0 END
      + CASE WHEN f.parent_status IS NOT NULL AND f.parent_status <> %(done)s THEN %(next_holds_up)s ELSE 0 END
      + f.risk / %(next_risk_divisor)s AS score,
        COALESCE(f.due_date, %(no_due)s) AS due_key,
        CASE f.priority WHEN 'P0' THEN 0 WHEN 'P1' THEN 1 WHEN 'P2' THEN 2 WHEN 'P3' THEN 3 ELSE 9 END AS rank
    FROM risk f
), page AS (
    SELECT * FROM scored ORDER BY score DESC, due_key, rank, id LIMIT %(limit)s
)
SELECT pg.id, pg.project_id, p.key, t.title, pg.status, pg.due_date, pg.assignee_id, u.username, pg.parent_status,
       pg.parent_due_date, pg.open_subtasks, pg.due_slips, pg.last_activity, pg.assignee_open, pg.median,
       pg.priority, pg.score, (SELECT COUNT(*) FROM scored)
FROM page pg
JOIN {task} t ON t.id = pg.id
JOIN {project} p ON p.id = pg.project_id
JOIN {user} u ON u.id = pg.assignee_id
ORDER BY pg.score DESC, pg.due_key, pg.rank, pg.id"""


@dataclass(frozen=True)
class NextUpPage:
    """The first of one assignee's open tasks by what next's score, each with the database's score."""

    rows: list[tuple[RiskFacts, int]]
    open_tasks: int  # every open task of theirs in the scope, ranked


def next_up_page(*, scope: ReportScope, assignee_id: int, today: date, weights: Mapping[str, int],
                 limit: int) -> NextUpPage:
    """One statement: the assignee's `limit` first open tasks in the scope by what next's score under
    `weights` (reports.next_up.NEXT_UP_WEIGHTS), with their facts, and how many open tasks were ranked."""
    params: dict[str, Any] = {**facts_params(scope, today, policy_now()), "assignee": assignee_id, "limit": limit,
                              **{f"next_{name}": points for name, points in weights.items()}}
    with connection.cursor() as cursor:
        names = facts_sql_names(len(scope.project_ids))
        cursor.execute(_NEXT_UP_SQL.format(**names, mine=f"{names['open_o']} AND o.assignee_id = %(assignee)s"), params)
        fetched = cursor.fetchall()
    return NextUpPage(rows=[(facts_read(row, priority=row[15]), int(row[16])) for row in fetched],
                      open_tasks=int(fetched[0][17]) if fetched else 0)
