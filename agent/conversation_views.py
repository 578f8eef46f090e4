"""The sidebar's conversations: start a new one, open a recent one, list the recent ones, show a
conversation's earlier runs (htmx partials)."""
from __future__ import annotations

from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from pm_assistant.errors import ApplicationError, InvalidInput

from .conversations import conversation_get, conversation_list_for_user, conversation_start
from .sidebar_conversation import conversation_make_current, current_conversation, transcript_before
from .views import render_error


@login_required
@require_POST
def sidebar_conversation_new(request: HttpRequest) -> HttpResponse:
    """Start a fresh conversation and show its empty transcript."""
    conversation_make_current(request, conversation_start(user=request.user))  # type: ignore[arg-type]
    return render(request, "assistant/_transcript.html")


@login_required
@require_POST
def sidebar_conversation_open(request: HttpRequest, conversation_id: str) -> HttpResponse:
    """Make one of the user's conversations current and show its transcript."""
    try:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id)  # type: ignore[arg-type]
    except ApplicationError as exc:
        return render_error(request, exc, asked="")
    conversation_make_current(request, conversation)
    return render(request, "assistant/_transcript.html")


@login_required
@require_GET
def sidebar_conversation_list(request: HttpRequest) -> HttpResponse:
    """List the user's recent conversations, the current one marked."""
    current = current_conversation(request)
    return render(request, "assistant/_history.html", {
        "conversations": conversation_list_for_user(user=request.user),  # type: ignore[arg-type]
        "current_id": current.pk if current else None})


@login_required
@require_GET
def sidebar_earlier(request: HttpRequest) -> HttpResponse:
    """The runs of a conversation before ``?before=<run id>`` (one of the user's), to put above it."""
    try:
        try:
            before = UUID(request.GET.get("before", ""))
        except ValueError:
            raise InvalidInput("before: must be the id of a run (a UUID).", field="before") from None
        context = transcript_before(user=request.user, run_id=before)  # type: ignore[arg-type]
    except ApplicationError as exc:
        return render_error(request, exc, asked="")
    return render(request, "assistant/_runs.html", context)
