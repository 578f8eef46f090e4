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

from collections.abc import Sequence
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
    # Read by what next's ranking (reports.next_up), which reads it with the facts; the risk score ignores it.
    priority: str = ""


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


# `subtasks` open subtasks per parent (a subtask is in its parent's project), so `parents` are the parents
# of open tasks; `history` each task's last activity and due-date slips (a task's history is in its project,
# as the task is: it never moves); `loads` and `medians` the assignees' loads (LOAD_CTES); `scored` every open
# task's facts and score, narrow (no titles or names); `totals` counts them; `page` keeps one page of the
# ranking, and only its rows are joined to their titles and names. Each part reads the tables itself (the
# planner sees their statistics), and every part is grouped or joined by hash: no subquery runs per task.
_OPEN = "{alias}.project_id IN ({projects}) AND {alias}.status <> %(done)s"
# The assignee-load factor's facts, read by the ranking below and by what next (reports.next_up_facts):
# `loads` open tasks per assignee and project, `medians` the middle of each project's loads (the mean of
# the two middle ones when even), by window functions.
LOAD_CTES = """loads AS (
    SELECT l.project_id, l.assignee_id, COUNT(*) AS n FROM {task} l
    WHERE {open_l} AND l.assignee_id IS NOT NULL GROUP BY l.project_id, l.assignee_id
), ranked_loads AS (
    SELECT project_id, n, ROW_NUMBER() OVER (PARTITION BY project_id ORDER BY n) AS rn,
           COUNT(*) OVER (PARTITION BY project_id) AS c
    FROM loads
), medians AS (
    SELECT project_id, CAST(AVG(n) AS {float}) AS median FROM ranked_loads
    WHERE rn IN ((c + 1) / 2, (c + 2) / 2) GROUP BY project_id
)"""
# Per task, its last activity and how often its due date was moved later (a date set for the first time is
# no slip; ISO dates compare as text); the reader adds which tasks (WHERE) and GROUP BY a.task_id.
TASK_HISTORY = """    SELECT a.task_id, MAX(a.created_at) AS last_at,
           SUM(CASE WHEN a.kind = %(updated)s AND a.field = 'due_date' AND a.from_value <> ''
                     AND a.to_value <> '' AND a.to_value > a.from_value THEN 1 ELSE 0 END) AS slips
    FROM {activity} a"""
# A task's score (reports.risk.score's factors, capped at 100) from the columns of `facts` (as alias f).
RISK_POINTS = """{least}(100,
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
    )"""
_RISK_SQL = """
WITH subtasks AS (
    SELECT s.parent_id AS task_id, COUNT(*) AS n FROM {task} s
    WHERE {open_s} AND s.parent_id IS NOT NULL GROUP BY s.parent_id
), parents AS (
    SELECT par.id, par.status, par.due_date FROM {task} par JOIN subtasks s ON s.task_id = par.id
), history AS (
{task_history}
    WHERE a.project_id IN ({projects}) AND a.task_id IS NOT NULL
    GROUP BY a.task_id
), {load_ctes}, facts AS (
    SELECT o.id, o.project_id, o.status, o.due_date, o.assignee_id,
           par.status AS parent_status, par.due_date AS parent_due_date,
           COALESCE(s.n, 0) AS open_subtasks, COALESCE(hi.slips, 0) AS due_slips,
           COALESCE(hi.last_at, o.created_at) AS last_activity, COALESCE(lo.n, 0) AS assignee_open,
           COALESCE(m.median, 0) AS median
    FROM {task} o
    LEFT JOIN parents par ON par.id = o.parent_id
    LEFT JOIN subtasks s ON s.task_id = o.id
    LEFT JOIN history hi ON hi.task_id = o.id
    LEFT JOIN loads lo ON lo.project_id = o.project_id AND lo.assignee_id = o.assignee_id
    LEFT JOIN medians m ON m.project_id = o.project_id
    WHERE {open_o}
), scored AS (
    SELECT f.*, {risk_points} AS score, COALESCE(f.due_date, %(no_due)s) AS due_key
    FROM facts f
), totals AS (
    SELECT COUNT(*) AS open_count,
           SUM(CASE WHEN score > 0 AND score >= %(high)s THEN 1 ELSE 0 END) AS high_count,
           SUM(CASE WHEN score > 0 AND score < %(high)s AND score >= %(medium)s THEN 1 ELSE 0 END) AS medium_count,
           SUM(CASE WHEN score > 0 AND score < %(high)s AND score < %(medium)s THEN 1 ELSE 0 END) AS low_count
    FROM scored
), page AS (
    SELECT * FROM scored WHERE {after} ORDER BY score DESC, due_key, id LIMIT %(limit)s
)
SELECT pg.id, pg.project_id, p.key, t.title, pg.status, pg.due_date, pg.assignee_id, u.username, pg.parent_status,
       pg.parent_due_date, pg.open_subtasks, pg.due_slips, pg.last_activity, pg.assignee_open, pg.median, pg.score,
       tot.open_count, tot.high_count, tot.medium_count, tot.low_count
FROM totals tot
LEFT JOIN page pg ON 1 = 1
LEFT JOIN {task} t ON t.id = pg.id
LEFT JOIN {project} p ON p.id = pg.project_id
LEFT JOIN {user} u ON u.id = pg.assignee_id
ORDER BY pg.score DESC, pg.due_key, pg.id"""
_AFTER = ("(score < %(after_score)s OR (score = %(after_score)s AND (due_key > %(after_due)s"
          " OR (due_key = %(after_due)s AND id > %(after_id)s))))")


