"""Score risk where the data is: one statement reads, scores and ranks every open task; a page of it leaves.

The statement (``_RISK_SQL``) gathers each open task's facts from pre-aggregated joins (open
subtasks per parent, last activity and due-date slips per task, open load per assignee, each
project's median load by window functions), adds the points of each factor under the configured
weights (reports.risk.score names them), and counts every open task and the scored ones per level
over the whole scope with window functions. Only one page of the ranking leaves the database: the
first ``limit`` rows by score (highest first, then earliest due date, none last, then id), or the
rows after a keyset cursor. Each row comes back as RiskFacts with the database's score, so the
tasks shown are explained (and their score checked) in Python.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, NamedTuple

from django.db import connection

from pm_assistant.errors import InvalidInput
from reports.scope import ReportScope
from reports.sql import names, postgres
from tasks.models import Task, TaskActivity

NO_DUE = date.max  # ranks a task without a due date after every dated one of its score


class RiskFacts(NamedTuple):
    """One open task and the facts its score needs."""

    id: int
    project_id: int
    key: str
    title: str
    status: str
    due_date: date | None
    assignee_id: int | None
    assignee: str | None
    parent_status: str | None
    parent_due_date: date | None
    open_subtasks: int
    due_slips: int
    last_activity: datetime  # the latest history row, else the task's creation
    assignee_open: int
    project_median_open: float


@dataclass(frozen=True)
class RiskCursor:
    """A position in the ranking (score, due date, id): the page after it starts past that row."""

    score: int
    due: date
    task_id: int

    def __str__(self) -> str:
        return f"{self.score}:{self.due.isoformat()}:{self.task_id}"

    @classmethod
    def decode(cls, raw: str, *, field: str = "after") -> RiskCursor:
        """Read a cursor this module wrote; anything else is InvalidInput naming the field."""
        try:
            score, due, task_id = str(raw).split(":")
            cursor = cls(int(score), date.fromisoformat(due), int(task_id))
        except ValueError:
            raise InvalidInput(f"{field}: is not a position in the risk ranking; start from the top.",
                               field=field) from None
        if not 0 <= cursor.score <= 100 or cursor.task_id < 1:
            raise InvalidInput(f"{field}: is not a position in the risk ranking; start from the top.", field=field)
        return cursor


@dataclass(frozen=True)
class RiskPage:
    """One page of the ranking with the scope's totals: open tasks, and scored tasks per level."""

    rows: list[tuple[RiskFacts, int]]  # (facts, the database's score), score above 0 only
    open_tasks: int
    levels: dict[str, int]
    next: RiskCursor | None  # where the next page starts, when there is one


