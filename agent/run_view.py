"""What a run's partial needs to render: the contract dict plus its items and clarify's suggestions."""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import timezone

from pm_assistant.vocabulary import PAGES

from .models import Run
from .routing.quick_actions import QuickAction, quick_actions_for
from .run_shapes import run_as_dict


def suggested_actions(run: Run, suggestions: list[dict[str, Any]]) -> list[QuickAction]:
    """The quick actions clarify suggested, as the page's table declares them (with their origin)."""
    page = run.page_context.get("page")
    if page not in PAGES:
        return []
    offered = {entry.action: entry for entry in quick_actions_for(page)}
    return [offered[s["action"]] for s in suggestions if s.get("action") in offered]


def run_view_context(run: Run) -> dict[str, Any]:
    """Return the template context of assistant/_run.html for one run."""
    view = run_as_dict(run)
    data = view["data"] if isinstance(view["data"], dict) else {}
    # Passed by name: in a template, data.items would find dict.items() when the key is absent.
    return {"run": run, "view": view, "items": data.get("items") or [], "count": data.get("count"),
            "suggestions": suggested_actions(run, data.get("suggestions") or []),
            "undo_minutes": settings.UNDO_WINDOW_SECONDS // 60,
            "undo_open": run.undo_until is not None and run.undone_at is None and timezone.now() < run.undo_until}
