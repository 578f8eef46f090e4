"""What to work on next: the user's open tasks ranked by a stated, deterministic score.

A task's score is the sum of five parts, each from the database and the server's date: overdue (a
base and points per day past the due date, capped), due soon (today, or within RISK_DUE_SOON_DAYS),
its priority, whether it holds up its parent (a subtask of a task still open), and its delay-risk
score (reports.risk) scaled down. The points are NEXT_UP_WEIGHTS below; docs/USAGE.md states them for
users (tests/reports/test_next_up.py keeps the two equal). Ties go to the earlier due date (none
last), then the higher priority, then the lower id. The database applies the same score to every open
task (reports.next_up_facts); the first tasks are ranked again here, and the two must agree.
"""
from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from types import MappingProxyType

from django.conf import settings

from pm_assistant.errors import ApplicationError

from .next_up_facts import next_up_page
from .risk.facts import RiskFacts
from .risk.score import _Policy, task_points
from .scope import ReportScope

NEXT_UP_TOP = 5
NEXT_UP_WEIGHTS: Mapping[str, int] = MappingProxyType({
    "overdue": 40, "overdue_per_day": 2, "overdue_max": 60, "due_today": 25, "due_soon": 15,
    "P0": 30, "P1": 20, "P2": 10, "P3": 0, "holds_up": 15, "risk_divisor": 5,
})
# The parts in the order a reason names them.
PARTS = ("overdue", "due_soon", "priority", "holds_up", "delay_risk")
_PRIORITY_RANK = {"P0": 0, "P1": 1, "P2": 2, "P3": 3}


@dataclass(frozen=True)
class Part:
    """One part of a task's score: its name, its points and the value it was worked out from."""

    name: str
    points: int
    value: int | str


@dataclass(frozen=True)
class NextTask:
    id: int
    project_id: int
    key: str
    title: str
    status: str
    priority: str
    due_date: str | None
    score: int
    parts: tuple[Part, ...]

    def points(self) -> dict[str, int]:
        return {p.name: p.points for p in self.parts}


@dataclass(frozen=True)
class NextUp:
    """The user's ranked open tasks: the first NEXT_UP_TOP, and how many were ranked."""

    today: str
    open_tasks: int
    tasks: tuple[NextTask, ...]


def next_up_parts(f: RiskFacts, *, today: date, policy: _Policy | None = None) -> tuple[Part, ...]:
    """The parts of one open task's score that apply (points above 0), in PARTS order."""
    w = NEXT_UP_WEIGHTS
    found: list[Part] = []
    due = f.due_date
    if due is not None and due < today:
        days = (today - due).days
        found.append(Part("overdue", min(w["overdue_max"], w["overdue"] + w["overdue_per_day"] * days), days))
    elif due is not None and (due - today).days <= settings.RISK_DUE_SOON_DAYS:
        days = (due - today).days
        found.append(Part("due_soon", w["due_today"] if days == 0 else w["due_soon"], days))
    if w.get(f.priority, 0):
        found.append(Part("priority", w[f.priority], f.priority))
    if f.parent_status is not None and f.parent_status != "done":
        found.append(Part("holds_up", w["holds_up"], f.parent_status))
    risk = task_points(f, today=today, policy=policy)
    if risk // w["risk_divisor"]:
        found.append(Part("delay_risk", risk // w["risk_divisor"], risk))
    return tuple(found)


def next_up_rank(facts: Iterable[RiskFacts], *, today: date, top: int = NEXT_UP_TOP) -> NextUp:
    """Rank open tasks by their score; keep the first `top` (ties: earlier due, higher priority, lower id)."""
    ranked: list[tuple[int, date, int, int, RiskFacts, tuple[Part, ...]]] = []
    policy = _Policy.now()  # the risk settings, read once for every task
    for f in facts:
        parts = next_up_parts(f, today=today, policy=policy)
        ranked.append((-sum(p.points for p in parts), f.due_date or date.max, _PRIORITY_RANK.get(f.priority, 9),
                       f.id, f, parts))
    kept = heapq.nsmallest(top, ranked, key=lambda r: r[:4])
    return NextUp(today=today.isoformat(), open_tasks=len(ranked), tasks=tuple(
        NextTask(id=f.id, project_id=f.project_id, key=f.key, title=f.title, status=f.status, priority=f.priority,
                 due_date=f.due_date.isoformat() if f.due_date else None, score=-negative, parts=parts)
        for negative, _, _, _, f, parts in kept))


class NextUpScoresDisagree(ApplicationError):
    """The database's ranking differs from the parts worked out here for the tasks it ranked first."""

    code = "next_up_mismatch"
    http_status = 500

    def __init__(self, scored: list[tuple[int, int]], explained: list[tuple[int, int]]) -> None:
        super().__init__(f"The ranking could not be verified (the database ranked {scored}, their parts "
                         f"rank {explained}); no ranking was made.")


def next_up_for(*, scope: ReportScope, user_id: int, today: date, top: int = NEXT_UP_TOP) -> NextUp:
    """The user's open tasks in the scope, ranked: one statement whatever the number of tasks.

    The database scores and ranks every open task (reports.next_up_facts); the first `top` are ranked
    again here from their facts, part by part, and must come out with the same scores in the same order.
    """
    page = next_up_page(scope=scope, assignee_id=user_id, today=today, weights=NEXT_UP_WEIGHTS, limit=top)
    ranked = next_up_rank([f for f, _ in page.rows], today=today, top=top)
    scored, explained = [(f.id, score) for f, score in page.rows], [(t.id, t.score) for t in ranked.tasks]
    if scored != explained:
        raise NextUpScoresDisagree(scored, explained)
    return replace(ranked, open_tasks=page.open_tasks)