# `open_tasks` the scope's open tasks; `subtasks` open subtasks per parent (a subtask is in its parent's
# project); `history` each task's last activity and due-date slips; `loads` open tasks per assignee and
# project; `medians` the middle of each project's loads (the mean of the two middle ones when even).
_RISK_SQL = """
WITH open_tasks AS (
    SELECT t.id, t.project_id, t.title, t.status, t.due_date, t.assignee_id, t.parent_id, t.created_at
    FROM {task} t WHERE t.project_id IN ({projects}) AND t.status <> %(done)s
), subtasks AS (
    SELECT parent_id AS task_id, COUNT(*) AS n FROM open_tasks WHERE parent_id IS NOT NULL GROUP BY parent_id
), history AS (
    SELECT a.task_id, MAX(a.created_at) AS last_at,
           SUM(CASE WHEN a.kind = %(updated)s AND a.field = 'due_date' AND a.from_value <> ''
                     AND a.to_value <> '' AND a.to_value > a.from_value THEN 1 ELSE 0 END) AS slips
    FROM {activity} a JOIN open_tasks o ON o.id = a.task_id
    GROUP BY a.task_id
), loads AS (
    SELECT project_id, assignee_id, COUNT(*) AS n FROM open_tasks WHERE assignee_id IS NOT NULL
    GROUP BY project_id, assignee_id
), ranked_loads AS (
    SELECT project_id, n, ROW_NUMBER() OVER (PARTITION BY project_id ORDER BY n) AS rn,
           COUNT(*) OVER (PARTITION BY project_id) AS c
    FROM loads
), medians AS (
    SELECT project_id, CAST(AVG(n) AS {float}) AS median FROM ranked_loads
    WHERE rn IN ((c + 1) / 2, (c + 2) / 2) GROUP BY project_id
), facts AS (
    SELECT o.id, o.project_id, p.key AS project_key, o.title, o.status, o.due_date, o.assignee_id,
           u.username, par.status AS parent_status, par.due_date AS parent_due_date,
           COALESCE(s.n, 0) AS open_subtasks, COALESCE(h.slips, 0) AS due_slips,
           COALESCE(h.last_at, o.created_at) AS last_activity, COALESCE(l.n, 0) AS assignee_open,
           COALESCE(m.median, 0) AS median
    FROM open_tasks o
    JOIN {project} p ON p.id = o.project_id
    LEFT JOIN {user} u ON u.id = o.assignee_id
    LEFT JOIN {task} par ON par.id = o.parent_id
    LEFT JOIN subtasks s ON s.task_id = o.id
    LEFT JOIN history h ON h.task_id = o.id
    LEFT JOIN loads l ON l.project_id = o.project_id AND l.assignee_id = o.assignee_id
    LEFT JOIN medians m ON m.project_id = o.project_id
), scored AS (
    SELECT f.*, {least}(100,
        CASE WHEN f.due_date < %(today)s
             THEN {least}(%(overdue_max)s, %(overdue_per_day)s * {overdue_days}) ELSE 0 END
      + CASE WHEN f.due_date IS NOT NULL AND {due_in} BETWEEN 0 AND %(due_soon_days)s AND f.open_subtasks > 0
             THEN %(due_soon_open_subtasks)s ELSE 0 END
      + CASE WHEN {idle_days} >= %(inactive_days)s THEN %(inactive)s ELSE 0 END
      + CASE WHEN f.status = 'blocked' THEN %(blocked)s ELSE 0 END
      + CASE WHEN f.parent_status = 'blocked' OR (f.parent_due_date < %(today)s AND f.parent_status <> %(done)s)
             THEN %(parent_at_risk)s ELSE 0 END
      + CASE WHEN f.assignee_id IS NOT NULL AND f.median <> 0 AND f.assignee_open >= %(load_ratio)s * f.median
                  AND f.assignee_open > f.median THEN %(assignee_load)s ELSE 0 END
      + CASE WHEN f.due_slips > 0 THEN {least}(%(due_slips_max)s, %(due_slip)s * f.due_slips) ELSE 0 END
    ) AS score, COALESCE(f.due_date, %(no_due)s) AS due_key
    FROM facts f
), totals AS (
    SELECT sc.*, COUNT(*) OVER () AS open_count,
           SUM(CASE WHEN sc.score > 0 AND sc.score >= %(high)s THEN 1 ELSE 0 END) OVER () AS high_count,
           SUM(CASE WHEN sc.score > 0 AND sc.score < %(high)s AND sc.score >= %(medium)s THEN 1 ELSE 0 END)
               OVER () AS medium_count,
           SUM(CASE WHEN sc.score > 0 AND sc.score < %(high)s AND sc.score < %(medium)s THEN 1 ELSE 0 END)
               OVER () AS low_count
    FROM scored sc
)
SELECT id, project_id, project_key, title, status, due_date, assignee_id, username, parent_status,
       parent_due_date, open_subtasks, due_slips, last_activity, assignee_open, median, score,
       open_count, high_count, medium_count, low_count
FROM totals
WHERE {after}
ORDER BY score DESC, due_key, id
LIMIT %(limit)s"""
_AFTER = ("(score < %(after_score)s OR (score = %(after_score)s AND (due_key > %(after_due)s"
          " OR (due_key = %(after_due)s AND id > %(after_id)s))))")


def _days(later: str, earlier: str) -> str:
    """Whole days from one date to another, as this database subtracts dates."""
    if postgres():
        return f"({later} - {earlier})"
    return f"CAST(julianday({later}) - julianday({earlier}) AS INTEGER)"


