"""Score delay risk 0-100 from facts only: each factor has its points, its value and where the value came from.

The weights and thresholds are settings (``RISK_WEIGHTS`` and friends, listed in docs/USAGE.md);
the scoring itself is a pure function of the collected rows and the server's date.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Literal

from django.conf import settings

Source = Literal["database", "server_clock"]
Level = Literal["high", "medium", "low"]


@dataclass(frozen=True)
class Factor:
    name: str
    points: int
    value: int | float | str
    sources: tuple[Source, ...]
    words: str


@dataclass(frozen=True)
class TaskRisk:
    id: int
    key: str
    title: str
    status: str
    due_date: str | None
    assignee: str | None
    score: int
    level: Level
    factors: tuple[Factor, ...]


@dataclass(frozen=True)
class RiskReport:
    scope_label: str
    project_id: int | None
    today: str
    open_tasks: int
    tasks: tuple[TaskRisk, ...]  # every scored task with a score above 0, highest first

    def top(self, n: int | None = None) -> tuple[TaskRisk, ...]:
        return self.tasks[: n or settings.RISK_TOP]

    def levels(self) -> dict[str, int]:
        return {level: sum(1 for t in self.tasks if t.level == level) for level in ("high", "medium", "low")}


def level_of(score: int) -> Level:
    if score >= settings.RISK_LEVELS["high"]:
        return "high"
    return "medium" if score >= settings.RISK_LEVELS["medium"] else "low"


def _days(later: date, earlier: date) -> int:
    return (later - earlier).days


def task_factors(row: Mapping[str, Any], *, today: date) -> list[Factor]:
    """The factors that apply to one open task, each with its points under the configured weights."""
    w: Mapping[str, int] = settings.RISK_WEIGHTS
    found: list[Factor] = []
    due = date.fromisoformat(row["due_date"]) if row["due_date"] else None
    if due is not None and due < today:
        days = _days(today, due)
        found.append(Factor("overdue", min(w["overdue_max"], w["overdue_per_day"] * days), days,
                            ("database", "server_clock"), f"{days} days overdue"))
    soon = settings.RISK_DUE_SOON_DAYS
    if due is not None and 0 <= _days(due, today) <= soon and row["open_subtasks"]:
        found.append(Factor("due_soon_open_subtasks", w["due_soon_open_subtasks"], row["open_subtasks"],
                            ("database", "server_clock"),
                            f"due within {soon} days with {row['open_subtasks']} open subtasks"))
    idle = _days(today, datetime.fromisoformat(row["last_activity"]).date())
    if idle >= settings.RISK_INACTIVE_DAYS:
        found.append(Factor("inactive", w["inactive"], idle, ("database", "server_clock"),
                            f"no activity for {idle} days"))
    if row["status"] == "blocked":
        found.append(Factor("blocked", w["blocked"], "blocked", ("database",), "blocked"))
    parent_due = row["parent_due_date"]
    parent_overdue = (parent_due is not None and date.fromisoformat(parent_due) < today
                      and row["parent_status"] != "done")
    if row["parent_status"] == "blocked" or parent_overdue:
        what = "blocked" if row["parent_status"] == "blocked" else "overdue"
        found.append(Factor("parent_at_risk", w["parent_at_risk"], what, ("database", "server_clock"),
                            f"its parent task is {what}"))
    median = row["project_median_open"]
    if row["assignee_id"] and median and row["assignee_open"] >= settings.RISK_LOAD_RATIO * median \
            and row["assignee_open"] > median:
        found.append(Factor("assignee_load", w["assignee_load"], row["assignee_open"], ("database",),
                            f"its assignee has {row['assignee_open']} open tasks (project median {median:g})"))
    if row["due_slips"]:
        found.append(Factor("due_slips", min(w["due_slips_max"], w["due_slip"] * row["due_slips"]), row["due_slips"],
                            ("database",), "due date moved later " + _times(row["due_slips"])))
    return found


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


def risk_score(rows: Iterable[Mapping[str, Any]], *, today: date, scope_label: str,
               project_id: int | None) -> RiskReport:
    """Score every open task; keep those with any risk, highest score first (then earliest due, then id)."""
    scored: list[TaskRisk] = []
    count = 0
    for row in rows:
        count += 1
        factors = task_factors(row, today=today)
        score = min(100, sum(f.points for f in factors))
        if score <= 0:
            continue
        scored.append(TaskRisk(id=row["id"], key=row["key"], title=row["title"], status=row["status"],
                               due_date=row["due_date"], assignee=row["assignee"], score=score,
                               level=level_of(score), factors=tuple(factors)))
    scored.sort(key=lambda t: (-t.score, t.due_date or "9999-12-31", t.id))
    return RiskReport(scope_label=scope_label, project_id=project_id, today=today.isoformat(), open_tasks=count,
                      tasks=tuple(scored))
