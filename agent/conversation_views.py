"""The sidebar's conversations: start a new one, open a recent one, list the recent ones (htmx partials)."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from pm_assistant.errors import ApplicationError

from .conversations import conversation_get, conversation_list_for_user, conversation_start
from .sidebar_conversation import conversation_make_current, current_conversation
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
