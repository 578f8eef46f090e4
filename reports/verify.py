"""Verified figures: recount every figure in SQL, by a path independent of the collected rows.

The projection reads two row lists and counts in Python; this module asks the database to count
over the whole Task table, with each task's status and due date at the week's end as correlated
subqueries. Both must agree, or the report is not shown.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery, TextField, Value
from django.db.models.functions import Cast, Coalesce

from tasks.models import Task, TaskActivity

from .figures import UNASSIGNED, WeekFigures
from .scope import ReportScope, Window

DONE = Task.Status.DONE


@dataclass(frozen=True)
class Disagreement:
    figure: str
    projected: int
    recounted: int


def _first_change_after(window: Window, **what: Any) -> Subquery:
    changes = TaskActivity.objects.filter(task_id=OuterRef("pk"), created_at__gte=window.end, **what)
    return Subquery(changes.order_by("created_at", "id").values("from_value")[:1])


def _changed_in(window: Window, **what: Any) -> Exists:
    return Exists(TaskActivity.objects.filter(task_id=OuterRef("pk"), created_at__gte=window.start,
                                              created_at__lt=window.end, **what))


def _at_week_end(scope: ReportScope, window: Window) -> QuerySet[Task]:
    status = Coalesce(_first_change_after(window, kind="status"), "status", output_field=TextField())
    due = Coalesce(_first_change_after(window, kind="updated", field="due_date"),
                   Cast("due_date", TextField()), Value(""), output_field=TextField())
    return Task.objects.filter(project_id__in=scope.project_ids, created_at__lt=window.end).annotate(
        status_end=status, due_end=due,
        done_in_week=_changed_in(window, kind="status", to_value=DONE),
        reopened_in_week=_changed_in(window, kind="status", from_value=DONE),
    )


def _open() -> Q:
    return ~Q(status_end=DONE)


def _overdue(window: Window) -> Q:
    return _open() & ~Q(due_end="") & Q(due_end__lt=window.end_date.isoformat())


def week_recount(scope: ReportScope, window: Window) -> dict[str, int]:
    """Every count of a week in one aggregate query, plus one for deletions and one for slips."""
    counts = _at_week_end(scope, window).aggregate(
        created=Count("id", filter=Q(created_at__gte=window.start)),
        completed=Count("id", filter=Q(status_end=DONE, done_in_week=True)),
        reopened=Count("id", filter=Q(reopened_in_week=True)),
        open=Count("id", filter=_open()),
        in_progress=Count("id", filter=Q(status_end="in_progress")),
        blocked=Count("id", filter=Q(status_end="blocked")),
        overdue=Count("id", filter=_overdue(window)),
    )
    in_week = {"project_id__in": scope.project_ids, "created_at__gte": window.start, "created_at__lt": window.end}
    counts["deleted"] = TaskActivity.objects.filter(kind=TaskActivity.Kind.DELETED, **in_week).count()
    # A slip: the due date moved later (ISO dates compare as text); a date set for the first time is not one.
    slips = TaskActivity.objects.filter(kind=TaskActivity.Kind.UPDATED, field="due_date", task__isnull=False,
                                        **in_week).exclude(from_value="").exclude(to_value="")
    counts["slipped"] = slips.filter(to_value__gt=F("from_value")).values("task_id").distinct().count()
    return counts


def assignees_recount(scope: ReportScope, window: Window) -> dict[str, dict[str, int]]:
    """Completed, open and overdue per current assignee, grouped in the database."""
    rows = _at_week_end(scope, window).values("assignee__username").annotate(
        completed=Count("id", filter=Q(status_end=DONE, done_in_week=True)),
        open=Count("id", filter=_open()),
        overdue=Count("id", filter=_overdue(window)),
    ).order_by()
    out = {}
    for row in rows:
        counts = {k: row[k] for k in ("completed", "open", "overdue")}
        if any(counts.values()):
            out[row["assignee__username"] or UNASSIGNED] = counts
    return out


def figures_disagreements(figures: WeekFigures, *, scope: ReportScope, window: Window,
                          with_assignees: bool) -> list[Disagreement]:
    """Compare a week's projected figures with the database's own count; empty when they agree."""
    projected = figures.counts()
    recounted = week_recount(scope, window)
    found = [Disagreement(name, projected[name], recounted[name])
             for name in projected if projected[name] != recounted[name]]
    if with_assignees:
        mine = {a.assignee: {"completed": a.completed, "open": a.open, "overdue": a.overdue}
                for a in figures.per_assignee if a.completed or a.open or a.overdue}
        theirs = assignees_recount(scope, window)
        for who in sorted(set(mine) | set(theirs)):
            for key in ("completed", "open", "overdue"):
                a, b = mine.get(who, {}).get(key, 0), theirs.get(who, {}).get(key, 0)
                if a != b:
                    found.append(Disagreement(f"{who}.{key}", a, b))
    return found
