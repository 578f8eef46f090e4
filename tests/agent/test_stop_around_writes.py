"""Stop and the run's writes: a stop that lands before a write means nothing is written; once a write
has committed the stop is refused and the run finishes, so "stopped" is never said of a run that changed
something. The stop is sent from another thread while the run is inside a node, as a second request
would arrive."""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from agent.capabilities.crud import tools as task_tools
from agent.capabilities.crud.spec import SPEC
from agent.graph.graph import OWN_NODES
from agent.models import Run
from agent.run.live import RunLive
from agent.run.service import run_request, run_stop
from pm_assistant.errors import Conflict
from projects.models import Project
from tasks.models import Task
from tests.agent.test_trace_api import route_json
from tests.llm_stub import LLMStub

# Read whole by the reader (the project is the page's), so the create runs at once, without a card.
MESSAGE = 'create task "Write the notes"'


def _stop_from_another_thread(user: User, run_id: Any) -> dict[str, Any]:
    outcome: dict[str, Any] = {}

    def stop() -> None:
        try:
            outcome["run"] = run_stop(user=user, run_id=run_id)
        except Conflict as exc:
            outcome["refused"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=stop)
    thread.start()
    thread.join(10)
    return outcome


def _stop_when_entering(monkeypatch: pytest.MonkeyPatch, stage: str, user: User) -> dict[str, Any]:
    """Send the stop right after the run has passed its check on entering `stage` (so only a check
    inside the node can see it)."""
    outcome: dict[str, Any] = {}
    enter: Callable[[RunLive, str], None] = RunLive.enter

    def entering(live: RunLive, label: str) -> None:
        enter(live, label)

        if label == stage and not outcome:
            outcome.update(_stop_from_another_thread(user, live.run_id))

    monkeypatch.setattr(RunLive, "enter", entering)
    return outcome


def _create(openai_settings: LLMStub, alice: User, website: Project) -> Run:
    openai_settings.push_json(route_json("crud", operation="create", title="Write the notes"))
    return run_request(user=alice, page_context={
        "page": "project_detail", "origin": "sidebar", "routeParams": {"projectId": website.pk}}, message=MESSAGE)


@pytest.mark.django_db(transaction=True)
def test_a_stop_inside_the_node_before_its_write_means_nothing_is_written(
        openai_settings: LLMStub, monkeypatch: pytest.MonkeyPatch, alice: User, website: Project) -> None:
    outcome = _stop_when_entering(monkeypatch, SPEC.label, alice)

    run = _create(openai_settings, alice, website)

    assert outcome["run"].status == "stopped"
    assert (run.status, run.wrote_at) == ("stopped", None)
    assert not Task.objects.filter(title="Write the notes").exists()
    assert "stopped" in run.events.values_list("name", flat=True)


@pytest.mark.django_db(transaction=True)
def test_a_stop_after_the_write_is_refused_and_the_run_says_what_it_did(
        openai_settings: LLMStub, monkeypatch: pytest.MonkeyPatch, alice: User, website: Project) -> None:
    outcome = _stop_when_entering(monkeypatch, OWN_NODES["respond"], alice)

    run = _create(openai_settings, alice, website)

    assert "refused" in outcome, (outcome, run.status, run.reply, list(run.events.values_list("name", flat=True)))
    assert outcome["refused"].code == "already_wrote"
    task = Task.objects.get(title="Write the notes")
    run.refresh_from_db()
    assert run.status == "done" and run.wrote_at is not None
    assert task.key in run.reply or "Write the notes" in run.reply


@pytest.mark.django_db(transaction=True)
def test_a_stop_in_flight_while_the_write_commits_waits_for_it(
        openai_settings: LLMStub, monkeypatch: pytest.MonkeyPatch, alice: User, website: Project) -> None:
    """The stop's update and the write hold the same row: whichever comes second sees the first."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's (SQLite allows one writer at a time anyway)")
    original = task_tools.create_task
    started = threading.Event()
    outcome: dict[str, Any] = {}

    def create_task(**kwargs: Any) -> Any:
        result = original(**kwargs)
        run_id = Run.objects.get().pk

        def stop() -> None:
            started.set()
            outcome.update(_stop_from_another_thread(alice, run_id))

        outcome["thread"] = threading.Thread(target=stop)
        outcome["thread"].start()
        started.wait(5)
        return result  # the stop is waiting on the row until this write commits

    monkeypatch.setattr(task_tools, "create_task", create_task)
    run = _create(openai_settings, alice, website)
    outcome["thread"].join(10)

    assert outcome["refused"].code == "already_wrote" or "finished" in outcome["refused"].message
    assert run.status == "done" and Task.objects.filter(title="Write the notes").count() == 1
