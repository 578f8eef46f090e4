"""Every prompt of a set of runs: no page ids, no origin, no raw context JSON (seed 003).

The contract: docs/DESIGN.md#the-three-context-views.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from agent.models import TraceEvent
from tasks.models import Task
from tests.llm_stub import LLMStub

FIRST_ID = 100_001
CONTEXT_KEYS = ("selectedEntity", "routeParams", "visibleEntityIds", "activeTab", "viewMode", "searchKeyword",
                "pageSize", "dueBefore", "dueAfter", "projectId", "taskId", "selected_entity", "route_params",
                "visible_entity_ids", "search_keyword", "page_size", "page_context", "router_ctx", "exec_ctx",
                "model_summary", "key_filters")
ORIGIN_WORDS = ("origin", "quick_button", "task_row", "quick button", "task row")


def route_json(capability: str, confidence: float = 0.9, **slots: Any) -> dict[str, Any]:
    empty: dict[str, Any] = {
        "operation": None, "task_id": None, "title": None, "status": None, "priority": None, "due_date": None,
        "scope": None, "expected_title": None, "expected_status": None, "status_filter": [],
        "priority_filter": [], "assignee_me": False, "preset": None,
    }
    return {"capability": capability, "confidence": confidence, "slots": {**empty, **slots}}


@pytest.fixture
def tasks(alice: Any, website: Any) -> list[Task]:
    """Eight of alice's tasks with ids from 100001 up, which no date or count in a prompt can match."""
    titles = ["Fix login page", "Write release notes", "Polish footer", "Audit colour contrast",
              "Update privacy text", "Compress hero images", "Review sitemap", "Plan launch email"]
    return [Task.objects.create(id=FIRST_ID + n, project=website, title=title, assignee=alice,
                                status="todo" if n % 2 else "in_progress", created_by=alice)
            for n, title in enumerate(titles)]


def page(origin: str, tasks: list[Task], **extra: Any) -> dict[str, Any]:
    return {
        "page": "task_list", "origin": origin, "selectedEntity": {"type": "task", "id": tasks[0].pk},
        "routeParams": {"projectId": tasks[0].project_id, "taskId": tasks[0].pk},
        "activeTab": "in_progress", "viewMode": "board", "visibleEntityIds": [t.pk for t in tasks],
        # archcheck: allow ARCH005 a sample filter
        "filters": {"status": ["todo", "in_progress"], "priority": ["P2"], "assignee": "me",
                    "dueBefore": "2031-05-17", "labels": ["frontend"]},
        "pagination": {"page": 3, "pageSize": 40}, **extra,
    }


@pytest.fixture
def prompts(openai_settings: LLMStub, alice: Any, tasks: list[Task]) -> Iterator[list[str]]:
    """Run query, create, update, clarify, a failed route, an approved delete and a query stored as an
    artifact that the model outlines; return every prompt text."""
    for n in range(12):  # enough for the last query's result to be stored apart
        Task.objects.create(project=tasks[0].project, title=f"Feed the tank {n}", description="zebrafish",
                            assignee=tasks[0].assignee, created_by=tasks[0].assignee)
    client = APIClient()
    client.force_authenticate(alice)
    stub = openai_settings
    keyword = {"searchKeyword": "zebrafish"}
    scenarios: list[tuple[str, dict[str, Any], list[Any]]] = [
        ("what is in progress here?", page("quick_button", tasks),
         [route_json("query", status_filter=["in_progress"]), "Four tasks are in progress."]),
        ("add a task to check the favicon", page("task_row", tasks, **keyword),
         [route_json("crud", operation="create", title="Check the favicon")]),
        ("mark the login fix done", page("workbench", tasks, **keyword),
         [route_json("crud", operation="update", status="done", scope="selected", expected_title="Fix login page")]),
        ("hmm", page("task_row", tasks, **keyword), [route_json("crud", confidence=0.2)]),
        ("do it", page("sidebar", tasks, **keyword), ["{not json"]),
        ("delete the footer task", page("quick_button", tasks, selectedEntity={"type": "task", "id": tasks[2].pk}),
         [route_json("crud", operation="delete", scope="selected", expected_title="Polish the header")]),
        ("what do these say?", page("sidebar", tasks, filters={"assignee": "me"}, **keyword,
                                    visibleEntityIds=[t.pk for t in tasks if t != tasks[2]]),
         [route_json("query", assignee_me=True), ("outline", {}), "Twelve tasks are about the tank."]),
    ]
    runs = []
    for message, context, answers in scenarios:
        for answer in answers:
            if isinstance(answer, tuple):
                stub.push_tool_call(*answer)
            elif isinstance(answer, dict):
                stub.push_json(answer)
            elif answer.startswith("{"):
                stub.push_malformed(answer)
            else:
                stub.push_text(answer)
        body = client.post("/api/assistant/requests/", {"message": message, "page_context": context},
                           format="json").json()
        assert body.get("status") not in (None, "error"), body
        runs.append(body)
        if body["status"] == "needs_confirmation":
            done = client.post(f"/api/assistant/runs/{body['run_id']}/confirm/", {"decision": "approve"},
                               format="json").json()
            assert done["status"] == "done", done
    # "mark the login fix done" names its task by a description the reader cannot check: a card first.
    assert [r["status"] for r in runs] == ["done", "done", "needs_confirmation", "needs_clarification",
                                           "needs_clarification", "needs_confirmation", "done"]
    assert runs[-1]["data"]["artifact"] and TraceEvent.objects.filter(name="inspect_outline").exists()
    assert not Task.objects.filter(pk=tasks[2].pk).exists()
    stub.assert_all_consumed()
    recorded = [m["content"] for e in TraceEvent.objects.filter(kind=TraceEvent.Kind.LLM_CALL)
                for m in e.payload["messages"]]
    sent = [m["content"] for r in stub.requests for m in r.body["messages"]]
    assert len(TraceEvent.objects.filter(kind=TraceEvent.Kind.LLM_CALL)) == 10 == len(stub.requests)
    assert sorted(recorded) == sorted(sent)
    yield recorded


def test_no_page_id_in_any_prompt(prompts: list[str], tasks: list[Task]) -> None:
    ids = {t.pk for t in tasks}
    for text in prompts:
        numbers = {int(n) for n in re.findall(r"\d+", text)}
        assert not numbers & ids, f"page id in a prompt: {text}"


def test_no_origin_in_any_prompt(prompts: list[str]) -> None:
    for text in prompts:
        for word in ORIGIN_WORDS:
            assert word not in text.lower(), f"{word!r} in a prompt: {text}"


def test_no_raw_context_in_any_prompt(prompts: list[str]) -> None:
    for text in prompts:
        assert '{"' not in text and "':" not in text, text
        for key in CONTEXT_KEYS:
            assert key not in text, f"{key!r} in a prompt: {text}"
        for exec_only in ("zebrafish", "pageSize", "40 per page"):
            assert exec_only not in text, f"{exec_only!r} in a prompt: {text}"


def test_prompts_do_carry_the_page_in_words(prompts: list[str]) -> None:
    """The checks above pass on prompts that describe the page, not on empty ones."""
    joined = "\n".join(prompts)
    assert "Page: the task list." in joined and "Website Redesign" in joined and "Fix login page" in joined
