"""The staff page of usage figures (/assistant/usage/): agent/run/usage.py's figures as bar charts."""
from __future__ import annotations

from typing import Any

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from agent.run.usage import since_moment, usage_since
from pm_assistant.errors import InvalidInput

SPANS = ("24h", "7d", "30d")


def _bars(rows: list[tuple[str, int | float, str]]) -> list[dict[str, Any]]:
    """(label, value, shown as) rows, each with its bar's width in percent of the largest."""
    top = max((value for _, value, _ in rows), default=0) or 1
    return [{"label": label, "shown": shown, "width": round(100 * value / top)} for label, value, shown in rows]


def _pct(share: float | None) -> str:
    return "–" if share is None else f"{share:.0%}"


def _charts(figures: dict[str, Any]) -> list[dict[str, Any]]:
    routes, cards = figures["routes"], figures["cards"]
    return [
        {"title": "Requests by route", "bars": _bars([
            (route.replace("_", " "), row["runs"], f"{row['runs']} · {_pct(row['share'])}")
            for route, row in routes.items()])},
        {"title": "Fast-path share by page", "bars": _bars([
            (row["page"] or "(none)", row["fast_path_share"] or 0, f"{_pct(row['fast_path_share'])} of {row['runs']}")
            for row in figures["by_page"]])},
        {"title": "Fast-path share by capability", "bars": _bars([
            (row["capability"] or "(not routed)", row["fast_path_share"] or 0,
             f"{_pct(row['fast_path_share'])} of {row['runs']}") for row in figures["by_capability"]])},
        {"title": "Model calls by capability", "bars": _bars([
            (row["capability"] or "(not routed)", row["llm_calls"],
             f"{row['llm_calls']} calls · {row['prompt_tokens']} + {row['completion_tokens']} tokens")
            for row in figures["by_capability"]])},
        {"title": "Cards", "bars": _bars([
            (outcome, cards[outcome], f"{cards[outcome]} · {_pct(cards.get(f'{outcome}_share'))}")
            for outcome in ("approved", "rejected", "expired", "pending")])},
        {"title": "Feedback on answers", "bars": _bars([
            (rating, figures["feedback"][rating], str(figures["feedback"][rating])) for rating in ("up", "down")])},
        {"title": "Alerts by kind", "bars": _bars([(kind, count, str(count))
                                                   for kind, count in figures["alerts"].items()])},
    ]


@staff_member_required
def usage_page(request: HttpRequest) -> HttpResponse:
    since = request.GET.get("since", "7d")
    try:
        moment = since_moment(since)
    except InvalidInput as error:
        return render(request, "agent/usage.html", {"error": error.message, "since": since, "spans": SPANS},
                      status=400)
    figures = usage_since(moment)
    return render(request, "agent/usage.html", {
        "since": since, "spans": SPANS, "figures": figures, "charts": _charts(figures),
        "undo_share": _pct(figures["undo"]["share"]), "audit_share": _pct(figures["audit"]["share"]),
        "fast_share": _pct(figures["routes"]["fast_path"]["share"])})
