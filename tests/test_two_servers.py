"""Two gunicorn servers on one PostgreSQL and one Redis behave as one app: a run started on one is streamed,
stopped, confirmed, planned and undone through the other, and both list the same conversations."""
from __future__ import annotations

import json
import os
import re
import threading
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import psycopg
import pytest
import redis

from agent.capabilities.decompose.tests.helpers import create, plan
from bench.outage import logged_in
from tests.agent.test_trace_api import route_json
from tests.gunicorn_server import gunicorn, migrated_app_database
from tests.llm_stub import LLMStub
from tests.service_checks import skip_or_fail

pytestmark = pytest.mark.long  # two gunicorn servers on a fresh PostgreSQL database

HOME = {"page": "home", "origin": "sidebar"}


def _redis() -> str:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        skip_or_fail("two servers share their streams and stops through Redis: REDIS_URL is not set")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        skip_or_fail(f"two servers share their streams and stops through Redis: {exc}")
    return url


class Server:
    """One server as a person's browser (session, CSRF) and as an API client (token) see it."""

    def __init__(self, base: str, token: str) -> None:
        self.browser = logged_in(base)
        self.browser.headers["X-CSRFToken"] = self.browser.cookies.get("csrftoken") or ""
        self.user = 0
        self.api = httpx.Client(base_url=base, timeout=60, headers={"Authorization": f"Token {token}"})

    def ask(self, action: str, page: dict[str, Any]) -> dict[str, Any]:
        answer = self.api.post("/api/assistant/requests/", json={"action": action, "page_context": page})
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def recent(self) -> list[str]:
        html = self.browser.get("/assistant/conversations/").text
        return re.findall(r"/assistant/conversations/([0-9a-f-]{36})/open/", html)


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[Server, Server, LLMStub, str, int]]:
    redis_url = _redis()
    with migrated_app_database("two servers share PostgreSQL", prefix="pm_two") as served, ExitStack() as stack:
        assert served is not None
        url, env, token = served
        stub = stack.enter_context(LLMStub())
        env = {**env, "REDIS_URL": redis_url, "LLM_PROVIDER": "openai", "OPENAI_API_KEY": "test-key",
               "OPENAI_BASE_URL": stub.base_url, "LLM_TIMEOUT_SECONDS": "5", "LLM_CALL_DEADLINE_SECONDS": "20"}
        first, second = (stack.enter_context(gunicorn(env, workers=1, threads=4)) for _ in range(2))
        one, other = Server(first, token), Server(second, token)
        project = one.api.get("/api/projects/").json()
        project_id = (project["results"] if isinstance(project, dict) else project)[0]["id"]
        with psycopg.connect(url) as db:
            row = db.execute("SELECT id FROM auth_user WHERE username = 'alice'").fetchone()
        assert row is not None
        one.user = other.user = row[0]
        yield one, other, stub, url, project_id


def _task(server: Server, project: int, title: str, **fields: Any) -> int:
    made = server.api.post("/api/tasks/", json={"project": project, "title": title, "assignee": server.user,
                                                    **fields})
    assert made.status_code == 201, made.text
    return int(made.json()["id"])


def _row(task: int, project: int, origin: str = "task_row") -> dict[str, Any]:
    return {"page": "task_list", "origin": origin, "selectedEntity": {"type": "task", "id": task},
            "routeParams": {"projectId": project}}


