"""The sidebar follows a run as it happens: the model's prose streams (stream=True through the real SDK and
the stub's SSE), the page's event stream relays it, and the API's JSON is what it always was."""
from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from agent.graph.graph import OWN_NODES, build_graph, stage_label
from agent.llm.client import WRITING
from agent.models import Run
from agent.registry import CAPABILITIES
from agent.web import stream_views
from pm_assistant.vocabulary import STREAMS_PER_USER_MAX
from projects.models import Project
from tasks.services import task_create
from tests.agent.test_trace_api import route_json
from tests.clients import api_client
from tests.llm_stub import LLMStub

PAGE = {"page": "home", "origin": "sidebar"}
PROSE = "You have **one** task: <b>Write the notes</b>."


def sidebar(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def send(client: Client, message: str, token: str | None) -> Any:
    headers = {"X-Assistant-Stream": token} if token else {}
    return client.post("/assistant/request/", {"message": message, "page_context": json.dumps(PAGE)},
                       headers=headers)


def events(client: Client, token: str) -> list[tuple[str, dict[str, Any]]]:
    """Read the whole event stream of a token as (event, data) pairs."""
    response = client.get(f"/assistant/streams/{token}/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    body = b"".join(response.streaming_content).decode()
    found = []
    for block in body.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if "event" in lines:
            found.append((lines["event"], json.loads(lines["data"])))
    return found


@pytest.fixture(autouse=True)
def _no_streams_left_open(alice: User, bob: User) -> Iterator[None]:
    """The open-stream counts live in the cache, which outlives a test: each test starts and ends at zero."""
    keys = [stream_views._open_streams_key(user.pk) for user in (alice, bob)]
    cache.delete_many(keys)
    yield
    cache.delete_many(keys)


@pytest.fixture
def query_model(openai_settings: LLMStub, alice: User, website: Project) -> LLMStub:
    task_create(actor=alice, project=website, title="Write the notes", assignee=alice)
    openai_settings.push_json(route_json("query", assignee_me=True))
    openai_settings.push_text(PROSE, completion_tokens=9)
    return openai_settings


def test_the_sidebar_streams_the_prose_and_renders_it_sanitised_at_the_end(query_model: LLMStub,
                                                                          alice: User) -> None:
    token = str(uuid.uuid4())
    client = sidebar(alice)
    response = send(client, "what am I working on?", token)

    assert response.status_code == 200
    route_call, explain_call = query_model.requests
    assert "stream" not in route_call.body  # structured output is never streamed
    assert explain_call.body["stream"] is True and explain_call.body["stream_options"] == {"include_usage": True}
    html = response.content.decode()
    assert "<strong>one</strong>" in html and "<b>" not in html  # Markdown rendered, the model's HTML not
    run = Run.objects.get()
    assert (run.status, run.completion_tokens > 9) == ("done", True)  # the usage chunk was counted
    trace = api_client(alice).get(f"/api/assistant/runs/{run.pk}/trace/").json()
    assert [c.get("streamed", False) for c in trace["llm_calls"]] == [False, True]
    assert trace["llm_calls"][1]["reply"] == PROSE

    relayed = events(client, token)
    assert relayed[0] == ("run", {"run_id": str(run.pk), "stop_url": f"/api/assistant/runs/{run.pk}/stop/"})
    assert "".join(d["delta"] for e, d in relayed if e == "text") == PROSE  # plain text, as the model wrote it
    assert [e for e, _ in relayed][-1] == "end"
    assert any(e == "stage" for e, _ in relayed)


def test_an_api_client_gets_the_json_it_always_got_and_nothing_streams(query_model: LLMStub, alice: User) -> None:
    response = api_client(alice).post("/api/assistant/requests/", {"message": "what am I working on?",
                                                                   "page_context": PAGE}, format="json")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = response.json()
    # The contract's run, exactly as GET /runs/<id>/ shapes it: no streaming fields, no event stream.
    assert set(body) >= {"run_id", "conversation_id", "status", "route", "reply", "error_code", "data",
                         "confirmation", "usage", "progress"}
    assert body == api_client(alice).get(f"/api/assistant/runs/{body['run_id']}/").json()
    assert body["status"] == "done" and body["reply"] == PROSE
    assert all("stream" not in r.body for r in query_model.requests)


def test_a_sidebar_request_without_a_valid_token_does_not_stream(query_model: LLMStub, alice: User) -> None:
    response = send(sidebar(alice), "what am I working on?", "not-a-token")

    assert response.status_code == 200
    assert all("stream" not in r.body for r in query_model.requests)


def test_another_users_stream_is_not_found(query_model: LLMStub, alice: User, bob: User) -> None:
    token = str(uuid.uuid4())
    send(sidebar(alice), "what am I working on?", token)

    assert sidebar(bob).get(f"/assistant/streams/{token}/").status_code == 404
    assert Client().get(f"/assistant/streams/{token}/").status_code == 302  # to the login page
    assert sidebar(alice).get("/assistant/streams/not-a-uuid/").status_code == 404


def test_offline_the_stream_has_stages_and_no_text(alice: User, website: Project) -> None:
    token = str(uuid.uuid4())
    client = sidebar(alice)
    send(client, "show my tasks", token)

    relayed = events(client, token)
    assert [e for e, _ in relayed][0] == "run" and [e for e, _ in relayed][-1] == "end"
    assert not [d for e, d in relayed if e == "text"]


def test_stages_are_the_graphs_node_words_and_the_registrys_labels() -> None:
    for spec in CAPABILITIES:
        assert stage_label(spec.name) == spec.label
    # Every node of the graph that is not a capability has its words, and nothing else has.
    assert set(OWN_NODES) == set(build_graph().builder.nodes) - {spec.name for spec in CAPABILITIES}
    assert {stage_label(name) for name in OWN_NODES} == set(OWN_NODES.values())
    assert WRITING not in {spec.label for spec in CAPABILITIES}


def test_a_user_holds_a_bounded_number_of_streams(alice: User, bob: User, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stream_views, "_WAIT_FOR_RUN_SECONDS", 0.0)  # a stream no run joins ends at once
    client = sidebar(alice)

    def opened() -> Any:
        return client.get(f"/assistant/streams/{uuid.uuid4()}/")

    held = [opened() for _ in range(STREAMS_PER_USER_MAX)]  # open until read to the end
    assert [r.status_code for r in held] == [200] * STREAMS_PER_USER_MAX
    refused = opened()
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "too_many_streams"
    assert sidebar(bob).get(f"/assistant/streams/{uuid.uuid4()}/").status_code == 200  # each user's own bound
    b"".join(held.pop().streaming_content)  # a stream that ends gives its place back
    again = [opened(), opened()]
    assert [r.status_code for r in again] == [200, 429]
    for response in held + again[:1]:
        b"".join(response.streaming_content)
    assert [r.status_code for r in [opened() for _ in range(STREAMS_PER_USER_MAX)]] == [200] * STREAMS_PER_USER_MAX


def test_a_stream_closed_twice_or_before_its_first_event_gives_its_place_back_once(alice: User) -> None:
    for _ in range(STREAMS_PER_USER_MAX):
        assert stream_views._take_stream(alice.pk)
    assert not stream_views._take_stream(alice.pk)
    stream = stream_views._OpenStream(str(uuid.uuid4()), alice.pk)
    stream.close()
    stream.close()
    assert stream_views._take_stream(alice.pk)
    assert not stream_views._take_stream(alice.pk)


def test_a_reports_polish_is_not_streamed_before_its_figures_are_checked(openai_settings: LLMStub,
                                                                         alice: User, website: Project) -> None:
    task_create(actor=alice, project=website, title="Write the notes", assignee=alice)
    openai_settings.push_json(route_json("weekly_report"))
    openai_settings.push_text("This week 9999 tasks were completed.")  # a figure the database never gave
    token = str(uuid.uuid4())
    client = sidebar(alice)
    response = send(client, "weekly report", token)

    assert response.status_code == 200
    polish_call = openai_settings.requests[-1]
    assert "stream" not in polish_call.body
    assert "9999" not in response.content.decode()  # the template answered instead
    assert not [data for event, data in events(client, token) if event == "text"]
