"""The Alerts page: what staff review, grouped by kind, each alert linked to its run's trace."""
from __future__ import annotations

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from agent.run.alerts import alerts_grouped, since_parse
from pm_assistant.errors import InvalidInput

DEFAULT_SINCE = "7d"
SINCE_CHOICES = (("24h", "the last 24 hours"), ("7d", "the last 7 days"), ("30d", "the last 30 days"))


@require_GET
@staff_member_required
def alerts_page(request: HttpRequest) -> HttpResponse:
    since_text = request.GET.get("since", DEFAULT_SINCE)
    try:
        since = since_parse(since_text)
    except InvalidInput as exc:
        return render(request, "agent/alerts.html", {"error": exc.message, "since": DEFAULT_SINCE,
                                                         "since_choices": SINCE_CHOICES, "groups": [],
                                                         "title": "Alerts"}, status=400)
    groups = alerts_grouped(since=timezone.now() - since)
    return render(request, "agent/alerts.html", {
        "groups": groups, "since": since_text, "since_choices": SINCE_CHOICES,
        "total": sum(g.count for g in groups), "title": "Alerts"})
