"""Usage figures (agent/run/usage.py, manage.py assistant_stats, /assistant/usage/) on a fixed set of runs."""
from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from agent.models import Alert, Confirmation, Run, RunFeedback
from agent.run.usage import since_moment, usage_since
from pm_assistant.errors import InvalidInput

pytestmark = pytest.mark.django_db

NOW = timezone.now()
# (via, capability, page, status, llm calls, prompt, completion, ms from request to answer)
RUNS = [
    ("fast_path", "query", "home", "done", 0, 0, 0, 100),
    ("fast_path", "query", "task_list", "done", 0, 0, 0, 200),
    ("llm_router", "query", "task_list", "done", 2, 300, 40, 300),
    ("llm_router", "clarify", "home", "needs_clarification", 1, 100, 10, 400),
    ("", "", "home", "error", 0, 0, 0, 500),
]


def _run(user: User, via: str, capability: str, page: str, status: str, calls: int = 0, prompt: int = 0,
         completion: int = 0, ms: int = 50, *, ago: timedelta = timedelta(hours=1), **fields: Any) -> Run:
    run = Run.objects.create(user=user, via=via, capability=capability, status=status, llm_calls=calls,
                             prompt_tokens=prompt, completion_tokens=completion, page_context={"page": page}, **fields)
    start = NOW - ago
    Run.objects.filter(pk=run.pk).update(created_at=start, updated_at=start + timedelta(milliseconds=ms))
    return run


def _card(run: Run, decision: str = "") -> None:
    Confirmation.objects.create(run=run, action="delete_task", facts={}, decision=decision,
                                decided_at=NOW if decision else None)


def _fixed(user: User) -> None:
    runs = [_run(user, *row) for row in RUNS]
    RunFeedback.objects.create(run=runs[0], user=user, rating="up")
    RunFeedback.objects.create(run=runs[2], user=user, rating="down", reason="wrong tasks")
    _alert(runs[2], "model_id", "a")
    _alert(runs[2], "model_id", "b")
    _card(_run(user, "fast_path", "crud", "task_detail", "needs_confirmation"))  # pending
    approved = _run(user, "llm_router", "crud", "task_detail", "done", 1, 200, 20,
                    undo_until=NOW, undone_at=NOW)
    _card(approved, "approve")
    _alert(approved, "fact_mismatch", "c")
    _card(_run(user, "fast_path", "crud", "task_list", "done", undo_until=NOW), "reject")
    _card(_run(user, "fast_path", "crud", "home", "stopped"))  # never decided: expired
    # Stored audits: three passed, one failed; the other runs were never audited (still going, or older).
    for run, passed in zip(runs[:4], (True, True, False, True), strict=True):
        Run.objects.filter(pk=run.pk).update(audit={"passed": passed, "points": []})
    _run(user, "fast_path", "query", "home", "done", ago=timedelta(days=10))  # before the period


def _alert(run: Run, kind: str, key: str) -> None:
    Alert.objects.create(run=run, kind=kind, key=key, message="m")


