"""Template helpers for the task pages: labels for stored values, overdue checks, people."""
from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

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


@register.filter
def is_overdue(task: Task) -> bool:
    """Tell whether an open task is past its due date."""
    return bool(task.due_date and task.status != Task.Status.DONE and task.due_date < timezone.localdate())


@register.filter
def initials(user: Any) -> str:
    """Return up to two initials for an avatar."""
    if user is None:
        return "?"
    name = (user.get_full_name() or user.get_username()).strip()
    parts = name.split()
    return ("".join(p[0] for p in parts[:2]) if len(parts) > 1 else name[:2]).upper()


@register.filter
def display_name(user: Any) -> str:
    """Return the user's full name, or the username."""
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


@register.filter
def status_label(value: str) -> str:
    """Return the label of a stored status value."""
    return str(Task.Status(value).label) if value in Task.Status.values else value


@register.filter
def count_shown(value: int, cap: int) -> str:
    """A count stopped past cap (tasks.selectors.count_up_to) reads "cap+"; below it, the number."""
    return f"{cap}+" if value > cap else str(value)
