"""Stop: the owner ends a running run; it stops between graph nodes, writes nothing after the stop, and a
streaming model answer is cut off. Anyone else's run is a 404."""
from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client

from agent.models import Run
from agent.run.live import live_read, stop_requested
from agent.run.service import STOPPED_REPLY
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.agent.test_trace_api import route_json
from tests.clients import api_client
from tests.llm_stub import Completion, LLMStub

PAGE = {"page": "home", "origin": "sidebar"}


def wait_for(condition: Callable[[], Any], seconds: float = 10.0) -> Any:
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def in_background(send: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    """Send a request from another thread (as a second browser tab would), keeping its answer."""
    answer: dict[str, Any] = {}

    def run() -> None:
        try:
            answer["response"] = send()
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, answer


def test_only_the_owner_stops_a_running_run(alice: User, bob: User) -> None:
    run = Run.objects.create(user=alice, message="anything", status=Run.Status.RUNNING)
    url = f"/api/assistant/runs/{run.pk}/stop/"

    assert api_client(None).post(url).status_code == 401
    assert api_client(bob).post(url).status_code == 404
    assert not stop_requested(run.pk)
    run.refresh_from_db()
    assert run.status == "running"

    response = api_client(alice).post(url)
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["reply"]) == ("stopped", STOPPED_REPLY)
    assert stop_requested(run.pk)
    assert list(api_client(alice).post(url).json()["error"]["fields"]) == ["run_id"]
    assert api_client(alice).post(url).status_code == 409
    assert api_client(alice).post(f"/api/assistant/runs/{uuid.uuid4()}/stop/").status_code == 404


def test_a_finished_run_cannot_be_stopped(alice: User) -> None:
    run = Run.objects.create(user=alice, message="anything", status=Run.Status.DONE, reply="All done.")

    response = api_client(alice).post(f"/api/assistant/runs/{run.pk}/stop/")
    assert response.status_code == 409 and "finished before it could be stopped" in response.json()["error"]["message"]
    run.refresh_from_db()
    assert (run.status, run.reply) == ("done", "All done.")


@pytest.mark.django_db(transaction=True)
def test_a_write_routed_while_the_stop_came_is_never_made(openai_settings: LLMStub, settings: Any, alice: User,
                                                          website: Project) -> None:
    settings.LLM_TIMEOUT_SECONDS = 5.0
    openai_settings.push_delay(1.5, then=Completion(json.dumps(route_json(
        "crud", operation="create", title="Write the notes", project_name="Website Redesign"))))
    client = api_client(alice)
    thread, answer = in_background(lambda: client.post("/api/assistant/requests/", {
        "message": 'create task "Write the notes" in Website Redesign', "page_context": PAGE}, format="json"))

    wait_for(lambda: openai_settings.calls == 1)  # the router model is thinking
    run = Run.objects.get()
    assert api_client(alice).post(f"/api/assistant/runs/{run.pk}/stop/").json()["status"] == "stopped"
    thread.join(15)

    body = answer["response"].json()
    assert (body["status"], body["error_code"], body["reply"]) == ("stopped", "stopped", STOPPED_REPLY)
    assert not Task.objects.filter(title="Write the notes").exists()
    trace = api_client(alice).get(f"/api/assistant/runs/{run.pk}/trace/").json()
    names = [n["name"] for n in trace["nodes"]]
    assert names[-1] == "stopped" and "crud" not in names
    run.refresh_from_db()
    assert run.status == "stopped"


@pytest.mark.django_db(transaction=True)
def test_stop_cuts_the_streaming_answer_off(openai_settings: LLMStub, settings: Any, alice: User,
                                            website: Project) -> None:
    settings.LLM_TIMEOUT_SECONDS = 5.0
    settings.LLM_CALL_DEADLINE_SECONDS = 20.0
    task_create(actor=alice, project=website, title="Write the notes", assignee=alice)
    openai_settings.push_json(route_json("query", assignee_me=True))
    openai_settings.push_stream([f"word{i} " for i in range(60)], interval=0.1)
    token = str(uuid.uuid4())
    browser = Client()
    browser.force_login(alice)
    thread, answer = in_background(lambda: browser.post(
        "/assistant/request/", {"message": "what am I working on?", "page_context": json.dumps(PAGE)},
        headers={"X-Assistant-Stream": token}))

    snapshot = wait_for(lambda: (live_read(token) or {}).get("text") and live_read(token))
    stopped_at = time.monotonic()
    api_client(alice).post(snapshot["run_id"].join(["/api/assistant/runs/", "/stop/"]))
    thread.join(15)

    assert time.monotonic() - stopped_at < 3  # not the six seconds the whole answer takes
    assert answer["response"].status_code == 200
    run = Run.objects.get()
    assert run.status == "stopped"
    wait_for(lambda: openai_settings.cut_streams == 1)
    explain = api_client(alice).get(f"/api/assistant/runs/{run.pk}/trace/").json()["llm_calls"][1]
    assert explain["streamed"] is True and explain["error"].startswith("Stopped")
    assert run.llm_calls == 2, "a stopped run keeps the usage of the calls it made"
    assert live_read(token)["finished"] is True


def test_the_stop_operation_is_in_the_schema(tmp_path: Any) -> None:
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    stop = schema["paths"]["/api/assistant/runs/{run_id}/stop/"]["post"]
    assert {"200", "401", "404", "409"} <= set(stop["responses"])
    assert "owner" in stop["description"]
