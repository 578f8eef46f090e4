"""The model may look into an externalized result, with the ref bound by the runtime."""
from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from agent.models import Run, TraceEvent
from agent.run.audit import run_audit
from tasks.services import task_create

ALL_SLOTS = {"operation": None, "task_id": None, "title": None, "status": None, "priority": None,
             "due_date": None, "scope": None, "expected_title": None, "expected_status": None,
             "status_filter": [], "priority_filter": [], "assignee_me": True, "preset": None}


def _ask(user: Any, message: str) -> dict[str, Any]:
    client = APIClient()
    client.force_authenticate(user)
    response = client.post("/api/assistant/requests/", {
        "message": message, "page_context": {"page": "home", "origin": "sidebar"}}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def _many(alice: Any, website: Any, count: int) -> None:
    for n in range(count):
        task_create(actor=alice, project=website, title=f"Audit checklist item {n}", assignee=alice)


def test_the_model_inspects_the_artifact_and_the_excerpt_replaces_the_summary(
        alice: Any, website: Any, openai_settings: Any) -> None:
    _many(alice, website, 15)
    stub = openai_settings
    stub.push_json({"capability": "query", "confidence": 0.9, "slots": ALL_SLOTS})
    stub.push_tool_call("head", {"lines": 3})
    stub.push_text("You have fifteen checklist items.")
    body = _ask(alice, "show all my tasks")
    assert body["status"] == "done"
    assert body["usage"]["llm_calls"] == 3
    ref = body["data"]["artifact"]["ref"]
    # Every call within the budget offers the tools again: the model decides when it has seen enough.
    assert "tools" in stub.requests[1].body and "tools" in stub.requests[2].body
    calls = TraceEvent.objects.filter(run_id=body["run_id"], kind="llm_call").order_by("seq")
    first, second = calls[1].payload["parts"], calls[2].payload["parts"]
    assert {"ref": ref, "form": "summary", "role": "user"} in first
    assert {"ref": ref, "form": "preview", "role": "user"} in second
    assert not any(p["ref"] == ref and p["form"] == "summary" for p in second)
    inspect = TraceEvent.objects.get(run_id=body["run_id"], kind="tool_call", name="inspect_head")
    assert inspect.payload["arguments"] == {"ref": ref, "lines": 3}
    assert len(inspect.payload["result"]["lines"]) == 3
    assert "Audit checklist item 0" in stub.requests[2].body["messages"][-1]["content"]
    report = run_audit(Run.objects.get(pk=body["run_id"]))
    assert report.passed, report.as_dict()


def test_an_unusable_inspection_request_falls_back_without_another_call(
        alice: Any, website: Any, openai_settings: Any) -> None:
    _many(alice, website, 12)
    stub = openai_settings
    stub.push_json({"capability": "query", "confidence": 0.9, "slots": ALL_SLOTS})
    stub.push_tool_call("drop_table", {"lines": 3})
    body = _ask(alice, "show all my tasks")
    assert body["status"] == "done" and body["data"]["count"] == 12
    assert stub.calls == 2
    assert not TraceEvent.objects.filter(run_id=body["run_id"], name__startswith="inspect_").exists()


def test_a_rewritten_excerpt_fails_the_preview_check(alice: Any, website: Any, openai_settings: Any) -> None:
    _many(alice, website, 12)
    stub = openai_settings
    stub.push_json({"capability": "query", "confidence": 0.9, "slots": ALL_SLOTS})
    stub.push_tool_call("tail", {"lines": 2})
    stub.push_text("Twelve items.")
    body = _ask(alice, "show all my tasks")
    event = TraceEvent.objects.get(run_id=body["run_id"], kind="artifact", name="inspect_tail")
    event.payload["previews"][0]["text"] = event.payload["previews"][0]["text"].upper()
    event.save()
    report = run_audit(Run.objects.get(pk=body["run_id"])).as_dict()
    assert [p["passed"] for p in report["points"]] == [True, True, False, True]


def test_an_outline_shows_the_model_structure_not_the_query_that_made_it(
        alice: Any, website: Any, openai_settings: Any) -> None:
    for n in range(12):
        task_create(actor=alice, project=website, title=f"Audit item {n}", description="zebrafish tank",
                    assignee=alice)
    stub = openai_settings
    stub.push_json({"capability": "query", "confidence": 0.9, "slots": ALL_SLOTS})
    stub.push_tool_call("outline", {})
    stub.push_text("Twelve items.")
    client = APIClient()
    client.force_authenticate(alice)
    body = client.post("/api/assistant/requests/", {"message": "show all my tasks", "page_context": {
        "page": "project_detail", "origin": "sidebar", "routeParams": {"projectId": website.pk},
        "searchKeyword": "zebrafish"}}, format="json").json()
    assert body["status"] == "done" and body["data"]["count"] == 12, body
    inspect = TraceEvent.objects.get(run_id=body["run_id"], kind="tool_call", name="inspect_outline")
    assert inspect.payload["result"]["source_args"]["filters"]["search"] == "zebrafish"  # kept for the trace
    excerpt = stub.requests[2].body["messages"][-1]["content"]
    assert "outline of the stored result" in excerpt
    assert "12 items" in excerpt and "title (str)" in excerpt and "count=12" in excerpt, excerpt
    prompt = "\n".join(m["content"] for m in stub.requests[2].body["messages"])
    for leak in ("source_args", "zebrafish", "{'", "{\"", "sha256", "created_at", "expires_at",
                 "project_id=", "project_id:", "'project_id'", "\"project_id\"", body["data"]["artifact"]["ref"]):
        assert leak not in prompt, f"{leak!r} in the prompt after an outline:\n{prompt}"
