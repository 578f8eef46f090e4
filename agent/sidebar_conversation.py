"""The sidebar's current conversation, kept in the user's session so every page shows the same thread."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils import timezone

from pm_assistant.errors import NotFound

from .conversations import conversation_get, conversation_runs, conversation_unsaved
from .models import Conversation, Run
from .run_view import run_view_context

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


def transcript_runs(request: HttpRequest) -> list[dict[str, Any]]:
    """The runs the sidebar shows: the current conversation's, then the user's other runs still working."""
    user = request.user
    if not user.is_authenticated:
        return []
    conversation = current_conversation(request)
    runs = conversation_runs(conversation=conversation) if conversation is not None else []
    shown = {run.pk for run in runs}
    # A background run from another conversation keeps reporting its progress here until it ends.
    since = timezone.now() - timedelta(seconds=settings.RUN_STALE_AFTER_SECONDS)
    working = Run.objects.filter(user=user, status=Run.Status.RUNNING, created_at__gte=since).order_by("created_at")
    others = [run for run in working[:5] if run.pk not in shown]
    # Whether each run's message was sent again after it (what a project picker's choice does).
    asked_again = [run.message in {later.message for later in runs[n + 1:]} for n, run in enumerate(runs)]
    return [run_view_context(run, asked_again=again) for run, again in zip(runs, asked_again, strict=True)] + \
        [run_view_context(run) for run in others]
