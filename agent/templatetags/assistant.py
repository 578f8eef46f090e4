"""Template helpers for the assistant sidebar and the row buttons."""
from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

from agent.context.words import PAGE_WORDS
from agent.routing.quick_actions import READING_ACTIONS, QuickAction, quick_action_label, quick_actions_for
from agent.tools.runner import SHOWN_ROWS
from agent.web.sidebar_conversation import transcript
from pm_assistant.vocabulary import PAGES, Page

register = template.Library()


def _page(page_context: Any) -> Page | None:
    """The page named by the #page-context attributes the view rendered (None: no assistant)."""
    page = dict(page_context or []).get("data-page")
    return page if page in PAGES else None


@register.simple_tag(takes_context=True)
def assistant_quick_actions(context: Any, page_context: Any) -> tuple[QuickAction, ...]:
    """Return the sidebar buttons of the page the view rendered that make sense on it.

    A button for the visible rows needs a page that lists tasks (one with pagination: not the New
    task form). A button hidden for a status is rendered hidden when the page's view passes that status
    as ``selected_status`` (a task's page: its task's status); the page refresh after a change copies the
    fresh page's ``hidden`` onto these buttons (static/js/assistant_buttons.js).
    A button that changes tasks is left out where the view says the user may not: ``can_write``
    false on a task's page, no ``writable_project_ids`` on a list (the server refuses it anyway).
    """
    page = _page(page_context)
    if not page:
        return ()
    lists_tasks = dict(page_context or []).get("data-pagination", "{}") != "{}"
    if "can_write" in context:
        may_write = bool(context["can_write"])
    else:
        may_write = "writable_project_ids" not in context or bool(context["writable_project_ids"])
    return tuple(entry for entry in quick_actions_for(page) if (lists_tasks or entry.slots.scope != "visible")
                 and (may_write or not entry.changes_tasks))


@register.simple_tag
def assistant_row_actions(page_context: Any) -> tuple[QuickAction, ...]:
    """Return the buttons each task row of the page shows."""
    page = _page(page_context)
    return quick_actions_for(page, rows=True) if page else ()


@register.simple_tag(takes_context=True)
def assistant_transcript(context: Any) -> dict[str, Any]:
    """The current conversation's latest runs (pending cards included), whether earlier ones can be shown,
    and other runs still working, to render (agent.web.sidebar_conversation.transcript)."""
    request = context.get("request")
    return transcript(request) if request is not None else {"runs": [], "earlier": None}


@register.inclusion_tag("agent/_context_label.html", takes_context=True)
def assistant_looking_at(context: Any, oob: bool = False) -> dict[str, Any]:
    """What the assistant sees with a request from this page, in words: the task or project it is on
    (its key and name), else the page and how many tasks it shows (what the page context sends)."""
    attrs = dict(context.get("page_context") or [])
    page = attrs.get("data-page")
    task, project = context.get("task"), context.get("project")
    label: dict[str, Any] = {"oob": oob, "page": page}
    if page == "task_detail" and task is not None:
        label.update(key=task.key, name=task.title)
    elif page == "project_detail" and project is not None:
        tab = attrs.get("data-active-tab")
        label.update(key=project.key, name=project.name, extra=f"{tab.replace('_', ' ')} tab" if tab else "")
    elif page in PAGES:
        shown = len(json.loads(attrs.get("data-visible-entity-ids") or "[]"))
        filtered = attrs.get("data-filters", "{}") not in ("{}", "")
        # Only a page that lists tasks (one with pagination, not the New task form) says how many it shows.
        lists_tasks = attrs.get("data-pagination", "{}") != "{}"
        extra = f"{shown} task{'s' if shown != 1 else ''} shown" if lists_tasks else ""
        label.update(words=PAGE_WORDS[page], extra=f"{extra}, filtered" if extra and filtered else extra)
    return label


@register.filter
def ago(moment: datetime) -> str:
    """How long ago, in words: "just now" within the first minute, else "5 minutes ago"."""
    if timezone.now() - moment < timedelta(minutes=1):
        return "just now"
    return f"{timesince(moment)} ago"


@register.filter
def row_name(action: QuickAction, title: str) -> str:
    """Return a row button's accessible name, naming the row's task.

    The pages now build row buttons in tasks.bits (QuickAction.name_for); the filter stays so the
    templates of earlier revisions still render when bench/template_ab.py times against them.
    """
    return action.name_for(str(title))


@register.filter
def message_vals(message: str) -> str:
    """Return hx-vals JSON that sends this message again (autoescaping keeps it inside the attribute)."""
    return json.dumps({"message": message})


@register.filter
def action_label(action: str) -> str:
    """Return the button label of a quick action."""
    return quick_action_label(action)


@register.filter
def words(value: str) -> str:
    """Turn a code like in_progress into words."""
    return str(value or "").replace("_", " ")


@register.filter
def retryable(action: str) -> bool:
    """Tell whether an answer of this quick action offers Retry: only a button that reads (READING_ACTIONS)."""
    return action in READING_ACTIONS


@register.filter
def rows_head(rows: list[Any]) -> list[Any]:
    """The rows a card shows at once (as many as a step keeps for showing)."""
    return list(rows or [])[:SHOWN_ROWS]


@register.filter
def rows_rest(rows: list[Any]) -> list[Any]:
    """The rows a card shows behind its "and N more"."""
    return list(rows or [])[SHOWN_ROWS:]
