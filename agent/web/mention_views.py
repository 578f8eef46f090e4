"""The composer's autocomplete: the user's tasks and projects a typed "#..." may name (an htmx-free partial)."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from rest_framework import serializers

from agent.page_context.text import control_character_reason
from projects.serializers import StrictInputSerializer

from .mentions import MENTION_MAX_CHARS, mentions_for_user


def _plain(value: str) -> None:
    reason = control_character_reason(value)
    if reason is not None:
        raise serializers.ValidationError(reason)


class MentionQuerySerializer(StrictInputSerializer):
    q = serializers.CharField(allow_blank=True, max_length=MENTION_MAX_CHARS, trim_whitespace=False,
                              validators=[_plain])


@login_required
@require_GET
def sidebar_mentions(request: HttpRequest) -> HttpResponse:
    """List what ``?q=`` may refer to among the user's projects and tasks, as listbox options."""
    query = MentionQuerySerializer(data=request.GET.dict())
    if not query.is_valid():
        field, reasons = next(iter(query.errors.items()))
        return HttpResponse(f"{field}: {reasons[0]}", status=400, content_type="text/plain; charset=utf-8")
    mentions = mentions_for_user(user=request.user, typed=query.validated_data["q"])  # type: ignore[arg-type]
    return render(request, "agent/_mentions.html", {"mentions": mentions})
