"""Collect once: the rows a weekly report needs, in three queries whatever the size.

Only the tasks with history since the previous week began are read row by row (their states at
each week's end are replayed from that history). Every other task is as it ended both weeks, so it
is counted in SQL, grouped, and read only if it is among the first lines a list shows. The rows are
JSON-ready (ids, strings, ISO dates and instants), so they can be stored as an artifact and
projected from there exactly as from memory.
"""
from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, OuterRef, Q

from tasks.models import Task, TaskActivity

from .figures import LIST_LINES, STATUS_LISTS
from .scope import ReportScope, ReportWindows, Window

DONE = Task.Status.DONE
# The history a report reads: status changes, due-date changes and deletions.
EVENT_FILTER = Q(kind__in=[TaskActivity.Kind.STATUS, TaskActivity.Kind.DELETED]) | Q(
    kind=TaskActivity.Kind.UPDATED, field="due_date")
TASK_FIELDS = ("id", "project_id", "project__key", "title", "status", "due_date", "assignee__username", "created_at")


def scope_size(scope: ReportScope) -> int:
    """How many tasks the scope holds: what decides whether a report runs in the background."""
    return Task.objects.filter(project_id__in=scope.project_ids).count()


def events_since(scope: ReportScope, windows: ReportWindows) -> Any:
    """The history of the scope from the start of the previous week until now."""
    return TaskActivity.objects.filter(EVENT_FILTER, project_id__in=scope.project_ids,
                                       created_at__gte=windows.previous.start)


def report_events(*, scope: ReportScope, windows: ReportWindows) -> dict[str, Any]:
    """Every status change, due-date change and deletion since the previous week began, oldest first."""
    rows = events_since(scope, windows).order_by("created_at", "id").values(
        "id", "task_id", "task_title", "kind", "field", "from_value", "to_value", "created_at")
    items = [{**row, "created_at": row["created_at"].isoformat()} for row in rows]
    return {"count": len(items), "items": items}


def _tasks(scope: ReportScope, windows: ReportWindows, *, touched: bool) -> Any:
    """The scope's tasks made before the reported week ended, with history since the previous week began or not."""
    in_scope = Task.objects.filter(project_id__in=scope.project_ids, created_at__lt=windows.current.end)
    if touched:
        # From the history to the tasks: a few rows looked up by key, not a pass over the scope's tasks.
        return in_scope.filter(pk__in=events_since(scope, windows).values("task_id"))
    return in_scope.filter(~Exists(events_since(scope, windows).filter(task_id=OuterRef("pk"))))


def _list_conditions(window: Window) -> dict[str, Q]:
    """Which lists of the week a task without history is on: its row is its state at the week's end."""
    alive, still_open = Q(created_at__lt=window.end), ~Q(status=DONE)
    return {"created": alive & Q(created_at__gte=window.start),
            "overdue": alive & still_open & Q(due_date__isnull=False, due_date__lt=window.end_date),
            **{name: alive & Q(status=name) for name in STATUS_LISTS}}


def _task_items(rows: Any) -> list[dict[str, Any]]:
    # Tuples, not the ORM's dicts: one dict per row is built here, not two.
    return [{"id": pk, "project_id": project_id, "key": f"{key}-{pk}", "title": title, "status": status,
             "due_date": due.isoformat() if due else None, "assignee": assignee, "created_at": created.isoformat()}
            for pk, project_id, key, title, status, due, assignee, created in rows]


def report_tasks(*, scope: ReportScope, windows: ReportWindows) -> dict[str, Any]:
    """The tasks with history since the previous week began, then the first lines of each list of the others.

    A task without that history is listed only if it is among the first LIST_LINES (by id) of a list
    of either week: with the tasks with history, that holds the first LIST_LINES of every list.
    """
    touched = _tasks(scope, windows, touched=True).order_by("id").values_list(*TASK_FIELDS)
    others = _tasks(scope, windows, touched=False)
    conditions = [*_list_conditions(windows.current).values(), *_list_conditions(windows.previous).values()]
    # Per list, its first ids (the primary key's order: a scan that stops at the LIST_LINES-th),
    # each wrapped so the union may hold them (a compound statement cannot order its parts itself).
    firsts = [Task.objects.filter(id__in=others.filter(q).order_by("id").values("id")[:LIST_LINES]).values("id")
              for q in conditions]
    first = (Task.objects.filter(id__in=firsts[0].union(*firsts[1:], all=True)).order_by("id")
             .values_list(*TASK_FIELDS))
    items = _task_items(touched) + _task_items(first)
    return {"count": len(items), "items": items}


def report_counts(*, scope: ReportScope, windows: ReportWindows) -> dict[str, Any]:
    """The tasks without history since the previous week began, counted per assignee and status.

    Per week ([reported, previous]): how many existed at its end, were created within it, and were
    due before its end. Their status is the same at both ends, so the status says open, in progress
    or blocked; a task counts as overdue only while open, which the projection applies.
    """
    counted: dict[str, Any] = {}
    for i, window in enumerate((windows.current, windows.previous)):
        alive = Q(created_at__lt=window.end)
        counted[f"alive{i}"] = Count("id", filter=alive)
        counted[f"created{i}"] = Count("id", filter=alive & Q(created_at__gte=window.start))
        counted[f"due{i}"] = Count("id", filter=alive & Q(due_date__isnull=False, due_date__lt=window.end_date))
    rows = (_tasks(scope, windows, touched=False).values("assignee__username", "status").annotate(**counted)
            .order_by("assignee__username", "status"))
    items = [{"assignee": row["assignee__username"], "status": row["status"],
              **{name: [row[f"{name}0"], row[f"{name}1"]] for name in ("alive", "created", "due")}} for row in rows]
    return {"count": len(items), "items": items}