def _days(later: str, earlier: str) -> str:
    """Whole days from one date to another, as this database subtracts dates."""
    if postgres():
        return f"({later} - {earlier})"
    return f"CAST(julianday({later}) - julianday({earlier}) AS INTEGER)"


def facts_sql_names(project_count: int) -> dict[str, str]:
    """What a facts statement formats in: the tables, the scope's placeholders (p0, p1, …), each alias's
    open-task condition (open_s, open_l, open_o), this database's float type, LEAST and day arithmetic on
    alias f (overdue_days, due_in, idle_days), and the shared parts formatted (load_ctes, task_history,
    risk_points)."""
    projects = ", ".join(f"%(p{i})s" for i in range(project_count)) or "NULL"
    today = "CAST(%(today)s AS DATE)" if postgres() else "%(today)s"
    # The last activity's date as Python's datetime.date() gives it for the UTC instant the database returns.
    last_date = "CAST(f.last_activity AT TIME ZONE 'UTC' AS DATE)" if postgres() else "substr(f.last_activity, 1, 10)"
    found = {**names(), "projects": projects, "float": "DOUBLE PRECISION" if postgres() else "REAL",
             **{f"open_{alias}": _OPEN.format(alias=alias, projects=projects) for alias in "slo"},
             "least": "LEAST" if postgres() else "MIN", "overdue_days": _days(today, "f.due_date"),
             "due_in": _days("f.due_date", today), "idle_days": _days(today, last_date)}
    return {**found, "load_ctes": LOAD_CTES.format(**found), "task_history": TASK_HISTORY.format(**found),
            "risk_points": RISK_POINTS.format(**found)}


def facts_params(scope: ReportScope, today: date, policy: Any) -> dict[str, Any]:
    """The values a facts statement names: the scope's projects, the risk settings (``policy``,
    reports.risk.score._Policy read once) and the server's date."""
    day = connection.ops.adapt_datefield_value
    return {**{f"p{i}": pk for i, pk in enumerate(scope.project_ids)}, **policy.weights,
            "done": str(Task.Status.DONE), "updated": str(TaskActivity.Kind.UPDATED), "today": day(today),
            "no_due": day(NO_DUE), "due_soon_days": policy.due_soon_days, "inactive_days": policy.inactive_days,
            "load_ratio": policy.load_ratio}


def _sql(project_count: int, *, after: bool) -> str:
    return _RISK_SQL.format(**facts_sql_names(project_count), after=_AFTER if after else "1 = 1")


def _params(scope: ReportScope, today: date, policy: Any, after: RiskCursor | None, limit: int) -> dict[str, Any]:
    day = connection.ops.adapt_datefield_value
    params: dict[str, Any] = {**facts_params(scope, today, policy), "high": policy.levels["high"],
                              "medium": policy.levels["medium"], "limit": limit}
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


def facts_read(row: Sequence[Any], *, priority: str = "") -> RiskFacts:
    """One task's facts from the first fifteen columns of a row, in RiskFacts' order (the project's key first)."""
    (pk, project_id, key, title, status, due, assignee_id, assignee, parent_status, parent_due, subtasks, slips,
     last, load, median) = row[:15]
    return RiskFacts(pk, project_id, f"{key}-{pk}", title, status, _date(due), assignee_id, assignee, parent_status,
                     _date(parent_due), int(subtasks), int(slips), _instant(last), int(load),
                     float(median) if median % 1 else int(median), priority)


def risk_page(*, scope: ReportScope, today: date, policy: Any, limit: int,
              after: RiskCursor | None = None) -> RiskPage:
    """One statement: the `limit` riskiest open tasks of the scope (after a cursor), and the scope's totals.

    ``policy`` is the scoring settings read once (reports.risk.score._Policy). A page past the end is
    empty and still carries the totals.
    """
    with connection.cursor() as cursor:
        cursor.execute(_sql(len(scope.project_ids), after=after is not None),
                       _params(scope, today, policy, after, limit + 1))
        fetched = cursor.fetchall()
    # The totals come with every row, and alone (the page's columns empty) when the page has no row.
    totals = [int(n or 0) for n in fetched[0][-4:]] if fetched else [0, 0, 0, 0]
    found = [row for row in fetched if row[0] is not None]
    rows = [(facts_read(row), int(row[15])) for row in found]
    shown = [(facts, score) for facts, score in rows[:limit] if score > 0]
    more = len(rows) > limit and rows[limit][1] > 0
    last = shown[-1] if shown else None
    return RiskPage(rows=shown, open_tasks=totals[0], levels={"high": totals[1], "medium": totals[2], "low": totals[3]},
                    next=RiskCursor(last[1], last[0].due_date or NO_DUE, last[0].id) if more and last else None)


def facts_row(facts: RiskFacts, score: int) -> dict[str, Any]:
    """A task's facts and score as a JSON-ready row (ISO dates and instants), as a reading tool returns it."""
    return {**facts._asdict(), "due_date": _iso(facts.due_date), "parent_due_date": _iso(facts.parent_due_date),
            "last_activity": facts.last_activity.isoformat(), "score": score}


def facts_from_row(row: Any) -> tuple[RiskFacts, int]:
    """A JSON-ready row (facts_row's, as a run binds it from its step) read back into RiskFacts and its score."""
    return (RiskFacts(**{**{name: row[name] for name in RiskFacts._fields if name in row},
                         "due_date": _date(row["due_date"]), "parent_due_date": _date(row["parent_due_date"]),
                         "last_activity": datetime.fromisoformat(row["last_activity"])}), int(row["score"]))


def _iso(value: date | None) -> str | None:
    return value.isoformat() if value is not None else None
