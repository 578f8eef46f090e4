"""How the assistant is used since a moment: routes, model calls and tokens, cards, undo, alerts, audit, run time.

Every figure is a database aggregate over the runs created since then (`manage.py assistant_stats`, the
staff page /assistant/usage/): nine queries whatever the number of runs. All users' runs: the figures
are for the people running the deployment, never shown to a user of the assistant.

A run's route: "fast path" (the rules matched, no router call), "router" (a model chose), "clarification"
(either way, the assistant asked the user what they meant) or "not routed" (it failed or was stopped
before a route was chosen). Run time is from the request to the stored answer, over finished runs that
showed no card (a card's wait is the user's, not the assistant's).
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, DurationField, Exists, ExpressionWrapper, F, OuterRef, Q, QuerySet, Sum
from django.db.models.fields.json import KT
from django.utils import timezone

from agent.models import Alert, Confirmation, Run, RunFeedback
from agent.run.service import FINISHED
from pm_assistant.errors import InvalidInput

ROUTES = {
    "fast_path": Q(via="fast_path") & ~Q(capability="clarify"),
    "router": Q(via="llm_router") & ~Q(capability="clarify"),
    "clarification": Q(capability="clarify"),
    "not_routed": Q(via=""),
}
PERCENTILES = (50, 95)
_AGO = re.compile(r"(\d+)([dhm])")
_UNITS = {"d": "days", "h": "hours", "m": "minutes"}


def since_moment(text: str, *, now: datetime | None = None) -> datetime:
    """"7d", "24h" or "90m" ago, or a date or date-time (ISO 8601, the server's time zone when it names none)."""
    ago = _AGO.fullmatch(text.strip())
    if ago:
        return (now or timezone.now()) - timedelta(**{_UNITS[ago.group(2)]: int(ago.group(1))})
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInput(f'since: {text[:40]!r} is neither a span ("7d", "24h", "90m") nor a date '
                           '("2026-12-01").', field="since") from None
    return timezone.make_aware(moment) if timezone.is_naive(moment) else moment


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def _grouped(runs: QuerySet[Run], key: str, expression: Any = None) -> list[dict[str, Any]]:
    """Runs, fast-path runs, model calls and tokens per value of a field, or of `expression` named `key`
    (one query)."""
    rows: Any = (runs.values(key) if expression is None else runs.values(**{key: expression})).annotate(
        runs=Count("id"), fast_path=Count("id", filter=ROUTES["fast_path"]), llm_calls=Sum("llm_calls"),
        prompt_tokens=Sum("prompt_tokens"), completion_tokens=Sum("completion_tokens")).order_by("-runs", key)
    return [{key: row[key] or "", "runs": row["runs"], "fast_path": row["fast_path"],
             "fast_path_share": _share(row["fast_path"], row["runs"]), "llm_calls": row["llm_calls"] or 0,
             "prompt_tokens": row["prompt_tokens"] or 0, "completion_tokens": row["completion_tokens"] or 0}
            for row in rows]


def _run_time_ms(runs: QuerySet[Run]) -> dict[str, float | None]:
    """Nearest-rank percentiles of finished, card-less runs' time: one count, then one row per percentile."""
    timed = runs.filter(status__in=FINISHED).exclude(Exists(Confirmation.objects.filter(run=OuterRef("pk")))) \
        .annotate(took=ExpressionWrapper(F("updated_at") - F("created_at"), output_field=DurationField()))
    count = timed.count()
    figures: dict[str, float | None] = {"runs": count}
    for p in PERCENTILES:
        took = None
        if count:
            rank = max(1, -(-p * count // 100))  # ceil(p% of count), 1-based
            took = timed.order_by("took").values_list("took", flat=True)[rank - 1]
        figures[f"p{p}"] = round(took / timedelta(milliseconds=1), 1) if took is not None else None
    return figures


def usage_since(since: datetime) -> dict[str, Any]:
    """The figures for the runs created at or after `since`."""
    runs = Run.objects.filter(created_at__gte=since).order_by()
    totals = runs.aggregate(
        runs=Count("id"), **{route: Count("id", filter=q) for route, q in ROUTES.items()},
        llm_calls=Sum("llm_calls"), prompt_tokens=Sum("prompt_tokens"), completion_tokens=Sum("completion_tokens"),
        undoable=Count("id", filter=Q(undo_until__isnull=False)), undone=Count("id", filter=Q(undone_at__isnull=False)),
        audited=Count("id", filter=Q(audit__isnull=False)), audit_passed=Count("id", filter=Q(audit__passed=True)))
    total = totals["runs"]
    cards = Confirmation.objects.filter(run__created_at__gte=since).order_by().aggregate(
        shown=Count("id"), approved=Count("id", filter=Q(decision=Confirmation.Decision.APPROVE)),
        rejected=Count("id", filter=Q(decision=Confirmation.Decision.REJECT)),
        # Never decided, and the run no longer waits for it: stopped, or asked again with a newer card.
        expired=Count("id", filter=Q(decided_at__isnull=True) & ~Q(run__status=Run.Status.NEEDS_CONFIRMATION)),
        pending=Count("id", filter=Q(decided_at__isnull=True, run__status=Run.Status.NEEDS_CONFIRMATION)))
    feedback = RunFeedback.objects.filter(run__created_at__gte=since).order_by().aggregate(
        given=Count("id"), up=Count("id", filter=Q(rating=RunFeedback.Rating.UP)),
        down=Count("id", filter=Q(rating=RunFeedback.Rating.DOWN)), with_reason=Count("id", filter=~Q(reason="")))
    alerts = Alert.objects.filter(run__created_at__gte=since).order_by().values("kind") \
        .annotate(count=Count("id")).order_by("-count", "kind")
    return {
        "since": since.isoformat(),
        "runs": total,
        "routes": {route: {"runs": totals[route], "share": _share(totals[route], total)} for route in ROUTES},
        "by_page": _grouped(runs, "page", KT("page_context__page")),
        "by_capability": _grouped(runs, "capability"),
        "model": {"llm_calls": totals["llm_calls"] or 0, "prompt_tokens": totals["prompt_tokens"] or 0,
                  "completion_tokens": totals["completion_tokens"] or 0},
        "cards": {**cards, **{f"{outcome}_share": _share(cards[outcome], cards["shown"])
                              for outcome in ("approved", "rejected", "expired")}},
        "undo": {"undoable": totals["undoable"], "undone": totals["undone"],
                 "share": _share(totals["undone"], totals["undoable"])},
        "feedback": {**feedback, "up_share": _share(feedback["up"], feedback["given"]),
                     "runs_share": _share(feedback["given"], total)},
        "alerts": {row["kind"]: row["count"] for row in alerts},
        # The four-point audit each run stored when it stopped (Run.audit); a run still going has none yet.
        "audit": {"audited": totals["audited"], "passed": totals["audit_passed"],
                  "share": _share(totals["audit_passed"], totals["audited"])},
        "run_time_ms": _run_time_ms(runs),
    }
