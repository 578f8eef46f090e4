"""A report over REPORT_SYNC_MAX_TASKS runs in the background: eager in the demo, a real worker on Redis."""
from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from agent.models import Run, TraceEvent
from agent.run.service import run_continue, runs_fail_stale
from tests.celery_config import celery_configured
from tests.clients import api_client
from tests.data_layer.helpers import post_request

from .fixture import NOW, Seeded, clock_at

PAGE = {"page": "home", "origin": "workbench"}


@pytest.fixture
def eager() -> Iterator[None]:
    with celery_configured(task_always_eager=True):
        yield


@pytest.fixture
def small_limit(settings: Any) -> None:
    settings.REPORT_SYNC_MAX_TASKS = 3


def _progress(run_id: str) -> list[tuple[str, int]]:
    steps = TraceEvent.objects.filter(run_id=run_id, kind="node", name="progress").order_by("seq")
    return [(e.payload["stage"], e.payload["done"]) for e in steps]


@pytest.mark.django_db
def test_eager_celery_finishes_a_large_report_within_the_request(
        eager: None, small_limit: None, seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, PAGE, action="weekly_report")

    assert run["status"] == "done", run
    assert run["data"]["report"]["counts"]["completed"] == 2
    assert run["progress"] == {"stage": "done", "done": 4, "total": 4}
    assert _progress(run["run_id"]) == [("collect", 0), ("project", 1), ("verify", 2), ("write", 3), ("done", 4)]
    call_command("audit_run", run["run_id"])


@pytest.mark.django_db
def test_a_run_whose_job_never_reports_ends_as_an_error(
        small_limit: None, seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    # No worker takes the job: the broker is an in-memory one and the run stays queued.
    with celery_configured(task_always_eager=False, broker_url="memory://"), clock_at(monkeypatch, NOW):
        run = post_request(alice, PAGE, action="weekly_report")
    assert (run["status"], run["progress"]) == ("running", {"stage": "queued", "done": 0, "total": 4})

    with clock_at(monkeypatch, NOW + timedelta(minutes=5)):
        assert runs_fail_stale(older_than=timedelta(minutes=10)) == 0  # still within its bound
    with clock_at(monkeypatch, NOW + timedelta(minutes=11)):
        assert runs_fail_stale(older_than=timedelta(minutes=10)) == 1

    stored = Run.objects.get(pk=run["run_id"])
    assert (stored.status, stored.error_code) == ("error", "job_lost")
    assert stored.reply.startswith("The background job stopped before it finished")
    # The job, if it ever runs, finds the run ended and leaves it so.
    assert run_continue(run_id=run["run_id"]).status == "error"


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_takes_the_run_from_running_to_done_with_rising_progress(
        worker_on_redis: str, small_limit: None, seeded: Seeded, alice: User) -> None:
    with celery_configured(task_default_queue=worker_on_redis):
        first = post_request(alice, PAGE, message="weekly report for 2026-W48")
        seen = [first["progress"]]
        deadline = time.monotonic() + 60
        body = first
        while body["status"] == "running" and time.monotonic() < deadline:
            time.sleep(0.05)
            body = api_client(alice).get(f"/api/assistant/runs/{first['run_id']}/").json()
            seen.append(body["progress"])

    assert first["status"] == "running" and first["progress"]["stage"] == "queued"
    assert body["status"] == "done", body
    assert body["data"]["report"]["counts"]["completed"] == 2
    done = [p["done"] for p in seen if p]
    assert done == sorted(done) and done[-1] == 4
    assert [d for _, d in _progress(first["run_id"])] == [0, 1, 2, 3, 4]
    call_command("audit_run", first["run_id"])
