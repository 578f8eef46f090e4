"""The inspection loop over a real run: several rounds within the budget, a stale index answered live,
a request past the budget dropped, and the audit stored on every run."""
from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from agent.capabilities.common import inspection
from agent.models import Alert, Run, TraceEvent
from agent.registry import BY_NAME
from tasks.models import Task
from tasks.services import task_create, task_update
from tests.llm_stub import LLMStub

from .test_inspection import ALL_SLOTS


def _ask(user: Any, message: str) -> dict[str, Any]:
    client = APIClient()
    client.force_authenticate(user)
    response = client.post("/api/assistant/requests/", {
        "message": message, "page_context": {"page": "home", "origin": "sidebar"}}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


@pytest.fixture
def items(alice: Any, website: Any) -> list[Task]:
    return [task_create(actor=alice, project=website, title=f"Checklist item {n}", assignee=alice)
            for n in range(1, 16)]


def _inspections(run_id: str) -> list[TraceEvent]:
    return list(TraceEvent.objects.filter(run_id=run_id, kind="node", name="inspection").order_by("seq"))


def test_outline_then_search_then_context_then_the_answer(alice: Any, items: list[Task],
                                                          openai_settings: LLMStub) -> None:
    stub = openai_settings
    stub.push_json({"capability": "query", "confidence": 0.9, "slots": ALL_SLOTS})
    stub.push_tool_call("outline", {})
    stub.push_tool_call("search", {"pattern": "item 7", "max_hits": 5})
    stub.push_tool_call("context", {"line": 7, "radius": 1})
    stub.push_text("Checklist item 7 is still to do.")
    body = _ask(alice, "where is checklist item 7?")

    assert body["status"] == "done" and body["reply"] == "Checklist item 7 is still to do."
    assert stub.calls == 5 and body["usage"]["llm_calls"] == 5
    ref = body["data"]["artifact"]["ref"]
    events = _inspections(body["run_id"])
    assert [(e.payload["round"], e.payload["tool"]) for e in events] == [(1, "outline"), (2, "search"), (3, "context")]
    assert events[1].payload["index"] == "fresh" and not events[1].payload["stale"]
    # Each call holds the ref in exactly one form: the summary, then each excerpt in place of the one before.
    calls = list(TraceEvent.objects.filter(run_id=body["run_id"], kind="llm_call").order_by("seq"))[1:]
    forms = [[p["form"] for p in c.payload["parts"] if p["ref"] == ref] for c in calls]
    assert forms == [["summary"], ["preview"], ["preview"], ["preview"]]
    search_prompt = stub.requests[3].body["messages"]
    assert any("Checklist item 7" in m["content"] and "search of the stored result" in m["content"]
               for m in search_prompt)
    assert not any("outline of the stored result" in m["content"] for m in search_prompt)
    assert "You looked at the stored result with: outline; search" in "\n".join(m["content"] for m in search_prompt)
    hits = TraceEvent.objects.get(run_id=body["run_id"], kind="tool_call", name="inspect_search").payload["result"]
    assert hits["index"] == "fresh" and [h["line"] for h in hits["hits"]] == [7]
    run = Run.objects.get(pk=body["run_id"])
    assert run.audit is not None and run.audit["passed"], run.audit
    assert not Alert.objects.filter(run=run).exists()


def test_a_renamed_task_makes_the_index_stale_and_the_search_live(
        alice: Any, items: list[Task], openai_settings: LLMStub, monkeypatch: pytest.MonkeyPatch) -> None:
    stub = openai_settings
    stub.push_json({"capability": "query", "confidence": 0.9, "slots": ALL_SLOTS})
    stub.push_tool_call("search", {"pattern": "release blocker", "max_hits": 5})
    stub.push_text("One task matches.")
    real = inspection.inspect_once

    def renamed_first(*args: Any, **kwargs: Any) -> Any:
        # Someone renames a task after the query stored its rows and before the model's search runs.
        task_update(actor=alice, task=Task.objects.get(pk=items[6].pk), title="Release blocker: login")
        return real(*args, **kwargs)

    monkeypatch.setattr(inspection, "inspect_once", renamed_first)
    body = _ask(alice, "find the release blocker")

    assert body["status"] == "done" and stub.calls == 3
    answer = TraceEvent.objects.get(run_id=body["run_id"], kind="tool_call", name="inspect_search").payload["result"]
    assert answer["index"] == "stale" and answer["stale"] is True and answer["live"] is True
    assert [r["title"] for r in answer["rows"]] == ["Release blocker: login"]
    excerpt = "\n".join(m["content"] for m in stub.requests[2].body["messages"])
    assert "Release blocker: login" in excerpt and "stale" in excerpt and "live query" in excerpt
    assert body["data"]["inspection"]["stale"] is True and body["data"]["inspection"]["live"] is True
    assert body["reply"] == ("One task matches. "
                             "(The stored result was out of date, so the search read the current tasks.)")
    assert Run.objects.get(pk=body["run_id"]).audit["passed"]


def test_a_request_past_the_budget_is_dropped_and_the_answer_says_so(
        alice: Any, items: list[Task], openai_settings: LLMStub) -> None:
    stub = openai_settings
    budget = BY_NAME["query"].inspection_rounds
    stub.push_json({"capability": "query", "confidence": 0.9, "slots": ALL_SLOTS})
    for _ in range(budget + 1):
        stub.push_tool_call("head", {"lines": 2})
    body = _ask(alice, "show all my tasks")

    assert body["status"] == "done" and stub.calls == budget + 2
    assert len(_inspections(body["run_id"])) == budget
    assert "Answered from the summary of the stored result" in body["reply"]
    assert body["data"]["inspection"]["dropped"] == "budget"
    alert = Alert.objects.get(run_id=body["run_id"], kind="inspection_dropped")
    assert alert.details["why"] == "budget"
    assert TraceEvent.objects.filter(run_id=body["run_id"], kind="node", name="inspection_dropped").exists()
    assert TraceEvent.objects.filter(run_id=body["run_id"], kind="alert", name="inspection_dropped").exists()


def test_an_unusable_request_is_dropped_with_an_alert(alice: Any, items: list[Task], openai_settings: LLMStub) -> None:
    stub = openai_settings
    stub.push_json({"capability": "query", "confidence": 0.9, "slots": ALL_SLOTS})
    stub.push_tool_call("search", {"pattern": "item", "regex": ".*"})
    body = _ask(alice, "show all my tasks")
    assert stub.calls == 2 and body["data"]["inspection"]["dropped"] == "unusable"
    assert "Answered from the summary" in body["reply"]
    assert Alert.objects.filter(run_id=body["run_id"], kind="inspection_dropped").count() == 1


def test_the_risk_polish_has_nothing_to_inspect_when_its_page_is_inline(
        alice: Any, items: list[Task], openai_settings: LLMStub) -> None:
    """Risk keeps only the page it shows (reports.risk.facts: the top RISK_TOP rows leave the database), so
    a page that small is inline: the polish gets no inspection tools and the model is asked once."""
    stub = openai_settings
    stub.push_json({"capability": "risk", "confidence": 0.9, "slots": {**ALL_SLOTS, "assignee_me": False}})
    stub.push_text("Nothing stands out as late.")
    body = _ask(alice, "what is at risk?")
    assert body["status"] == "done" and stub.calls == 2, body
    assert _inspections(body["run_id"]) == []
    assert "tools" not in stub.requests[1].body
    assert body["reply"] == "Nothing stands out as late."
    assert Run.objects.get(pk=body["run_id"]).audit["passed"]
