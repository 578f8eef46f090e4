"""Template helpers for the assistant sidebar and the row buttons."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import template
from django.conf import settings
from django.utils import timezone

from agent.models import Run
from agent.routing.quick_actions import QUICK_ACTIONS, QuickAction, quick_actions_for
from agent.service import run_as_dict
from pm_assistant.vocabulary import PAGES, Page

register = template.Library()

# A run's bubble names the action it was asked for; a sidebar label wins over a row's shorter one.
ACTION_LABELS = {entry.action: entry.label
                 for entries in QUICK_ACTIONS.values() for entry in sorted(entries, key=lambda e: not e.on_rows)}


def _page(page_context: Any) -> Page | None:
    """The page named by the #page-context attributes the view rendered (None: no assistant)."""
    page = dict(page_context or []).get("data-page")
    return page if page in PAGES else None


@register.simple_tag
def assistant_quick_actions(page_context: Any) -> tuple[QuickAction, ...]:
    """Return the sidebar buttons of the page the view rendered."""
    page = _page(page_context)
    return quick_actions_for(page) if page else ()


@register.simple_tag
def assistant_row_actions(page_context: Any) -> tuple[QuickAction, ...]:
    """Return the buttons each task row of the page shows."""
    page = _page(page_context)
    return quick_actions_for(page, rows=True) if page else ()


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