def _sql(project_count: int, *, after: bool) -> str:
    today = "CAST(%(today)s AS DATE)" if postgres() else "%(today)s"
    # The last activity's date as Python's datetime.date() gives it for the UTC instant the database returns.
    last_date = "CAST(f.last_activity AT TIME ZONE 'UTC' AS DATE)" if postgres() else "substr(f.last_activity, 1, 10)"
    return _RISK_SQL.format(
        **names(), projects=", ".join(f"%(p{i})s" for i in range(project_count)) or "NULL",
        float="DOUBLE PRECISION" if postgres() else "REAL", least="LEAST" if postgres() else "MIN",
        overdue_days=_days(today, "f.due_date"), due_in=_days("f.due_date", today),
        idle_days=_days(today, last_date), after=_AFTER if after else "1 = 1")


def _params(scope: ReportScope, today: date, policy: Any, after: RiskCursor | None, limit: int) -> dict[str, Any]:
    day = connection.ops.adapt_datefield_value
    params: dict[str, Any] = {
        **{f"p{i}": pk for i, pk in enumerate(scope.project_ids)}, **policy.weights,
        "done": str(Task.Status.DONE), "updated": str(TaskActivity.Kind.UPDATED), "today": day(today),
        "no_due": day(NO_DUE), "due_soon_days": policy.due_soon_days, "inactive_days": policy.inactive_days,
        "load_ratio": policy.load_ratio, "high": policy.levels["high"], "medium": policy.levels["medium"],
        "limit": limit}
    if after is not None:
        params |= {"after_score": after.score, "after_due": day(after.due), "after_id": after.task_id}
    return params


def _date(value: Any) -> date | None:
    if value is None or isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


def _instant(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value
    # SQLite keeps an instant as naive UTC text.
    return datetime.fromisoformat(str(value)).replace(tzinfo=UTC)


def risk_page(*, scope: ReportScope, today: date, policy: Any, limit: int,
              after: RiskCursor | None = None) -> RiskPage:
    """One statement: the `limit` riskiest open tasks of the scope (after a cursor), and the scope's totals.

    ``policy`` is the scoring settings read once (reports.risk.score._Policy). An empty page past the
    end still carries the totals when the scope has open tasks, unless the cursor is past every row.
    """
    with connection.cursor() as cursor:
        cursor.execute(_sql(len(scope.project_ids), after=after is not None),
                       _params(scope, today, policy, after, limit + 1))
        found = cursor.fetchall()
    rows = [(RiskFacts(pk, project_id, f"{key}-{pk}", title, status, _date(due), assignee_id, assignee,
                       parent_status, _date(parent_due), int(subtasks), int(slips), _instant(last), int(load),
                       float(median) if median % 1 else int(median)), int(score))
            for (pk, project_id, key, title, status, due, assignee_id, assignee, parent_status, parent_due,
                 subtasks, slips, last, load, median, score, *_) in found]
    shown = [(facts, score) for facts, score in rows[:limit] if score > 0]
    more = len(rows) > limit and rows[limit][1] > 0
    last = shown[-1] if shown else None
    totals = found[0][-4:] if found else (0, 0, 0, 0)
    return RiskPage(rows=shown, open_tasks=int(totals[0]),
                    levels={"high": int(totals[1]), "medium": int(totals[2]), "low": int(totals[3])},
                    next=RiskCursor(last[1], last[0].due_date or NO_DUE, last[0].id) if more and last else None)


def facts_row(facts: RiskFacts, score: int) -> dict[str, Any]:
    """A task's facts and score as a JSON-ready row (ISO dates and instants), as a reading tool returns it."""
    return {**facts._asdict(), "due_date": _iso(facts.due_date), "parent_due_date": _iso(facts.parent_due_date),
            "last_activity": facts.last_activity.isoformat(), "score": score}


def facts_from_row(row: Any) -> tuple[RiskFacts, int]:
    """A JSON-ready row (facts_row's, as a run binds it from its step) read back into RiskFacts and its score."""
    return (RiskFacts(**{**{name: row[name] for name in RiskFacts._fields},
                         "due_date": _date(row["due_date"]), "parent_due_date": _date(row["parent_due_date"]),
                         "last_activity": datetime.fromisoformat(row["last_activity"])}), int(row["score"]))


def _iso(value: date | None) -> str | None:
    return value.isoformat() if value is not None else None
