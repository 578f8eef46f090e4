"""Collect the facts risk is scored on: two queries for any number of tasks.

One query reads every open task of the scope with its open subtasks, last activity, due-date
slips and its parent's status and due date as subqueries; one counts open tasks per assignee
and project, for the load against the project's median.
"""
from __future__ import annotations

from collections import defaultdict
from statistics import median
from typing import Any

from django.db.models import Count, F, IntegerField, Max, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from reports.scope import ReportScope
from tasks.models import Task, TaskActivity

DONE = Task.Status.DONE


def _count(qs: Any) -> Subquery:
    """A correlated COUNT(*) that does not multiply rows the way joined aggregates would."""
    return Subquery(qs.order_by().values("task_ref").annotate(n=Count("*")).values("n")[:1],
                    output_field=IntegerField())


def risk_facts(*, scope: ReportScope) -> dict[str, Any]:
    """Every open task of the scope with the facts its score needs, and the open load per assignee."""
    open_subtasks = Task.objects.filter(parent_id=OuterRef("pk")).exclude(status=DONE).annotate(
        task_ref=F("parent_id"))
    slips = TaskActivity.objects.filter(task_id=OuterRef("pk"), kind=TaskActivity.Kind.UPDATED, field="due_date") \
        .exclude(from_value="").exclude(to_value="").filter(to_value__gt=F("from_value")).annotate(task_ref=F("task_id"))
    last_activity = TaskActivity.objects.filter(task_id=OuterRef("pk")).order_by().values("task_id") \
        .annotate(last=Max("created_at")).values("last")[:1]
    rows = (Task.objects.filter(project_id__in=scope.project_ids).exclude(status=DONE)
            .annotate(open_subtasks=Coalesce(_count(open_subtasks), 0), due_slips=Coalesce(_count(slips), 0),
                      last_activity=Subquery(last_activity))
            .order_by("id")
            .values("id", "project_id", "project__key", "title", "status", "due_date", "assignee_id",
                    "assignee__username", "created_at", "parent__status", "parent__due_date",
                    "open_subtasks", "due_slips", "last_activity"))
    loads = (Task.objects.filter(project_id__in=scope.project_ids, assignee__isnull=False)
             .filter(~Q(status=DONE)).values("project_id", "assignee_id").annotate(open=Count("id")).order_by())
    load: dict[tuple[int, int], int] = {}
    per_project: dict[int, list[int]] = defaultdict(list)
    for row in loads:
        load[(row["project_id"], row["assignee_id"])] = row["open"]
        per_project[row["project_id"]].append(row["open"])
    medians = {project: median(counts) for project, counts in per_project.items()}
    items = [{
        "id": r["id"], "project_id": r["project_id"], "key": f"{r['project__key']}-{r['id']}", "title": r["title"],
        "status": r["status"], "due_date": _iso(r["due_date"]), "assignee_id": r["assignee_id"],
        "assignee": r["assignee__username"], "parent_status": r["parent__status"],
        "parent_due_date": _iso(r["parent__due_date"]), "open_subtasks": r["open_subtasks"],
        "due_slips": r["due_slips"], "last_activity": _iso(r["last_activity"] or r["created_at"]),
        "assignee_open": load.get((r["project_id"], r["assignee_id"]), 0),
        "project_median_open": medians.get(r["project_id"], 0),
    } for r in rows]
    return {"count": len(items), "items": items}


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None
