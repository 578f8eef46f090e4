"""Template helpers for the assistant sidebar."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import template
from django.conf import settings
from django.utils import timezone

from agent.models import Run
from agent.routing.quick_actions import QUICK_ACTIONS
from agent.service import run_as_dict

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


@register.simple_tag(takes_context=True)
def assistant_running_runs(context: Any) -> list[dict[str, Any]]:
    """The user's runs still working in the background, so a reload shows them progressing."""
    user = getattr(context.get("request"), "user", None)
    if user is None or not user.is_authenticated:
        return []
    since = timezone.now() - timedelta(seconds=settings.RUN_STALE_AFTER_SECONDS)
    runs = Run.objects.filter(user=user, status=Run.Status.RUNNING, created_at__gte=since).order_by("created_at")
    return [{"run": run, "view": run_as_dict(run)} for run in runs[:5]]


@register.filter
def action_label(action: str) -> str:
    """Return the button label of a quick action."""
    return ACTION_LABELS.get(action, action.replace("_", " ").capitalize())


@register.filter
def words(value: str) -> str:
    """Turn a code like in_progress into words."""
    return str(value or "").replace("_", " ")