def test_figures_on_fixed_runs(alice: User) -> None:
    _fixed(alice)
    figures = usage_since(NOW - timedelta(days=7))
    assert figures["runs"] == 9
    assert {route: row["runs"] for route, row in figures["routes"].items()} == {
        "fast_path": 5, "router": 2, "clarification": 1, "not_routed": 1}
    assert figures["routes"]["fast_path"]["share"] == round(5 / 9, 3)
    pages = {row["page"]: (row["runs"], row["fast_path"]) for row in figures["by_page"]}
    assert pages == {"home": (4, 2), "task_list": (3, 2), "task_detail": (2, 1)}
    capabilities = {row["capability"]: (row["runs"], row["fast_path"], row["llm_calls"], row["prompt_tokens"],
                                        row["completion_tokens"]) for row in figures["by_capability"]}
    assert capabilities == {"query": (3, 2, 2, 300, 40), "crud": (4, 3, 1, 200, 20), "clarify": (1, 0, 1, 100, 10),
                            "": (1, 0, 0, 0, 0)}
    assert figures["model"] == {"llm_calls": 4, "prompt_tokens": 600, "completion_tokens": 70}
    cards = figures["cards"]
    assert (cards["shown"], cards["approved"], cards["rejected"], cards["expired"], cards["pending"]) == (4, 1, 1, 1, 1)
    assert cards["approved_share"] == 0.25
    assert figures["undo"] == {"undoable": 2, "undone": 1, "share": 0.5}
    assert figures["feedback"] == {"given": 2, "up": 1, "down": 1, "with_reason": 1, "up_share": 0.5,
                                   "runs_share": round(2 / 9, 3)}
    assert figures["alerts"] == {"model_id": 2, "fact_mismatch": 1}
    assert figures["audit"] == {"audited": 4, "passed": 3, "share": 0.75}
    # Finished runs without a card: 100..500 ms; nearest rank: p50 the 3rd, p95 the 5th.
    assert figures["run_time_ms"] == {"runs": 5, "p50": 300.0, "p95": 500.0}


def test_an_empty_period_has_no_shares() -> None:
    figures = usage_since(NOW)
    assert figures["runs"] == 0 and figures["routes"]["fast_path"]["share"] is None
    assert figures["run_time_ms"] == {"runs": 0, "p50": None, "p95": None}


def test_the_number_of_queries_does_not_grow_with_the_runs(alice: User, bob: User,
                                                           django_assert_num_queries: Any) -> None:
    _fixed(alice)
    with django_assert_num_queries(9):
        usage_since(NOW - timedelta(days=7))
    for _ in range(3):
        _fixed(bob)
    with django_assert_num_queries(9):
        assert usage_since(NOW - timedelta(days=7))["runs"] == 36


def test_since_reads_spans_and_dates_and_names_the_field_it_refuses() -> None:
    assert since_moment("7d", now=NOW) == NOW - timedelta(days=7)
    assert since_moment("90m", now=NOW) == NOW - timedelta(minutes=90)
    assert since_moment("2026-12-01").date().isoformat() == "2026-12-01"
    with pytest.raises(InvalidInput) as refused:
        since_moment("last week")
    assert refused.value.field == "since" and "'last week'" in refused.value.message


def test_the_command_prints_the_figures_as_json_and_as_text(alice: User) -> None:
    _fixed(alice)
    out = StringIO()
    call_command("assistant_stats", "--since", "7d", "--json", stdout=out)
    assert json.loads(out.getvalue())["routes"]["fast_path"]["runs"] == 5
    out = StringIO()
    call_command("assistant_stats", "--since", "7d", stdout=out)
    text = out.getvalue()
    assert "Runs since" in text and "fast path 5 (56%)" in text and "p50 300.0 ms, p95 500.0 ms" in text
    assert "approved 25%, rejected 25%, expired 25%, 1 pending" in text
    assert "Feedback: 2 answers rated (22% of runs), 50% up, 1 with a reason" in text
    with pytest.raises(CommandError, match="--since: 'soon'"):
        call_command("assistant_stats", "--since", "soon")


def test_the_page_is_for_staff_only_and_draws_the_charts(alice: User, client: Client) -> None:
    _fixed(alice)
    client.force_login(alice)
    assert client.get("/assistant/usage/").status_code == 302  # to the admin's login
    alice.is_staff = True
    alice.save()
    page = client.get("/assistant/usage/?since=7d")
    html = page.content.decode()
    assert page.status_code == 200
    for title in ("Requests by route", "Fast-path share by page", "Model calls by capability", "Cards",
                  "Feedback on answers", "Alerts by kind"):
        assert title in html
    assert 'data-usage="runs">9<' in html and 'data-usage="p95">500.0<' in html
    assert 'style="width: 100%"' in html  # the largest bar of a chart fills it
    refused = client.get("/assistant/usage/?since=whenever")
    assert refused.status_code == 400 and "since: &#x27;whenever&#x27;" in refused.content.decode()
