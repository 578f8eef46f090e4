"""Template helpers for the assistant sidebar."""
from __future__ import annotations

from typing import Any

from django import template

register = template.Library()

# Page-aware quick actions: (action, label, origin). The origin is the UI entry that sends them.
QUICK_ACTIONS: dict[str, list[tuple[str, str, str]]] = {
    "home": [("my_overdue", "My overdue tasks", "workbench"), ("weekly_report", "Weekly report", "workbench"),
             ("risk_analysis", "Tasks at risk", "workbench")],
    "project_detail": [("risk_analysis", "Tasks at risk this week", "quick_button"),
                       ("weekly_report", "Weekly report", "quick_button")],
    "task_list": [("mark_visible_done", "Mark visible as done", "quick_button"),
                  ("my_overdue", "My overdue tasks", "quick_button")],
    "task_detail": [("mark_done", "Mark done", "quick_button"), ("decompose_task", "Break down", "quick_button"),
                    ("delete_task", "Delete task", "quick_button")],
}
ACTION_LABELS = {action: label for items in QUICK_ACTIONS.values() for action, label, _ in items} | {
    "delete_task": "Delete task", "mark_done": "Mark done", "decompose_task": "Break down"}


@register.simple_tag
def assistant_quick_actions(page_context: Any) -> list[dict[str, str]]:
    """Return the quick actions for the page described by the #page-context attributes."""
    attrs = dict(page_context or [])
    page = attrs.get("data-page", "home")
    if page == "task_list" and '"type":"task"' in attrs.get("data-selected-entity", ""):
        page = "task_detail"
    return [{"action": a, "label": label, "origin": o} for a, label, o in QUICK_ACTIONS.get(page, [])]


@register.filter
def action_label(action: str) -> str:
    """Return the button label of a quick action."""
    return ACTION_LABELS.get(action, action.replace("_", " ").capitalize())


@register.filter
def words(value: str) -> str:
    """Turn a code like in_progress into words."""
    return str(value or "").replace("_", " ")
