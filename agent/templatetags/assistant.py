"""Template helpers for the assistant sidebar."""
from __future__ import annotations

from typing import Any

from django import template

from agent.routing.quick_actions import QUICK_ACTIONS

register = template.Library()

# The last label of an action wins where pages label it differently.
ACTION_LABELS = {entry.action: entry.label for entries in QUICK_ACTIONS.values() for entry in entries}


@register.simple_tag
def assistant_quick_actions(page_context: Any) -> list[dict[str, str]]:
    """Return the quick actions for the page described by the #page-context attributes."""
    attrs = dict(page_context or [])
    page = attrs.get("data-page", "home")
    if page == "task_list" and '"type":"task"' in attrs.get("data-selected-entity", ""):
        page = "task_detail"
    return [entry._asdict() for entry in QUICK_ACTIONS.get(page, ())]


@register.filter
def action_label(action: str) -> str:
    """Return the button label of a quick action."""
    return ACTION_LABELS.get(action, action.replace("_", " ").capitalize())


@register.filter
def words(value: str) -> str:
    """Turn a code like in_progress into words."""
    return str(value or "").replace("_", " ")
