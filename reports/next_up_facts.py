"""What next's facts: one assignee's open tasks in a scope with what their score needs, in one statement.

Set-based, as the risk ranking's statement (reports.risk.facts) is, and sharing its parts: `mine` holds the
assignee's open tasks; `subtasks` counts the open subtasks of those of them that have any, and `history`
their last activity and due-date slips (TASK_HISTORY), each grouped once over the rows that name one of
`mine`; `loads` and `medians` are the scope's loads per assignee (LOAD_CTES), which the load factor
compares. No subquery runs per task, so the statement's cost follows the rows it groups, and it is one
statement whatever the number of tasks.
"""
from __future__ import annotations

from typing import Any

from django.db import connection

from tasks.models import Task, TaskActivity

from .risk.facts import RiskFacts, facts_read, facts_sql_names
from .scope import ReportScope

_NEXT_UP_SQL = """
WITH mine AS (
    SELECT o.id, o.project_id, o.title, o.status, o.due_date, o.assignee_id, o.parent_id, o.created_at, o.priority
    FROM {task} o WHERE {open_o} AND o.assignee_id = %(assignee)s
), subtasks AS (
    SELECT s.parent_id AS task_id, COUNT(*) AS n FROM {task} s
    WHERE s.parent_id IN (SELECT id FROM mine) AND s.status <> %(done)s GROUP BY s.parent_id
), history AS (
{task_history}
    WHERE a.task_id IN (SELECT id FROM mine)
    GROUP BY a.task_id
), {load_ctes}
SELECT m.id, m.project_id, p.key, m.title, m.status, m.due_date, m.assignee_id, u.username,
       par.status, par.due_date, COALESCE(s.n, 0), COALESCE(hi.slips, 0), COALESCE(hi.last_at, m.created_at),
       COALESCE(lo.n, 0), COALESCE(md.median, 0), m.priority
FROM mine m
JOIN {project} p ON p.id = m.project_id
JOIN {user} u ON u.id = m.assignee_id
LEFT JOIN {task} par ON par.id = m.parent_id
LEFT JOIN subtasks s ON s.task_id = m.id
LEFT JOIN history hi ON hi.task_id = m.id
LEFT JOIN loads lo ON lo.project_id = m.project_id AND lo.assignee_id = m.assignee_id
LEFT JOIN medians md ON md.project_id = m.project_id
ORDER BY m.id"""


def open_task_facts(*, scope: ReportScope, assignee_id: int) -> list[RiskFacts]:
    """One assignee's open tasks in the scope, by id, with the facts their delay-risk score needs and their
    priority; the load factor compares their open tasks with their project's median over the whole scope."""
    sql = _NEXT_UP_SQL.format(**facts_sql_names(len(scope.project_ids)))
    params: dict[str, Any] = {**{f"p{i}": pk for i, pk in enumerate(scope.project_ids)},
                              "done": str(Task.Status.DONE), "updated": str(TaskActivity.Kind.UPDATED),
                              "assignee": assignee_id}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [facts_read(row, priority=row[15]) for row in cursor.fetchall()]
