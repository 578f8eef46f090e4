"""GET /api/assistant/runs/<id>/trace/: nodes in order, LLM calls with messages and usage, tool calls, alerts."""
from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from tasks.models import Task
from tasks.services import task_create
from tests.clients import api_client
from tests.llm_stub import LLMStub


def route_json(capability: str, **slots: Any) -> dict[str, Any]:
    empty: dict[str, Any] = {
        "operation": None, "task_id": None, "title": None, "status": None, "priority": None, "due_date": None,
        "scope": None, "expected_title": None, "expected_status": None, "status_filter": [],
        "priority_filter": [], "assignee_me": False, "preset": None,
    }
    return {"capability": capability, "confidence": 0.9, "slots": {**empty, **slots}}



@pytest.fixture
def task(alice: Any, website: Any) -> Task:
    return task_create(actor=alice, project=website, title="Fix login page", assignee=alice, status="in_progress")


def test_query_trace_has_nodes_llm_calls_and_tool_calls_in_order(openai_settings: LLMStub, settings: Any,
                                                                  alice: Any, task: Task) -> None:
    openai_settings.push_json(route_json("query", status_filter=["in_progress"], assignee_me=True),
                              prompt_tokens=321, completion_tokens=17)
    openai_settings.push_text("You have one task in progress.", prompt_tokens=456, completion_tokens=23)
    client = api_client(alice)
    run = client.post("/api/assistant/requests/", {"message": "what am I doing?",
                                                   "page_context": {"page": "home", "origin": "sidebar"}},
                      format="json").json()
    assert run["usage"] == {"llm_calls": 2, "prompt_tokens": 777, "completion_tokens": 40}
    response = client.get(f"/api/assistant/runs/{run['run_id']}/trace/")
    assert response.status_code == 200
    trace = response.json()
    assert trace["run_id"] == run["run_id"]

    assert [n["name"] for n in trace["nodes"]] == ["assemble", "route", "query", "respond"]
    seqs = [e["seq"] for e in trace["events"]]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)

    route_call, explain_call = trace["llm_calls"]
    assert (route_call["name"], route_call["role"], route_call["model"]) == \
        ("route", "router", settings.LLM_ROUTER_MODEL)
    assert (explain_call["name"], explain_call["role"], explain_call["model"]) == \
        ("explain", "generation", settings.LLM_GENERATION_MODEL)
    assert route_call["usage"] == {"prompt_tokens": 321, "completion_tokens": 17}
    assert explain_call["usage"] == {"prompt_tokens": 456, "completion_tokens": 23}
    assert route_call["messages"] == openai_settings.requests[0].body["messages"]
    assert explain_call["messages"] == openai_settings.requests[1].body["messages"]
    assert route_call["messages"][-1] == {"role": "user", "content": "what am I doing?"}
    assert json.loads(route_call["reply"])["capability"] == "query"
    assert {p["ref"] for p in route_call["parts"]} >= {"router_ctx", "user_message"}

    (query_call,) = [t for t in trace["tool_calls"] if t["name"] == "query_tasks"]
    arguments = json.dumps(query_call["arguments"])
    assert "in_progress" in arguments and '"me"' in arguments
    assert "origin" not in json.dumps(trace["tool_calls"])

    order = [(e["kind"], e["name"]) for e in trace["events"]
             if e["kind"] in ("node", "llm_call") or e["name"] == "query_tasks"]
    assert order == [("node", "assemble"), ("llm_call", "route"), ("node", "route"), ("node", "query"),
                     ("tool_call", "query_tasks"), ("llm_call", "explain"), ("node", "respond")]
    assert trace["alerts"] == []


def test_confirmed_delete_trace_shows_the_resume_the_tools_and_the_alert(openai_settings: LLMStub, alice: Any,
                                                                         task: Task) -> None:
    openai_settings.push_json(route_json("crud", operation="delete", scope="selected",
                                         expected_title="Fix logout page"))
    client = api_client(alice)
    page = {"page": "task_list", "origin": "sidebar", "selectedEntity": {"type": "task", "id": task.pk}}
    run = client.post("/api/assistant/requests/", {"message": "delete it", "page_context": page},
                      format="json").json()
    assert run["status"] == "needs_confirmation"
    assert client.post(f"/api/assistant/runs/{run['run_id']}/confirm/", {"decision": "approve"},
                       format="json").json()["status"] == "done"
    trace = client.get(f"/api/assistant/runs/{run['run_id']}/trace/").json()
    assert [n["name"] for n in trace["nodes"]] == ["assemble", "route", "crud", "crud", "respond"]
    # The task alone for the router (facts first), the task with its subtasks when the card was asked for and
    # again on the decision, then the delete.
    assert [t["name"] for t in trace["tool_calls"]] == ["task_facts", "task_facts", "task_facts", "delete_task"]
    delete = trace["tool_calls"][-1]
    assert delete["arguments"]["task_id"] == task.pk and delete["error"] == ""
    assert delete["result"]["title"] == "Fix login page"
    assert len(trace["llm_calls"]) == 1
    (alert,) = trace["alerts"]
    assert alert["kind"] == "fact_mismatch"
    assert alert["details"] == {"field": "title", "stated": "Fix logout page", "actual": "Fix login page"}
    assert not Task.objects.filter(pk=task.pk).exists()


def test_a_failed_tool_call_is_traced_with_its_error(alice: Any, bob: Any, platform: Any) -> None:
    hidden = task_create(actor=bob, project=platform, title="Rotate warehouse keys")
    client = api_client(alice)
    run = client.post("/api/assistant/requests/", {"message": f"mark task #{hidden.pk} done",
                                                   "page_context": {"page": "home", "origin": "sidebar"}},
                      format="json").json()
    assert run["status"] == "error"
    trace = client.get(f"/api/assistant/runs/{run['run_id']}/trace/").json()
    failed = [t for t in trace["tool_calls"] if t["error"]]
    assert failed and failed[0]["error"].startswith("not_found")
    assert Task.objects.get(pk=hidden.pk).status == "todo"


def test_only_the_owner_reads_the_trace(alice: Any, bob: Any, task: Task) -> None:
    page = {"page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": task.pk}}
    run = api_client(alice).post("/api/assistant/requests/", {"action": "mark_done", "page_context": page},
                              format="json").json()
    url = f"/api/assistant/runs/{run['run_id']}/trace/"
    assert api_client(alice).get(url).status_code == 200
    stranger = api_client(bob).get(url)
    assert stranger.status_code == 404 and stranger.json()["error"]["code"] == "not_found"
    assert APIClient().get(url).status_code in (401, 403)
    assert api_client(alice).get(f"/api/assistant/runs/{uuid.uuid4()}/trace/").status_code == 404
    assert api_client(alice).get("/api/assistant/runs/not-a-uuid/trace/").status_code == 404
