"""Conversations: start one, add a run to one, read the user's recent ones and one with its runs.

The HTTP contract: docs/DESIGN.md#http-api.
"""
from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Case, Count, F, Q, Value, When
from django.utils import timezone

from agent.models import Conversation, Run
from agent.page_context.schema import MAX_KEYWORD
from agent.routing.quick_actions import quick_action_label
from agent.words.titles import conversation_label, conversations_label
from pm_assistant.errors import NotFound
from pm_assistant.one_line import one_line

RECENT_CONVERSATIONS = 10
# A page's transcript renders this many of a conversation's latest runs, so a page costs the same after
# a long conversation; "Show earlier" loads the ones before them this many at a time (all in the API).
TRANSCRIPT_RUNS = 10
TITLE_MAX_CHARS = 80
# A title the user gives may use the whole column; a search is as long as a page's search keyword.
TITLE_FIELD_MAX = Conversation._meta.get_field("title").max_length or 120
SEARCH_MAX_CHARS = MAX_KEYWORD


def conversation_start(*, user: User) -> Conversation:
    """Start an empty conversation for the user."""
    return Conversation.objects.create(user=user)


def conversation_get(*, user: User, conversation_id: UUID | str) -> Conversation:
    """Return the user's own conversation; anyone else's is not found."""
    try:
        return Conversation.objects.get(pk=conversation_id, user=user)
    except (Conversation.DoesNotExist, ValueError, ValidationError):
        raise NotFound("This conversation was not found.", field="conversation_id") from None


def conversation_unsaved(*, user: User) -> Conversation:
    """Return a new conversation that is stored only with its first run, so a refused request leaves none."""
    return Conversation(user=user)


def conversation_for_request(*, user: User, conversation_id: UUID | str | None) -> Conversation:
    """The conversation a request continues: the one named (the user's own), else a new one."""
    if conversation_id is None:
        return conversation_unsaved(user=user)
    return conversation_get(user=user, conversation_id=conversation_id)


def conversation_note_request(*, conversation: Conversation, message: str, action: str) -> None:
    """Mark the conversation as just used, titled after its first request: one INSERT or one UPDATE.

    The UPDATE is conditional on the row still being there: a conversation deleted since the request read
    it (another tab, the API) is NotFound, raised before the request's run is written, so nothing is.
    On PostgreSQL the UPDATE also locks the row until the run is committed, which a delete waits for.
    """
    asked = " ".join(one_line(message).split()) or quick_action_label(action)
    title = asked if len(asked) <= TITLE_MAX_CHARS else asked[:TITLE_MAX_CHARS - 1] + "\u2026"
    conversation.updated_at = timezone.now()
    # A conversation not stored yet is stored now, with its first run about to be.
    if conversation._state.adding:
        conversation.title = conversation.title or title
        conversation.save()
        return
    # A title given meanwhile (a rename) is kept: only an untitled conversation takes the request's.
    updated = Conversation.objects.filter(pk=conversation.pk).update(
        title=Case(When(title="", then=Value(title)), default=F("title")), updated_at=conversation.updated_at)
    if not updated:
        raise NotFound("This conversation was deleted while your request was on its way, so nothing was done. "
                       "Send it again to start a new conversation.", field="conversation_id")
    conversation.title = conversation.title or title


def conversation_page_for_user(*, user: User, search: str = "", offset: int = 0,
                               limit: int = RECENT_CONVERSATIONS) -> tuple[list[Conversation], int]:
    """Return a page of the user's conversations that have runs, newest first, and how many there are in
    all; each has its run count and its ``label`` (agent.words.titles). ``search`` keeps those
    whose title or messages contain it."""
    rows = Conversation.objects.filter(user=user).annotate(
        run_count=Count("runs"),
        pending_count=Count("runs", filter=Q(runs__status=Run.Status.NEEDS_CONFIRMATION)))
    if search.strip():
        words = search.strip()
        rows = rows.filter(pk__in=Conversation.objects.filter(user=user).filter(
            Q(title__icontains=words) | Q(runs__message__icontains=words)).values("pk"))
    # A search is a subquery, not a join: the counts stay one per run.
    used = rows.filter(run_count__gt=0)
    found: list[Conversation] = list(used.order_by("-updated_at", "-pk")[offset:offset + limit])
    # A short page ends the list, so its end is the total, unless the offset ran past the end: then count.
    total = offset + len(found) if len(found) < limit and (found or not offset) else used.count()
    conversations_label(user, found)
    return found, total


