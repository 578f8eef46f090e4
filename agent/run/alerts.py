"""Alerts for review: grouped by kind, newest first, each with its run's trace (the Alerts page and
``manage.py alerts``), and the week's count the admin index shows."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count
from django.urls import reverse
from django.utils import timezone

from agent.models import Alert
from pm_assistant.errors import InvalidInput

SHOWN_PER_KIND = 20
_SINCE = re.compile(r"^(\d{1,4})([hd])$")


@dataclass(frozen=True)
class AlertGroup:
    kind: str
    label: str
    count: int
    latest: list[Alert]


def since_parse(text: str) -> timedelta:
    """ "24h" or "7d" as a duration; anything else is an error naming the field."""
    match = _SINCE.match(text.strip())
    if not match or int(match.group(1)) == 0:
        raise InvalidInput('since: give a number of hours or days, such as "24h" or "7d".', field="since")
    number = int(match.group(1))
    return timedelta(hours=number) if match.group(2) == "h" else timedelta(days=number)


def run_trace_url(alert: Alert) -> str:
    """Where the alert's run shows its whole trace: the run's admin page."""
    return reverse("admin:agent_run_change", args=[alert.run_id])


def alerts_grouped(*, since: datetime) -> list[AlertGroup]:
    """Alerts since a time, grouped by kind (most frequent first), with the newest of each kind."""
    labels = dict(Alert.Kind.choices)
    counts = (Alert.objects.filter(created_at__gte=since).values("kind").annotate(n=Count("id")).order_by("-n", "kind"))
    groups = []
    for row in counts:
        latest = list(Alert.objects.filter(created_at__gte=since, kind=row["kind"]).select_related("run")
                      .order_by("-created_at", "-id")[:SHOWN_PER_KIND])
        groups.append(AlertGroup(kind=row["kind"], label=labels.get(row["kind"], row["kind"]), count=row["n"],
                                 latest=latest))
    return groups


def alerts_this_week() -> int:
    """How many alerts the last seven days raised (the admin index shows it)."""
    return Alert.objects.filter(created_at__gte=timezone.now() - timedelta(days=7)).count()
