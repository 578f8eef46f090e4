"""What a run's partial needs to render: the contract dict plus its items and clarify's suggestions."""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import timezone

from agent.models import Run, TraceEvent
from agent.routing.quick_actions import QuickAction, quick_actions_for
from agent.run.feedback import feedback_of
from agent.words.language import language_of
from agent.words.sidebar import WORDS
from pm_assistant.vocabulary import PAGES

from .run_shapes import run_as_dict


def suggested_actions(run: Run, suggestions: list[dict[str, Any]]) -> list[QuickAction]:
    """The quick actions clarify suggested, as the page's table declares them (with their origin)."""
    page = run.page_context.get("page")
    if page not in PAGES:
        return []
    offered = {entry.action: entry for entry in quick_actions_for(page)}
    return [offered[s["action"]] for s in suggestions if s.get("action") in offered]


FOLLOW_UPS = 3


def follow_up_actions(run: Run) -> list[QuickAction]:
    """What to ask next under an answer: the page's quick actions that only read and lead elsewhere than
    the answer's own capability (the quick-action table's, so never a button the page lacks)."""
    page = run.page_context.get("page")
    if page not in PAGES or run.status != Run.Status.DONE or not run.capability:
        return []
    return [entry for entry in quick_actions_for(page)
            if entry.capability != run.capability and not entry.changes_tasks][:FOLLOW_UPS]


def _asked_again(run: Run) -> bool:
    """Whether a later run of its conversation sent the same message (what a picked choice sends)."""
    return run.conversation_id is not None and Run.objects.filter(
        conversation_id=run.conversation_id, created_at__gt=run.created_at, message=run.message).exists()


def run_view_context(run: Run, *, asked_again: bool | None = None) -> dict[str, Any]:
    """Return the template context of agent/_run.html for one run.

    ``asked_again``: whether a later run of its conversation sent the same message, when the caller
    knows (the transcript does); otherwise it is read, and only for a run offering project choices.
    """
    view = run_as_dict(run)
    data = view["data"] if isinstance(view["data"], dict) else {}
    # A project picker is answered once its message was sent again (a choice sends it with the
    # project): its choices are shown closed, in any browser, so the task is not created twice.
    picker_closed = bool(data.get("project_choices")) and (
        _asked_again(run) if asked_again is None else asked_again)
    # The words around the answer follow the run's own message, as stored (a quick button's run has none).
    language = language_of(run.message)
    # Passed by name: in a template, data.items would find dict.items() when the key is absent.
    return {"run": run, "lang": language, "answer_words": WORDS[language],
            "view": view, "items": data.get("items") or [], "count": data.get("count"),
            "picker_closed": picker_closed, "feedback": feedback_of(run),
            "suggestions": suggested_actions(run, data.get("suggestions") or []),
            # Clarify and help offer their own buttons; any other answer offers the next steps.
            "follow_ups": [] if data.get("suggestions") else follow_up_actions(run),
            "undo_minutes": settings.UNDO_WINDOW_SECONDS // 60, "today": timezone.localdate().isoformat(),
            "undo_open": run.undo_until is not None and run.undone_at is None and timezone.now() < run.undo_until}


def with_model_calls(runs: list[Run]) -> list[Run]:
    """Read the model calls of every run that made any, in one query, for their footers (run_footer)."""
    asked = [run.pk for run in runs if run.llm_calls]
    calls: dict[Any, list[dict[str, Any]]] = {pk: [] for pk in asked}
    if asked:
        rows = TraceEvent.objects.filter(run_id__in=asked, kind=TraceEvent.Kind.LLM_CALL).order_by("run_id", "seq")
        for run_id, payload in rows.values_list("run_id", "payload"):
            calls[run_id].append(payload)
    for run in runs:
        run.model_calls = calls.get(run.pk, [])  # type: ignore[attr-defined]
    return runs
