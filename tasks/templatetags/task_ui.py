"""Template helpers for the task pages: labels for stored values, overdue checks, people, the pieces of a task."""
from __future__ import annotations

from collections.abc import Collection, Iterable

from django import template
from django.utils.safestring import SafeString

from pm_assistant.vocabulary import OPEN_STATUSES
from tasks import bits
from tasks.models import Task, TaskActivity

register = template.Library()

_FIELD_LABELS = {
    "title": "title", "description": "description", "priority": "priority", "start_date": "start date",
    "due_date": "due date", "estimate_hours": "estimate", "parent_id": "parent", "status": "status",
    "assignee": "assignee", "progress": "progress",
}


def _value_label(field: str, value: str, people: dict[str, str]) -> str:
    if not value:
        return "none"
    if field == "status" and value in Task.Status.values:
        return str(Task.Status(value).label)
    if field == "progress":
        return f"{value}%"
    if field == "assignee":
        return people.get(value, value)  # a username, named as the pages name people
    return value


@register.filter
def activity_text(activity: TaskActivity) -> str:
    """Describe one activity entry in plain words."""
    if activity.kind == TaskActivity.Kind.CREATED:
        return "created the task"
    if activity.kind == TaskActivity.Kind.DELETED:
        return "deleted the task"
    field = _FIELD_LABELS.get(activity.field, activity.field)
    if activity.field == "description":
        return "edited the description"
    people = getattr(activity, "people", {})  # set by tasks.selectors.task_activity_for_task
    old = _value_label(activity.field, activity.from_value, people)
    new = _value_label(activity.field, activity.to_value, people)
    return f"changed {field} from {old} to {new}"


# The filters and the small pieces of every task page: one implementation each, in tasks.bits.
register.filter("is_overdue", bits.is_overdue)
register.filter("initials", bits.initials)
register.filter("display_name", bits.display_name)
for piece in (bits.status_badge, bits.priority_pill, bits.progress, bits.due, bits.assignee):
    register.simple_tag(piece)


@register.simple_tag
def task_rows(tasks: Iterable[Task], row_actions: Collection[bits.RowAction], request_url: str,
              writable_project_ids: Collection[int]) -> SafeString:
    """A task table's rows (tasks.bits.task_rows); a view that names no writable projects gets no buttons."""
    return bits.task_rows(tasks, actions=row_actions or (), request_url=request_url,
                          writable_project_ids=writable_project_ids or ())


@register.filter
def status_label(value: str) -> str:
    """Return the label of a stored status value."""
    return str(Task.Status(value).label) if value in Task.Status.values else value


@register.simple_tag
def open_statuses() -> str:
    """Return the open statuses as one task-list query value (?status=...), from pm_assistant.vocabulary."""
    return ",".join(OPEN_STATUSES)


@register.filter
def count_shown(value: int, cap: int) -> str:
    """A count stopped past cap (tasks.selectors.count_up_to) reads "cap+"; below it, the number."""
    return f"{cap}+" if value > cap else str(value)
