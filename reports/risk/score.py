"""Score delay risk 0-100 from facts only: each factor has its points, its value and where the value came from.

The weights and thresholds are settings (``RISK_WEIGHTS`` and friends, listed in docs/USAGE.md);
the database adds the points up for every open task (reports.risk.facts), and the tasks shown are
scored again here, factor by factor, from their facts and the server's date.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from django.conf import settings

from pm_assistant.errors import ApplicationError

from .facts import RiskFacts, facts_from_row

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
    tasks: tuple[TaskRisk, ...]  # the riskiest RISK_TOP tasks with a score above 0, highest first
    level_counts: Mapping[Level, int] = field(default_factory=dict)  # every scored task, by level

    def top(self, n: int | None = None) -> tuple[TaskRisk, ...]:
        return self.tasks[: n or settings.RISK_TOP]

    def levels(self) -> dict[str, int]:
        return {level: self.level_counts.get(level, 0) for level in ("high", "medium", "low")}


@dataclass(frozen=True)
class _Policy:
    """The scoring settings, read once per ranking.

    Each read through django.conf.settings is a lazy-object lookup: read per task, 78 000 of them
    took 0.55 s of ranking 15 000 open tasks under the profiler.
    """

    weights: Mapping[str, int]
    levels: Mapping[str, int]
    due_soon_days: int
    inactive_days: int
    load_ratio: float

    @classmethod
    def now(cls) -> _Policy:
        return cls(weights=settings.RISK_WEIGHTS, levels=settings.RISK_LEVELS,
                   due_soon_days=settings.RISK_DUE_SOON_DAYS, inactive_days=settings.RISK_INACTIVE_DAYS,
                   load_ratio=settings.RISK_LOAD_RATIO)

    def level_of(self, score: int) -> Level:
        if score >= self.levels["high"]:
            return "high"
        return "medium" if score >= self.levels["medium"] else "low"


def policy_now() -> _Policy:
    """The scoring settings as they are now, read once for a ranking."""
    return _Policy.now()


def _days(later: date, earlier: date) -> int:
    return (later - earlier).days


def task_factors(f: RiskFacts, *, today: date, policy: _Policy | None = None) -> list[Factor]:
    """The factors that apply to one open task, each with its points under the configured weights."""
    return _factors(f, today, policy or _Policy.now(), explain=True)


def task_points(f: RiskFacts, *, today: date, policy: _Policy | None = None) -> int:
    """The task's score: the points of its factors, without their words, capped at 100."""
    return min(100, sum(_factors(f, today, policy or _Policy.now(), explain=False)))


def _factors(f: RiskFacts, today: date, policy: _Policy, *, explain: bool) -> list[Any]:
    """Each factor that applies, as a Factor with its words when explaining, else as its points only.

    The words are formatted only for the tasks a report shows (a conditional expression evaluates
    one side): ranking 15 000 open tasks made ~29 000 Factors it then dropped.
    """
    w = policy.weights
    both: tuple[Source, ...] = ("database", "server_clock")
    found: list[Any] = []
    due = f.due_date
    if due is not None and due < today:
        days = _days(today, due)
        points = min(w["overdue_max"], w["overdue_per_day"] * days)
        found.append(Factor("overdue", points, days, both, f"{days} days overdue") if explain else points)
    soon = policy.due_soon_days
    if due is not None and 0 <= _days(due, today) <= soon and f.open_subtasks:
        points = w["due_soon_open_subtasks"]
        found.append(Factor("due_soon_open_subtasks", points, f.open_subtasks, both,
                            f"due within {soon} days with {f.open_subtasks} open subtasks") if explain else points)
    idle = _days(today, f.last_activity.date())
    if idle >= policy.inactive_days:
        points = w["inactive"]
        found.append(Factor("inactive", points, idle, both, f"no activity for {idle} days") if explain else points)
    if f.status == "blocked":
        points = w["blocked"]
        found.append(Factor("blocked", points, "blocked", ("database",), "blocked") if explain else points)
    parent_due = f.parent_due_date
    parent_overdue = parent_due is not None and parent_due < today and f.parent_status != "done"
    if f.parent_status == "blocked" or parent_overdue:
        what = "blocked" if f.parent_status == "blocked" else "overdue"
        points = w["parent_at_risk"]
        found.append(Factor("parent_at_risk", points, what, both, f"its parent task is {what}") if explain else points)
    median = f.project_median_open
    if f.assignee_id and median and f.assignee_open >= policy.load_ratio * median and f.assignee_open > median:
        points = w["assignee_load"]
        found.append(Factor("assignee_load", points, f.assignee_open, ("database",),
                            f"its assignee has {f.assignee_open} open tasks (project median {median:g})")
                     if explain else points)
    if f.due_slips:
        points = min(w["due_slips_max"], w["due_slip"] * f.due_slips)
        found.append(Factor("due_slips", points, f.due_slips, ("database",), "due date moved later "
                            + _times(f.due_slips)) if explain else points)
    return found


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


class RiskScoresDisagree(ApplicationError):
    """The database's score of a task shown differs from its factors' points: nothing is reported."""

    code = "risk_scores_mismatch"
    http_status = 500

    def __init__(self, key: str, scored: int, explained: int) -> None:
        super().__init__(f"The delay risk of {key} could not be verified (scored {scored}, its factors add up to "
                         f"{explained}); no risk was reported.")


def risk_explain(rows: Iterable[tuple[RiskFacts, int]], *, open_tasks: int, levels: Mapping[str, int], today: date,
                 scope_label: str, project_id: int | None) -> RiskReport:
    """The report from the ranking's first page: each task shown with its factors and words.

    The database scored and ranked every open task (reports.risk.facts); each task shown is scored
    again here from its facts, factor by factor, and must come to the same score.
    """
    policy = _Policy.now()
    top = []
    for f, score in rows:
        factors = tuple(task_factors(f, today=today, policy=policy))
        explained = min(100, sum(factor.points for factor in factors))
        if explained != score:
            raise RiskScoresDisagree(f.key, score, explained)
        top.append(TaskRisk(id=f.id, key=f.key, title=f.title, status=f.status,
                            due_date=f.due_date.isoformat() if f.due_date else None, assignee=f.assignee,
                            score=score, level=policy.level_of(score), factors=factors))
    return RiskReport(scope_label=scope_label, project_id=project_id, today=today.isoformat(), open_tasks=open_tasks,
                      tasks=tuple(top), level_counts=dict(levels))  # type: ignore[arg-type]


def risk_rows(rows: Iterable[Mapping[str, Any]]) -> list[tuple[RiskFacts, int]]:
    """JSON-ready rows (a reading step's items, as a run binds them) read back into facts and scores."""
    return [facts_from_row(row) for row in rows]
