"""The sidebar's current conversation, kept in the user's session so every page shows the same thread."""
from __future__ import annotations

from datetime import timedelta
from typing import Any, cast
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils import timezone

from agent.models import Conversation, Run
from agent.run.conversations import (
    TRANSCRIPT_RUNS,
    conversation_get,
    conversation_messages_after,
    conversation_runs,
    conversation_runs_before,
    conversation_unsaved,
)
from agent.run.feedback import with_feedback
from agent.web.run_partial import run_view_context, with_model_calls
from pm_assistant.errors import NotFound

SESSION_KEY = "assistant_conversation_id"


def current_conversation(request: HttpRequest) -> Conversation | None:
    """Return the session's conversation if it is still the user's own."""
    conversation_id = request.session.get(SESSION_KEY)
    if not conversation_id:
        return None
    try:
        return conversation_get(user=request.user, conversation_id=conversation_id)  # type: ignore[arg-type]
    except NotFound:
        return None


def conversation_make_current(request: HttpRequest, conversation: Conversation) -> None:
    """Make the conversation the one the sidebar shows and continues."""
    request.session[SESSION_KEY] = str(conversation.pk)


def current_or_new_conversation(request: HttpRequest) -> Conversation:
    """Return the session's conversation, or a new one (stored with its first run) when there is none."""
    conversation = current_conversation(request)
    if conversation is None:
        user: User = request.user  # type: ignore[assignment]
        conversation = conversation_unsaved(user=user)
        conversation_make_current(request, conversation)
    return conversation


def transcript(request: HttpRequest) -> dict[str, Any]:
    """What the sidebar shows: the current conversation's latest runs (TRANSCRIPT_RUNS; a "Show earlier"
    button when there were more), then the user's other runs still working."""
    user = request.user
    if not user.is_authenticated:
        return {"runs": [], "earlier": None}
    conversation = current_conversation(request)
    runs = conversation_runs(conversation=conversation, limit=TRANSCRIPT_RUNS + 1) if conversation else []
    runs, more = (runs[1:], True) if len(runs) > TRANSCRIPT_RUNS else (runs, False)
    shown = {run.pk for run in runs}
    # A background run from another conversation keeps reporting its progress here until it ends.
    since = timezone.now() - timedelta(seconds=settings.RUN_STALE_AFTER_SECONDS)
    working = Run.objects.filter(user=user, status=Run.Status.RUNNING, created_at__gte=since).order_by("created_at")
    others = with_feedback(with_model_calls([run for run in working[:5] if run.pk not in shown]))
    return {"runs": _views(runs, later=set()) + [run_view_context(run) for run in others],
            "earlier": _earlier(cast(Conversation, conversation), runs[0]) if more else None}


def transcript_before(*, user: User, run_id: UUID) -> dict[str, Any]:
    """The TRANSCRIPT_RUNS runs of the user's conversation made before this run of it (NotFound: not a run
    of one of the user's conversations), and a "Show earlier" button when there are more still."""
    run = Run.objects.filter(pk=run_id, user=user, conversation__isnull=False).first()
    if run is None:
        raise NotFound("This conversation's earlier messages were not found.", field="before")
    conversation = cast(Conversation, run.conversation)
    runs = conversation_runs(conversation=conversation, limit=TRANSCRIPT_RUNS + 1, before=run)
    runs, more = (runs[1:], True) if len(runs) > TRANSCRIPT_RUNS else (runs, False)
    later = conversation_messages_after(conversation=conversation, run=runs[-1],
                                        among={r.message for r in runs}) if runs else set()
    return {"runs": _views(runs, later=later), "earlier": _earlier(conversation, runs[0]) if more else None}


def _views(runs: list[Run], *, later: set[str]) -> list[dict[str, Any]]:
    """Each run as the transcript renders it, knowing whether its message was sent again after it (what a
    project picker's choice does): by a later run of these or one of the ``later`` messages."""
    asked_again, sent = [], set(later)
    with_feedback(with_model_calls(runs))
    for run in reversed(runs):
        asked_again.append(run.message in sent)
        sent.add(run.message)
    return [run_view_context(run, asked_again=again) for run, again in zip(runs, asked_again[::-1], strict=True)]


def _earlier(conversation: Conversation, oldest_shown: Run) -> dict[str, Any]:
    """The "Show earlier" button above the oldest run shown: how many came before it, how many wait."""
    return {"before": oldest_shown.pk, **conversation_runs_before(conversation=conversation, run=oldest_shown)}