def test_a_run_started_on_one_server_is_streamed_and_stopped_through_the_other(
        servers: tuple[Server, Server, LLMStub, str, int]) -> None:
    one, other, stub, _, project = servers
    _task(one, project, "Write the notes")
    stub.push_json(route_json("query", assignee_me=True))
    stub.push_stream([f"word{i} " for i in range(80)], interval=0.1)
    token = str(uuid.uuid4())
    answer: dict[str, httpx.Response] = {}
    started = threading.Thread(target=lambda: answer.setdefault("response", one.browser.post(
        "/assistant/request/", data={"message": "what am I working on?", "page_context": json.dumps(HOME)},
        headers={"X-Assistant-Stream": token})))
    started.start()
    events: list[tuple[str, dict[str, Any]]] = []
    with other.browser.stream("GET", f"/assistant/streams/{token}/") as stream:
        name = ""
        for line in stream.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                events.append((name, json.loads(line[6:])))
                if name == "text":
                    break
    run_id = next(data["run_id"] for name, data in events if name == "run")
    assert any(name == "text" and data["delta"].startswith("word") for name, data in events)
    stopped = other.api.post(f"/api/assistant/runs/{run_id}/stop/")
    assert stopped.status_code == 200 and stopped.json()["status"] == "stopped"
    started.join(30)
    assert answer["response"].status_code == 200
    run = one.api.get(f"/api/assistant/runs/{run_id}/").json()
    assert run["status"] == "stopped" and run == other.api.get(f"/api/assistant/runs/{run_id}/").json()
    assert stub.cut_streams == 1 or len(stub.requests) == 2  # the model's answer was not read to its end


def test_a_card_shown_by_one_server_is_decided_on_the_other(servers: tuple[Server, Server, LLMStub, str, int]) -> None:
    one, other, stub, url, project = servers
    doomed = _task(one, project, "Old draft")
    card = one.ask("delete_task", _row(doomed, project))
    assert card["status"] == "needs_confirmation", card
    done = other.api.post(f"/api/assistant/runs/{card['run_id']}/confirm/", json={"decision": "approve"})
    assert done.status_code == 200 and done.json()["status"] == "done", done.text
    assert one.api.get(f"/api/tasks/{doomed}/").status_code == 404
    again = one.api.post(f"/api/assistant/runs/{card['run_id']}/confirm/", json={"decision": "approve"})
    assert again.status_code == 409  # decided once, whichever server is asked

    parent = _task(one, project, "Launch the beta", description="Steps:\n- Write release notes\n- Email the testers")
    stub.push_json(plan(create("s1", "Write release notes"), create("s2", "Email the testers")))  # the planner
    card = one.ask("decompose_task", _row(parent, project, origin="quick_button"))
    assert card["status"] == "needs_confirmation" and len(card["confirmation"]["steps"]) == 2, card
    # The paused graph is resumed from its PostgreSQL checkpoint by the other process.
    made = other.api.post(f"/api/assistant/runs/{card['run_id']}/confirm/", json={"decision": "approve"})
    assert made.status_code == 200 and made.json()["status"] == "done", made.text
    with psycopg.connect(url) as db:
        titles = db.execute("SELECT title FROM tasks_task WHERE parent_id = %s ORDER BY title", (parent,)).fetchall()
    assert titles == [("Email the testers",), ("Write release notes",)]


def test_a_change_made_on_one_server_is_undone_on_the_other_and_both_list_the_same_conversations(
        servers: tuple[Server, Server, LLMStub, str, int]) -> None:
    one, other, _, _, project = servers
    task = _task(one, project, "Ship it", status="todo")
    done = one.ask("mark_done", _row(task, project))
    assert done["status"] == "done" and one.api.get(f"/api/tasks/{task}/").json()["status"] == "done", done
    undone = other.api.post(f"/api/assistant/runs/{done['run_id']}/undo/")
    assert undone.status_code == 200, undone.text
    assert one.api.get(f"/api/tasks/{task}/").json()["status"] == "todo"
    assert other.api.post(f"/api/assistant/runs/{done['run_id']}/undo/").status_code in (409, 410)

    for n, server in enumerate((one, other, one)):
        server.browser.post("/assistant/conversations/new/")
        asked = server.browser.post("/assistant/request/", data={
            "action": "my_overdue", "page_context": json.dumps({"page": "home", "origin": "workbench"})})
        assert asked.status_code == 200, (n, asked.text[:300])
    listed = one.api.get("/api/assistant/conversations/").json()
    assert listed == other.api.get("/api/assistant/conversations/").json()
    recent = one.recent()
    assert len(recent) >= 3 and recent == other.recent()