def conversation_list_for_user(*, user: User, limit: int = RECENT_CONVERSATIONS,
                               search: str = "") -> list[Conversation]:
    """Return the user's latest conversations that have runs (the first page of conversation_page_for_user)."""
    return conversation_page_for_user(user=user, search=search, limit=limit)[0]


def conversation_rename(*, user: User, conversation_id: UUID | str, title: str) -> Conversation:
    """Give one of the user's conversations a title of their own (already validated)."""
    conversation = conversation_get(user=user, conversation_id=conversation_id)
    conversation.title = title
    # Renaming is not using it: the list keeps its place (no auto_now on updated_at).
    Conversation.objects.filter(pk=conversation.pk).update(title=title)
    return conversation


def conversation_delete(*, user: User, conversation_id: UUID | str) -> None:
    """Delete one of the user's conversations; its runs stay (their traces are the audit record) unlinked.

    The row is locked first, so a request adding a run to it at the same moment either commits its run
    before the delete unlinks the runs, or finds the conversation gone (conversation_note_request).
    """
    with transaction.atomic():
        try:
            conversation = Conversation.objects.select_for_update().get(pk=conversation_id, user=user)
        except (Conversation.DoesNotExist, ValueError, ValidationError):
            raise NotFound("This conversation was not found.", field="conversation_id") from None
        conversation.delete()


def _before(run: Run) -> Q:
    """The runs of its conversation made before this one (the transcript's order: time, then id)."""
    return Q(created_at__lt=run.created_at) | Q(created_at=run.created_at, id__lt=run.id)


def conversation_runs(*, conversation: Conversation, limit: int | None = TRANSCRIPT_RUNS,
                      before: Run | None = None) -> list[Run]:
    """Return the conversation's latest runs (all with limit=None), or the latest made before ``before``,
    oldest first as a transcript reads."""
    newest_first = conversation.runs.order_by("-created_at", "-id")
    if before is not None:
        newest_first = newest_first.filter(_before(before))
    latest = list(newest_first[:limit] if limit is not None else newest_first)
    return latest[::-1]


def conversation_runs_before(*, conversation: Conversation, run: Run) -> dict[str, int]:
    """How many runs of the conversation came before this one of it, and how many of those wait for an answer."""
    return conversation.runs.filter(_before(run)).aggregate(
        count=Count("id"), pending=Count("id", filter=Q(status=Run.Status.NEEDS_CONFIRMATION)))


def conversation_messages_after(*, conversation: Conversation, run: Run, among: set[str]) -> set[str]:
    """Which of these messages were sent in the conversation after this run of it."""
    later = conversation.runs.filter(message__in=among).exclude(_before(run)).exclude(pk=run.pk)
    return set(later.values_list("message", flat=True))


def conversation_as_dict(conversation: Conversation) -> dict[str, Any]:
    """Return a conversation as the list shows it."""
    run_count = getattr(conversation, "run_count", None)
    pending = getattr(conversation, "pending_count", None)
    return {
        "conversation_id": str(conversation.pk),
        "title": conversation.title,
        "label": getattr(conversation, "label", None) or conversation_label(conversation),
        "created_at": conversation.created_at.isoformat(),
        "updated_at": conversation.updated_at.isoformat(),
        "run_count": run_count if run_count is not None else conversation.runs.count(),
        "pending_confirmations": pending if pending is not None
        else conversation.runs.filter(status=Run.Status.NEEDS_CONFIRMATION).count(),
    }
