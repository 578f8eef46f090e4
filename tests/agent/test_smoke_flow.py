"""End-to-end runs through the API with the offline provider."""
from __future__ import annotations

from typing import Any

from tasks.models import Task
from tasks.services import task_create
from tests.clients import api_client


def test_delete_needs_confirmation_then_approve(alice: Any, website: Any) -> None:
    task = task_create(actor=alice, project=website, title="Fix login page")
    client = api_client(alice)
    ctx = {"page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": task.pk}}
    body = client.post("/api/assistant/requests/", {"action": "delete_task", "page_context": ctx},
                       format="json").json()
    assert body["status"] == "needs_confirmation", body
    assert body["confirmation"]["facts"]["title"] == "Fix login page"
    assert body["usage"]["llm_calls"] == 0
    assert Task.objects.filter(pk=task.pk).exists()
    done = client.post(f"/api/assistant/runs/{body['run_id']}/confirm/", {"decision": "approve"}, format="json")
    assert done.json()["status"] == "done", done.json()
    assert not Task.objects.filter(pk=task.pk).exists()
    again = client.post(f"/api/assistant/runs/{body['run_id']}/confirm/", {"decision": "approve"}, format="json")
    assert again.status_code == 409
    trace = client.get(f"/api/assistant/runs/{body['run_id']}/trace/").json()
    assert [n["name"] for n in trace["nodes"]][:2] == ["assemble", "route"]


def test_free_text_query_offline(alice: Any, website: Any) -> None:
    task_create(actor=alice, project=website, title="Write copy", assignee=alice, status="in_progress")
    body = api_client(alice).post("/api/assistant/requests/", {
        "message": "show my tasks in progress", "page_context": {"page": "home", "origin": "sidebar"}},
        format="json").json()
    assert body["status"] == "done", body
    assert body["route"] == {"capability": "query", "via": "llm_router"}
    assert body["data"]["count"] == 1


def test_snake_case_keys_are_unknown_keys(alice: Any, website: Any) -> None:
    response = api_client(alice).post("/api/assistant/requests/", {
        "action": "my_overdue",
        "page_context": {"page": "home", "origin": "workbench", "visible_entity_ids": [1]}}, format="json")
    assert response.status_code == 400
    assert "page_context.visible_entity_ids" in response.json()["error"]["fields"]


def test_a_crash_inside_the_graph_marks_the_run_as_failed(alice: Any, website: Any, monkeypatch: Any,
                                                          caplog: Any) -> None:
    from agent.graph.graph import CAPABILITY_NODES, build_graph
    from agent.models import Run
    from agent.run.service import run_request

    def broken(state: Any, runtime: Any) -> Any:
        raise RuntimeError("boom")

    nodes = {**CAPABILITY_NODES, "query": broken}
    monkeypatch.setattr("agent.graph.graph.compiled_graph", lambda: build_graph(nodes=nodes))
    with caplog.at_level("ERROR", logger="agent.run.service"):
        answered = run_request(user=alice, page_context={"page": "home", "origin": "workbench"}, action="my_overdue")
    run = Run.objects.get()
    assert (run.status, run.error_code) == ("error", "internal") and answered.pk == run.pk
    assert "boom" in caplog.text  # the traceback is logged; the caller gets the failed run
    # Over HTTP: the failed run, worded, never a 500.
    client = api_client(alice)
    response = client.post("/api/assistant/requests/", {
        "action": "my_overdue", "page_context": {"page": "home", "origin": "workbench"}}, format="json")
    assert response.status_code == 200
    assert response.json()["status"] == "error" and "went wrong" in response.json()["reply"]
