"""The sidebar's conversations: start a new one, open a recent one, list the recent ones, show a
conversation's earlier runs (htmx partials)."""
from __future__ import annotations

from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from agent.run.conversations import (
    TITLE_FIELD_MAX,
    conversation_delete,
    conversation_get,
    conversation_page_for_user,
    conversation_rename,
    conversation_start,
)
from agent.web.sidebar import render_error
from agent.words.titles import conversation_label
from pm_assistant.errors import ApplicationError, InvalidInput

from .conversation_api import ConversationRenameSerializer, ConversationSearchSerializer
from .sidebar_conversation import conversation_make_current, current_conversation, transcript_before


@login_required
@require_POST
def sidebar_conversation_new(request: HttpRequest) -> HttpResponse:
    """Start a fresh conversation and show its empty transcript."""
    conversation_make_current(request, conversation_start(user=request.user))  # type: ignore[arg-type]
    return render(request, "agent/_transcript.html")


@login_required
@require_POST
def sidebar_conversation_open(request: HttpRequest, conversation_id: str) -> HttpResponse:
    """Make one of the user's conversations current and show its transcript."""
    try:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id)  # type: ignore[arg-type]
    except ApplicationError as exc:
        return render_error(request, exc, asked="")
    conversation_make_current(request, conversation)
    return render(request, "agent/_transcript.html")


def _history(request: HttpRequest, *, search: str = "", offset: int = 0, notice: str = "", error: str = "",
             error_for: UUID | str | None = None, status: int = 200) -> HttpResponse:
    """The recent conversations (those matching ``search``), the current one marked, under a notice and
    their count; past the first page (``offset``), only the next rows and the button for the ones after.

    An ``error`` about one conversation (``error_for``, a refused rename) is said in its row, its menu left
    open; one about no row shown is said above the list.
    """
    current = current_conversation(request)
    conversations, total = conversation_page_for_user(user=request.user, search=search,  # type: ignore[arg-type]
                                                      offset=offset)
    shown = offset + len(conversations)
    error_row = str(error_for) if any(str(c.pk) == str(error_for) for c in conversations) else None
    return render(request, "agent/_history_rows.html" if offset else "agent/_history.html", {
        "conversations": conversations, "total": total, "next_offset": shown if shown < total else None,
        "older": total - shown, "current_id": current.pk if current else None, "search": search,
        "notice": notice, "error": error, "error_row": error_row, "title_max": TITLE_FIELD_MAX},
        status=status)


def _first_reason(errors: dict[str, list[str]]) -> str:
    """The first refused field and its reason, as the API names them."""
    field, reasons = next(iter(errors.items()))
    return f"{field}: {reasons[0]}"


@login_required
@require_GET
def sidebar_conversation_list(request: HttpRequest) -> HttpResponse:
    """List the user's recent conversations, the current one marked; ``?search=`` narrows them."""
    query = ConversationSearchSerializer(data={"search": request.GET.get("search", ""),
                                               "offset": request.GET.get("offset", 0)})
    if not query.is_valid():
        return _history(request, error=_first_reason(query.errors), status=400)
    return _history(request, search=query.validated_data.get("search", ""),
                    offset=query.validated_data.get("offset", 0))


@login_required
@require_POST
def sidebar_conversation_rename(request: HttpRequest, conversation_id: str) -> HttpResponse:
    """Rename one of the user's conversations and list them again."""
    data = ConversationRenameSerializer(data={"title": request.POST.get("title", "")})
    if not data.is_valid():
        return _history(request, error=_first_reason(data.errors), error_for=conversation_id, status=400)
    try:
        conversation = conversation_rename(user=request.user, conversation_id=conversation_id,  # type: ignore[arg-type]
                                           title=data.validated_data["title"])
    except ApplicationError as exc:
        return _history(request, error=exc.message, error_for=conversation_id, status=exc.http_status)
    return _history(request, notice=f"Renamed to \u201c{conversation_label(conversation)}\u201d.")


@login_required
@require_POST
def sidebar_conversation_delete(request: HttpRequest, conversation_id: str) -> HttpResponse:
    """Delete one of the user's conversations and list them again; deleting the current one empties the
    transcript (an out-of-band swap), as New conversation does."""
    current = current_conversation(request)
    try:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id)  # type: ignore[arg-type]
        title = conversation_label(conversation)
        conversation_delete(user=request.user, conversation_id=conversation.pk)  # type: ignore[arg-type]
    except ApplicationError as exc:
        return _history(request, error=exc.message, status=exc.http_status)
    response = _history(request, notice=f"Deleted \u201c{title}\u201d.")
    if current is not None and current.pk == conversation.pk:
        response["HX-Trigger"] = "assistant-conversation-deleted"
    return response


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
    return render(request, "agent/_runs.html", context)
